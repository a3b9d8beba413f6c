// An independent MCP client for the end-to-end test: the official
// TypeScript SDK spawns `procs mcp --start` over stdio in a project folder,
// as an AI agent's client would, drives it, and prints what it saw as one
// JSON object on stdout.
//
// usage: node client.mjs PROCS_BINARY PROJECT_DIR
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [procsBinary, projectDir] = process.argv.slice(2);
if (!procsBinary || !projectDir) {
  console.error("usage: node client.mjs PROCS_BINARY PROJECT_DIR");
  process.exit(2);
}

const transport = new StdioClientTransport({
  command: procsBinary,
  args: ["mcp", "--start"],
  cwd: projectDir,
  env: process.env, // the test's environment, not the SDK's short safe list
  stderr: "inherit",
});
const client = new Client({ name: "procs-e2e", version: "1.0.0" });
await client.connect(transport);

// call calls a tool; the SDK checks structured content against the tool's
// output schema and throws on a protocol error.
async function call(name, args) {
  const started = performance.now();
  const res = await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 });
  return {
    isError: Boolean(res.isError),
    structured: res.structuredContent ?? null,
    text: res.content.filter((c) => c.type === "text").map((c) => c.text).join("\n"),
    ms: Math.round(performance.now() - started),
  };
}

const out = {};
out.server = client.getServerVersion();
out.tools = (await client.listTools()).tools.map((t) => ({
  name: t.name,
  description: t.description,
  hasInputSchema: Boolean(t.inputSchema),
  hasOutputSchema: Boolean(t.outputSchema),
}));
out.templates = (await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate);
out.waitWeb = await call("wait_for_ready", { name: "web", timeout: "60s" });
out.restartWeb = await call("restart_process", { name: "web" });
out.restartFlaky = await call("restart_process", { name: "flaky" });
out.unknown = await call("restart_process", { name: "nope" });
out.webLog = (await client.readResource({ uri: "procs://logs/web" })).contents[0].text;
out.down = await call("down", {});
out.afterDown = await call("list_processes", {});
await client.close();
console.log(JSON.stringify(out));

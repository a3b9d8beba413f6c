#!/usr/bin/env python3
"""A stand-in for agent CLIs in their JSON modes, for procs' tests.

It prints the message shapes the CLIs' documentation gives, nothing more:
  claude  -- Claude Code -p --input-format stream-json --output-format
             stream-json (https://docs.claude.com/en/docs/claude-code/sdk/sdk-headless,
             "Streaming JSON output/input"): system/init, assistant messages
             with text and tool_use, user tool_result, one result per prompt
             with total_cost_usd and usage, what the session spent so far;
             a control_request can_use_tool
             when a prompt says "perm", answered with a control_response.
             Each run is a new session (s-1, s-2, ...), unless --continue
             (-c) or --resume ID resumes one. As Claude Code 2.1.197 does,
             the folder keeps its last session and what it had spent
             (standin-session.json here), and resuming that session starts
             from what it had spent: its results count on from there.
  codex   -- codex exec --json (https://developers.openai.com/codex/noninteractive):
             thread.started, turn.started, items, turn.completed.
  claude-fail -- one prompt that ends in an error result, exit 1.
  claude-oneshot -- claude -p "PROMPT" --output-format stream-json: init,
             then (once the file go exists) its one result, exit 0.
  claude-mcp -- claude as above, but asking permission as Claude Code does
             with --permission-prompt-tool mcp__SERVER__TOOL and
             --mcp-config FILE: it starts the MCP server FILE names (with its
             own environment, as Claude Code 2.1.197 does), speaks MCP to it
             on stdio (https://modelcontextprotocol.io/specification,
             "Transports: stdio") and calls TOOL with {tool_name, input,
             tool_use_id}; the first content block of the result is a text
             holding {"behavior":"allow","updatedInput":{...}} or
             {"behavior":"deny","message":"..."} (the schema of Claude Code
             2.1.197's permission prompt tool). A prompt with "drop" hangs up
             on the server while it waits, once the file drop-now exists, and
             ends its turn once the file after-drop exists.
"""
import json
import os
import subprocess
import sys
import time


def out(msg):
    print(json.dumps(msg), flush=True)


# What the session has spent so far: Claude Code's results report it, not
# what each prompt cost (rules/agentstream Protocol.SessionTotals says where
# that is written); each prompt here costs $0.25, 100 tokens in, 10 out.
spent = {"cost": 0.0, "input": 0, "output": 0}
session = {"id": ""}

# The folder's last session and what it had spent, and how many new
# sessions "claude" started in it.
SESSION_FILE = "standin-session.json"
COUNT_FILE = "standin-sessions"


def keep_session():
    with open(SESSION_FILE, "w") as f:
        json.dump(dict(spent, id=session["id"]), f)


def start(session_id, model="stand-in", **init):
    session["id"] = session_id
    keep_session()
    out(dict({"type": "system", "subtype": "init", "session_id": session_id, "model": model}, **init))


def claude_session(args):
    """The session a claude run is: a new one, or the one it resumes."""
    last = None
    if os.path.exists(SESSION_FILE):
        with open(SESSION_FILE) as f:
            last = json.load(f)
    resume = None
    if "--continue" in args or "-c" in args:
        resume = last["id"] if last else None
    elif "--resume" in args:
        resume = args[args.index("--resume") + 1]
    if resume is not None:
        if last and last["id"] == resume:
            spent.update({k: last[k] for k in spent})
        return resume
    count = 0
    if os.path.exists(COUNT_FILE):
        with open(COUNT_FILE) as f:
            count = int(f.read())
    with open(COUNT_FILE, "w") as f:
        f.write(str(count + 1))
    return "s-%d" % (count + 1)


def result(text, is_error=False):
    spent["cost"] += 0.25
    spent["input"] += 100
    spent["output"] += 10
    keep_session()
    out({"type": "result", "subtype": "success", "is_error": is_error, "duration_ms": 5,
         "num_turns": 1, "result": text, "session_id": session["id"], "total_cost_usd": spent["cost"],
         "usage": {"input_tokens": spent["input"], "output_tokens": spent["output"],
                   "cache_read_input_tokens": 0, "cache_creation_input_tokens": 0}})


def claude(args):
    start(claude_session(args), tools=["Bash"])
    for line in sys.stdin:
        msg = json.loads(line)
        if msg.get("type") != "user":
            continue
        text = msg["message"]["content"]
        if "perm" in text:
            out({"type": "assistant", "message": {"role": "assistant", "content": [
                {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "rm -rf build"}}]}, "session_id": session["id"]})
            out({"type": "control_request", "request_id": "r1", "request": {
                "subtype": "can_use_tool", "tool_name": "Bash", "input": {"command": "rm -rf build"}}})
            answer = json.loads(sys.stdin.readline())
            behavior = answer["response"]["response"]["behavior"]
            out({"type": "user", "message": {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": "t1", "content": "permission: " + behavior}]}, "session_id": session["id"]})
            result("the tool was " + behavior + "ed")
        elif "fail" in text:
            result("API Error: 500 overloaded", is_error=True)
        else:
            out({"type": "assistant", "message": {"role": "assistant", "content": [
                {"type": "text", "text": "echo: " + text}]}, "session_id": session["id"]})
            result("echo: " + text)


def codex(prompt):
    out({"type": "thread.started", "thread_id": "th-1"})
    out({"type": "turn.started"})
    out({"type": "item.started", "item": {"id": "item_1", "type": "command_execution", "command": "bash -lc ls", "status": "in_progress"}})
    out({"type": "item.completed", "item": {"id": "item_1", "type": "command_execution", "command": "bash -lc ls",
                                             "aggregated_output": "a.go\n", "exit_code": 0, "status": "completed"}})
    out({"type": "item.completed", "item": {"id": "item_2", "type": "agent_message", "text": "Summary: " + prompt}})
    out({"type": "turn.completed", "usage": {"input_tokens": 1200, "cached_input_tokens": 200, "output_tokens": 34}})


class MCPClient:
    """A client of an MCP server over stdio: newline-delimited JSON-RPC."""

    def __init__(self, config_file, server):
        with open(config_file) as f:
            spec = json.load(f)["mcpServers"][server]
        self.proc = subprocess.Popen([spec["command"]] + spec.get("args", []), stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, env=os.environ.copy(), text=True)
        self.next_id = 0
        self.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                    "clientInfo": {"name": "claude-standin", "version": "0"}})
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def send(self, msg):
        self.proc.stdin.write(json.dumps(msg) + "\n")
        self.proc.stdin.flush()

    def request(self, method, params):
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        return self.answer(self.next_id)

    def answer(self, want):
        for line in self.proc.stdout:
            msg = json.loads(line)
            if msg.get("id") == want:
                return msg
        return None

    def hang_up(self):
        self.proc.stdin.close()
        self.proc.kill()
        self.proc.wait()


def claude_mcp(args):
    config = args[args.index("--mcp-config") + 1]
    _, server, tool = args[args.index("--permission-prompt-tool") + 1].split("__", 2)
    client = MCPClient(config, server)
    start("s-mcp", tools=["Bash"])
    for line in sys.stdin:
        msg = json.loads(line)
        if msg.get("type") != "user":
            continue
        text = msg["message"]["content"]
        out({"type": "assistant", "message": {"role": "assistant", "content": [
            {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "rm -rf build"}}]}, "session_id": session["id"]})
        call = {"name": tool, "arguments": {"tool_name": "Bash", "input": {"command": "rm -rf build"}, "tool_use_id": "t1"}}
        if "drop" in text:
            client.next_id += 1
            client.send({"jsonrpc": "2.0", "id": client.next_id, "method": "tools/call", "params": call})
            while not os.path.exists("drop-now"):
                time.sleep(0.05)
            client.hang_up()
            while not os.path.exists("after-drop"):
                time.sleep(0.05)
            result("the permission prompt tool went away")
            client = MCPClient(config, server)
            continue
        answer = client.request("tools/call", call)
        decision = json.loads(answer["result"]["content"][0]["text"])
        if decision["behavior"] == "allow":
            said = "allowed with " + json.dumps(decision["updatedInput"])
        else:
            said = "denied: " + decision["message"]
        out({"type": "user", "message": {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "t1", "content": "permission " + said}]}, "session_id": session["id"]})
        result("the tool was " + said)


def claude_oneshot(prompt):
    start("s-oneshot")
    while not os.path.exists("go"):
        time.sleep(0.05)
    result("did: " + prompt)


def claude_fail():
    start("s-fail")
    result("Not logged in · Please run /login", is_error=True)
    sys.exit(1)


if __name__ == "__main__":
    mode = sys.argv[1]
    if mode == "claude":
        claude(sys.argv[2:])
    elif mode == "codex":
        codex(sys.argv[2])
    elif mode == "claude-mcp":
        claude_mcp(sys.argv[2:])
    elif mode == "claude-fail":
        claude_fail()
    elif mode == "claude-oneshot":
        claude_oneshot(sys.argv[2])

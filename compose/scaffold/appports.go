package scaffold

import (
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/joho/godotenv"
	"github.com/procsdev/procs/internal/lazyregexp"
)

// appKinds are the kinds of apps whose port the project itself may set.
var appKinds = []string{"node", "django", "fastapi", "flask", "rails", "phoenix", "laravel", "go", "hugo"}

// portPattern finds a port in a file, and says whether the program follows
// PORT (movable) when it is found this way.
type portPattern struct {
	re      *lazyregexp.Regexp
	movable bool
	what    string
}

var (
	// viteServerPort is server.port in vite.config.*; vite's --port beats it.
	viteServerPort = lazyregexp.New(`(?s)\bserver\s*:\s*\{[^{}]*?\bport\s*:\s*(\d{2,5})\b`)
	// sourcePorts are the ways a program names its port: a default for
	// PORT, then a port it listens on whatever PORT says.
	sourcePorts = []portPattern{
		{lazyregexp.New(`process\.env\.PORT\s*(?:\|\||\?\?)\s*['"]?(\d{2,5})\b`), true, "the default for PORT"},
		{lazyregexp.New(`(?:environ\.get|getenv)\(\s*["']PORT["']\s*,\s*["']?(\d{2,5})\b`), true, "the default for PORT"},
		{lazyregexp.New(`Getenv\("PORT"\)(?s:.{0,200}?)["']:?(\d{2,5})["']`), true, "the default for PORT"},
		{lazyregexp.New(`\.listen\(\s*(\d{2,5})\b`), false, "the port it listens on"},
		{lazyregexp.New(`ListenAndServe\(\s*"[^"]*:(\d{2,5})"`), false, "the port it listens on"},
		{lazyregexp.New(`(?i)\b\w*(?:addr|address|port)\w*\s*(?::=|=)\s*"[^"\s]*:(\d{2,5})"`), true, "the address it listens on by default"},
	}
	// sourceFiles are where a Node or Go server usually starts.
	sourceFiles = []string{"server.js", "index.js", "app.js", "main.js", "server.ts", "index.ts", "app.ts", "main.ts",
		"src/server.js", "src/index.js", "src/app.js", "src/main.js", "src/server.ts", "src/index.ts", "src/app.ts", "src/main.ts",
		"main.go", "server.go"}
	// scriptFile is the file a node, nodemon, tsx or ts-node script runs.
	scriptFile = lazyregexp.New(`(?:^|\s)(?:node|nodemon|tsx|ts-node|bun)(?:\s+watch)?(?:\s+-\S+)*\s+(\S+\.[cm]?[jt]s)\b`)
)

// applyProjectPorts gives each app the port its project sets, when its
// command does not name one: PORT in its .env, server.port of its
// vite.config, else the port its source defaults to. Services, tasks and
// Procfile lines keep theirs.
func (pl *plan) applyProjectPorts() {
	for _, p := range pl.procs {
		if p.task || p.portFixed || !slices.Contains(appKinds, p.kind) {
			continue
		}
		if p.port == 0 {
			for _, d := range toolPorts {
				if d.re.MatchString(p.script) || d.re.MatchString(p.commandLine()) {
					p.port, p.portNote, p.ownPort = d.port, d.what, d.port
				}
			}
		}
		port, note, movable := pl.projectPort(p)
		if port == 0 {
			continue
		}
		// A port the program listens on whatever PORT says cannot move.
		p.port, p.portNote, p.movable = port, note, movable
		if !strings.HasPrefix(note, "server.port") {
			p.ownPort = port // the project's own server: no preset flag to add
		}
	}
}

// projectPort is the port the files of p's project give it, where it was
// found, and whether the program follows PORT when moved.
func (pl *plan) projectPort(p *process) (int, string, bool) {
	dir := pl.abs(p.cwd)
	for _, name := range envFiles {
		if port, key, line := envSettingPort(filepath.Join(dir, name)); port != 0 {
			// PORT is what procs sets; another setting (HTTP_PORT,
			// SERVER_ADDRESS) stays where the file puts it.
			return port, fmt.Sprintf("%s in %s:%d", key, path.Join(p.cwd, name), line), key == "PORT"
		}
	}
	if port, note, movable := frameworkConfigPort(dir, p); port != 0 {
		return port, note, movable
	}
	if p.kind == "node" {
		for _, name := range []string{"vite.config.ts", "vite.config.js", "vite.config.mts", "vite.config.mjs"} {
			text := readAll(filepath.Join(dir, name))
			if m := viteServerPort.Regexp().FindStringSubmatchIndex(text); m != nil {
				port, _ := strconv.Atoi(text[m[2]:m[3]])
				p.ownPort = port // vite picks it without --port
				return port, fmt.Sprintf("server.port in %s:%d", path.Join(p.cwd, name), lineAt(text, m[2])), p.movable
			}
		}
	}
	if p.kind != "node" && p.kind != "go" {
		return 0, "", false
	}
	for _, file := range pl.sourceCandidates(p) {
		text := readAll(filepath.Join(dir, filepath.FromSlash(file)))
		for _, pat := range sourcePorts {
			if m := pat.re.Regexp().FindStringSubmatchIndex(text); m != nil {
				port, err := strconv.Atoi(text[m[2]:m[3]])
				if err == nil && port > 0 && port <= 65535 {
					return port, fmt.Sprintf("%s in %s:%d", pat.what, path.Join(p.cwd, file), lineAt(text, m[2])), pat.movable
				}
			}
		}
	}
	return 0, "", false
}

// toolPorts are the ports of dev servers no preset knows, that pick their
// own when the command names none.
var toolPorts = []struct {
	re   *lazyregexp.Regexp
	port int
	what string
}{
	{lazyregexp.New(`\b(expo|react-native)\s+start\b`), 8081, "Metro's default (expo start / react-native start)"},
}

// relativeImport matches an import of a file beside the one read:
// import './server/index.ts', import('./x.js'), require('./x').
var relativeImport = lazyregexp.New(`(?:import|require)\s*\(?\s*['"](\./[^'"]+\.[cm]?[jt]s)['"]`)

// sourceCandidates are the files that may start p's server: the one its
// script runs and the files it imports, the main package its go run
// names, its package.json main, then the usual names.
func (pl *plan) sourceCandidates(p *process) []string {
	var files []string
	if m := scriptFile.FindStringSubmatch(p.script); m != nil {
		file := strings.TrimPrefix(m[1], "./")
		files = append(files, file)
		for _, imp := range relativeImport.Regexp().FindAllStringSubmatch(readAll(filepath.Join(pl.abs(p.cwd), file)), -1) {
			files = append(files, path.Join(path.Dir(file), imp[1]))
		}
	}
	if target, ok := strings.CutPrefix(p.commandLine(), "go run ./"); ok && !strings.Contains(target, " ") {
		files = append(files, path.Join(target, "main.go"))
	}
	if p.pkg != nil && p.pkg.Main != "" {
		files = append(files, strings.TrimPrefix(p.pkg.Main, "./"))
	}
	return append(files, sourceFiles...)
}

// envFiles are the dotenv files whose settings a program reads, in the
// order they count: the developer's own, then the example the README
// says to copy.
var envFiles = []string{".env", ".env.local", ".env.development", ".env.example", ".env.sample", "example.env"}

// portSettings are the settings that name the port a program listens
// on: a port, or an address ending in one (SERVER_ADDRESS=:9090).
var portSettings = lazyregexp.New(`^(?:export\s+)?(PORT|HTTP_PORT|APP_PORT|SERVER_PORT|WEB_PORT|(?:SERVER|HTTP|LISTEN|APP)_?ADDR(?:ESS)?|ADDR)\s*=\s*["']?(?:[\w.-]*:)?(\d{2,5})["']?\s*$`)

// envSettingPort is the port a dotenv file sets, the setting that sets
// it and its line; 0 when it sets none.
func envSettingPort(file string) (port int, key string, line int) {
	for i, text := range strings.Split(readAll(file), "\n") {
		m := portSettings.FindStringSubmatch(strings.TrimSpace(text))
		if m == nil {
			continue
		}
		if n, err := strconv.Atoi(m[2]); err == nil && n > 0 && n <= 65535 {
			return n, m[1], i + 1
		}
	}
	return 0, "", 0
}

// railsPumaPort is the port config/puma.rb gives: `port ENV.fetch("PORT")
// { 3000 }`, `port ENV.fetch("PORT", 3000)` or `port 3000`.
var railsPumaPort = lazyregexp.New(`(?m)^\s*port\s+(?:ENV\.fetch\(\s*["'](\w+)["']\s*(?:,\s*|\)\s*\{\s*))?["']?(\d{2,5})`)

// frameworkConfigPort is the port a framework's own config file sets for
// p: Rails' config/puma.rb.
func frameworkConfigPort(dir string, p *process) (int, string, bool) {
	if p.kind != "rails" && presetName(p) != "rails" {
		return 0, "", false
	}
	text := readAll(filepath.Join(dir, "config", "puma.rb"))
	m := railsPumaPort.Regexp().FindStringSubmatchIndex(text)
	if m == nil {
		return 0, "", false
	}
	port, err := strconv.Atoi(text[m[4]:m[5]])
	if err != nil || port < 1 || port > 65535 {
		return 0, "", false
	}
	readsPort := m[2] >= 0 && text[m[2]:m[3]] == "PORT"
	what := "the port it listens on"
	if readsPort {
		what = "the default for PORT"
	}
	return port, fmt.Sprintf("%s in %s:%d", what, path.Join(p.cwd, "config/puma.rb"), lineAt(text, m[4])), readsPort
}

// lineAt is the line number of byte offset i in text.
func lineAt(text string, i int) int { return strings.Count(text[:i], "\n") + 1 }

// envFilePort is PORT in a dotenv file, 0 when it sets none.
func envFilePort(file string) int {
	vars, err := godotenv.Read(file)
	if err != nil {
		return 0
	}
	port, err := strconv.Atoi(strings.TrimSpace(vars["PORT"]))
	if err != nil || port < 1 || port > 65535 {
		return 0
	}
	return port
}

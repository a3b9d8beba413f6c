package scaffold

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	frameworks "github.com/procsdev/procs/builtin-frameworks"
	"github.com/procsdev/procs/compose/config"

	"github.com/procsdev/procs/internal/lazyregexp"
)

// addProcfile adds a process for each line of the Procfile, as procs up
// would run it: the command as written (the shell expands its variables)
// and foreman's PORT for the commands that read it. It reports whether
// there is a Procfile; a broken one is an error (config.ConfigErrors).
func (pl *plan) addProcfile() (bool, error) {
	// Procfile.dev is what a developer runs (Rails 7's bin/dev); a Procfile
	// beside it is for production.
	name := "Procfile.dev"
	data, err := os.ReadFile(filepath.Join(pl.dir, name))
	if errors.Is(err, fs.ErrNotExist) {
		name = "Procfile"
		data, err = os.ReadFile(filepath.Join(pl.dir, name))
	}
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("read %s: %w", name, err)
	}
	entries, err := config.ParseProcfile(filepath.Join(pl.dir, name), data)
	if err != nil {
		return false, err
	}
	// foreman counts the lines' ports from PORT in .env when it sets one.
	envPort := envFilePort(filepath.Join(pl.dir, ".env"))
	var release string
	for _, e := range entries {
		command := config.QuoteExpansion(e.Command)
		p := &process{
			name:   e.Name,
			run:    func(int) runs { return runs{command: command} },
			source: fmt.Sprintf("%s line %d", name, e.Line),
		}
		if e.Name == "release" {
			// Heroku runs release: before the app starts, once per deploy.
			p.task, p.tier = true, tierBackEnd
			pl.add(p)
			release = p.name
			continue
		}
		if e.Port != 0 {
			// The command reads $PORT, which procs sets from port.
			p.port, p.portNote, p.movable = procfilePort(e.Port, envPort), "foreman's PORT for this line", true
			if envPort != 0 {
				p.portNote = "foreman's PORT for this line, from PORT in .env"
			}
		} else if port, flag := commandPort(command); port != 0 {
			p.port, p.portNote = port, "from "+flag+" in the command"
		}
		if name == "Procfile" && e.Name == "web" && deployCommand.MatchString(command) {
			// A production server (gunicorn, start:prod): the project's
			// dev command, found with the other files, runs instead.
			pl.deployWeb = p
			continue
		}
		pl.detect(p)
		if p.port == 0 && p.preset != nil && p.preset.Category == frameworks.CategoryDevServer && p.preset.DefaultPort != 0 {
			// The server picks its own port: its config file's (puma.rb),
			// else the preset's default (rails 3000).
			p.port, p.portNote = p.preset.DefaultPort, p.preset.Name+"'s default (the command names no port)"
			if port, note, _ := frameworkConfigPort(pl.dir, p); port != 0 {
				p.port, p.portNote = port, note
			}
		}
		pl.add(p)
	}
	if release != "" {
		pl.release = release
		// Heroku releases before the web starts; workers need no release.
		if web := pl.find("web"); web != nil {
			web.taskDeps = append(web.taskDeps, release)
		}
	}
	return pl.deployWeb == nil, nil
}

// deployCommand matches a web line that runs a production build or server
// (node dist/main, start:prod, gunicorn, NODE_ENV=production): a Procfile
// for deployment, not what a developer runs.
var deployCommand = lazyregexp.New(`start:prod|\bnode\s+(\S*/)?(dist|build)/|\bgunicorn\b|\bwaitress-serve\b|heroku-php-|(NODE|RAILS|APP)_ENV=production|\bjava\s+-jar\b|\bpuma\s+-C\b`)

// restoreDeployWeb adds back a deployment Procfile's web line when no dev
// command was found in its place: an app found from index from on, or a
// compose service built from source.
func (pl *plan) restoreDeployWeb(from int) {
	if pl.deployWeb == nil {
		return
	}
	for i, p := range pl.procs {
		if (i >= from || p.fromCompose) && !p.task && p.kind != "build" && p.tier != tierService {
			pl.skip("%s: runs %q, for deployment; %s is the dev command", pl.deployWeb.source, pl.deployWeb.commandLine(), p.name)
			return
		}
	}
	pl.detect(pl.deployWeb)
	pl.add(pl.deployWeb)
	if pl.release != "" {
		pl.deployWeb.taskDeps = append(pl.deployWeb.taskDeps, pl.release)
	}
}

// procfilePort is the port foreman gives a Procfile line: config counts
// from foreman's default base, 5000; a PORT in .env is the base instead.
func procfilePort(port, envBase int) int {
	const defaultBase = 5000
	if envBase == 0 {
		return port
	}
	if moved := envBase + port - defaultBase; moved <= 65535 {
		return moved
	}
	return port
}

// portFlag finds the port a server command line names: gunicorn's -b/--bind
// HOST:PORT, or -p/--port PORT (puma, rails server, uvicorn).
var portFlag = lazyregexp.New(`(?:^|\s)(-b|--bind|-p|--port)[ =](?:\S*:)?(\d{2,5})(?:\s|$)`)

// commandPort returns the port named in command and the flag naming it.
func commandPort(command string) (int, string) {
	m := portFlag.FindStringSubmatch(command)
	if m == nil {
		return 0, ""
	}
	port, err := strconv.Atoi(m[2])
	if err != nil || port < 1 || port > 65535 {
		return 0, ""
	}
	return port, m[1]
}

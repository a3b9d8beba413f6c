package scaffold

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

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
		pl.detect(p)
		pl.add(p)
	}
	if release != "" {
		for _, p := range pl.procs {
			if !p.task && p.tier != tierService {
				p.taskDeps = append(p.taskDeps, release)
			}
		}
	}
	return true, nil
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

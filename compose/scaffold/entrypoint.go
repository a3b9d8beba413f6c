package scaffold

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/procsdev/procs/internal/lazyregexp"
)

// setupScript is what a container's entrypoint script runs before it
// hands over to the command, and where that was read.
type setupScript struct {
	command string
	source  string
}

var (
	// execArgs matches the line of an entrypoint that runs the command it
	// was given.
	execArgs = lazyregexp.New(`^exec\s+"?\$(@|\*)"?\s*$`)
	// shellOnly matches the lines of a script that only wait, print or set
	// up the shell, not steps to run here.
	shellOnly = lazyregexp.New(`^(#|if\b|then\b|else\b|elif\b|fi\b|while\b|until\b|do\b|done\b|for\b|case\b|esac\b|echo\b|printf\b|sleep\b|set\b|export\b|cd\b|\[|\]|\}|\{|;;|[A-Za-z_][A-Za-z0-9_]*=|trap\b|nc\b|wait\b|true\b|:)`)
)

// entrypointSetup reads the ENTRYPOINT script of the service's Dockerfile,
// found in the build context by its name, and returns the commands it runs
// before `exec "$@"` (create the database, migrate): a one-shot step the
// app waits for.
func (pl *plan) entrypointSetup(cwd, dockerfile string) setupScript {
	_, entrypoint := dockerfileRuns(readAll(filepath.Join(pl.abs(cwd), filepath.FromSlash(dockerfile))))
	words := strings.Fields(entrypoint)
	if len(words) == 0 {
		return setupScript{}
	}
	script := strings.Trim(words[len(words)-1], `'"`)
	rel := path.Base(script)
	text := readAll(filepath.Join(pl.abs(cwd), rel))
	if text == "" {
		return setupScript{}
	}
	var steps []string
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if execArgs.MatchString(line) {
			if len(steps) == 0 {
				return setupScript{}
			}
			return setupScript{command: strings.Join(steps, " && "),
				source: fmt.Sprintf("%s, the ENTRYPOINT of %s, before the command", path.Join(cwd, rel), path.Join(cwd, dockerfile))}
		}
		if line != "" && !shellOnly.MatchString(line) {
			steps = append(steps, line)
		}
	}
	return setupScript{} // it never hands over: not an entrypoint of this kind
}

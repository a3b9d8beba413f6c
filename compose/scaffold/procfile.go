package scaffold

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/procsdev/procs/compose/config"
)

// addProcfile adds a process for each line of the Procfile, as procs up
// would run it: the command as written (the shell expands its variables)
// and foreman's PORT for the commands that read it. It reports whether
// there is a Procfile; a broken one is an error (config.ConfigErrors).
func (pl *plan) addProcfile() (bool, error) {
	data, err := os.ReadFile(filepath.Join(pl.dir, "Procfile"))
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("read Procfile: %w", err)
	}
	entries, err := config.ParseProcfile(filepath.Join(pl.dir, "Procfile"), data)
	if err != nil {
		return false, err
	}
	for _, e := range entries {
		command := config.QuoteExpansion(e.Command)
		p := &process{
			name:   e.Name,
			run:    func(int) runs { return runs{command: command} },
			source: fmt.Sprintf("Procfile line %d", e.Line),
		}
		if e.Port != 0 {
			// The command reads $PORT, which procs sets from port.
			p.port, p.portNote, p.movable = e.Port, "foreman's PORT for this line", true
		}
		pl.detect(p)
		pl.add(p)
	}
	return true, nil
}

package control

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPIDFileHoldsOnlyThePIDOfTheHolder(t *testing.T) {
	for name, before := range map[string]string{
		"new file":                        "",
		"a longer pid a dead procs left":  "4194304\n",
		"garbage longer than any pid":     "not a pid at all, and long\n",
		"a shorter pid a dead procs left": "7\n",
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), pidFileName)
			if before != "" {
				require.NoError(t, os.WriteFile(path, []byte(before), 0o644))
			}
			lock, err := lockPIDFile(path)
			require.NoError(t, err)
			require.NoError(t, lock.write(123456))
			data, err := os.ReadFile(path)
			require.NoError(t, err)
			assert.Equal(t, strconv.Itoa(123456)+"\n", string(data))
			assert.Equal(t, 123456, readPID(path))
			require.NoError(t, lock.release())
			assert.NoFileExists(t, path)
		})
	}
}

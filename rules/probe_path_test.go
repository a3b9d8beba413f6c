//go:build unix

package rules

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An exec probe's program is found in the PATH of the probe's environment
// (the run's, with its env: PATH), as the run's own shell would find it,
// not in procs' PATH; sh, for a shell string, is procs' own.
func TestExecProbeFindsItsProgramInItsOwnPATH(t *testing.T) {
	work := t.TempDir()
	bin := filepath.Join(t.TempDir(), "bin")
	require.NoError(t, os.MkdirAll(bin, 0o755))
	check := "#!/bin/sh\necho checked from \"$PWD\" >&2\nexit \"${CHECK_EXIT:-0}\"\n"
	require.NoError(t, os.WriteFile(filepath.Join(bin, "mycheck"), []byte(check), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(work, "localcheck"), []byte(check), 0o755))
	tests := []struct {
		name    string
		argv    []string
		env     []string
		wantOK  bool
		wantErr string
	}{
		{"found in the probe's PATH", []string{"mycheck"}, []string{"PATH=" + bin + ":/usr/bin:/bin"}, true, ""},
		{"its exit is the probe's", []string{"mycheck"}, []string{"PATH=" + bin, "CHECK_EXIT=3"}, false, "exit status 3: checked from " + work},
		{"an empty PATH element is the probe's folder", []string{"localcheck"}, []string{"PATH=/nowhere:"}, true, ""},
		{"a name with a slash is in the probe's folder", []string{"./localcheck"}, []string{"PATH=" + bin}, true, ""},
		{"a shell string runs procs' sh", []string{"sh", "-c", "mycheck"}, []string{"PATH=" + bin}, true, ""},
		{"not found says which PATH", []string{"mycheck"}, []string{"PATH=/nowhere:/usr/bin"},
			false, `exec probe mycheck: "mycheck" not found in the process's PATH (/nowhere:/usr/bin)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Probe(context.Background(), ProbeSpec{Kind: ProbeExec, Argv: tt.argv, Env: tt.env, Dir: work})
			assert.Equal(t, tt.wantOK, r.OK, "%+v", r)
			if tt.wantErr == "" {
				assert.Empty(t, r.Err)
			} else {
				assert.Contains(t, r.Err, tt.wantErr)
			}
		})
	}
}

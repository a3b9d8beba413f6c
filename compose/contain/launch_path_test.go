//go:build unix

package contain

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// launchOutput launches spec and returns what it printed on stdout, or
// the launch's error.
func launchOutput(t *testing.T, spec Spec) (string, error) {
	t.Helper()
	spec.NoInput = true
	p, err := launch(spec)
	if err != nil {
		return "", err
	}
	defer p.CloseIO()
	out, err := io.ReadAll(p.Outputs()[0].Reader)
	require.NoError(t, err)
	exit := p.Wait()
	require.Equal(t, 0, exit.Code, "%+v", exit)
	return strings.TrimSpace(string(out)), nil
}

// A command without a shell is found in the PATH of the run's own
// environment (its env: PATH), as its shell would find it; a shell string
// is run by procs' sh, which then searches that PATH itself.
func TestLaunchFindsTheProgramInTheRunsPATH(t *testing.T) {
	work := t.TempDir()
	bin := filepath.Join(t.TempDir(), "bin")
	require.NoError(t, os.MkdirAll(bin, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(bin, "mytool"), []byte("#!/bin/sh\necho hello from mytool\n"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(work, "localtool"), []byte("#!/bin/sh\necho hello from localtool\n"), 0o755))
	tests := []struct {
		name string
		argv []string
		path string
		want string
	}{
		{"a program of the run's PATH", []string{"mytool"}, bin + ":/usr/bin:/bin", "hello from mytool"},
		{"a shell string, its PATH without sh", []string{"sh", "-c", "mytool"}, bin, "hello from mytool"},
		{"an empty element is the run's folder", []string{"localtool"}, bin + ":", "hello from localtool"},
		{"a name with a slash is in the run's folder", []string{"./localtool"}, bin, "hello from localtool"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := launchOutput(t, Spec{Argv: tt.argv, Dir: work, Env: []string{"PATH=" + tt.path}})
			require.NoError(t, err)
			assert.Equal(t, tt.want, out)
		})
	}
	_, err := launchOutput(t, Spec{Argv: []string{"mytool"}, Dir: work, Env: []string{"PATH=/nowhere:/usr/bin"}})
	require.Error(t, err)
	assert.Equal(t, `"mytool" not found in the process's PATH (/nowhere:/usr/bin)`, err.Error())
}

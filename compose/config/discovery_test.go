package config

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDiscoveryOrder: in a folder procs reads procs.yaml or procs.yml,
// else Procfile.dev, else Procfile; in a folder above, procs.yaml or
// procs.yml.
func TestDiscoveryOrder(t *testing.T) {
	files := map[string]string{
		"procs.yml":    "procs:\n  yml: {command: x}\n",
		"Procfile.dev": "dev: x\n",
		"Procfile":     "prod: x\n",
	}
	cases := []struct {
		present []string
		want    string
	}{
		{[]string{"procs.yml", "Procfile.dev", "Procfile"}, "yml"},
		{[]string{"Procfile.dev", "Procfile"}, "dev"},
		{[]string{"Procfile"}, "prod"},
	}
	for _, tc := range cases {
		dir := t.TempDir()
		for _, name := range tc.present {
			require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(files[name]), 0o644))
		}
		cfg, err := Load(LoadOptions{Dir: dir, Environ: []string{}})
		require.NoError(t, err, tc.present)
		assert.Equal(t, []string{tc.want}, cfg.Names(), tc.present)
	}

	above := writeProject(t, map[string]string{"procs.yml": files["procs.yml"]})
	below := filepath.Join(above, "sub")
	require.NoError(t, os.Mkdir(below, 0o755))
	cfg, err := Load(LoadOptions{Dir: below, Environ: []string{}})
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(above, "procs.yml"), cfg.File, "procs.yml in a folder above")
}

// TestDiscoveryRefusesTwoYAMLFiles: procs.yaml beside procs.yml is an
// error naming both, here and in a folder above; not a silent pick.
func TestDiscoveryRefusesTwoYAMLFiles(t *testing.T) {
	dir := writeProject(t, map[string]string{
		"procs.yaml": "procs:\n  a: {command: x}\n",
		"procs.yml":  "procs:\n  b: {command: x}\n",
	})
	_, err := Load(LoadOptions{Dir: dir, Environ: []string{}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "both procs.yaml and procs.yml are in "+dir+": keep one")

	below := filepath.Join(dir, "sub")
	require.NoError(t, os.Mkdir(below, 0o755))
	_, err = Load(LoadOptions{Dir: below, Environ: []string{}})
	assert.ErrorContains(t, err, "both procs.yaml and procs.yml")

	cfg, err := Load(LoadOptions{File: filepath.Join(dir, "procs.yml"), Environ: []string{}})
	require.NoError(t, err, "-f picks one")
	assert.Equal(t, []string{"b"}, cfg.Names())
}

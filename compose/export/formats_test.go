package export_test

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/compose/export"
	"github.com/procsdev/procs/compose/export/dockercompose"
	"github.com/procsdev/procs/compose/export/kube"
	"github.com/procsdev/procs/compose/export/systemd"
	"github.com/procsdev/procs/internal/testenv"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// formats are the formats under test.
var formats = []export.Format{systemd.Format{}, dockercompose.Format{}, kube.Format{}}

// projects are the configs every format is exported from and checked by
// the real tools: the fixture that uses every mapped key, the demo, and
// two examples.
var projects = map[string]string{
	"everything": "testdata/everything/procs.yaml",
	"demo":       "../../procs.yaml",
	"fullstack":  "../../examples/fullstack/procs.yaml",
	"node":       "../../examples/node/procs.yaml",
}

// load loads a procs.yaml as procs export does, with no variables from
// the environment of the test.
func load(t *testing.T, file string) *config.Config {
	t.Helper()
	cfg, err := config.Load(config.LoadOptions{File: file, Environ: []string{}})
	require.NoError(t, err)
	return cfg
}

// exportTo exports cfg in f, as to standard output (paths relative to the
// folder of procs.yaml), and writes the files to a new folder, which it
// returns with the output.
func exportTo(t *testing.T, cfg *config.Config, f export.Format) (string, *export.Output) {
	t.Helper()
	dir := t.TempDir()
	p, err := export.New(cfg, export.Options{})
	require.NoError(t, err)
	out, err := f.Export(p)
	require.NoError(t, err)
	for _, file := range out.Files {
		path := filepath.Join(dir, filepath.FromSlash(file.Name))
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, file.Data, 0o644))
	}
	return dir, out
}

// TestGolden checks each format's output for the fixture that uses every
// key export maps, its folder written $DIR; -update rewrites it.
func TestGolden(t *testing.T) {
	cfg := load(t, projects["everything"])
	for _, f := range formats {
		t.Run(f.Name(), func(t *testing.T) {
			_, out := exportTo(t, cfg, f)
			var b strings.Builder
			for _, file := range out.Files {
				b.WriteString("==> " + file.Name + " <==\n")
				b.Write(file.Data)
			}
			b.WriteString("==> warnings <==\n")
			for _, w := range out.Warnings {
				b.WriteString(w.String() + "\n")
			}
			got := strings.ReplaceAll(b.String(), cfg.Dir, "$DIR")
			golden := filepath.Join("testdata", f.Name()+".golden")
			if *update {
				require.NoError(t, os.WriteFile(golden, []byte(got), 0o644))
				return
			}
			want, err := os.ReadFile(golden)
			require.NoError(t, err)
			assert.Equal(t, string(want), got, "run go test ./compose/export -update if the change is meant")
		})
	}
}

// TestSystemdAnalyzeVerify has systemd check the units of every project.
func TestSystemdAnalyzeVerify(t *testing.T) {
	analyze := testenv.LookPath(t, "systemd-analyze")
	for name, file := range projects {
		t.Run(name, func(t *testing.T) {
			dir, out := exportTo(t, load(t, file), systemd.Format{})
			args := []string{"verify", "--man=no"}
			for _, f := range out.Files {
				if !strings.Contains(f.Name, "/") {
					args = append(args, filepath.Join(dir, f.Name))
				}
				// An instance of a template unit, with its drop-in.
				if instance, ok := strings.CutSuffix(f.Name, ".d/port.conf"); ok {
					args = append(args, filepath.Join(dir, instance))
				}
			}
			cmd := exec.Command(analyze, args...)
			cmd.Dir = dir
			output, err := cmd.CombinedOutput()
			require.NoError(t, err, "systemd-analyze verify:\n%s", output)
			assert.Empty(t, strings.TrimSpace(string(output)), "systemd-analyze verify has something to say")
		})
	}
}

// TestDockerComposeConfig has docker-compose load the compose file of
// every project, from the folder of its procs.yaml as the file says.
func TestDockerComposeConfig(t *testing.T) {
	compose := testenv.LookPath(t, "docker-compose")
	for name, file := range projects {
		t.Run(name, func(t *testing.T) {
			cfg := load(t, file)
			dir, _ := exportTo(t, cfg, dockercompose.Format{})
			cmd := exec.Command(compose, "-f", filepath.Join(dir, "compose.yaml"), "--project-directory", cfg.Dir, "config", "-q")
			cmd.Dir = dir
			output, err := cmd.CombinedOutput()
			require.NoError(t, err, "docker-compose config:\n%s", output)
			assert.Empty(t, strings.TrimSpace(string(output)), "docker-compose config has something to say")
		})
	}
}

package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	frameworks "github.com/procsdev/procs/builtin-frameworks"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseProcfile(t *testing.T) {
	file := filepath.Join("testdata", "procfile", "good", "Procfile")
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	entries, err := ParseProcfile(file, data)
	require.NoError(t, err)
	assert.Equal(t, []ProcfileEntry{
		{Name: "web", Command: "python3 -m http.server $PORT", Line: 3, NameCol: 1, CommandCol: 6, Port: 5000},
		{Name: "worker", Command: "bundle exec sidekiq -c ${CONCURRENCY:-2}", Line: 5, NameCol: 1, CommandCol: 11},
		{Name: "api_v2", Command: `echo "ready: yes" && echo $$ && PORT=${PORT} ./api`, Line: 6, NameCol: 1, CommandCol: 9, Port: 5200},
		{Name: "clock-1", Command: "echo tick", Line: 7, NameCol: 1, CommandCol: 9},
	}, entries, "ports follow foreman: 5000 + 100 per process before, for commands that read $PORT")
}

func TestParseProcfileLineEndings(t *testing.T) {
	entries, err := ParseProcfile("Procfile", []byte("\xef\xbb\xbfweb: npm start\r\n\r\n\tworker:\tnode w.js\r\n"))
	require.NoError(t, err)
	assert.Equal(t, []ProcfileEntry{
		{Name: "web", Command: "npm start", Line: 1, NameCol: 1, CommandCol: 6},
		{Name: "worker", Command: "node w.js", Line: 3, NameCol: 2, CommandCol: 10},
	}, entries, "a BOM, CRLF and tabs are not part of names or commands")
}

// TestBrokenProcfiles loads each Procfile of testdata/procfile (but good)
// and checks every error's position, key path and message.
func TestBrokenProcfiles(t *testing.T) {
	dirs, err := filepath.Glob("testdata/procfile/*")
	require.NoError(t, err)
	require.Len(t, dirs, len(brokenProcfiles)+1, "every broken Procfile has a row in the table")
	for _, tc := range brokenProcfiles {
		t.Run(tc.dir, func(t *testing.T) {
			file := filepath.Join("testdata", "procfile", tc.dir, "Procfile")
			cfg, err := Load(LoadOptions{File: file, Environ: []string{}})
			assert.Nil(t, cfg)
			var errs ConfigErrors
			require.True(t, errors.As(err, &errs), "want ConfigErrors, got %T: %v", err, err)
			got := make([]string, len(errs))
			for i, e := range errs {
				assert.Equal(t, file, displayName(e.File))
				got[i] = strings.TrimPrefix(e.Error(), file+":")
			}
			assert.Equal(t, tc.want, got)
		})
	}
}

var brokenProcfiles = []struct {
	dir  string
	want []string // "line:col: path: message"
}{
	{"bad_line", []string{
		`2:1: "worker npm run worker" is not a process line: write name: command, with a name of letters, digits, _ and - (e.g. web: npm start)`,
		`3:3: "-x" is not a process line: write name: command, with a name of letters, digits, _ and - (e.g. web: npm start)`,
	}},
	{"bad_name", []string{
		`1:1: "my web" is not a process line: write name: command, with a name of letters, digits, _ and - (e.g. web: npm start)`,
		`2:1: "web.v2" is not a process line: write name: command, with a name of letters, digits, _ and - (e.g. web: npm start)`,
		`3:1: "" is not a process line: write name: command, with a name of letters, digits, _ and - (e.g. web: npm start)`,
	}},
	{"duplicate", []string{
		`4:3: procs.web: duplicate process "web" (first at line 1): keep only one`,
	}},
	{"empty_command", []string{
		`2:8: procs.worker: command is empty: write what to run after "worker:"`,
		`3:7: procs.clock: command is empty: write what to run after "clock:"`,
	}},
	{"only_comments", []string{
		`1:1: no processes: add one name: command line per process, e.g. web: npm start`,
	}},
}

// copyProcfileProject copies testdata/procfile/good into a fresh folder.
func copyProcfileProject(t *testing.T, extra map[string]string) string {
	t.Helper()
	files := map[string]string{}
	for _, name := range []string{"Procfile", ".env"} {
		data, err := os.ReadFile(filepath.Join("testdata", "procfile", "good", name))
		require.NoError(t, err)
		files[name] = string(data)
	}
	for name, content := range extra {
		files[name] = content
	}
	return writeProject(t, files)
}

func TestLoadProcfile(t *testing.T) {
	dir := copyProcfileProject(t, nil)
	cfg, err := Load(LoadOptions{Dir: dir, Environ: []string{"CONCURRENCY=9"}})
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(dir, "Procfile"), cfg.File)
	assert.Equal(t, filepath.Join(dir, ".env"), cfg.EnvFile, ".env beside the Procfile is loaded, as foreman does")
	assert.Equal(t, []string{"api_v2", "clock-1", "web", "worker"}, cfg.Names())

	web := cfg.Procs["web"]
	assert.Equal(t, Command{Shell: "python3 -m http.server $PORT"}, web.Command, "commands run with sh -c")
	assert.Equal(t, 5000, web.Port)
	assert.Equal(t, "auto", web.Framework)
	assert.Equal(t, KindService, web.Kind)
	assert.Equal(t, dir, web.Cwd)
	det, ok := frameworks.Resolve(web.Framework, web.Command.String(), web.Command.Args(), web.Cwd)
	require.True(t, ok, "presets are detected per command")
	assert.Equal(t, "python-http-server", det.Preset.Name)

	assert.Equal(t, "bundle exec sidekiq -c ${CONCURRENCY:-2}", cfg.Procs["worker"].Command.Shell,
		"the shell expands variables, not procs")
	assert.Equal(t, `echo "ready: yes" && echo $$ && PORT=${PORT} ./api`, cfg.Procs["api_v2"].Command.Shell)
	assert.Equal(t, 5200, cfg.Procs["api_v2"].Port)
	assert.Zero(t, cfg.Procs["clock-1"].Port, "PORT is only reserved for commands that read it")
}

func TestProcfileLayering(t *testing.T) {
	dir := copyProcfileProject(t, map[string]string{
		"procs.override.yaml": "procs:\n  clock-1:\n    kind: task\n  worker:\n    dependsOn: [web]\n",
	})
	cfg, err := Load(LoadOptions{Dir: dir, Environ: []string{"PROCS_PROCS__WEB__PORT=6000"},
		Set: []string{"procs.worker.readyTimeout=5s"}})
	require.NoError(t, err)
	assert.Equal(t, KindTask, cfg.Procs["clock-1"].Kind, "procs.override.yaml applies over a Procfile")
	assert.Equal(t, Dependencies{{Name: "web", Condition: ConditionReady}}, cfg.Procs["worker"].DependsOn)
	assert.Equal(t, 6000, cfg.Procs["web"].Port, "PROCS_* variables apply")
	assert.Equal(t, 5*time.Second, cfg.Procs["worker"].ReadyTimeout.D(), "--set applies")

	dir = copyProcfileProject(t, map[string]string{"procs.override.yaml": "procs:\n  web:\n    dependsOn: [wrker]\n"})
	_, err = Load(LoadOptions{Dir: dir, Environ: []string{}})
	var errs ConfigErrors
	require.True(t, errors.As(err, &errs), "%v", err)
	require.Len(t, errs, 1)
	assert.Equal(t, filepath.Join(dir, "procs.override.yaml"), errs[0].File)
	assert.Equal(t, `unknown process "wrker" (did you mean "worker"?): dependsOn must name a process under procs:`, errs[0].Msg)
}

func TestProcfileErrorsAfterParsing(t *testing.T) {
	dir := writeProject(t, map[string]string{"Procfile": "web: x\n", ".env": "NOT DOTENV\n"})
	_, err := Load(LoadOptions{Dir: dir, Environ: []string{}})
	var errs ConfigErrors
	require.True(t, errors.As(err, &errs), "%v", err)
	require.Len(t, errs, 1)
	assert.Equal(t, filepath.Join(dir, ".env"), errs[0].File)
	assert.Equal(t, 1, errs[0].Line)
	assert.Equal(t, "envFile", errs[0].Path)
	assert.Equal(t, `not in dotenv format (KEY=value lines): "NOT DOTENV" is not KEY=value`, errs[0].Msg)

	dir = writeProject(t, map[string]string{"Procfile": "web: x $PORT\napi: y $PORT\n"})
	_, err = Load(LoadOptions{Dir: dir, Environ: []string{}, Set: []string{"procs.api.port=5000"}})
	require.True(t, errors.As(err, &errs), "%v", err)
	require.Len(t, errs, 1)
	assert.Equal(t, "Procfile:1:6: procs.web.port: port 5000 is also used by api: give each process its own port",
		strings.TrimPrefix(errs[0].Error(), dir+string(filepath.Separator)),
		"a value derived from a Procfile line is placed at its command")
}

func TestProcfileDiscovery(t *testing.T) {
	dir := writeProject(t, map[string]string{
		"Procfile":     "web: echo from Procfile\n",
		"Procfile.dev": "web: echo from Procfile.dev\n",
		"procs.yaml":   "procs:\n  app: {command: echo from procs.yaml}\n",
	})
	cfg, err := Load(LoadOptions{Dir: dir, Environ: []string{}})
	require.NoError(t, err)
	assert.Equal(t, []string{"app"}, cfg.Names(), "procs.yaml wins over a Procfile")

	cfg, err = Load(LoadOptions{File: filepath.Join(dir, "Procfile"), Environ: []string{}})
	require.NoError(t, err)
	assert.Equal(t, "echo from Procfile", cfg.Procs["web"].Command.Shell, "-f Procfile")

	cfg, err = Load(LoadOptions{Dir: t.TempDir(), Environ: []string{"PROCS_FILE=" + filepath.Join(dir, "Procfile.dev")}})
	require.NoError(t, err)
	assert.Equal(t, "echo from Procfile.dev", cfg.Procs["web"].Command.Shell, "Procfile.dev is a Procfile too")

	assert.True(t, IsProcfile("/x/Procfile"))
	assert.True(t, IsProcfile("Procfile.local"))
	assert.False(t, IsProcfile("Procfile.yaml"))
	assert.False(t, IsProcfile("procs.yaml"))
}

func TestQuoteExpansion(t *testing.T) {
	for _, s := range []string{"", "$", "$$", "$$$", "${X}", "$${X}", "a $PORT b", "${A:-${B}}", "x$", "{}$}"} {
		quoted := QuoteExpansion(s)
		got, err := expandString(quoted, chain(map[string]string{"X": "no", "A": "no", "B": "no", "PORT": "no"}), maxExpandedValue)
		require.NoError(t, err, "%q → %q", s, quoted)
		assert.Equal(t, s, got, "%q → %q", s, quoted)
	}
}

// FuzzParseProcfile feeds arbitrary bytes to the Procfile loader: it must
// never panic, every error must point inside the file, and every entry's
// name must be where it says.
func FuzzParseProcfile(f *testing.F) {
	files, err := filepath.Glob("testdata/procfile/*/Procfile")
	if err != nil {
		f.Fatal(err)
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	file, err := filepath.Abs(filepath.Join("testdata", "procfile", "fuzz", "Procfile"))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		entries, err := ParseProcfile(file, data)
		lines := strings.Split(strings.TrimPrefix(string(data), "\xef\xbb\xbf"), "\n")
		for _, e := range entries {
			text := lines[e.Line-1]
			if !strings.HasPrefix(text[e.NameCol-1:], e.Name+":") || !strings.HasPrefix(text[e.CommandCol-1:], e.Command) {
				t.Fatalf("entry %+v is not at its position in %q", e, text)
			}
			if QuoteExpansion(e.Command) == "" {
				t.Fatalf("empty command in %+v", e)
			}
		}
		ld := newLoader(file, []string{})
		ld.addProcfile(file, data)
		cfg, loadErr := ld.finish()
		if (err == nil) != (loadErr == nil) {
			t.Fatalf("parse error %v but load gave %v", err, loadErr)
		}
		if loadErr == nil {
			if len(cfg.Procs) != len(entries) {
				t.Fatalf("%d entries but %d processes", len(entries), len(cfg.Procs))
			}
			return
		}
		var errs ConfigErrors
		if !errors.As(loadErr, &errs) || len(errs) == 0 {
			t.Fatalf("want ConfigErrors, got %T: %v", loadErr, loadErr)
		}
		for _, e := range errs {
			if e.File == file && (e.Line < 1 || e.Line > len(lines) || e.Col < 1) {
				t.Fatalf("position %d:%d outside a %d-line file: %v", e.Line, e.Col, len(lines), e)
			}
		}
	})
}

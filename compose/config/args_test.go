package config

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBrokenArgs loads every file of testdata/broken/args, the mistakes
// one makes declaring a task's args:, and checks each error's position,
// key path and message.
func TestBrokenArgs(t *testing.T) {
	files, err := filepath.Glob("testdata/broken/args/*.yaml")
	require.NoError(t, err)
	require.Len(t, files, len(brokenArgs), "every broken file has a row in the table")
	for _, tc := range brokenArgs {
		t.Run(tc.file, func(t *testing.T) {
			checkBroken(t, filepath.Join("testdata", "broken", "args", tc.file+".yaml"), tc.want)
		})
	}
}

var brokenArgs = []struct {
	file string
	want []string // "line:col: path: message"
}{
	{"on_service", []string{
		`4:5: procs.api.args: args are for tasks: add kind: task, or remove args (a service is not run with arguments)`,
	}},
	{"bad_type", []string{
		`8:15: procs.test.args[0].type: "int" is not an argument type: write integer (the types are string, integer, number, boolean)`,
		`9:29: procs.test.args[1].type: "float" is not an argument type: write number (the types are string, integer, number, boolean)`,
		`10:24: procs.test.args[2].desc: unknown key "desc"`,
	}},
	{"bad_name", []string{
		`8:15: procs.test.args[0].name: invalid argument name "Filter": use lowercase letters, digits and _, starting with a letter, e.g. max_workers`,
		`10:15: procs.test.args[2].name: duplicate argument "count": each argument is declared once`,
		`11:15: procs.test.args[3].name: argument path would set $PATH, which is the shell's or the system's: choose another name`,
		`12:15: procs.test.args[4].name: argument procs_name would set $PROCS_NAME, which is procs' own: choose another name`,
		`13:15: procs.test.args[5].name: argument ld_preload would set $LD_PRELOAD, which is the dynamic linker's: choose another name`,
		`14:15: procs.test.args[6].name: argument filter sets $FILTER, which env: also sets: remove one (the argument's default can hold the value)`,
		`15:9: procs.test.args[7]: missing name: what the argument is called, e.g. name: filter`,
		`16:15: procs.test.args[8].name: invalid argument name "7up": use lowercase letters, digits and _, starting with a letter, e.g. max_workers`,
	}},
	{"bad_default", []string{
		`6:47: procs.test.args[0].default: the default of count must be an integer, got string "3": write 3 without quotes`,
		`7:49: procs.test.args[1].default: the default of workers must be an integer, got number 1.5`,
		`8:46: procs.test.args[2].default: the default of ratio must be a number, got string "half"`,
		`9:49: procs.test.args[3].default: the default of verbose must be a boolean, got string "yes"`,
		`10:46: procs.test.args[4].default: the default of race must be true or false, got number 1`,
		`11:24: procs.test.args[5].required: argument filter is required and has a default: a default makes it optional; remove one`,
		`12:32: procs.test.args[6].default: expected a string, got a list`,
	}},
	{"bad_refs", []string{
		`5:27: procs.test.command: {{args.fliter}} names an unknown argument "fliter" (did you mean "filter"?): test takes filter`,
		`5:44: procs.test.command: {{args.filter}} is inside quotes: write it bare, procs quotes the value itself (inside double quotes the shell would still expand $( ) in it)`,
		`5:62: procs.test.command: {{ args.filter }} is inside quotes: write it bare, procs quotes the value itself (inside double quotes the shell would still expand $( ) in it)`,
		`10:36: procs.lint.command[2]: {{args.path}} names argument "path", but lint declares no args: add args: [{name: path}] (and kind: task)`,
		`13:23: procs.script.command[2]: {{args.msg}} is inside quotes: write it bare, procs quotes the value itself (inside double quotes the shell would still expand $( ) in it)`,
		`18:14: procs.shell.command: ${WHO} is expanded by procs when it loads procs.yaml, not by the run: the argument who is not in it; write "$WHO" or {{args.who}}`,
	}},
	{"required_started", []string{
		`7:19: procs.deploy.args[0].required: procs up would start deploy without arguments, and target is required: add disabled: true to deploy (procs run still runs it), or give target a default instead`,
		`11:17: procs.smoke.dependsOn.deploy: smoke depends on deploy, whose argument target is required: a dependency is started without arguments; give target a default, or remove this entry`,
	}},
	{"not_a_list", []string{
		`5:11: procs.test.args: expected a list of {name, type, description, required, default}, got a mapping`,
		`10:9: procs.build.args[0]: expected a mapping (key: value lines), got string "filter"`,
		`11:9: procs.build.args[1]: expected {name, type}, got nothing`,
	}},
}

// argsConfig is a task with one argument of each type, referenced in a
// shell command, and a list-command task.
const argsConfig = `
procs:
  test:
    kind: task
    description: Run the Go tests
    command: go test {{args.pkg}} -run {{args.filter}} -count {{args.count}}
    args:
      - {name: filter, description: the test name pattern, required: true}
      - {name: pkg, default: ./...}
      - {name: count, type: integer, default: 1}
      - {name: ratio, type: number}
      - {name: race, type: boolean, default: false}
    disabled: true
  lint:
    kind: task
    command: [golangci-lint, run, "--dir={{args.dir}}", "{{args.dir}}"]
    args: [{name: dir, default: ./...}]
  script:
    kind: task
    command: [bash, -ec, "printf '%s\n' {{args.msg}}", "{{args.msg}}"]
    args: [{name: msg}]
`

func loadArgsConfig(t *testing.T) *Config {
	t.Helper()
	cfg, err := Parse(filepath.Join(t.TempDir(), "procs.yaml"), []byte(argsConfig), nil)
	require.NoError(t, err)
	return cfg
}

func TestArgsDecode(t *testing.T) {
	cfg := loadArgsConfig(t)
	test := cfg.Procs["test"]
	assert.Equal(t, "Run the Go tests", test.Description)
	require.Len(t, test.Args, 5)
	assert.Equal(t, Arg{Name: "filter", Description: "the test name pattern", Required: true}, test.Args[0])
	assert.Equal(t, Arg{Name: "count", Type: ArgInteger, Default: int64(1)}, test.Args[2])
	assert.Equal(t, Arg{Name: "race", Type: ArgBoolean, Default: false}, test.Args[4])
	assert.Equal(t, "FILTER", test.Args[0].EnvName())
}

func TestBindArgs(t *testing.T) {
	test := loadArgsConfig(t).Procs["test"]
	for _, tc := range []struct {
		name    string
		values  map[string]string
		want    map[string]string // nil: an error
		problem []string
	}{
		{"defaults fill what is not given", map[string]string{"filter": "TestX"},
			map[string]string{"filter": "TestX", "pkg": "./...", "count": "1", "ratio": "", "race": "false"}, nil},
		{"values of every type, as written or canonical", map[string]string{"filter": "", "count": " 007", "ratio": "0.50", "race": "1", "pkg": "./cmd"},
			map[string]string{"filter": "", "pkg": "./cmd", "count": "7", "ratio": "0.5", "race": "true"}, nil},
		{"missing required", map[string]string{"count": "2"}, nil,
			[]string{"missing required argument filter (string): give it a value, e.g. procs run test --arg filter=VALUE"}},
		{"wrong types", map[string]string{"filter": "x", "count": "abc", "ratio": "NaN", "race": "maybe"}, nil, []string{
			`argument count must be an integer, got "abc"`,
			`argument ratio must be a number, got "NaN"`,
			`argument race must be a boolean, got "maybe"`,
		}},
		{"unknown, with did you mean", map[string]string{"filter": "x", "fliter": "y", "zzz": "1"}, nil, []string{
			`unknown argument "fliter" (did you mean "filter"?): test takes filter (string, required), pkg (string), count (integer), ratio (number), race (boolean)`,
			`unknown argument "zzz": test takes filter (string, required), pkg (string), count (integer), ratio (number), race (boolean)`,
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bound, err := test.BindArgs(tc.values)
			if tc.want == nil {
				var argErr *ArgError
				require.ErrorAs(t, err, &argErr)
				assert.Equal(t, "test", argErr.Task)
				assert.Equal(t, tc.problem, argErr.Problems)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, bound.Values())
		})
	}

	noArgs := &Proc{Name: "build"}
	_, err := noArgs.BindArgs(map[string]string{"x": "1"})
	assert.EqualError(t, err, "run build: build takes no arguments (got x)")
	bound, err := noArgs.BindArgs(nil)
	require.NoError(t, err)
	assert.Equal(t, Command{Shell: "make"}, bound.Command(Command{Shell: "make"}))
	assert.Empty(t, bound.Environ())
}

// hostile are values a shell would run, were they pasted into a command.
var hostile = []string{
	`'; rm -rf x'`, `$(touch pwned)`, "`touch pwned`", `"; touch pwned; echo "`, `a b  c`, `*`, `~`,
	"line\nbreak", `\'\\`, `''`, ``, `$HOME`, `{{args.filter}}`,
}

// TestBoundCommandQuotes runs each hostile value through a real sh -c in
// a string command and in the script of [sh, -c, SCRIPT], and checks it
// arrives as the one argument it was, touching nothing.
func TestBoundCommandQuotes(t *testing.T) {
	sh, err := exec.LookPath("sh")
	require.NoError(t, err)
	p := &Proc{Name: "echo", Kind: KindTask, Args: []Arg{{Name: "value"}}}
	for _, value := range hostile {
		bound, err := p.BindArgs(map[string]string{"value": value})
		require.NoError(t, err)
		for _, c := range []Command{
			{Shell: `printf '%s|' {{args.value}}`},
			{Argv: []string{sh, "-c", `printf '%s|' {{args.value}} "$0"`, "{{args.value}}"}},
		} {
			dir := t.TempDir()
			cmd := exec.Command(bound.Command(c).Args()[0], bound.Command(c).Args()[1:]...)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), bound.Environ()...)
			out, err := cmd.CombinedOutput()
			require.NoError(t, err, "%q: %s", value, out)
			want := value + "|"
			if c.Shell == "" {
				want += value + "|" // $0 is the literal element after the script
			}
			assert.Equal(t, want, string(out), "command %v", bound.Command(c))
			entries, err := os.ReadDir(dir)
			require.NoError(t, err)
			assert.Empty(t, entries, "%q created files", value)
		}
	}
}

func TestBoundEnviron(t *testing.T) {
	test := loadArgsConfig(t).Procs["test"]
	bound, err := test.BindArgs(map[string]string{"filter": "'; rm -rf x'"})
	require.NoError(t, err)
	assert.Equal(t, []string{"FILTER='; rm -rf x'", "PKG=./...", "COUNT=1", "RATIO=", "RACE=false"}, bound.Environ())
	assert.Equal(t, Command{Shell: `go test './...' -run ''\''; rm -rf x'\''' -count '1'`}, bound.Command(test.Command))

	lint := loadArgsConfig(t).Procs["lint"]
	bound, err = lint.BindArgs(map[string]string{"dir": "a b; c"})
	require.NoError(t, err)
	assert.Equal(t, []string{"golangci-lint", "run", "--dir=a b; c", "a b; c"}, bound.Command(lint.Command).Argv)

	script := loadArgsConfig(t).Procs["script"]
	bound, err = script.BindArgs(map[string]string{"msg": "x'y"})
	require.NoError(t, err)
	assert.Equal(t, []string{"bash", "-ec", "printf '%s\n' 'x'\\''y'", "x'y"}, bound.Command(script.Command).Argv)
}

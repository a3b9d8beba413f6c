package frameworks

import (
	"path/filepath"
	"strings"

	"github.com/procsdev/procs/internal/lazyregexp"
)

// A preset is matched on the program that runs: argv[0], or the program
// after wrappers that only change how it runs (sudo, runuser, setpriv,
// env, nice, timeout, exec, bundle exec, npx, uv run, poetry run, ...).
// The value of an option is never the program: `psql -U postgres` runs
// psql, `sudo -u postgres initdb` runs initdb.

// wrapper says how to step over one wrapper program: the options that
// take a value as the next word, and whether it takes one positional
// argument before the command (timeout's duration, taskset's mask).
type wrapper struct {
	valueOptions []string
	positional   int
}

// wrappers are run before the command they wrap.
var wrappers = map[string]wrapper{
	"sudo":      {valueOptions: []string{"-u", "-g", "-h", "-p", "-C", "-D", "-r", "-t", "-U", "-T", "--user", "--group", "--host", "--prompt", "--chdir", "--role", "--type", "--other-user", "--close-from", "--command-timeout"}},
	"doas":      {valueOptions: []string{"-u", "-C"}},
	"runuser":   {valueOptions: []string{"-u", "-g", "-G", "--user", "--group", "--supp-group", "-w", "--whitelist-environment"}},
	"setpriv":   {valueOptions: []string{"--reuid", "--regid", "--ruid", "--rgid", "--euid", "--egid", "--groups", "--inh-caps", "--ambient-caps", "--bounding-set", "--securebits", "--pdeathsig", "--selinux-label", "--apparmor-profile", "--landlock-access", "--landlock-rule"}},
	"env":       {valueOptions: []string{"-u", "--unset", "-C", "--chdir", "-S", "--split-string"}},
	"nice":      {valueOptions: []string{"-n", "--adjustment"}},
	"ionice":    {valueOptions: []string{"-c", "--class", "-n", "--classdata"}},
	"stdbuf":    {valueOptions: []string{"-i", "-o", "-e"}},
	"chrt":      {positional: 1},
	"taskset":   {positional: 1},
	"timeout":   {valueOptions: []string{"-k", "--kill-after", "-s", "--signal"}, positional: 1},
	"exec":      {valueOptions: []string{"-a"}},
	"nohup":     {},
	"time":      {},
	"command":   {},
	"tini":      {},
	"dumb-init": {},
	"npx":       {valueOptions: []string{"-p", "--package", "-c", "--call"}},
	"bunx":      {},
}

// runWrappers are `TOOL SUBCOMMAND` pairs that run the command after them
// in a project's environment.
var runWrappers = map[string]wrapper{
	"bundle exec": {valueOptions: []string{"--gemfile"}},
	"uv run":      {valueOptions: []string{"--with", "--python", "-p", "--directory", "--project", "--package", "--extra", "--group", "--env-file", "--index", "--with-requirements"}},
	"poetry run":  {valueOptions: []string{"-C", "--directory", "-P", "--project"}},
	"pipenv run":  {},
	"pdm run":     {valueOptions: []string{"-p", "--project"}},
	"hatch run":   {},
	"rye run":     {},
}

// stripWrappers drops VAR=value assignments and the wrappers (with their
// options) in front of the program that runs.
func stripWrappers(words []string) []string {
	for len(words) > 0 {
		if isAssignment(words[0]) {
			words = words[1:]
			continue
		}
		if len(words) > 1 {
			if w, ok := runWrappers[filepath.Base(words[0])+" "+words[1]]; ok {
				words = skipOptions(words[2:], w)
				continue
			}
		}
		w, ok := wrappers[filepath.Base(words[0])]
		if !ok {
			return words
		}
		words = skipOptions(words[1:], w)
	}
	return words
}

// skipOptions steps over a wrapper's options (and their values), a "--",
// and its positional arguments.
func skipOptions(words []string, w wrapper) []string {
	for len(words) > 0 {
		word := words[0]
		if word == "--" {
			words = words[1:]
			break
		}
		if !strings.HasPrefix(word, "-") || word == "-" {
			break
		}
		words = words[1:]
		if !strings.Contains(word, "=") && contains(w.valueOptions, word) && len(words) > 0 {
			words = words[1:]
		}
	}
	for range w.positional {
		if len(words) > 0 {
			words = words[1:]
		}
	}
	return words
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// suCommand returns the command of `su USER -c CMD` and `runuser -l USER
// -c CMD`, which run CMD through a shell.
func suCommand(words []string) (string, bool) {
	if len(words) == 0 {
		return "", false // only wrappers (`uv run`, `bundle exec`): nothing runs
	}
	switch filepath.Base(words[0]) {
	case "su", "runuser":
		for i := 1; i+1 < len(words); i++ {
			if words[i] == "-c" || words[i] == "--command" {
				return words[i+1], true
			}
		}
	}
	return "", false
}

// interpreterRE names the programs that run a script, module or goal named
// by their first argument: for these the preset may be named there
// (`python manage.py runserver`, `python -m uvicorn`, `mvn spring-boot:run`).
var interpreterRE = lazyregexp.New(`^(python[0-9.]*|pypy[0-9.]*|node|nodejs|ruby|php|perl|java|mvn|mvnw|gradle|gradlew|iex|elixir|dotnet)$`)

// interpreterValueOptions name a module or file in their next word.
var interpreterValueOptions = []string{"-m", "-S", "-jar", "-r", "--require", "-X", "-W"}

// programHead is how many of words say what runs: the program, and for an
// interpreter its options up to and including the script or module. A
// preset's command regex must match from within these words, so that an
// option's value (`-U postgres`) or a script's argument (`worker.py --db
// postgres`) never names the program.
func programHead(words []string) int {
	if len(words) == 0 || !interpreterRE.MatchString(filepath.Base(words[0])) {
		return min(1, len(words))
	}
	i := 1
	for i < len(words) && strings.HasPrefix(words[i], "-") {
		if words[i] == "-m" || words[i] == "-S" || words[i] == "-jar" {
			return min(i+2, len(words))
		}
		if contains(interpreterValueOptions, words[i]) {
			i++
		}
		i++
	}
	return min(i+1, len(words))
}

// clientTools are programs that talk to a server (or prepare its data)
// and never are one: they get no server preset whatever their arguments.
var clientTools = map[string]bool{
	"psql": true, "pg_dump": true, "pg_dumpall": true, "pg_restore": true, "pg_isready": true,
	"pg_basebackup": true, "initdb": true, "createdb": true, "dropdb": true, "createuser": true,
	"dropuser": true, "pg_upgrade": true, "vacuumdb": true, "pgbench": true,
	"redis-cli": true, "redis-benchmark": true, "valkey-cli": true,
	"mysql": true, "mariadb": true, "mysqladmin": true, "mariadb-admin": true, "mysqldump": true,
	"mariadb-dump": true, "mysql_install_db": true, "mariadb-install-db": true, "mysqlcheck": true,
	"mongosh": true, "mongo": true, "mongodump": true, "mongorestore": true,
	"rabbitmqctl": true, "rabbitmq-diagnostics": true, "rabbitmq-plugins": true,
	"etcdctl": true, "nats": true, "memcstat": true, "curl": true, "wget": true,
}

func isClientTool(program string) bool { return clientTools[filepath.Base(program)] }

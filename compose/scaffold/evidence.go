package scaffold

import (
	"path/filepath"

	"slices"
	"strconv"
	"strings"

	"github.com/procsdev/procs/internal/lazyregexp"
)

// evidenceFiles are the files, in a process's folder, that say what it
// connects to: env files, database and framework config, manifests naming
// a database's client library. Globs are relative to the folder.
var evidenceFiles = []string{".env", ".env.*", "*.env", "config/database.yml", "config/*.yml", "prisma/schema.prisma",
	"*/settings.py", "*/settings/*.py", "config/*.py", "config/*/*.py", "*/config.py", "*/core/config.py",
	"src/main/resources/application.properties", "src/main/resources/application.y*ml",
	"vite.config.*", "next.config.*", "nuxt.config.*", "svelte.config.*", "astro.config.*", "angular.json", "proxy.conf.json",
	"Gemfile", "requirements.txt", "requirements/*.txt", "pyproject.toml", "go.mod", "package.json", "mix.exs", "composer.json"}

// serviceClues are, for each service preset, the words that mean a
// program uses it: its URL scheme, its adapter or client library.
var serviceClues = map[string]*lazyregexp.Regexp{
	"postgres": lazyregexp.New(`postgres(ql)?(\+\w+)?://|adapter:\s*postgresql|provider\s*=\s*"postgres(ql)?"|gem\s+["']pg["']|\bpsycopg2?\b|\basyncpg\b|"pg"\s*:|jackc/pgx|lib/pq\b|:postgrex\b`),
	"mysql":    lazyregexp.New(`mysql\w*(\+\w+)?://|adapter:\s*(mysql2|trilogy)|provider\s*=\s*"mysql"|gem\s+["']mysql2["']|\bmysqlclient\b|\bpymysql\b|go-sql-driver/mysql|"mysql2?"\s*:|:myxql\b`),
	"redis":    lazyregexp.New(`rediss?://|gem\s+["'](redis|sidekiq)["']|^redis\b|"(ioredis|redis|bullmq)"\s*:|go-redis/|:redix\b`),
	"rabbitmq": lazyregexp.New(`amqps?://|\bpika\b|"amqplib"\s*:`),
	"mongodb":  lazyregexp.New(`mongodb(\+srv)?://|"mongoose"\s*:|\bpymongo\b|gem\s+["']mongoid["']|mongo-driver`),
	"nats":     lazyregexp.New(`nats://|"nats"\s*:|nats-io/nats.go`),
}

// databases are the services a migration talks to; brokers and caches are
// not.
var databases = []string{"postgres", "mysql", "mongodb"}

// workerNeeds are the services a worker preset cannot run without.
var workerNeeds = map[string][]string{"sidekiq": {"redis"}}

var (
	localURL     = lazyregexp.New(`(?:localhost|127\.0\.0\.1|0\.0\.0\.0)(?::|%3A)(\d{2,5})\b`)
	hostOfURL    = lazyregexp.New(`(?:://(?:[^@/\s]*@)?|@)([A-Za-z][A-Za-z0-9_-]*)(?::\d{2,5})?(?:[/:?"']|\s|$)`)
	hostSettings = lazyregexp.New(`(?m)^\s*[A-Z_]*(HOST|SERVER)\s*[=:]\s*["']?([A-Za-z][A-Za-z0-9_-]*)["']?\s*$`)
)

// manifests are the evidence files that list libraries, not settings: a
// process with only these has no configuration to read.
var manifests = []string{"Gemfile", "requirements.txt", "pyproject.toml", "go.mod", "package.json", "mix.exs", "composer.json"}

// evidence is the text of what configures p: its compose environment, the
// dev container's, and the evidence files of its folder and the project's.
// configured is false when none of it is a setting (only manifests).
func (pl *plan) evidence(p *process) (text string, configured bool) {
	configured = len(p.settings) > 0
	var b strings.Builder
	for _, s := range p.settings {
		b.WriteString(s + "\n")
	}
	if pl.workspace != nil && !p.fromCompose {
		configured = configured || len(pl.workspace.settings) > 0
		for _, s := range pl.workspace.settings {
			b.WriteString(s + "\n")
		}
	}
	dirs := []string{p.cwd}
	if p.cwd != "" {
		dirs = append(dirs, "")
	}
	for _, dir := range dirs {
		for _, glob := range evidenceFiles {
			files, _ := filepath.Glob(filepath.Join(pl.abs(dir), filepath.FromSlash(glob)))
			for _, f := range files {
				if dir == "" && p.cwd != "" && !strings.HasPrefix(filepath.Base(f), ".env") {
					continue // the project's manifests are not this folder's app's
				}
				b.WriteString(withoutComments(readAll(f)) + "\n")
				if !slices.Contains(manifests, filepath.Base(f)) && !strings.HasPrefix(filepath.Base(f), "requirements") {
					configured = true
				}
			}
		}
	}
	return b.String(), configured
}

var (
	// commentLine is a line that is only a comment (#, //, --, ;), in any
	// of the evidence files' languages; blockComment a /* */ comment
	// starting a word (not the /** of a glob or a route in a string).
	commentLine  = lazyregexp.New(`(?m)^[ \t]*(#|//|--|;).*$`)
	blockComment = lazyregexp.New(`(?s)(^|[ \t\n])/\*.*?\*/`)
)

// withoutComments is a file's text without its comments: a setting
// commented out (// const apiBaseUrl = 'http://localhost:3001') is one
// the project does not use.
func withoutComments(text string) string {
	return commentLine.ReplaceAllString(blockComment.ReplaceAllString(text, "$1"), "")
}

// usedProcesses are the processes p's evidence says it connects to: a
// service named as a host (db:5432, SMTP_HOST=db), a process on a local
// port it names, or a service whose URL scheme or client library it uses.
// onlyDatabases keeps the databases (for a migration).
func (pl *plan) usedProcesses(p *process, text string, onlyDatabases bool) []string {
	var used []string
	use := func(q *process) {
		switch {
		case q == nil, q == p, q.optional, q.task, q.tier == tierProxy, slices.Contains(used, q.name):
		case onlyDatabases && (q.tier != tierService || !slices.Contains(databases, presetName(q))):
		case p.tier == tierFrontEnd && q.tier != tierBackEnd:
			// a browser app calls the API, not the database
		case p.tier != tierFrontEnd && q.tier != tierService:
			// a server names other apps' URLs (CORS origins, links) but
			// does not need them to start
		default:
			used = append(used, q.name)
		}
	}
	for _, m := range hostOfURL.Regexp().FindAllStringSubmatch(text, -1) {
		use(pl.find(m[1]))
	}
	for _, m := range hostSettings.Regexp().FindAllStringSubmatch(text, -1) {
		use(pl.find(m[2]))
	}
	for _, m := range localURL.Regexp().FindAllStringSubmatch(text, -1) {
		port, _ := strconv.Atoi(m[1])
		use(pl.onPort(port))
	}
	for _, q := range pl.procs {
		if q.tier != tierService {
			continue
		}
		if clue, ok := serviceClues[presetName(q)]; ok && clue.MatchString(text) {
			use(q)
		}
		if slices.Contains(workerNeeds[presetName(p)], presetName(q)) {
			use(q)
		}
	}
	return used
}

// onPort is the process given port, if any.
func (pl *plan) onPort(port int) *process {
	for _, q := range pl.procs {
		if q.port == port && port != 0 {
			return q
		}
	}
	return nil
}

// assetWatcher matches the commands that rebuild assets as files change
// (tailwindcss:watch, esbuild --watch): they serve nothing and use no
// database.
var assetWatcher = lazyregexp.New(`\b[\w-]+:watch\b|\b(tailwindcss|esbuild|sass|postcss|webpack|rollup|tsc)\b.*(--watch|-w)\b`)

// isAssetWatcher reports whether p only rebuilds files.
func isAssetWatcher(p *process) bool {
	return p.kind == "build" || (p.port == 0 && assetWatcher.MatchString(p.commandLine()))
}

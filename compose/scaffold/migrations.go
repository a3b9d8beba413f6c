package scaffold

import (
	"path"
	"path/filepath"
	"slices"
)

// migration is the one-shot step a stack's tools define to bring the
// database up to date before its server starts.
type migration struct {
	kinds   []string // the app kinds it belongs to
	file    string   // the file that defines them, when not the app's own
	command func(pl *plan, app *process) string
	// applies says whether the app uses migrations at all.
	applies func(pl *plan, app *process) bool
}

var migrations = []migration{
	{kinds: []string{"django"}, command: func(pl *plan, app *process) string { return pl.python(app.cwd) + " manage.py migrate" },
		applies: func(*plan, *process) bool { return true }},
	{kinds: []string{"rails"}, command: func(_ *plan, app *process) string { return railsBin(app) + " db:migrate" },
		applies: func(pl *plan, app *process) bool { return exists(pl.abs(app.cwd), "db", "migrate") }},
	{kinds: []string{"phoenix"}, command: func(*plan, *process) string { return "mix ecto.migrate" },
		applies: func(pl *plan, app *process) bool {
			return fileMatches(filepath.Join(pl.abs(app.cwd), "mix.exs"), `\{:(phoenix_ecto|ecto_sql),`)
		}},
	{kinds: []string{"laravel"}, command: func(*plan, *process) string { return "php artisan migrate" },
		applies: func(pl *plan, app *process) bool { return exists(pl.abs(app.cwd), "database", "migrations") }},
	// Alembic, beside a FastAPI or Flask app (SQLAlchemy's migrations).
	{kinds: []string{"fastapi", "flask"}, file: "alembic.ini", command: func(pl *plan, app *process) string { return pl.python(app.cwd) + " -m alembic upgrade head" },
		applies: func(pl *plan, app *process) bool { return exists(pl.abs(app.cwd), "alembic.ini") }},
	// Prisma, in a Node app: the migrations it has, else the schema pushed
	// as it is (projects that keep no migrations).
	{kinds: []string{"node"}, file: "prisma/schema.prisma", command: prismaCommand,
		applies: func(pl *plan, app *process) bool { return exists(pl.abs(app.cwd), "prisma", "schema.prisma") }},
}

// prismaCommand applies a Prisma project's migrations with the app's
// package manager, without prompting (migrate dev may ask for a name).
func prismaCommand(pl *plan, app *process) string {
	exec := map[string]string{"npm": "npx", "pnpm": "pnpm exec", "yarn": "yarn", "bun": "bunx"}[pl.packageManager(app.cwd, app.pkg)]
	if exists(pl.abs(app.cwd), "prisma", "migrations") {
		return exec + " prisma migrate deploy"
	}
	return exec + " prisma db push"
}

func railsBin(app *process) string {
	if app.commandLine() == "bin/rails server" {
		return "bin/rails"
	}
	return "bundle exec rails"
}

// addMigrations adds a task running the migrations of each app whose stack
// defines them; the app depends on it having completed.
func (pl *plan) addMigrations() {
	for _, app := range slices.Clone(pl.procs) {
		for _, m := range migrations {
			if !slices.Contains(m.kinds, app.kind) || app.task || !m.applies(pl, app) {
				continue
			}
			command := m.command(pl, app)
			if pl.hasSetupTask(app, command) {
				continue
			}
			source := path.Join(app.cwd, app.sourceFile())
			if m.file != "" {
				source = path.Join(app.cwd, m.file)
			}
			task := &process{
				run:    func(int) runs { return runs{command: command} },
				cwd:    app.cwd,
				source: source,
				kind:   "migrate",
				task:   true,
				tier:   tierBackEnd,
			}
			pl.add(task, "migrate", path.Base(app.cwd)+"-migrate")
			app.taskDeps = append(app.taskDeps, task.name)
		}
	}
}

// hasSetupTask reports whether app already waits for a step that sets up
// its database (a compose prestart, a Procfile release), or a task runs
// command already: then app waits for that one, and no migration is added.
func (pl *plan) hasSetupTask(app *process, command string) bool {
	for _, t := range pl.procs {
		if !t.task || t.cwd != app.cwd {
			continue
		}
		if slices.Contains(app.taskDeps, t.name) && t.kind == "prestart" {
			return true
		}
		if sameProgram(t.commandLine(), command) {
			if !slices.Contains(app.taskDeps, t.name) {
				app.taskDeps = append(app.taskDeps, t.name)
			}
			return true
		}
	}
	return false
}

// sourceFile is the file the process was found in, without its folder.
func (p *process) sourceFile() string { return path.Base(p.source) }

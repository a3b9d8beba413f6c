package scaffold

import (
	"path"
	"path/filepath"
	"slices"
)

// migration is the one-shot step a stack's tools define to bring the
// database up to date before its server starts.
type migration struct {
	kind    string // the app kind it belongs to
	command func(pl *plan, app *process) string
	// applies says whether the app uses migrations at all.
	applies func(pl *plan, app *process) bool
}

var migrations = []migration{
	{kind: "django", command: func(pl *plan, app *process) string { return pl.python(app.cwd) + " manage.py migrate" },
		applies: func(*plan, *process) bool { return true }},
	{kind: "rails", command: func(_ *plan, app *process) string { return railsBin(app) + " db:migrate" },
		applies: func(pl *plan, app *process) bool { return exists(pl.abs(app.cwd), "db", "migrate") }},
	{kind: "phoenix", command: func(*plan, *process) string { return "mix ecto.migrate" },
		applies: func(pl *plan, app *process) bool {
			return fileMatches(filepath.Join(pl.abs(app.cwd), "mix.exs"), `\{:(phoenix_ecto|ecto_sql),`)
		}},
	{kind: "laravel", command: func(*plan, *process) string { return "php artisan migrate" },
		applies: func(pl *plan, app *process) bool { return exists(pl.abs(app.cwd), "database", "migrations") }},
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
			if app.kind != m.kind || app.task || !m.applies(pl, app) {
				continue
			}
			command := m.command(pl, app)
			task := &process{
				run:    func(int) runs { return runs{command: command} },
				cwd:    app.cwd,
				source: path.Join(app.cwd, app.sourceFile()),
				kind:   "migrate",
				task:   true,
				tier:   tierBackEnd,
			}
			pl.add(task, "migrate", path.Base(app.cwd)+"-migrate")
			app.taskDeps = append(app.taskDeps, task.name)
		}
	}
}

// sourceFile is the file the process was found in, without its folder.
func (p *process) sourceFile() string { return path.Base(p.source) }

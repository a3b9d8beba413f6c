package scaffold

import (
	"fmt"
	"path"
	"path/filepath"
)

// djangoPort is Django's runserver default.
const djangoPort = 8000

// djangoApp runs manage.py runserver in rel, with the project's Python.
func (pl *plan) djangoApp(rel string) *process {
	if !exists(pl.abs(rel), "manage.py") {
		return nil
	}
	python := pl.python(rel)
	p := &process{
		run: func(port int) runs {
			return runs{command: fmt.Sprintf("%s manage.py runserver %d", python, port)}
		},
		cwd:      rel,
		port:     djangoPort,
		portNote: "runserver's default",
		movable:  true,
		source:   path.Join(rel, "manage.py"),
		kind:     "django",
	}
	pl.detect(p)
	return p
}

// python is how the project runs Python from rel: through its tool when a
// lock file names one (uv, Poetry, Pipenv), else its virtualenv, else
// python3 from PATH.
func (pl *plan) python(rel string) string {
	for _, dir := range []string{rel, ""} {
		switch {
		case exists(pl.abs(dir), "uv.lock"):
			return "uv run python"
		case exists(pl.abs(dir), "poetry.lock"):
			return "poetry run python"
		case exists(pl.abs(dir), "Pipfile"):
			return "pipenv run python"
		}
	}
	for _, dir := range []string{rel, ""} {
		for _, venv := range []string{".venv", "venv"} {
			if !exists(pl.abs(dir), venv, "bin", "python") {
				continue
			}
			interpreter, err := filepath.Rel(pl.abs(rel), filepath.Join(pl.abs(dir), venv, "bin", "python"))
			if err == nil {
				return filepath.ToSlash(interpreter)
			}
		}
	}
	return "python3"
}

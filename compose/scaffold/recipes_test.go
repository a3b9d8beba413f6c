package scaffold

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestParseRecipe(t *testing.T) {
	makefile := ".PHONY: run\n\ninstall:\n\tvirtualenv venv; \\\n\t. venv/bin/activate; \\\n\tpip install -r requirements.txt;\n\n" +
		"run build: install\n\t. venv/bin/activate; \\\n\t@python manage.py run\n\nall: clean run\n"
	tests := []struct {
		target string
		want   []string
		ok     bool
	}{
		{"run", []string{"python manage.py run"}, true},
		{"build", []string{"python manage.py run"}, true},
		{"install", []string{"virtualenv venv", "pip install -r requirements.txt"}, true},
		{"all", nil, true},
		{"deploy", nil, false},
	}
	for _, tt := range tests {
		got, ok := parseRecipe(makefile, tt.target)
		assert.Equal(t, tt.ok, ok, tt.target)
		assert.Equal(t, tt.want, got, tt.target)
	}
	justfile := "dev *ARGS:\n    uv run fastapi dev app/main.py {{ARGS}}\n"
	got, ok := parseRecipe(justfile, "dev")
	assert.True(t, ok)
	assert.Equal(t, []string{"uv run fastapi dev app/main.py {{ARGS}}"}, got)
}

func TestRepeatableStep(t *testing.T) {
	pl := &plan{dir: t.TempDir()}
	for command, want := range map[string]bool{
		"python manage.py db init":                     false,
		"python manage.py db migrate --message 'init'": false,
		"python manage.py makemigrations":              false,
		"alembic revision --autogenerate -m x":         false,
		"python manage.py db upgrade":                  false, // no migrations folder here
		"bin/rails db:migrate":                         true,
		"npx prisma migrate deploy":                    true,
	} {
		assert.Equal(t, want, pl.repeatableStep("", command, "README.md"), command)
	}
}

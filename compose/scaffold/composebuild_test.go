package scaffold

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSameProgram(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"python manage.py run", "python3 manage.py run", true},
		{"uv run fastapi run --reload app/main.py", "fastapi run app/main.py --port 8000", true},
		{"bundle exec sidekiq", "sidekiq", true},
		// A flag's value counts: celery's app, sidekiq's config file.
		{"bundle exec sidekiq", "sidekiq -C config/sidekiq.yml", false},
		{"PORT=3000 bin/rails server", "bin/rails server -b 0.0.0.0", true},
		{"python manage.py runserver 0.0.0.0:8000", "python manage.py migrate", false},
		{"celery -A app worker", "celery -A app beat", false},
		{"", "", false}, // nothing runs: never the same
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, sameProgram(tt.a, tt.b), "%q vs %q", tt.a, tt.b)
	}
}

func TestSplitPrestart(t *testing.T) {
	tests := []struct{ command, before, app string }{
		{"bash scripts/prestart.sh && fastapi run --reload app/main.py", "bash scripts/prestart.sh", "fastapi run --reload app/main.py"},
		{"python manage.py migrate && python manage.py collectstatic --noinput && gunicorn app.wsgi",
			"python manage.py migrate && python manage.py collectstatic --noinput", "gunicorn app.wsgi"},
		{"bin/rails db:prepare&&bin/rails server", "bin/rails db:prepare", "bin/rails server"},
		{"npm install && npm run dev", "", "npm install && npm run dev"}, // an install is not a setup step the app waits for
		{"uvicorn main:app", "", "uvicorn main:app"},
	}
	for _, tt := range tests {
		before, app := splitPrestart(tt.command)
		assert.Equal(t, tt.before, before, tt.command)
		assert.Equal(t, tt.app, app, tt.command)
	}
}

func TestDockerfileRuns(t *testing.T) {
	tests := []struct {
		name, text, cmd, entrypoint string
	}{
		{"exec form", "FROM python:3.12\nCMD [\"fastapi\", \"run\", \"--workers\", \"4\", \"app/main.py\"]\n", "fastapi run --workers 4 app/main.py", ""},
		{"shell form and entrypoint", "FROM node:20\nENTRYPOINT [\"/entrypoint.sh\"]\nCMD npm run start\n", "npm run start", "/entrypoint.sh"},
		{"continued line", "FROM ruby\nCMD bin/rails server \\\n  -b 0.0.0.0\n", "bin/rails server    -b 0.0.0.0", ""},
		{"last stage only", "FROM node AS build\nCMD [\"npm\", \"run\", \"build\"]\nFROM nginx\n", "", ""},
		{"argument with a space", "FROM python\nCMD [\"sh\", \"-c\", \"python app.py\"]\n", "sh -c 'python app.py'", ""},
		{"none", "FROM alpine\nRUN echo hi\n", "", ""},
	}
	for _, tt := range tests {
		cmd, entrypoint := dockerfileRuns(tt.text)
		assert.Equal(t, tt.cmd, cmd, tt.name)
		assert.Equal(t, tt.entrypoint, entrypoint, tt.name)
	}
}

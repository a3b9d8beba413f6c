package frameworks

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// A preset is matched on the program that runs, never on an option's
// value or a script's argument.
func TestDetectMatchesTheProgramThatRuns(t *testing.T) {
	for command, want := range map[string]string{
		// Clients and tools of a server are not the server; psql at its
		// prompt is psql.
		`psql -h 127.0.0.1 -U postgres -c "select pg_sleep(65)"`: "",
		`psql postgres`:                       "psql",
		`pg_dump -U postgres -d app`:          "",
		`runuser -u postgres -- initdb -D db`: "",
		`sudo -u postgres initdb -D db`:       "",
		`redis-cli -h redis-server ping`:      "",
		`mysql -u root -h mysqld`:             "",
		`mariadb-install-db --user=mysql`:     "",
		`python3 worker.py --db postgres`:     "python",
		`sh -c 'echo nginx'`:                  "",
		`curl http://localhost/redis-server`:  "",
		// The program after wrappers that only change how it runs.
		`sudo -u postgres postgres -D db -p 5433`:                          "postgres",
		`runuser -u postgres -- /usr/lib/postgresql/15/bin/postgres -D db`: "postgres",
		`setpriv --reuid=999 --regid=999 --init-groups -- redis-server`:    "redis",
		`env -u HOME PORT=1 redis-server --port 1`:                         "redis",
		`nice -n 10 nginx -g 'daemon off;'`:                                "nginx",
		`timeout 60 memcached -p 1`:                                        "memcached",
		`su postgres -c 'postgres -D db'`:                                  "postgres",
		`bundle exec puma -p 3000`:                                         "rails",
		`uv run --with flask flask run`:                                    "flask",
		`poetry run uvicorn app:app`:                                       "uvicorn",
		`pipenv run python manage.py runserver`:                            "django",
		`exec gunicorn app:app`:                                            "gunicorn",
		`uv run hypercorn app:app --bind 127.0.0.1:8000`:                   "hypercorn",
		`poetry run waitress-serve --listen=127.0.0.1:8080 wsgi:app`:       "waitress",
		// An interpreter's script or module still names the program.
		`python3 -X dev manage.py runserver`: "django",
		`python -m uvicorn main:app`:         "uvicorn",
		`python3 -m hypercorn main:app`:      "hypercorn",
		`python3 -m waitress wsgi:app`:       "waitress",
		`php artisan serve`:                  "laravel",
		`./mvnw spring-boot:run`:             "spring-boot",
		`iex -S mix phx.server`:              "phoenix",
	} {
		d, ok := Detect(command, nil, project("plain"))
		if want == "" {
			assert.False(t, ok, "%s: detected %s (%s)", command, presetName(d), d.Reason)
			continue
		}
		if assert.True(t, ok, command) {
			assert.Equal(t, want, d.Preset.Name, "%s: %s", command, d.Reason)
		}
	}
}

func presetName(d Detection) string {
	if d.Preset == nil {
		return ""
	}
	return d.Preset.Name
}

// An interpreter named by its path is the same interpreter.
func TestDetectPythonByPath(t *testing.T) {
	for _, command := range []string{"/usr/bin/python3 worker.py", "/usr/bin/python3 -m mypkg.worker", "./venv/bin/python app.py"} {
		d, ok := Detect(command, nil, project("plain"))
		if assert.True(t, ok, command) {
			assert.Equal(t, "python", d.Preset.Name, command)
		}
	}
}

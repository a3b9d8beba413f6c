package scaffold

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A Flask project's own manage.py is not Django's: init runs the command
// it defines, on Flask's port, and writes no runserver or migrate.
func TestFlaskManagePy(t *testing.T) {
	tests := []struct {
		name, manage, requirements, want string
		port                             int
	}{
		{"flask-script run", "from flask_script import Manager\nmanager = Manager(app)\n\n@manager.command\ndef run():\n    app.run()\n", "Flask-Script==2.0.6\n", "python3 manage.py run", 5000},
		{"flask-script default", "from flask_script import Manager, Server\nmanager.add_command('runserver', Server(host='0.0.0.0', port=8080))\n", "flask\n", "python3 manage.py runserver", 8080},
		{"click FlaskGroup", "from flask.cli import FlaskGroup\ncli = FlaskGroup(create_app=create_app)\n\n@cli.command(\"create_db\")\ndef create_db():\n    pass\n", "flask\n", "python3 manage.py run", 5000},
		{"django", "import os\nos.environ.setdefault('DJANGO_SETTINGS_MODULE', 'x.settings')\n", "Django\n", "python3 manage.py runserver 8000", 8000},
		{"flask and django named", "from flask_script import Manager\n", "django\n", "python3 manage.py runserver 8000", 8000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			require.NoError(t, os.WriteFile(filepath.Join(dir, "manage.py"), []byte(tt.manage), 0o644))
			require.NoError(t, os.WriteFile(filepath.Join(dir, "requirements.txt"), []byte(tt.requirements), 0o644))
			res, err := Generate(Options{Dir: dir})
			require.NoError(t, err)
			require.NotEmpty(t, res.Procs)
			assert.Equal(t, tt.want, res.Procs[len(res.Procs)-1].Command, "the server is written after its tasks")
			assert.Contains(t, string(res.YAML), "port: "+itoa(tt.port))
			if tt.want != "python3 manage.py runserver 8000" {
				assert.NotContains(t, string(res.YAML), "manage.py migrate")
				assert.Contains(t, string(res.YAML), "framework: flask")
			}
		})
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

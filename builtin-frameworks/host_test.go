package frameworks

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// HostOf reads where a dev server listens the way the server does: its
// flag in any of its forms, its variable, else its default.
func TestHostOf(t *testing.T) {
	tests := []struct {
		preset, command string
		env             map[string]string
		host, from      string
	}{
		{"flask", "flask --app app run --port 5001", nil, "127.0.0.1", "default"},
		{"flask", "flask run --host 0.0.0.0", nil, "0.0.0.0", "--host"},
		{"flask", "flask run --host=0.0.0.0", nil, "0.0.0.0", "--host"},
		{"flask", "flask run -h ::", nil, "::", "-h"},
		{"flask", "flask run", map[string]string{"FLASK_RUN_HOST": "0.0.0.0"}, "0.0.0.0", "FLASK_RUN_HOST"},
		{"flask", "FLASK_RUN_HOST=0.0.0.0 flask run", nil, "0.0.0.0", "FLASK_RUN_HOST"},
		{"flask", "sh -c 'cd api && flask run --host 0.0.0.0'", nil, "0.0.0.0", "--host"},
		{"django", "python manage.py runserver", nil, "127.0.0.1", "default"},
		{"django", "python manage.py runserver 8001", nil, "127.0.0.1", "default"},
		{"django", "python manage.py runserver 0.0.0.0:8000", nil, "0.0.0.0", "runserver"},
		{"django", "python manage.py runserver --noreload 0:8000", nil, "0.0.0.0", "runserver"},
		{"django", "python manage.py runserver [::]:8000", nil, "::", "runserver"},
		{"vite", "vite --port 3000", nil, "localhost", "default"},
		{"vite", "vite --host", nil, "0.0.0.0", "--host"},
		{"vite", "vite --host --port 3000", nil, "0.0.0.0", "--host"},
		{"vite", "vite --host 127.0.0.1", nil, "127.0.0.1", "--host"},
		{"uvicorn", "uvicorn main:app", map[string]string{"UVICORN_HOST": "0.0.0.0"}, "0.0.0.0", "UVICORN_HOST"},
		{"hugo", "hugo server --bind 0.0.0.0", nil, "0.0.0.0", "--bind"},
		{"express", "node app.js", nil, "", ""},
	}
	for _, tt := range tests {
		p, ok := Lookup(tt.preset)
		require.True(t, ok, tt.preset)
		host, from := p.HostOf(tt.command, tt.env)
		assert.Equal(t, tt.host, host, tt.command)
		assert.Equal(t, tt.from, from, tt.command)
	}
}

func TestIsLoopback(t *testing.T) {
	for host, want := range map[string]bool{
		"127.0.0.1": true, "127.1.2.3": true, "::1": true, "localhost": true, "LocalHost": true,
		"0.0.0.0": false, "::": false, "192.168.1.4": false, "api": false, "": false,
	} {
		assert.Equal(t, want, IsLoopback(host), host)
	}
}

// A package-manager command's script is what it runs.
func TestScriptBody(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"scripts": {"dev": "vite --host", "start": "node server.js"}}`), 0o644))
	for command, want := range map[string]string{
		"npm run dev": "vite --host", "pnpm dev": "vite --host", "yarn dev": "vite --host", "npm start": "node server.js",
	} {
		body, ok := ScriptBody(command, dir)
		assert.True(t, ok, command)
		assert.Equal(t, want, body, command)
	}
	for _, command := range []string{"vite", "npm run nope", "npx vite"} {
		_, ok := ScriptBody(command, dir)
		assert.False(t, ok, command)
	}
}

// PortOf reads a port from the preset's flag, in any of its forms (an
// address with a port included), its variable, the argument after its
// program, else its default.
func TestPortOf(t *testing.T) {
	tests := []struct {
		preset, command string
		env             map[string]string
		port            int
		from            string
	}{
		{"redis", "redis-server --port 7000", nil, 7000, "--port"},
		{"redis", "redis-server", nil, 6379, "default"},
		{"flask", "flask run --port=5001", nil, 5001, "--port"},
		{"flask", "flask run", map[string]string{"FLASK_RUN_PORT": "5002"}, 5002, "FLASK_RUN_PORT"},
		{"django", "python manage.py runserver", nil, 8000, "default"},
		{"uvicorn", "uvicorn main:app --port 0.0.0.0:8001", nil, 8001, "--port"},
		{"express", "node app.js", map[string]string{"PORT": "4000"}, 4000, "PORT"},
		// http.server takes the port as its argument, after its options.
		{"python-http-server", "python3 -m http.server 15080", nil, 15080, "argument"},
		{"python-http-server", "timeout 60 python3 -m http.server --bind 127.0.0.1 15081", nil, 15081, "argument"},
		{"python-http-server", "python3 -m http.server", nil, 8000, "default"},
	}
	for _, tt := range tests {
		p, ok := Lookup(tt.preset)
		require.True(t, ok, tt.preset)
		port, from := p.PortOf(tt.command, tt.env)
		assert.Equal(t, tt.port, port, tt.command)
		assert.Equal(t, tt.from, from, tt.command)
	}
}

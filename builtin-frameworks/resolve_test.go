package frameworks

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestResolve(t *testing.T) {
	tests := []struct {
		framework, command, dir string
		preset, reason          string // preset "" = none
	}{
		{"auto", "npm run dev", project("vite-app"), "vite", `package.json script "dev" runs "vite"`},
		{"", "python manage.py runserver", project("django-app"), "django", `command "python manage.py runserver" matches /manage\.py\s+runserver(_plus)?\b/`},
		{"none", "redis-server", project("plain"), "", ""},
		{"nginx", "sh ./start-proxy.sh", project("plain"), "nginx", "framework: nginx"},
		{"no-such-preset", "redis-server", project("plain"), "", ""},
		{"auto", "sleep 60", project("plain"), "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.framework+" "+tt.command, func(t *testing.T) {
			d, ok := Resolve(tt.framework, tt.command, nil, tt.dir)
			if tt.preset == "" {
				assert.False(t, ok, "picked %+v", d)
				return
			}
			require.True(t, ok)
			assert.Equal(t, tt.preset, d.Preset.Name)
			assert.Equal(t, tt.reason, d.Reason)
		})
	}
}

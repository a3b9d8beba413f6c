package examples_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/internal/testenv"
)

// The ports of examples/nginx-proxy (its procs.yaml and nginx.conf).
const (
	proxyPort  = 18080
	usersPort  = 18081
	ordersPort = 18082
)

// backendReply is what a backend of the example answers.
type backendReply struct {
	Backend string `json:"backend"`
	Path    string `json:"path"`
}

// TestNginxProxy runs examples/nginx-proxy: nginx starts once both Python
// backends are ready and is ready itself by an HTTP probe; requests through
// nginx reach each backend with the prefix stripped, and do again after a
// backend and nginx are restarted.
func TestNginxProxy(t *testing.T) {
	testenv.LookPath(t, "nginx", "/usr/sbin")
	testenv.LookPath(t, "python3")
	p := newProject(t, "nginx-proxy", proxyPort, usersPort, ordersPort)
	// nginx is in /usr/sbin on Debian, which a user's PATH may lack.
	p.env = append(p.env, "NGINX_BIN="+testenv.LookPath(t, "nginx", "/usr/sbin"))

	out := p.up()
	assert.Contains(t, out, `rule "port.open && http.status == 200" true`, "nginx is ready by its HTTP probe")
	status := p.status()
	assert.Equal(t, "nginx", status["proxy"].Preset)
	require.Equal(t, []string{"orders", "users"}, status["proxy"].DependsOn)

	requireBackends := func() {
		t.Helper()
		var users, orders backendReply
		getJSON(t, fmt.Sprintf("http://127.0.0.1:%d/users/42", proxyPort), &users)
		assert.Equal(t, backendReply{Backend: "users", Path: "/42"}, users)
		getJSON(t, fmt.Sprintf("http://127.0.0.1:%d/orders/7", proxyPort), &orders)
		assert.Equal(t, backendReply{Backend: "orders", Path: "/7"}, orders)
	}
	requireBackends()

	assert.Contains(t, p.mustProcs("restart", "users"), "users ready (run 2")
	assert.Contains(t, p.mustProcs("restart", "proxy"), "proxy ready (run 2")
	requireBackends()
	p.down()
}

package webui

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/procsdev/procs/internal/connguard"
)

// guard admits a request only when it carries the token (as the cookie, or
// once in the URL), names a host the dashboard answers to, and, when it
// changes something, comes from the dashboard's own page.
type guard struct {
	token  string
	cookie string          // the cookie's name, unique per port: cookies ignore ports
	hosts  map[string]bool // allowed Host names; nil: any (an explicit --listen on every address)
}

// newToken returns 32 random bytes in hex.
func newToken() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}

// loopbackHosts are the names a dashboard on loopback answers to: a page
// served from any other name reached it through DNS rebinding.
func loopbackHosts() map[string]bool {
	return map[string]bool{"127.0.0.1": true, "localhost": true, "::1": true}
}

// wrap checks every request before next sees it.
func (g *guard) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !g.hostAllowed(r.Host) {
			refuse(w, http.StatusMisdirectedRequest, "procs ui: Host %q is not this dashboard (open it as 127.0.0.1 or localhost)", r.Host)
			return
		}
		if token := r.URL.Query().Get("token"); token != "" && r.Method == http.MethodGet {
			g.admit(w, r, token)
			return
		}
		if signedIn, stale := g.checkCookie(r); !signedIn {
			if stale {
				// The page signed in to an earlier run of procs on this port.
				w.Header().Set(restartedHeader, "1")
				refuse(w, http.StatusUnauthorized, "procs ui: procs was restarted since this page was opened; run `procs ui` to open it again")
				return
			}
			refuse(w, http.StatusUnauthorized, "procs ui: not signed in; run `procs ui` for a fresh link")
			return
		}
		connguard.SignIn(w, r)
		if r.Method != http.MethodGet && r.Method != http.MethodHead && !sameOrigin(r) {
			refuse(w, http.StatusForbidden, "procs ui: Origin %q is not this dashboard", r.Header.Get("Origin"))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// admit turns the token of an opened link into a cookie and sends the
// browser on to the same page without the token in its address bar.
func (g *guard) admit(w http.ResponseWriter, r *http.Request, token string) {
	if !g.matches(token) {
		refuse(w, http.StatusUnauthorized, "procs ui: this link's token is not this procs' (it was restarted?); run `procs ui` for a fresh link")
		return
	}
	connguard.SignIn(w, r)
	http.SetCookie(w, &http.Cookie{
		Name: g.cookie, Value: g.token, Path: "/",
		HttpOnly: true, SameSite: http.SameSiteStrictMode,
	})
	clean := *r.URL
	q := clean.Query()
	q.Del("token")
	clean.RawQuery = q.Encode()
	http.Redirect(w, r, clean.RequestURI(), http.StatusSeeOther)
}

// restartedHeader marks the refusal of a page signed in to an earlier run
// of procs, which the page shows as such rather than retrying.
const restartedHeader = "X-Procs-Restarted"

// checkCookie says whether the request is signed in to this run, and if not,
// whether it carries the cookie of an earlier run (stale).
func (g *guard) checkCookie(r *http.Request) (signedIn, stale bool) {
	c, err := r.Cookie(g.cookie)
	if err != nil {
		return false, false
	}
	ok := g.matches(c.Value)
	return ok, !ok
}

func (g *guard) matches(token string) bool {
	return subtle.ConstantTimeCompare([]byte(token), []byte(g.token)) == 1
}

func (g *guard) hostAllowed(hostport string) bool {
	if g.hosts == nil {
		return true
	}
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	return g.hosts[strings.ToLower(host)]
}

// sameOrigin says whether a changing request comes from a page of this
// dashboard: browsers send Origin on every POST, so none is refused too.
func sameOrigin(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return false
	}
	u, err := url.Parse(origin)
	if err != nil {
		return false
	}
	return u.Scheme == "http" && strings.EqualFold(u.Host, r.Host)
}

// refuse answers an error as plain text.
func refuse(w http.ResponseWriter, status int, format string, args ...any) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(fmt.Sprintf(format, args...) + "\n"))
}

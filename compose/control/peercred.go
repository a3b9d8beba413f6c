package control

import (
	"errors"
	"log"
	"net"
	"os"

	"github.com/procsdev/procs/internal/osproc"
)

// peerListener accepts only connections from processes of one user,
// checked with the peer's credentials (SO_PEERCRED on Linux,
// LOCAL_PEERCRED on macOS and FreeBSD); others are closed unanswered.
type peerListener struct {
	net.Listener
	uid int
}

// checkPeers wraps ln so that it accepts only the user's own processes,
// where the platform tells who the peer is. Windows does not: there the
// socket's folder, private to the user, is the only guard, and procs says so.
func checkPeers(ln net.Listener) net.Listener {
	if !osproc.Features().PeerCredentials {
		log.Printf("procs: the control socket cannot check who connects on %s; the folder's permissions guard it", osproc.Features().Name)
		return ln
	}
	return &peerListener{Listener: ln, uid: os.Getuid()}
}

// Accept returns the next connection from the allowed user.
func (l *peerListener) Accept() (net.Conn, error) {
	for {
		conn, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		uid, err := peerUID(conn)
		if err == nil && uid == l.uid {
			return conn, nil
		}
		// A refused peer must not end the accept loop, or one stranger
		// could stop the API for everyone.
		conn.Close()
	}
}

// peerUID returns the uid of the process at the other end of a Unix socket.
func peerUID(conn net.Conn) (int, error) {
	uc, ok := conn.(*net.UnixConn)
	if !ok {
		return 0, errors.New("not a unix socket")
	}
	return osproc.PeerUID(uc)
}

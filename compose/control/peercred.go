package control

import (
	"errors"
	"fmt"
	"net"

	"golang.org/x/sys/unix"
)

// peerListener accepts only connections from processes of one user,
// checked with SO_PEERCRED; others are closed unanswered.
type peerListener struct {
	net.Listener
	uid int
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
	raw, err := uc.SyscallConn()
	if err != nil {
		return 0, fmt.Errorf("peer credentials: %w", err)
	}
	var cred *unix.Ucred
	var credErr error
	if err := raw.Control(func(fd uintptr) {
		cred, credErr = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED)
	}); err != nil {
		return 0, fmt.Errorf("peer credentials: %w", err)
	}
	if credErr != nil {
		return 0, fmt.Errorf("peer credentials: %w", credErr)
	}
	return int(cred.Uid), nil
}

package control

import (
	"context"
	"errors"
	"net"
	"net/http"
	"os"
	"strconv"
	"sync"
	"time"
)

// Server timeouts: requests must send their headers promptly; streams set
// their own per-write deadlines (streamWriteTimeout).
const (
	readHeaderTimeout = 5 * time.Second
	idleTimeout       = 2 * time.Minute
)

// NotifyFDEnv names the variable through which `procs up -d` passes a pipe
// to the background procs: Serve writes "ready" to it once it listens.
const NotifyFDEnv = "PROCS_NOTIFY_FD"

// Server serves the control API of one engine on the project's socket.
type Server struct {
	engine Engine
	ep     *endpoint
	http   *http.Server

	served    chan struct{} // closed when the HTTP serve loop has returned
	closeOnce sync.Once
	closeErr  error
	closing   chan struct{} // closed by Close
	// endRequests cancels the context of every request, so streams (events,
	// logs -f, attach) end when the server closes.
	endRequests context.CancelFunc
	ui          uiHook // what POST /v1/ui starts (the web dashboard)
}

// shutdownGrace is how long Close lets requests in flight (the answer to
// `procs down` itself) finish writing before it cuts connections.
const shutdownGrace = 2 * time.Second

// Serve claims the project folder (refusing with an *AlreadyRunningError
// when another procs runs there), listens on its socket and serves the API
// in the background until ctx is done or Close is called.
func Serve(ctx context.Context, e Engine, projectDir string) (*Server, error) {
	ep, err := listen(projectDir)
	if err != nil {
		return nil, err
	}
	s := &Server{engine: e, ep: ep, served: make(chan struct{}), closing: make(chan struct{})}
	requests, endRequests := context.WithCancel(context.Background())
	s.endRequests = endRequests
	s.http = &http.Server{
		Handler:           limitRequests(s.routes()),
		ReadHeaderTimeout: readHeaderTimeout,
		IdleTimeout:       idleTimeout,
		BaseContext:       func(net.Listener) context.Context { return requests },
		ConnContext:       connContext,
		ConnState:         trackConnState,
	}
	go func() {
		defer close(s.served)
		_ = s.http.Serve(limitConns(ep.listener)) // ends with ErrServerClosed or a closed listener
	}()
	go func() {
		select {
		case <-ctx.Done():
			_ = s.Close()
		case <-s.closing:
		}
	}()
	notifyListening()
	return s, nil
}

// Path returns the path of the socket the server listens on.
func (s *Server) Path() string { return s.ep.path }

// Close stops serving, removes the socket and the pid file, and ends every
// open stream.
func (s *Server) Close() error {
	s.closeOnce.Do(func() {
		close(s.closing)
		// Files first: once a client sees its stream end, a new procs may start.
		err := s.ep.close()
		// End the streams, then let answers in flight be written (a client
		// that asked for down must hear yes, not see its connection cut).
		s.endRequests()
		ctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
		defer cancel()
		if shutdownErr := s.http.Shutdown(ctx); shutdownErr != nil {
			err = errors.Join(err, s.http.Close())
		}
		s.closeErr = err
		<-s.served
	})
	return s.closeErr
}

// notifyListening tells a waiting `procs up -d` that the API answers, then
// closes the pipe so no managed process inherits it.
func notifyListening() {
	fdText := os.Getenv(NotifyFDEnv)
	if fdText == "" {
		return
	}
	os.Unsetenv(NotifyFDEnv)
	fd, err := strconv.Atoi(fdText)
	if err != nil || fd < 3 {
		return
	}
	f := os.NewFile(uintptr(fd), "notify")
	_, _ = f.Write([]byte("ready\n"))
	_ = f.Close()
}

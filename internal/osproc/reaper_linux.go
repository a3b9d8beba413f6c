package osproc

import (
	"errors"
	"os"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// ChildExit is how procs learns that a child it started has exited and
// takes its status, without a thread or a goroutine's poller registration
// per child: the pidfd the clone gave (SysProcAttr.PidFD) is watched by
// one epoll instance for the whole process, which one goroutine waits on.
// A shutdown of two hundred children wakes that goroutine a few times for
// all their exits, where each child's own pidfd in Go's poller made a
// wake-up, a look with WNOWAIT, a deregistration and the os package's
// own second pidfd for each.
type ChildExit struct {
	pidfd int
}

// WatchExit asks the start made with attr for the child's pidfd, for Wait.
// Call it before the start; nothing is opened until then.
func WatchExit(attr *syscall.SysProcAttr) *ChildExit {
	ce := &ChildExit{pidfd: -1}
	attr.PidFD = &ce.pidfd
	return ce
}

// Watched reports whether the start gave a pidfd (Linux 5.3 and later):
// then Wait takes the exit; otherwise the caller waits as Go does
// (exec.Cmd.Wait).
func (ce *ChildExit) Watched() bool { return ce != nil && ce.pidfd >= 0 }

// Wait returns once the child pid has exited, and reaps it. Call it
// once, and only when Watched.
func (ce *ChildExit) Wait(pid int) (status syscall.WaitStatus, err error) {
	if exited, err := exitPoller().watch(ce.pidfd); err == nil {
		<-exited
	} // else the wait4 below blocks its thread until the exit, as Go's own does.
	// The child has exited: this reaps it without blocking. By pid, not
	// by the pidfd, since the status is a wait4's.
	for {
		_, err = syscall.Wait4(pid, &status, 0, nil)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	// Closing the last descriptor of the pidfd also takes it out of the
	// epoll set.
	_ = unix.Close(ce.pidfd)
	ce.pidfd = -1
	return status, err
}

// exitPoller is the process's one watch of its children's pidfds, made on
// first use.
var exitPoller = sync.OnceValue(func() *pidfdPoller {
	p := &pidfdPoller{epfd: -1, waiting: make(map[int32]chan struct{})}
	p.epfd, p.err = unix.EpollCreate1(unix.EPOLL_CLOEXEC)
	if p.err == nil {
		// Non-blocking: os.NewFile then registers it with the poller.
		p.err = unix.SetNonblock(p.epfd, true)
	}
	if p.err != nil {
		return p
	}
	// The epoll instance is itself readable while any pidfd in it is: Go's
	// poller waits on it, so no thread is blocked in epoll_wait (a thread
	// in a system call is one more for the scheduler to hand its P from,
	// and its wake-ups cost more than the look saved).
	conn, err := os.NewFile(uintptr(p.epfd), "pidfds").SyscallConn()
	if err != nil {
		p.err = err
		return p
	}
	go p.loop(conn)
	return p
})

// pidfdPoller watches pidfds for their children's exits.
type pidfdPoller struct {
	epfd int
	err  error // why there is no epoll instance
	mu   sync.Mutex
	// waiting holds, for each pidfd watched, the channel closed when its
	// child exits.
	waiting map[int32]chan struct{}
}

// watch returns a channel closed once the child of pidfd has exited (at
// once if it has already: a pidfd is readable from then on).
func (p *pidfdPoller) watch(pidfd int) (<-chan struct{}, error) {
	if p.err != nil {
		return nil, p.err
	}
	exited := make(chan struct{})
	p.mu.Lock()
	p.waiting[int32(pidfd)] = exited
	p.mu.Unlock()
	// One-shot: a pidfd stays readable once its child has exited, and is
	// told once.
	ev := unix.EpollEvent{Events: unix.EPOLLIN | unix.EPOLLONESHOT, Fd: int32(pidfd)}
	if err := unix.EpollCtl(p.epfd, unix.EPOLL_CTL_ADD, pidfd, &ev); err != nil {
		p.mu.Lock()
		delete(p.waiting, int32(pidfd))
		p.mu.Unlock()
		return nil, err
	}
	return exited, nil
}

// loop tells each exit, for as long as procs lives: it waits in Go's
// poller until some child has exited, and takes every exit ready then.
// An idle procs wakes for nothing here.
func (p *pidfdPoller) loop(conn syscall.RawConn) {
	events := make([]unix.EpollEvent, 128)
	take := func(uintptr) bool { return p.takeReady(events) }
	for {
		if err := conn.Read(take); err != nil {
			break
		}
	}
	// The poller gave up on the instance (it does not, on a descriptor
	// that stays open): every wait must still end, so this thread waits
	// in epoll_wait itself from now on.
	for {
		if n, err := unix.EpollWait(p.epfd, events, -1); err == nil {
			p.tell(events[:n])
		}
	}
}

// takeReady tells the exits ready now, and reports whether there were
// any: none, and the poller waits for the next.
func (p *pidfdPoller) takeReady(events []unix.EpollEvent) bool {
	for {
		n, err := unix.EpollWait(p.epfd, events, 0)
		switch {
		case errors.Is(err, unix.EINTR):
			continue
		case err != nil || n == 0:
			return false
		}
		p.tell(events[:n])
		return true
	}
}

// tell closes the channel of each pidfd in events.
func (p *pidfdPoller) tell(events []unix.EpollEvent) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, ev := range events {
		if exited := p.waiting[ev.Fd]; exited != nil {
			delete(p.waiting, ev.Fd)
			close(exited)
		}
	}
}

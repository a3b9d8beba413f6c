package osproc

import (
	"fmt"
	"slices"

	"github.com/shirou/gopsutil/v4/net"
)

// Listener is one listening TCP socket and the process holding it.
type Listener struct {
	Port int
	PID  int
}

// ListeningPortsOf returns the TCP ports (IPv4 and IPv6, LISTEN state)
// that any of pids listens on, sorted, through gopsutil: on macOS and
// FreeBSD it runs lsof once per process, on Windows it reads the TCP
// table. Linux has a faster path of its own (rules reads /proc) and uses
// this one only in the test that compares the two.
func ListeningPortsOf(pids []int) ([]int, error) {
	var ports []int
	var firstErr error
	for _, pid := range pids {
		conns, err := net.ConnectionsPid("tcp", int32(pid))
		if err != nil {
			// A process that exits meanwhile has no sockets.
			if firstErr == nil && Alive(pid) {
				firstErr = fmt.Errorf("listening ports of %d: %w", pid, err)
			}
			continue
		}
		for _, c := range conns {
			if c.Status == "LISTEN" {
				ports = append(ports, int(c.Laddr.Port))
			}
		}
	}
	slices.Sort(ports)
	ports = slices.Compact(ports)
	if len(ports) == 0 && firstErr != nil {
		return nil, firstErr
	}
	return ports, nil
}

// Listeners returns every listening TCP socket of the machine that can be
// seen (another user's may not be), through gopsutil.
func Listeners() ([]Listener, error) {
	conns, err := net.Connections("tcp")
	if err != nil {
		return nil, fmt.Errorf("read listening sockets: %w", err)
	}
	var out []Listener
	for _, c := range conns {
		if c.Status == "LISTEN" {
			out = append(out, Listener{Port: int(c.Laddr.Port), PID: int(c.Pid)})
		}
	}
	return out, nil
}

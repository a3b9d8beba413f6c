package rules

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// procRoot is where procfs is mounted.
const procRoot = "/proc"

// tcpListenState is the kernel's TCP_LISTEN as /proc/net/tcp writes it.
const tcpListenState = "0A"

// listenTables are the socket tables holding IPv4 and IPv6 listeners.
var listenTables = []string{procRoot + "/net/tcp", procRoot + "/net/tcp6"}

// tcpListeners maps the inode of every listening TCP socket (IPv4 and IPv6)
// in this network namespace to its port. It asks the kernel for listeners
// only (sock_diag), which walks the listening sockets alone; reading
// /proc/net/tcp walks every bucket of the connection table however few
// sockets there are, and is the fallback where netlink is not allowed.
func tcpListeners() (map[uint64]int, error) {
	if listeners, err := diagListeners(); err == nil {
		return listeners, nil
	}
	return procListeners()
}

// procListeners is tcpListeners read from /proc/net/tcp{,6}. It fails only
// when no table can be read (a kernel without IPv6 has no tcp6).
func procListeners() (map[uint64]int, error) {
	listeners := make(map[uint64]int)
	var firstErr error
	read := 0
	for _, table := range listenTables {
		data, err := os.ReadFile(table)
		if err != nil {
			if firstErr == nil {
				firstErr = fmt.Errorf("read listening sockets: %w", err)
			}
			continue
		}
		read++
		parseTCPTable(data, listeners)
	}
	if read == 0 {
		return nil, firstErr
	}
	return listeners, nil
}

// parseTCPTable adds the LISTEN sockets of one /proc/net/tcp{,6} table:
// "sl local_address rem_address st ... uid timeout inode ...", with the
// local address as HEXIP:HEXPORT.
func parseTCPTable(data []byte, into map[uint64]int) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Scan() // the header
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 10 || fields[3] != tcpListenState {
			continue
		}
		colon := strings.LastIndexByte(fields[1], ':')
		if colon < 0 {
			continue
		}
		port, err := strconv.ParseUint(fields[1][colon+1:], 16, 16)
		if err != nil {
			continue
		}
		inode, err := strconv.ParseUint(fields[9], 10, 64)
		if err != nil || inode == 0 {
			continue
		}
		into[inode] = int(port)
	}
}

// socketInodes calls fn with the inode of each socket pid has open. It
// reads nothing it cannot: a process that exits meanwhile, or one of
// another user, simply has no sockets.
func socketInodes(pid int, fn func(inode uint64)) {
	dir := procRoot + "/" + strconv.Itoa(pid) + "/fd"
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		link, err := os.Readlink(dir + "/" + e.Name())
		if err != nil || !strings.HasPrefix(link, "socket:[") {
			continue
		}
		inode, err := strconv.ParseUint(strings.TrimSuffix(link[len("socket:["):], "]"), 10, 64)
		if err == nil {
			fn(inode)
		}
	}
}

package rules

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// The parts of the kernel's sock_diag interface (linux/inet_diag.h) that
// listing TCP listeners needs; golang.org/x/sys has the constants but not
// these structures.
const (
	tcpListen = 10 // TCP_LISTEN
	// sizeofInetDiagReqV2 is struct inet_diag_req_v2: family, protocol,
	// ext, pad, states (u32), then a 48-byte inet_diag_sockid.
	sizeofInetDiagReqV2 = 56
	// In struct inet_diag_msg: the socket's source port (big-endian, in
	// its inet_diag_sockid) and its inode.
	diagMsgSportOffset = 4
	diagMsgInodeOffset = 68
	sizeofInetDiagMsg  = 72
)

// diagBuffers are the receive buffers of dumps: watchers ask several times
// a second, and a fresh 32 KiB each time would be garbage.
var diagBuffers = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

// diagListeners asks the kernel for the listening TCP sockets, IPv4 and
// IPv6, of this network namespace, as tcpListeners maps them.
func diagListeners() (map[uint64]int, error) {
	fd, err := unix.Socket(unix.AF_NETLINK, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, unix.NETLINK_SOCK_DIAG)
	if err != nil {
		return nil, fmt.Errorf("sock_diag: %w", err)
	}
	defer unix.Close(fd)
	listeners := make(map[uint64]int)
	for _, family := range []uint8{unix.AF_INET, unix.AF_INET6} {
		if err := dumpListeners(fd, family, listeners); err != nil {
			return nil, err
		}
	}
	return listeners, nil
}

// dumpListeners sends one dump request for family's TCP listeners and adds
// each answer to into.
func dumpListeners(fd int, family uint8, into map[uint64]int) error {
	req := make([]byte, unix.SizeofNlMsghdr+sizeofInetDiagReqV2)
	binary.NativeEndian.PutUint32(req[0:], uint32(len(req)))
	binary.NativeEndian.PutUint16(req[4:], unix.SOCK_DIAG_BY_FAMILY)
	binary.NativeEndian.PutUint16(req[6:], unix.NLM_F_REQUEST|unix.NLM_F_DUMP)
	body := req[unix.SizeofNlMsghdr:]
	body[0], body[1] = family, unix.IPPROTO_TCP
	binary.NativeEndian.PutUint32(body[4:], 1<<tcpListen)
	if err := unix.Sendto(fd, req, 0, &unix.SockaddrNetlink{Family: unix.AF_NETLINK}); err != nil {
		return fmt.Errorf("sock_diag: %w", err)
	}
	buf := diagBuffers.Get().(*[]byte)
	defer diagBuffers.Put(buf)
	for {
		n, _, err := unix.Recvfrom(fd, *buf, 0)
		if err != nil {
			return fmt.Errorf("sock_diag: %w", err)
		}
		msgs, err := syscall.ParseNetlinkMessage((*buf)[:n])
		if err != nil {
			return fmt.Errorf("sock_diag: %w", err)
		}
		for _, m := range msgs {
			switch m.Header.Type {
			case unix.NLMSG_DONE:
				return nil
			case unix.NLMSG_ERROR:
				return errors.New("sock_diag: the kernel refused the request")
			}
			if len(m.Data) < sizeofInetDiagMsg {
				continue
			}
			port := binary.BigEndian.Uint16(m.Data[diagMsgSportOffset:])
			inode := binary.NativeEndian.Uint32(m.Data[diagMsgInodeOffset:])
			into[uint64(inode)] = int(port)
		}
	}
}

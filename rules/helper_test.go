package rules

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// helperEnv makes the test binary act as a child process (the helper
// process pattern): "listen" opens listeners and prints their ports,
// "parent" runs a "listen" grandchild and relays its output. Both live until
// their stdin closes.
const helperEnv = "PROCS_RULES_HELPER"

func TestMain(m *testing.M) {
	switch os.Getenv(helperEnv) {
	case "listen":
		helperListen()
	case "parent":
		helperParent()
	default:
		os.Exit(m.Run())
	}
}

// helperListen listens on IPv4 and, where the host has it, IPv6, prints
// "PID PORT..." and waits for stdin to close.
func helperListen() {
	var ports []string
	for _, addr := range [][2]string{{"tcp4", "127.0.0.1:0"}, {"tcp6", "[::1]:0"}} {
		l, err := net.Listen(addr[0], addr[1])
		if err != nil {
			continue
		}
		defer l.Close()
		ports = append(ports, strconv.Itoa(l.Addr().(*net.TCPAddr).Port))
	}
	fmt.Printf("%d %s\n", os.Getpid(), strings.Join(ports, " "))
	_, _ = io.Copy(io.Discard, os.Stdin)
	os.Exit(0)
}

// helperParent starts a listening grandchild sharing its stdin and stdout.
func helperParent() {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"=listen")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		os.Exit(1)
	}
	os.Exit(0)
}

// helperChild is a running helper process.
type helperChild struct {
	cmd      *exec.Cmd
	stdin    io.WriteCloser
	listener int   // PID of the process holding the listeners
	ports    []int // their ports
}

// startHelper starts the test binary in mode and waits for its ports line.
// The child ends when the test does.
func startHelper(t testing.TB, mode string) *helperChild {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"="+mode)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start helper: %v", err)
	}
	t.Cleanup(func() {
		stdin.Close()
		_ = cmd.Wait()
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("read helper ports: %v", err)
	}
	fields := strings.Fields(line)
	h := &helperChild{cmd: cmd, stdin: stdin}
	h.listener, _ = strconv.Atoi(fields[0])
	for _, f := range fields[1:] {
		port, _ := strconv.Atoi(f)
		h.ports = append(h.ports, port)
	}
	return h
}

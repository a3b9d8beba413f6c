//go:build unix

package osproc

import (
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const waitLimit = 10 * time.Second

// startTree starts sh with two sleeping children in a group of its own.
func startTree(t *testing.T) *exec.Cmd {
	t.Helper()
	cmd := exec.Command("sh", "-c", "sleep 300 & sleep 300 & wait")
	cmd.Env = append(os.Environ(), "PROCS_OSPROC_TEST=marker")
	cmd.SysProcAttr = GroupAttrs()
	require.NoError(t, Start(cmd))
	t.Cleanup(func() { _ = SignalGroup(cmd.Process.Pid, syscall.SIGKILL); _ = cmd.Wait() })
	require.Eventually(t, func() bool { return len(ChildrenOf(cmd.Process.Pid)) == 2 }, waitLimit, 10*time.Millisecond)
	return cmd
}

func TestProcessTreeAndParents(t *testing.T) {
	cmd := startTree(t)
	root := cmd.Process.Pid
	tree, err := ProcessTree(root)
	require.NoError(t, err)
	require.Len(t, tree, 3)
	assert.Equal(t, root, tree[0], "root first")
	parents := Parents()
	for _, child := range tree[1:] {
		assert.Equal(t, root, parents[child])
		assert.Equal(t, root, ParentOf(child))
		assert.Contains(t, CommandLine(child), "sleep 300")
	}
	assert.Equal(t, os.Getpid(), parents[root])
	assert.Contains(t, AllPIDs(), root)

	_, err = ProcessTree(1 << 30)
	assert.True(t, errors.Is(err, os.ErrNotExist), "%v", err)
}

func TestEnvironAndStartTime(t *testing.T) {
	cmd := startTree(t)
	env, err := Environ(cmd.Process.Pid)
	require.NoError(t, err)
	assert.True(t, slices.Contains(strings.Split(string(env), "\x00"), "PROCS_OSPROC_TEST=marker"))
	child, ok := StartTime(cmd.Process.Pid)
	require.True(t, ok)
	self, ok := StartTime(os.Getpid())
	require.True(t, ok)
	assert.GreaterOrEqual(t, child, self, "the child started after the test")
	_, ok = StartTime(1 << 30)
	assert.False(t, ok)
}

// TestAppendEnvironAppendsOrLeavesTheBuffer: the environment is appended
// to what the buffer holds, whatever its capacity (it grows), and a
// process that is gone leaves the buffer as it was.
func TestAppendEnvironAppendsOrLeavesTheBuffer(t *testing.T) {
	cmd := startTree(t)
	want, err := Environ(cmd.Process.Pid)
	require.NoError(t, err)
	for _, capacity := range []int{0, 8, 1 << 16} {
		buf := append(make([]byte, 0, capacity), "head"...)
		got := AppendEnviron(buf, cmd.Process.Pid)
		assert.Equal(t, append([]byte("head"), want...), got, "capacity %d", capacity)
	}
	buf := []byte("head")
	assert.Equal(t, []byte("head"), AppendEnviron(buf, 1<<30))
}

// TestStartTimeNowIsNoLaterThanWhatStartsAfter: a process forked after
// StartTimeNow started at it or later, one that ran before at it or
// earlier, and the clock is StartTime's (the two agree within a second).
func TestStartTimeNowIsNoLaterThanWhatStartsAfter(t *testing.T) {
	self, ok := StartTime(os.Getpid())
	require.True(t, ok)
	// How many of StartTime's units a second holds, to tell that the
	// clock is StartTime's: a child starts within a second of it.
	before := StartTimeNow()
	time.Sleep(100 * time.Millisecond)
	perSecond := (StartTimeNow() - before) * 10
	for range 20 {
		now := StartTimeNow()
		assert.LessOrEqual(t, self, now)
		cmd := exec.Command("true")
		require.NoError(t, cmd.Start())
		child, ok := StartTime(cmd.Process.Pid)
		require.True(t, ok)
		require.NoError(t, cmd.Wait())
		assert.GreaterOrEqual(t, child, now)
		assert.LessOrEqual(t, child-now, perSecond)
	}
}

func TestSignalGroupReachesTheWholeGroup(t *testing.T) {
	cmd := startTree(t)
	pgid := cmd.Process.Pid
	got, err := Getpgid(ChildrenOf(pgid)[0])
	require.NoError(t, err)
	assert.Equal(t, pgid, got, "the children are in the leader's group")
	assert.NotEqual(t, Getpgrp(), pgid)
	require.True(t, GroupAlive(pgid))
	require.NoError(t, SignalGroup(pgid, syscall.SIGKILL))
	WaitGone(pgid)
	assert.Eventually(t, func() bool { return !GroupAlive(pgid) }, waitLimit, 10*time.Millisecond)
	assert.False(t, Alive(pgid))
}

func TestPeerUIDIsTheUsersOwn(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.sock")
	ln, err := net.Listen("unix", path)
	require.NoError(t, err)
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		conn, _ := ln.Accept()
		accepted <- conn
	}()
	client, err := net.Dial("unix", path)
	require.NoError(t, err)
	defer client.Close()
	var server net.Conn
	select {
	case server = <-accepted:
	case <-time.After(waitLimit):
		t.Fatal("no connection")
	}
	require.NotNil(t, server)
	defer server.Close()
	uid, err := PeerUID(server.(*net.UnixConn))
	require.NoError(t, err)
	assert.Equal(t, os.Getuid(), uid)
}

func TestLockFileIsExclusive(t *testing.T) {
	path := filepath.Join(t.TempDir(), "procs.pid")
	first, err := os.Create(path)
	require.NoError(t, err)
	defer first.Close()
	require.NoError(t, LockFile(first))
	second, err := os.Open(path)
	require.NoError(t, err)
	defer second.Close()
	assert.ErrorIs(t, LockFile(second), ErrLocked)
	require.NoError(t, first.Close())
	assert.NoError(t, LockFile(second), "the lock goes with its holder")
	info, err := os.Stat(path)
	require.NoError(t, err)
	uid, ok := FileOwner(info)
	require.True(t, ok)
	assert.Equal(t, os.Getuid(), uid)
}

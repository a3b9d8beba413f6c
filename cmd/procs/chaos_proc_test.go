//go:build unix

package main

// The process-table side of TestChaos: what procs started, what is alive.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/procsdev/procs/compose/control"
	"github.com/stretchr/testify/require"
)

func (c *chaos) procsPID() int {
	data, err := os.ReadFile(filepath.Join(c.dir, ".procs", "procs.pid"))
	require.NoError(c.t, err)
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	require.NoError(c.t, err)
	return pid
}

// marked lists live processes whose environment carries CHAOS=tag.
func (c *chaos) marked(tag string) []int {
	entries, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err == nil && strings.Contains(string(env), "\x00CHAOS="+tag+"\x00") && isAlive(pid) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// daemons lists the pids the daemonizer's env-less daemons wrote.
func (c *chaos) daemons() []int {
	data, _ := os.ReadFile(filepath.Join(c.dir, "daemons"))
	var pids []int
	for _, f := range strings.Fields(string(data)) {
		if pid, err := strconv.Atoi(f); err == nil {
			pids = append(pids, pid)
		}
	}
	return pids
}

func aliveOf(pids []int) []int {
	var out []int
	for _, pid := range pids {
		if isAlive(pid) {
			out = append(out, pid)
		}
	}
	return out
}

// isAlive: the pid exists and is not a zombie.
func isAlive(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	return len(fields) > 0 && fields[0] != "Z"
}

// descendants is pid and every process below it.
func descendants(pid int) []int {
	tree := []int{pid}
	for i := 0; i < len(tree); i++ {
		tasks, _ := os.ReadDir(fmt.Sprintf("/proc/%d/task", tree[i]))
		for _, task := range tasks {
			data, _ := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/children", tree[i], task.Name()))
			for _, f := range strings.Fields(string(data)) {
				if child, err := strconv.Atoi(f); err == nil {
					tree = append(tree, child)
				}
			}
		}
	}
	return tree
}

func openFDs(pid int) int {
	entries, _ := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	return len(entries)
}

func cmdline(pid int) string {
	data, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	return strings.TrimSpace(strings.ReplaceAll(string(data), "\x00", " "))
}

// goroutines asks the running procs how many goroutines it runs.
func (c *chaos) goroutines() int {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	client, err := control.DialContext(ctx, c.dir)
	require.NoError(c.t, err)
	defer client.Close()
	info, err := client.Info(ctx)
	require.NoError(c.t, err)
	return info.Goroutines
}

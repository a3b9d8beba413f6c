//go:build unix

package floor

import (
	"bufio"
	"fmt"
	"io"
	"os/exec"
	"sync"
	"syscall"
	"time"
)

// child is one forked process and what the floor knows of it.
type child struct {
	cmd    *exec.Cmd
	exited chan struct{}
}

// Run forks n children in shape, waits for all their first lines, then
// ends them, and says how long each half took.
func Run(n int, shape Shape) (Result, error) {
	children := make([]*child, n)
	var res Result
	began := time.Now()
	if err := launch(children, shape); err != nil {
		stopAll(children)
		return res, err
	}
	res.AllReady = time.Since(began)
	stopping := time.Now()
	if shape == Tree {
		stopTree(children)
	} else {
		stopAll(children)
	}
	res.Down = time.Since(stopping)
	return res, nil
}

// launch forks every child, each once its parent (Tree) is ready, and
// returns once all have printed their first line.
func launch(children []*child, shape Shape) error {
	ready := make([]chan struct{}, len(children))
	for i := range ready {
		ready[i] = make(chan struct{})
	}
	errs := make(chan error, len(children))
	var wg sync.WaitGroup
	for i := range children {
		wg.Go(func() {
			if shape == Tree && i > 0 {
				<-ready[(i-1)/2]
			}
			c, err := start(ready[i])
			children[i] = c
			if err != nil {
				errs <- err
				close(ready[i])
			}
		})
	}
	for _, r := range ready {
		<-r
	}
	wg.Wait()
	select {
	case err := <-errs:
		return err
	default:
		return nil
	}
}

// start forks one child in a process group of its own and closes ready
// when its first line has been read.
func start(ready chan<- struct{}) (*child, error) {
	cmd := exec.Command("sh", "-c", "echo ready; exec sleep 1000")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("fork sh: %w", err)
	}
	c := &child{cmd: cmd, exited: make(chan struct{})}
	go func() {
		r := bufio.NewReader(out)
		_, _ = r.ReadString('\n')
		close(ready)
		_, _ = io.Copy(io.Discard, r) // until the child exits
		_ = cmd.Wait()
		close(c.exited)
	}()
	return c, nil
}

// stopAll signals every child's group, then waits for all of them.
func stopAll(children []*child) {
	for _, c := range children {
		if c != nil {
			_ = syscall.Kill(-c.cmd.Process.Pid, syscall.SIGTERM)
		}
	}
	for _, c := range children {
		if c != nil {
			<-c.exited
		}
	}
}

// stopTree signals each child once its own children (2i+1, 2i+2) have
// exited: the leaves first, the root last.
func stopTree(children []*child) {
	var wg sync.WaitGroup
	for i, c := range children {
		wg.Go(func() {
			for _, k := range []int{2*i + 1, 2*i + 2} {
				if k < len(children) {
					<-children[k].exited
				}
			}
			_ = syscall.Kill(-c.cmd.Process.Pid, syscall.SIGTERM)
			<-c.exited
		})
	}
	wg.Wait()
}

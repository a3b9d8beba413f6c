package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/procsdev/procs/internal/fakeagent"
	"github.com/procsdev/procs/internal/testenv"
)

// tuiDeadline bounds every wait of the dashboard scripts.
const tuiDeadline = 30 * time.Second

// TestTUIScripts runs testdata/tui_*.txtar: procs tui (and procs up --tui)
// in a real terminal, a tmux pane, driven by keys as a person would and
// read back with capture-pane.
func TestTUIScripts(t *testing.T) {
	tmux := testenv.LookPath(t, "tmux")
	testscript.Run(t, testscript.Params{
		Files:     globFiles(t, "testdata/tui_*.txtar"),
		Condition: testenv.ScriptCondition,
		Setup: func(env *testscript.Env) error {
			env.Setenv("XDG_RUNTIME_DIR", env.WorkDir)
			env.Setenv("FAKEAGENT", fakeagent.Script())
			env.Setenv("TMUX_BIN", tmux)
			socket := filepath.Join(env.WorkDir, "tmux.sock")
			env.Setenv("TMUX_SOCKET", socket)
			env.Defer(func() {
				_ = exec.Command(tmux, "-S", socket, "kill-server").Run()
				stopLeftover(filepath.Join(env.WorkDir, ".procs", "procs.pid"))
			})
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"tmuxstart": cmdTmuxStart,
			"tmuxrestart": func(ts *testscript.TestScript, neg bool, args []string) {
				// The old session goes only once the new one exists: a tmux
				// server with no session left exits, and a new session
				// started while it does fails ("server exited unexpectedly").
				tmuxRun(ts, "rename-session", "-t", "tui", "tui-old")
				cmdTmuxStart(ts, neg, args)
				tmuxRun(ts, "kill-session", "-t", "tui-old")
			},
			"tmuxsignal": cmdTmuxSignal,
			"tmuxkeys":   cmdTmuxKeys,
			"tmuxtype":   cmdTmuxType,
			"tmuxexpect": cmdTmuxExpect,
			"tmuxselect": cmdTmuxSelect,
			"tmuxresize": cmdTmuxResize,
			"tmuxtitle":  cmdTmuxTitle,
		},
	})
}

// tmuxRun runs tmux on the script's own server.
func tmuxRun(ts *testscript.TestScript, args ...string) string {
	cmd := exec.Command(ts.Getenv("TMUX_BIN"), append([]string{"-S", ts.Getenv("TMUX_SOCKET")}, args...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		ts.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// cmdTmuxStart runs a command line in a new 120x40 tmux pane in the
// script's folder: tmuxstart [VAR=VALUE...] CMD ARGS...; when it exits the
// pane shows "[exited N]" and stays.
func cmdTmuxStart(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: tmuxstart [VAR=VALUE...] CMD ARGS...")
	}
	env := []string{"PATH=" + ts.Getenv("PATH"), "XDG_RUNTIME_DIR=" + ts.Getenv("XDG_RUNTIME_DIR"), "HOME=" + ts.Getenv("HOME"), "TERM=xterm-256color"}
	for len(args) > 0 && strings.Contains(args[0], "=") {
		env, args = append(env, args[0]), args[1:]
	}
	line := "env -i " + shellQuote(env...) + " " + shellQuote(args...) + `; echo "[exited $?]"; sleep 600`
	tmuxRun(ts, "-f", "/dev/null", "new-session", "-d", "-s", "tui", "-x", "120", "-y", "40", "-c", ts.MkAbs("."), line)
}

func shellQuote(words ...string) string {
	quoted := make([]string, len(words))
	for i, w := range words {
		quoted[i] = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
	}
	return strings.Join(quoted, " ")
}

// cmdTmuxSignal sends a signal (TERM, HUP) to the command tmuxstart
// runs: the child of the pane's shell.
func cmdTmuxSignal(ts *testscript.TestScript, neg bool, args []string) {
	sigs := map[string]syscall.Signal{"TERM": syscall.SIGTERM, "HUP": syscall.SIGHUP, "INT": syscall.SIGINT}
	if neg || len(args) != 1 || sigs[args[0]] == 0 {
		ts.Fatalf("usage: tmuxsignal TERM|HUP|INT")
	}
	shell := strings.TrimSpace(tmuxRun(ts, "display-message", "-p", "-t", "tui", "#{pane_pid}"))
	out, err := exec.Command("pgrep", "-P", shell).Output()
	ts.Check(err)
	pid, err := strconv.Atoi(strings.Fields(string(out))[0])
	ts.Check(err)
	proc, err := os.FindProcess(pid)
	ts.Check(err)
	ts.Check(proc.Signal(sigs[args[0]]))
}

// cmdTmuxKeys presses keys, named as tmux send-keys names them (Enter,
// C-], Escape, j).
func cmdTmuxKeys(ts *testscript.TestScript, neg bool, args []string) {
	for _, k := range args {
		tmuxRun(ts, "send-keys", "-t", "tui", k)
	}
}

// cmdTmuxType types text literally.
func cmdTmuxType(ts *testscript.TestScript, neg bool, args []string) {
	tmuxRun(ts, "send-keys", "-t", "tui", "-l", strings.Join(args, " "))
}

// cmdTmuxResize resizes the pane's window: tmuxresize COLS ROWS.
func cmdTmuxResize(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: tmuxresize COLS ROWS")
	}
	tmuxRun(ts, "resize-window", "-t", "tui", "-x", args[0], "-y", args[1])
}

// capture is the pane's text now; with colours, its escape codes too.
func capture(ts *testscript.TestScript, colours bool) string {
	args := []string{"capture-pane", "-p", "-t", "tui"}
	if colours {
		args = append(args, "-e")
	}
	return tmuxRun(ts, args...)
}

// cmdTmuxExpect waits until the pane shows a match of each regex (with
// -e, of the text with its escape codes), and a match of none of those
// written !REGEX, and writes the pane to stdout; ! tmuxexpect REGEX checks
// the pane does not show it now.
func cmdTmuxExpect(ts *testscript.TestScript, neg bool, args []string) {
	colours := len(args) > 0 && args[0] == "-e"
	if colours {
		args = args[1:]
	}
	var res, absent []*regexp.Regexp
	for _, a := range args {
		gone, isGone := strings.CutPrefix(a, "!")
		re, err := regexp.Compile("(?m)" + gone)
		ts.Check(err)
		if isGone && !neg {
			absent = append(absent, re)
		} else {
			res = append(res, re)
		}
	}
	matches := func(screen string) bool {
		for _, re := range res {
			if !re.MatchString(screen) {
				return false
			}
		}
		for _, re := range absent {
			if re.MatchString(screen) {
				return false
			}
		}
		return true
	}
	screen := capture(ts, colours)
	if neg {
		for _, re := range res {
			if re.MatchString(screen) {
				ts.Fatalf("the pane shows /%s/:\n%s", re, screen)
			}
		}
		return
	}
	// The pane has no event to wait on: read it again until it matches.
	deadline := time.Now().Add(tuiDeadline)
	for !matches(screen) {
		if time.Now().After(deadline) {
			ts.Fatalf("the pane never showed %q:\n%s", args, screen)
		}
		time.Sleep(100 * time.Millisecond)
		screen = capture(ts, colours)
	}
	fmt.Fprint(ts.Stdout(), screen)
}

// cmdTmuxTitle waits until the pane's title (what the program in it set
// with OSC 2, as a terminal's window or tab shows it) matches a regex;
// ! tmuxtitle REGEX checks it does not now.
func cmdTmuxTitle(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: tmuxtitle REGEX")
	}
	re, err := regexp.Compile(args[0])
	ts.Check(err)
	title := func() string {
		return strings.TrimSuffix(tmuxRun(ts, "display-message", "-p", "-t", "tui", "#{pane_title}"), "\n")
	}
	if neg {
		if t := title(); re.MatchString(t) {
			ts.Fatalf("the pane's title is %q", t)
		}
		return
	}
	// As for the pane's text, tmux has no event to wait on.
	deadline := time.Now().Add(tuiDeadline)
	for t := title(); !re.MatchString(t); t = title() {
		if time.Now().After(deadline) {
			ts.Fatalf("the pane's title never matched /%s/: it is %q", re, t)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// cmdTmuxSelect moves the selection to a process: tmuxselect NAME.
func cmdTmuxSelect(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: tmuxselect NAME")
	}
	for range 20 {
		tmuxRun(ts, "send-keys", "-t", "tui", "k")
	}
	// Every k must be taken before the first j is sent: a j taken among
	// them moves the selection on after this has seen it on NAME.
	for deadline := time.Now().Add(5 * time.Second); selectedName(ts) != firstRowName(ts) && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}
	for range 20 {
		current := selectedName(ts)
		if current == args[0] {
			return
		}
		tmuxRun(ts, "send-keys", "-t", "tui", "j")
		// Wait for the dashboard to move the selection.
		for deadline := time.Now().Add(5 * time.Second); selectedName(ts) == current && time.Now().Before(deadline); {
			time.Sleep(20 * time.Millisecond)
		}
	}
	ts.Fatalf("could not select %s:\n%s", args[0], capture(ts, false))
}

// firstRowName is the name on the first row of the process list that can
// be selected, below its NAME header: a replicated process's header row
// cannot, its first instance below it can.
func firstRowName(ts *testscript.TestScript) string {
	lines := strings.Split(capture(ts, false), "\n")
	for i, line := range lines {
		if f := strings.Fields(line); len(f) > 0 && f[0] == "NAME" && i+1 < len(lines) {
			if i+2 < len(lines) && isInstanceRow(lines[i+2]) {
				return rowName(lines[i+2])
			}
			return rowName(lines[i+1])
		}
	}
	return ""
}

// selectedName is the name on the selected row of the process list.
func selectedName(ts *testscript.TestScript) string {
	for _, line := range strings.Split(capture(ts, false), "\n") {
		if strings.HasPrefix(line, "> ") {
			return rowName(line)
		}
	}
	return ""
}

// rowName is the name on a row of the process list, without the
// selection mark nor the tree mark of an instance.
func rowName(line string) string {
	f := strings.Fields(strings.TrimPrefix(line, "> "))
	if len(f) > 1 && (f[0] == "├" || f[0] == "└") {
		return f[1]
	}
	if len(f) > 0 {
		return f[0]
	}
	return ""
}

// isInstanceRow says whether a row is an instance of a replicated process.
func isInstanceRow(line string) bool {
	f := strings.Fields(strings.TrimPrefix(line, "> "))
	return len(f) > 0 && (f[0] == "├" || f[0] == "└")
}

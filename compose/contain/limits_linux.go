package contain

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/procsdev/procs/internal/osproc"
	"github.com/procsdev/procs/rules"
)

// limitControllers are the cgroup controllers of the limits, in the
// order of Limits.names (each limit is its controller's name).
var limitControllers = []string{"memory", "cpu", "pids"}

// cpuPeriod is the period of a CPU limit, in microseconds: the kernel's
// default, 100ms; a limit of 1.5 cores is 150ms of CPU time in each.
const cpuPeriod = 100000

// limitPlace is where one controller's limits go for the runs of an
// engine: the run's own cgroup v2, or a cgroup of the run under dir, the
// engine's folder in the cgroup v1 hierarchy of that controller.
type limitPlace struct {
	v2  bool
	dir string // the engine's folder, in the v2 or the v1 hierarchy
}

// limitSet knows, for one engine, where each limit can be enforced. It is
// made on the engine's first run with limits: an engine without them
// touches no cgroup controller.
type limitSet struct {
	places map[string]limitPlace
	// whyNot says, for a controller with no place, what is missing.
	whyNot map[string]string
}

// newLimitSet finds a place for each controller: the cgroups v2 of the
// engine (cg, nil when it has none) where the controller is enabled for
// them or procs may enable it, else a writable cgroup v1 hierarchy of the
// controller, where a folder for the engine is made.
func newLimitSet(instance string, cg *cgroupSet) *limitSet {
	ls := &limitSet{places: map[string]limitPlace{}, whyNot: map[string]string{}}
	if off := limitsOff(); off != "" {
		for _, ctrl := range limitControllers {
			ls.whyNot[ctrl] = off
		}
		return ls
	}
	for _, ctrl := range limitControllers {
		if cg != nil && enableV2(cg.base, ctrl) {
			ls.places[ctrl] = limitPlace{v2: true, dir: cg.base}
			continue
		}
		dir, err := v1EngineDir(ctrl, instance)
		if err != nil {
			ls.whyNot[ctrl] = "no writable cgroup " + ctrl + " controller"
			continue
		}
		ls.places[ctrl] = limitPlace{dir: dir}
	}
	return ls
}

// limitsOff says why no limit is enforced at all ("" when they may be).
func limitsOff() string {
	switch {
	case os.Getenv(NoCgroupsVar) == "off":
		return "cgroups turned off by " + NoCgroupsVar
	case !osproc.Features().Cgroups:
		return "cgroups turned off by " + osproc.PortableEnv
	}
	return ""
}

// missing returns why the limits of l that have no place cannot be
// enforced, or nil.
func (ls *limitSet) missing(l Limits) error {
	var names, whys []string
	for _, name := range l.names() {
		if why, ok := ls.whyNot[name]; ok {
			names = append(names, name)
			if !slices.Contains(whys, why) {
				whys = append(whys, why)
			}
		}
	}
	if len(names) == 0 {
		return nil
	}
	why := strings.Join(whys, "; ")
	if strings.HasPrefix(why, "no writable cgroup ") && len(whys) == len(names) && len(names) > 1 {
		why = "no writable cgroup " + strings.Join(names, "/") + " controller"
	}
	return &LimitsError{Limits: names, Why: why}
}

// v1Dirs are the engine's folders in the cgroup v1 hierarchies.
func (ls *limitSet) v1Dirs() []string {
	var dirs []string
	for _, ctrl := range limitControllers {
		if p, ok := ls.places[ctrl]; ok && !p.v2 && !slices.Contains(dirs, p.dir) {
			dirs = append(dirs, p.dir)
		}
	}
	return dirs
}

// close removes the engine's cgroup v1 folders (the v2 ones go with the
// engine's cgroup), killing what is left in them.
func (ls *limitSet) close() {
	for _, dir := range ls.v1Dirs() {
		killCgroup(dir)
		removeCgroup(dir)
	}
}

// enableV2 makes ctrl available to the runs under base, the engine's
// cgroup v2: it must be enabled in the subtree of base's parent (procs may
// enable it there only where nothing forbids it: the root cgroup, an
// empty delegated one), then in base's own.
func enableV2(base, ctrl string) bool {
	if !hasWord(filepath.Join(base, "cgroup.controllers"), ctrl) {
		_ = os.WriteFile(filepath.Join(filepath.Dir(base), "cgroup.subtree_control"), []byte("+"+ctrl), 0)
		if !hasWord(filepath.Join(base, "cgroup.controllers"), ctrl) {
			return false
		}
	}
	return os.WriteFile(filepath.Join(base, "cgroup.subtree_control"), []byte("+"+ctrl), 0) == nil
}

// hasWord reports whether file holds word among its space-separated words.
func hasWord(file, word string) bool {
	data, err := os.ReadFile(file)
	return err == nil && slices.Contains(strings.Fields(string(data)), word)
}

// v1EngineDir makes the folder of the engine instance in the cgroup v1
// hierarchy of ctrl, under the cgroup procs is in there, after removing
// those of procs that are gone.
func v1EngineDir(ctrl, instance string) (string, error) {
	own, err := ownV1Dir(ctrl)
	if err != nil {
		return "", err
	}
	cleanStaleCgroups(own)
	dir := filepath.Join(own, cgroupPrefix+instance)
	if err := os.Mkdir(dir, 0o755); err != nil && !errors.Is(err, os.ErrExist) {
		return "", err
	}
	return dir, nil
}

// ownV1Dir is the folder of the cgroup v1 of ctrl that this process is
// in.
func ownV1Dir(ctrl string) (string, error) {
	mount, root, err := cgroup1Mount(ctrl)
	if err != nil {
		return "", err
	}
	data, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return "", err
	}
	for _, line := range strings.Split(string(data), "\n") {
		// ID:CONTROLLERS:PATH
		parts := strings.SplitN(line, ":", 3)
		if len(parts) == 3 && slices.Contains(strings.Split(parts[1], ","), ctrl) {
			rel, err := filepath.Rel(root, parts[2])
			if err != nil || strings.HasPrefix(rel, "..") {
				return "", fmt.Errorf("cgroup %s is outside the mounted hierarchy", parts[2])
			}
			return filepath.Join(mount, rel), nil
		}
	}
	return "", errors.New("not in a cgroup v1 of " + ctrl)
}

// cgroup1Mount finds where the cgroup v1 hierarchy of ctrl is mounted
// (read-write), and which of its folders is the root of that mount.
func cgroup1Mount(ctrl string) (mount, root string, err error) {
	mount, root, found, err := findMount(func(fields, fs []string) bool {
		return fs[0] == "cgroup" && slices.Contains(strings.Split(fs[2], ","), ctrl) &&
			slices.Contains(strings.Split(fields[5], ","), "rw")
	})
	if err == nil && !found {
		err = errors.New("no cgroup v1 of " + ctrl + " mounted")
	}
	return mount, root, err
}

// runLimits are the cgroups that hold one run to its limits.
type runLimits struct {
	limits Limits
	// memory and cpu are the folders of the run's cgroups of those
	// controllers ("" without the limit), v2 when memoryV2, cpuV2.
	memory, cpu     string
	memoryV2, cpuV2 bool
	v1Dirs          []string // made for the run, removed at its end
	v2Dir           string   // the run's cgroup v2, removed with the run (cgroupSet.kill)
}

// limitRun makes the cgroups that hold owner's run to l and writes the
// limits into them, before anything of the run starts: the run's cgroup
// v2, into which it is cloned, and its cgroups v1, which the run enters
// itself (cmd is wrapped in a shell step that does so, then executes the
// command): a child forked before that would escape them. It returns nil
// when no limit can be enforced here (procs check and up say so).
func (s *spawner) limitRun(cmd *exec.Cmd, owner Owner, l Limits) (*runLimits, error) {
	e := s.engine(owner)
	if e == nil {
		return nil, nil
	}
	ls := e.limitSet(s)
	r := &runLimits{limits: l}
	name := runCgroupName(owner)
	dirOf := func(ctrl string) (string, bool, error) {
		place, ok := ls.places[ctrl]
		if !ok {
			return "", false, nil
		}
		dir := filepath.Join(place.dir, name)
		if place.v2 {
			r.v2Dir = dir
		} else if !slices.Contains(r.v1Dirs, dir) {
			r.v1Dirs = append(r.v1Dirs, dir)
		}
		if err := os.Mkdir(dir, 0o755); err != nil && !errors.Is(err, os.ErrExist) {
			return "", false, err
		}
		return dir, place.v2, nil
	}
	if err := r.write(dirOf); err != nil {
		r.remove()
		if r.v2Dir != "" {
			removeCgroup(r.v2Dir)
		}
		return nil, fmt.Errorf("set resource limits: %w", err)
	}
	if len(r.v1Dirs) == 0 && r.v2Dir == "" {
		return nil, nil
	}
	if len(r.v1Dirs) > 0 {
		enterV1(cmd, r.v1Dirs)
	}
	return r, nil
}

// write makes the run's cgroup of each limit set (dirOf) and writes the
// limit into it.
func (r *runLimits) write(dirOf func(ctrl string) (string, bool, error)) error {
	l := r.limits
	if l.Memory != 0 {
		dir, v2, err := dirOf("memory")
		switch {
		case err != nil:
			return err
		case dir != "" && v2:
			err = writeLimit(dir, "memory.max", strconv.FormatInt(l.Memory, 10))
			// Swap would let the run go past its memory slowly instead of
			// being held to it.
			_ = os.WriteFile(filepath.Join(dir, "memory.swap.max"), []byte("0"), 0)
		case dir != "":
			err = writeLimit(dir, "memory.limit_in_bytes", strconv.FormatInt(l.Memory, 10))
			_ = os.WriteFile(filepath.Join(dir, "memory.memsw.limit_in_bytes"), []byte(strconv.FormatInt(l.Memory, 10)), 0)
		}
		if err != nil {
			return err
		}
		r.memory, r.memoryV2 = dir, v2
	}
	if l.CPU != 0 {
		dir, v2, err := dirOf("cpu")
		quota := strconv.Itoa(max(int(l.CPU*cpuPeriod), 1000))
		switch {
		case err != nil:
			return err
		case dir != "" && v2:
			err = writeLimit(dir, "cpu.max", quota+" "+strconv.Itoa(cpuPeriod))
		case dir != "":
			err = writeLimit(dir, "cpu.cfs_period_us", strconv.Itoa(cpuPeriod))
			if err == nil {
				err = writeLimit(dir, "cpu.cfs_quota_us", quota)
			}
		}
		if err != nil {
			return err
		}
		r.cpu, r.cpuV2 = dir, v2
	}
	if l.Pids != 0 {
		dir, _, err := dirOf("pids")
		if err == nil && dir != "" {
			err = writeLimit(dir, "pids.max", strconv.Itoa(l.Pids))
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func writeLimit(dir, file, value string) error {
	if err := os.WriteFile(filepath.Join(dir, file), []byte(value), 0); err != nil {
		return fmt.Errorf("write %s %s: %w", file, value, err)
	}
	return nil
}

// enterV1 makes cmd move itself into the cgroups v1 dirs before it runs
// its program: a shell step writes its pid into each and executes the
// command in its place (same pid, same process group). A shell command
// (sh -c SCRIPT) gets the step in front of its script instead.
func enterV1(cmd *exec.Cmd, dirs []string) {
	var step strings.Builder
	for i, dir := range dirs {
		if i > 0 {
			step.WriteString(" && ")
		}
		step.WriteString("echo $$ > '" + filepath.Join(dir, "cgroup.procs") + "'")
	}
	step.WriteString(" || exit 125\n")
	if len(cmd.Args) == 3 && cmd.Args[0] == "sh" && cmd.Args[1] == "-c" {
		cmd.Args = []string{"sh", "-c", step.String() + cmd.Args[2]}
		return
	}
	cmd.Args = append([]string{"sh", "-c", step.String() + `exec "$0" "$@"`, cmd.Path}, cmd.Args[1:]...)
	cmd.Path = "/bin/sh"
}

// memoryKill says, after the run's main process was killed, whether the
// kernel killed in the run's memory cgroup at its limit: its OOM kill
// count rose (the cgroup is the run's own, so from 0).
func (r *runLimits) memoryKill() *rules.MemoryLimit {
	if r == nil || r.memory == "" {
		return nil
	}
	events, peak := "memory.oom_control", "memory.max_usage_in_bytes"
	if r.memoryV2 {
		events, peak = "memory.events", "memory.peak"
	}
	if kills, _ := keyedValue(filepath.Join(r.memory, events), "oom_kill"); kills == 0 {
		return nil
	}
	used, _ := readInt(filepath.Join(r.memory, peak))
	return &rules.MemoryLimit{Limit: r.limits.Memory, Peak: used}
}

// remove removes the run's cgroups v1 once what is left in them is gone
// (its cgroup v2 goes with the engine's cgroups, when the run ends).
func (r *runLimits) remove() {
	if r == nil {
		return
	}
	for _, dir := range r.v1Dirs {
		killCgroup(dir)
		removeCgroup(dir)
	}
}

// limitSet returns the limit set of the engine, making it on first use
// (and telling the watchdog its cgroups v1, to remove should procs die).
func (e *enrolled) limitSet(s *spawner) *limitSet {
	e.limitsMu.Lock()
	defer e.limitsMu.Unlock()
	if e.limits == nil {
		e.limits = newLimitSet(e.instance, e.cgroups)
		for _, dir := range e.limits.v1Dirs() {
			e.watchdog.send("C " + dir)
		}
	}
	return e.limits
}

// limitsIfMade returns the engine's limit set, nil when none of its runs
// had limits.
func (e *enrolled) limitsIfMade() *limitSet {
	e.limitsMu.Lock()
	defer e.limitsMu.Unlock()
	return e.limits
}

// RunCPUThrottled says how long the processes of owner's run have been
// held at its CPU limit since it started; ok is false when the run has no
// CPU limit enforced (or is over).
func RunCPUThrottled(owner Owner) (throttled time.Duration, ok bool) {
	e := getSpawner().engine(owner)
	if e == nil {
		return 0, false
	}
	ls := e.limitsIfMade()
	if ls == nil {
		return 0, false
	}
	place, found := ls.places["cpu"]
	if !found {
		return 0, false
	}
	stat := filepath.Join(place.dir, runCgroupName(owner), "cpu.stat")
	if place.v2 {
		usec, ok := keyedValue(stat, "throttled_usec")
		return time.Duration(usec) * time.Microsecond, ok
	}
	nsec, ok := keyedValue(stat, "throttled_time")
	return time.Duration(nsec), ok
}

// keyedValue reads the value of key in a flat keyed file ("key value"
// lines: memory.events, cpu.stat).
func keyedValue(file, key string) (int64, bool) {
	data, err := os.ReadFile(file)
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(data), "\n") {
		if value, ok := strings.CutPrefix(line, key+" "); ok {
			n, err := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
			return n, err == nil
		}
	}
	return 0, false
}

// readInt reads a file holding one number.
func readInt(file string) (int64, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return 0, err
	}
	return strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64)
}

// LimitsAvailable says which of the limits l cannot be enforced here, and
// why (a *LimitsError; nil: all of them can), by making the cgroups an
// engine would and removing them.
func LimitsAvailable(l Limits) error {
	if l.IsZero() {
		return nil
	}
	instance := NewInstance()
	cg, _ := newCgroupSet(instance)
	ls := newLimitSet(instance, cg)
	ls.close()
	if cg != nil {
		cg.close()
	}
	return ls.missing(l)
}

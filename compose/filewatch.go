package compose

import (
	"context"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/procsdev/procs/compose/config"
)

// defaultDebounce is how long changes must pause before a watch restarts.
const defaultDebounce = 300 * time.Millisecond

// fileWatch turns file changes under a project into one call of changed
// per burst of changes (after the debounce), for one process's watch:.
type fileWatch struct {
	dir      string // the project folder; paths and globs are relative to it
	globs    []string
	ignore   []string
	debounce time.Duration
	fsw      *fsnotify.Watcher
}

// newFileWatch prepares a watch of w's paths, relative to dir.
func newFileWatch(dir string, w *config.Watch) (*fileWatch, error) {
	fsw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	fw := &fileWatch{dir: dir, ignore: w.Ignore, debounce: w.Debounce.D(), fsw: fsw}
	if fw.debounce <= 0 {
		fw.debounce = defaultDebounce
	}
	for _, p := range w.Paths {
		p = filepath.ToSlash(filepath.Clean(p))
		root, glob := globRoot(p)
		if !glob {
			info, err := os.Stat(filepath.Join(dir, p))
			if err != nil || !info.IsDir() {
				// One file: its folder is watched, for editors that replace files.
				fw.globs = append(fw.globs, p)
				_ = fsw.Add(filepath.Join(dir, path.Dir(p)))
				continue
			}
			p = strings.TrimSuffix(p, "/") + "/**"
		}
		fw.globs = append(fw.globs, p)
		fw.addTree(filepath.Join(dir, root))
	}
	return fw, nil
}

// globRoot returns the folder before the first segment with a wildcard,
// and whether there is one.
func globRoot(p string) (string, bool) {
	parts := strings.Split(p, "/")
	for i, part := range parts {
		if strings.ContainsAny(part, "*?[") {
			return strings.Join(parts[:i], "/"), true
		}
	}
	return p, false
}

// addTree watches folder root and every folder under it that is not
// ignored. A root that does not exist yet is waited for from the nearest
// folder above it that does (its creation adds it).
func (fw *fileWatch) addTree(root string) {
	for dir := root; ; {
		if _, err := os.Stat(dir); err == nil {
			if dir != root {
				_ = fw.fsw.Add(dir)
				return
			}
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir || !strings.HasPrefix(parent, fw.dir) {
			return
		}
		dir = parent
	}
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		if p != root && fw.ignored(p) {
			return filepath.SkipDir
		}
		_ = fw.fsw.Add(p)
		return nil
	})
}

// run reports bursts of changes to changed until ctx ends.
func (fw *fileWatch) run(ctx context.Context, changed func(file string)) {
	defer fw.fsw.Close()
	quiet := time.NewTimer(time.Hour)
	quiet.Stop()
	defer quiet.Stop()
	var last string
	for {
		select {
		case ev, ok := <-fw.fsw.Events:
			if !ok {
				return
			}
			if ev.Has(fsnotify.Create) {
				if info, err := os.Stat(ev.Name); err == nil && info.IsDir() && !fw.ignored(ev.Name) {
					fw.addTree(ev.Name)
				}
			}
			if ev.Op == fsnotify.Chmod || !fw.matches(ev.Name) {
				continue
			}
			last = ev.Name
			quiet.Reset(fw.debounce)
		case _, ok := <-fw.fsw.Errors:
			if !ok {
				return
			}
		case <-quiet.C:
			rel, err := filepath.Rel(fw.dir, last)
			if err != nil {
				rel = last
			}
			changed(rel)
		case <-ctx.Done():
			return
		}
	}
}

// matches says whether a changed file counts: under a watched path and
// not ignored.
func (fw *fileWatch) matches(file string) bool {
	rel, err := filepath.Rel(fw.dir, file)
	if err != nil || fw.ignored(file) {
		return false
	}
	rel = filepath.ToSlash(rel)
	return slices.ContainsFunc(fw.globs, func(g string) bool { return matchGlob(g, rel) })
}

// ignored says whether a path is in a default-ignored folder or matches
// one of the ignore globs (as a relative path or by its name).
func (fw *fileWatch) ignored(file string) bool {
	rel, err := filepath.Rel(fw.dir, file)
	if err != nil {
		return true
	}
	rel = filepath.ToSlash(rel)
	for _, part := range strings.Split(rel, "/") {
		if slices.Contains(config.DefaultWatchIgnore, part) {
			return true
		}
	}
	for _, g := range fw.ignore {
		if matchGlob(g, rel) || matchGlob(g, path.Base(rel)) || matchGlob(strings.TrimSuffix(g, "/")+"/**", rel) {
			return true
		}
	}
	return false
}

// matchGlob matches a slash-separated path against a glob in which **
// stands for any number of folders (none included).
func matchGlob(glob, name string) bool {
	return matchParts(strings.Split(glob, "/"), strings.Split(name, "/"))
}

func matchParts(glob, name []string) bool {
	for len(glob) > 0 {
		if glob[0] == "**" {
			for i := 0; i <= len(name); i++ {
				if matchParts(glob[1:], name[i:]) {
					return true
				}
			}
			return false
		}
		if len(name) == 0 {
			return false
		}
		if ok, _ := path.Match(glob[0], name[0]); !ok {
			return false
		}
		glob, name = glob[1:], name[1:]
	}
	return len(name) == 0
}

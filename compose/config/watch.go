package config

import (
	"fmt"
	"path"
	"strings"
)

// Watch restarts a process when files change. In the file it is a list of
// paths or globs, or {paths, ignore, debounce}.
type Watch struct {
	// Paths are files, folders (watched with everything under them) or
	// globs (** matches any number of folders), relative to procs.yaml.
	Paths []string `json:"paths"`
	// Ignore are globs of paths not to react to, beside the default ones
	// (.git, node_modules, .procs, __pycache__).
	Ignore []string `json:"ignore,omitempty"`
	// Debounce is how long changes must pause before the restart (default 300ms).
	Debounce Duration `json:"debounce,omitempty"`
}

// DefaultWatchIgnore are the folders a watch never reacts to.
var DefaultWatchIgnore = []string{".git", "node_modules", ".procs", "__pycache__"}

// watch reads watch: a list of paths, or {paths, ignore, debounce}.
func (d *decoder) watch(path []string, v any) *Watch {
	if v == nil {
		return nil
	}
	if _, isMap := v.(map[string]any); !isMap {
		w := &Watch{Paths: d.stringList(path, v)}
		// Anything but a list has had its error from stringList.
		if _, isList := v.([]any); isList && len(w.Paths) == 0 {
			d.p.atValue(path, "watch needs at least one path or glob, e.g. watch: [\"**/*.go\"]")
		}
		d.checkGlobs(path, w.Paths)
		return w
	}
	m, ok := d.mapping(path, v, watchKeys)
	if !ok {
		return nil
	}
	w := &Watch{
		Paths:    d.stringList(child(path, "paths"), m["paths"]),
		Ignore:   d.stringList(child(path, "ignore"), m["ignore"]),
		Debounce: d.duration(child(path, "debounce"), m["debounce"]),
	}
	if len(w.Paths) == 0 {
		d.p.atKey(path, "missing paths: the files, folders or globs to watch, e.g. paths: [\"**/*.go\"]")
	}
	d.checkGlobs(child(path, "paths"), w.Paths)
	d.checkGlobs(child(path, "ignore"), w.Ignore)
	return w
}

// checkGlobs reports each of globs, the list at at, that the watch's
// matching (path.Match, segment by segment) refuses: it would never
// match, and a watch that never fires looks like one with nothing to do.
func (d *decoder) checkGlobs(at []string, globs []string) {
	for i, glob := range globs {
		if _, err := path.Match(glob, ""); err != nil {
			d.p.atValue(index(at, i), "%s is not a glob: %s", fmt.Sprintf("%q", glob), globFault(glob))
		}
	}
}

// globFault says what is wrong with a glob path.Match refuses.
func globFault(glob string) string {
	if strings.HasSuffix(glob, `\`) && !strings.HasSuffix(glob, `\\`) {
		return `it ends in a \ that escapes nothing (write \\ for a \ itself)`
	}
	return `a [ must be closed by ] (write \[ for a [ itself)`
}

// watchKeys are the keys of watch in its map form.
var watchKeys = jsonKeys[Watch]()

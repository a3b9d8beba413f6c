// Package frameworks holds the built-in presets: how to recognise a common
// server or tool and how it says it is ready or has failed.
package frameworks

// Known reports whether name is a built-in preset, or one of the special
// values "auto" and "none".
func Known(name string) bool {
	if name == "auto" || name == "none" || name == "" {
		return true
	}
	for _, n := range Names() {
		if n == name {
			return true
		}
	}
	return false
}

// Names lists the built-in presets in sorted order.
func Names() []string {
	// Placeholder until the embedded preset files land.
	return []string{"django", "flask", "nextjs", "postgres", "redis", "vite"}
}

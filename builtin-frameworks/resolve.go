package frameworks

// Resolve picks the preset of a process from its framework setting, as the
// engine does: "none" picks nothing, "" and "auto" (the default) use Detect
// on the command and working directory, and any other value names a preset
// (Reason "framework: NAME"). It reports false when no preset applies.
func Resolve(framework, command string, argv []string, dir string) (Detection, bool) {
	switch framework {
	case "none":
		return Detection{}, false
	case "", "auto":
		return Detect(command, argv, dir)
	}
	p, ok := Lookup(framework)
	if !ok {
		return Detection{}, false
	}
	return Detection{Preset: p, Reason: "framework: " + framework}, true
}

package main

import "runtime/debug"

// buildVersion is set at release time with -ldflags "-X main.buildVersion=v1.2.3".
var buildVersion = ""

// version reports the release version, or the module version and VCS
// revision the binary was built from.
func version() string {
	if buildVersion != "" {
		return buildVersion
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "dev"
	}
	v := info.Main.Version
	if v == "" || v == "(devel)" {
		v = "dev"
	}
	for _, s := range info.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			v += " (" + s.Value[:12] + ")"
		}
	}
	return v
}

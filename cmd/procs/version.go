package main

import "runtime/debug"

// buildVersion and buildCommit are set at release time (.goreleaser.yaml):
// -ldflags "-X main.buildVersion=v1.2.3 -X main.buildCommit=<sha>".
var (
	buildVersion = ""
	buildCommit  = ""
)

// version reports the release version and commit, or, for a binary built
// another way, what Go recorded: the module version of `go install
// ...@v1.2.3`, or the VCS revision of a build in a checkout.
func version() string {
	info, _ := debug.ReadBuildInfo()
	return versionFrom(buildVersion, buildCommit, info)
}

// versionFrom is version from its inputs: what the linker set wins over
// what the build info says, and "dev" names a build that knows neither.
func versionFrom(ver, commit string, info *debug.BuildInfo) string {
	dirty := false
	if info != nil {
		if v := info.Main.Version; ver == "" && v != "" && v != "(devel)" {
			ver = v
		}
		if commit == "" {
			commit = buildSetting(info, "vcs.revision")
			dirty = buildSetting(info, "vcs.modified") == "true"
		}
	}
	if ver == "" {
		ver = "dev"
	}
	if commit == "" {
		return ver
	}
	if len(commit) > 12 {
		commit = commit[:12]
	}
	if dirty {
		commit += ", modified"
	}
	return ver + " (commit " + commit + ")"
}

// buildSetting is the value of one key of the build info's settings.
func buildSetting(info *debug.BuildInfo, key string) string {
	for _, s := range info.Settings {
		if s.Key == key {
			return s.Value
		}
	}
	return ""
}

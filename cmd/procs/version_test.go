package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestVersionFrom(t *testing.T) {
	const sha = "0123456789abcdef0123456789abcdef01234567"
	checkout := &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: sha}, {Key: "vcs.modified", Value: "true"},
	}}
	tests := []struct {
		name, ver, commit string
		info              *debug.BuildInfo
		want              string
	}{
		{"a release: the linker's version and commit", "v1.2.3", sha, checkout, "v1.2.3 (commit 0123456789ab)"},
		{"go install ...@v1.2.3: the module version", "", "", &debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}}, "v1.2.3"},
		{"a build in a checkout: its revision", "", "", checkout, "dev (commit 0123456789ab, modified)"},
		{"go build stamps a pseudo-version", "", "", &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20260101000000-0123456789ab"}, Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: sha}}}, "v0.0.0-20260101000000-0123456789ab (commit 0123456789ab)"},
		{"nothing known", "", "", nil, "dev"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, versionFrom(tt.ver, tt.commit, tt.info))
		})
	}
}

// The flags .goreleaser.yaml passes set what procs --version prints: a
// renamed variable would make releases print "dev" again.
func TestVersionFromReleaseLdflags(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "procs")
	build := exec.Command("go", "build", "-o", bin,
		"-ldflags", "-X main.buildVersion=v9.8.7 -X main.buildCommit=fedcba9876543210fedcba9876543210fedcba98", ".")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "%s", out)
	out, err = exec.Command(bin, "--version").Output()
	require.NoError(t, err)
	assert.Contains(t, string(out), "procs v9.8.7 (commit fedcba987654)\n")
}

// The release config sets both variables version reads.
func TestGoreleaserSetsTheVersionVariables(t *testing.T) {
	config, err := os.ReadFile("../../.goreleaser.yaml")
	require.NoError(t, err)
	assert.Contains(t, string(config), "-X main.buildVersion=v{{ .Version }}")
	assert.Contains(t, string(config), "-X main.buildCommit={{ .FullCommit }}")
}

package config

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// nameLists are the lists of names didYouMean chooses from: the keys of
// each mapping of the format, and the words of its word values.
func nameLists() map[string][]string {
	return map[string][]string{
		"top keys": topKeys, "process keys": procKeys, "dependency keys": dependencyKeys,
		"restart keys": restartKeys, "healthcheck keys": healthcheckKeys, "shutdown keys": shutdownKeys,
		"autoRespond keys": autoRespondKeys, "onIdle keys": onIdleKeys, "pty keys": ptyKeys,
		"ui keys": uiKeys, "logs keys": logsKeys, "watch keys": watchKeys,
		"restart policies": restartPolicies, "conditions": conditionWords,
	}
}

// TestForeignNamesHint walks foreignNames: every procs name it points to
// is a name of the format, and every list holding it suggests it for the
// foreign name, however far apart they are spelled.
func TestForeignNamesHint(t *testing.T) {
	for foreign, name := range foreignNames {
		used := false
		for what, list := range nameLists() {
			if !slices.Contains(list, name) {
				continue
			}
			used = true
			assert.Equal(t, fmt.Sprintf(" (did you mean %q?)", name), didYouMean(foreign, list), "%s → %s among the %s", foreign, name, what)
		}
		assert.True(t, used, "foreignNames[%q] = %q, which is no name of the format", foreign, name)
	}
}

// TestForeignNamesInAConfig: a docker compose habit in procs.yaml is an
// error, at its place, saying what procs calls it.
func TestForeignNamesInAConfig(t *testing.T) {
	src := `procs:
  api:
    command: x
    working_dir: ./api
    environment: {PORT: "8080"}
    restart: unless-stopped
  web:
    command: y
    depends_on: [api]
    dependsOn: {api: service_healthy}
`
	_, err := Parse("procs.yaml", []byte(src), []string{})
	var errs ConfigErrors
	require.ErrorAs(t, err, &errs)
	var got []string
	for _, e := range errs {
		got = append(got, e.Error())
	}
	assert.Equal(t, []string{
		`procs.yaml:4:5: procs.api.working_dir: unknown key "working_dir" (did you mean "cwd"?)`,
		`procs.yaml:5:5: procs.api.environment: unknown key "environment" (did you mean "env"?)`,
		`procs.yaml:6:14: procs.api.restart: "unless-stopped" is not a restart policy (did you mean "always"?): use no, on-failure, always`,
		`procs.yaml:9:5: procs.web.depends_on: unknown key "depends_on" (did you mean "dependsOn"?)`,
		`procs.yaml:10:22: procs.web.dependsOn.api: "service_healthy" is not a condition (did you mean "ready"?): use started, ready, completed`,
	}, got)
}

// TestOtherToolsNamesOfCommandAndDirectory: the names other tools give a
// process's command (a Dockerfile's CMD, Kubernetes' and many a runner's
// cmd) and its working directory (WORKDIR, Kubernetes' workingDir, CI
// runners' working-directory, Taskfile's dir) hint at procs' own. "cmd"
// is one letter from "cwd", which edit distance alone suggested: the
// wrong key, for the first line most users write.
func TestOtherToolsNamesOfCommandAndDirectory(t *testing.T) {
	for word, want := range map[string]string{
		"cmd": "command", "workdir": "cwd", "workingDir": "cwd", "working-directory": "cwd",
		"working_directory": "cwd", "dir": "cwd",
	} {
		assert.Equal(t, fmt.Sprintf(" (did you mean %q?)", want), didYouMean(word, procKeys), word)
	}
}

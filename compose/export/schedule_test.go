package export_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	batchv1 "k8s.io/api/batch/v1"
	"sigs.k8s.io/yaml"

	"github.com/procsdev/procs/compose/export"
	"github.com/procsdev/procs/compose/export/dockercompose"
	"github.com/procsdev/procs/compose/export/kube"
	"github.com/procsdev/procs/compose/export/systemd"
)

// scheduled is a project with a task on a cron schedule (in a timezone),
// one every 30m (which a CronJob can say), one every 45m (which it
// cannot), and a service.
const scheduled = `procs:
  backup: {kind: task, command: echo backup, schedule: {cron: "0 2 * * *", timezone: Europe/Paris}}
  report: {kind: task, command: echo report, schedule: {every: 30m}}
  sweep: {kind: task, command: echo sweep, schedule: {every: 45m}}
  api: {command: python3 -m http.server 8000, port: 8000}
`

// exportText exports the config text in f, with what it said.
func exportText(t *testing.T, text string, f export.Format, names ...string) (*export.Project, *export.Output) {
	t.Helper()
	p, err := export.New(loadText(t, text), export.Options{Names: names})
	require.NoError(t, err)
	out, err := f.Export(p)
	require.NoError(t, err)
	return p, out
}

// fileData is the content of the file called name, "" when none is.
func fileData(out *export.Output, name string) string {
	for _, f := range out.Files {
		if f.Name == name {
			return string(f.Data)
		}
	}
	return ""
}

// warningTexts are the warnings as printed.
func warningTexts(out *export.Output) []string {
	var said []string
	for _, w := range out.Warnings {
		said = append(said, w.String())
	}
	return said
}

// assertSaid checks that a warning holds each of parts.
func assertSaid(t *testing.T, out *export.Output, parts ...string) {
	t.Helper()
	said := warningTexts(out)
	assert.True(t, slices.ContainsFunc(said, func(s string) bool {
		for _, part := range parts {
			if !strings.Contains(s, part) {
				return false
			}
		}
		return true
	}), "want a warning with %q, got:\n%s", parts, strings.Join(said, "\n"))
}

// A scheduled task is exported, not dropped: systemd gets a timer that
// the target wants in place of the service, which stays a oneshot that
// the timer can start again; no Persistent=, as procs runs no missed time.
func TestScheduledTaskSystemd(t *testing.T) {
	p, out := exportText(t, scheduled, systemd.Format{})
	target := fileData(out, p.Name+".target")
	assert.Contains(t, target, p.Name+"-backup.timer")
	assert.NotContains(t, target, p.Name+"-backup.service")
	assert.Contains(t, target, p.Name+"-api.service")

	service := fileData(out, p.Name+"-backup.service")
	require.NotEmpty(t, service)
	assert.Contains(t, service, "Type=oneshot")
	assert.NotContains(t, service, "RemainAfterExit=yes", "a oneshot that stays active is never started again by its timer")

	timer := fileData(out, p.Name+"-backup.timer")
	require.NotEmpty(t, timer, "files: %v", out.Files)
	assert.Contains(t, timer, "\nOnCalendar=*-*-* 02:00:00 Europe/Paris\n")
	assert.Contains(t, timer, "\nPartOf="+p.Name+".target\n")
	assert.NotContains(t, timer, "Persistent=true")

	every := fileData(out, p.Name+"-report.timer")
	assert.Contains(t, every, "\nOnActiveSec=1800s\n")
	assert.Contains(t, every, "\nOnUnitActiveSec=1800s\n")
}

// Named on the command line, a scheduled task still gets its timer.
func TestScheduledTaskNamedSystemd(t *testing.T) {
	p, out := exportText(t, scheduled, systemd.Format{}, "backup")
	assert.Contains(t, fileData(out, p.Name+"-backup.timer"), "OnCalendar=")
	assert.NotContains(t, fileData(out, p.Name+".target"), "backup.service")
}

// cronJobs decodes the CronJobs of a kubernetes.yaml, by name.
func cronJobs(t *testing.T, out *export.Output) map[string]*batchv1.CronJob {
	t.Helper()
	jobs := map[string]*batchv1.CronJob{}
	for _, doc := range strings.Split(fileData(out, "kubernetes.yaml"), "\n---\n") {
		if !strings.Contains(doc, "kind: CronJob") {
			continue
		}
		job := &batchv1.CronJob{}
		require.NoError(t, yaml.UnmarshalStrict([]byte(doc), job), doc)
		jobs[job.Name] = job
	}
	return jobs
}

// Kubernetes gets a CronJob: the cron expression as it is, its timezone,
// no two runs at once (procs skips a time while the last run goes on);
// an every interval becomes cron when it divides an hour or a day, and is
// said when it cannot.
func TestScheduledTaskKubernetes(t *testing.T) {
	_, out := exportText(t, scheduled, kube.Format{})
	jobs := cronJobs(t, out)
	backup := jobs["backup"]
	require.NotNil(t, backup, "CronJobs: %v", jobs)
	assert.Equal(t, "batch/v1", backup.APIVersion)
	assert.Equal(t, "0 2 * * *", backup.Spec.Schedule)
	require.NotNil(t, backup.Spec.TimeZone)
	assert.Equal(t, "Europe/Paris", *backup.Spec.TimeZone)
	assert.Equal(t, batchv1.ForbidConcurrent, backup.Spec.ConcurrencyPolicy)
	assert.Equal(t, "echo backup", strings.Join(backup.Spec.JobTemplate.Spec.Template.Spec.Containers[0].Command[2:], " "))

	require.NotNil(t, jobs["report"])
	assert.Equal(t, "*/30 * * * *", jobs["report"].Spec.Schedule)
	assertSaid(t, out, "report: ", "every 30m", "*/30 * * * *")

	assert.Nil(t, jobs["sweep"])
	assert.NotContains(t, fileData(out, "kubernetes.yaml"), "name: sweep\n")
	assertSaid(t, out, "sweep: ", "every 45m", "left out")
}

// A cron schedule without a timezone runs in procs' local time; a
// CronJob runs in the controller's: said.
func TestScheduledTaskKubernetesLocalTime(t *testing.T) {
	_, out := exportText(t, "procs:\n  backup: {kind: task, command: echo backup, schedule: {cron: \"0 2 * * *\"}}\n", kube.Format{})
	require.NotNil(t, cronJobs(t, out)["backup"])
	assert.Nil(t, cronJobs(t, out)["backup"].Spec.TimeZone)
	assertSaid(t, out, "backup: ", "timezone")
}

// docker compose has no scheduler: the task is exported under a profile
// that docker compose up does not start, and that is said.
func TestScheduledTaskCompose(t *testing.T) {
	_, out := exportText(t, scheduled, dockercompose.Format{})
	var doc struct {
		Services map[string]struct {
			Profiles []string `json:"profiles"`
		} `json:"services"`
	}
	require.NoError(t, yaml.Unmarshal([]byte(fileData(out, "compose.yaml")), &doc))
	require.Contains(t, doc.Services, "backup")
	assert.Equal(t, []string{"scheduled"}, doc.Services["backup"].Profiles)
	assert.Empty(t, doc.Services["api"].Profiles)
	assertSaid(t, out, "backup: runs on a schedule (cron 0 2 * * * (Europe/Paris)), which docker compose cannot express", "docker compose run --rm backup")
}

package kube

import (
	"fmt"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/procsdev/procs/compose/export"
)

// startingDeadline is how late a CronJob may start a run: procs skips a
// time it comes to more than two minutes late (compose's lateLimit), and
// with concurrencyPolicy Forbid the controller would otherwise start a
// time skipped while the last run went on as soon as that run ends.
const startingDeadline = int64(2 * time.Minute / time.Second)

// cronJob runs a scheduled task on schedule (cronSchedule's): never two
// runs at once, as procs skips a time while the last run goes on.
func (b *builder) cronJob(template corev1.PodTemplateSpec, schedule string) *batchv1.CronJob {
	job := b.job(template)
	deadline := startingDeadline
	cj := &batchv1.CronJob{
		TypeMeta:   metav1.TypeMeta{APIVersion: "batch/v1", Kind: "CronJob"},
		ObjectMeta: job.ObjectMeta,
		Spec: batchv1.CronJobSpec{
			Schedule:                schedule,
			ConcurrencyPolicy:       batchv1.ForbidConcurrent,
			StartingDeadlineSeconds: &deadline,
			JobTemplate:             batchv1.JobTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: b.labels()}, Spec: job.Spec},
		},
	}
	if zone := b.proc.Schedule.Timezone; zone != "" {
		cj.Spec.TimeZone = &zone
	}
	return cj
}

// cronSchedule is the CronJob schedule of the process's schedule, with
// what it changes said; false (and said) when no CronJob can run it. A
// cron expression is kept as it is: Kubernetes reads it with the same
// parser as procs (robfig/cron), its timezone going to timeZone.
func (b *builder) cronSchedule(s *export.Schedule) (string, bool) {
	if b.project.RunsAtStart(b.proc) {
		why := "runOnStart"
		if !s.RunOnStart {
			why = "a process depends on it"
		}
		b.warn("runs when the project starts too (%s); a CronJob runs only on its schedule: after kubectl apply, run it once with kubectl create job --from=cronjob/%s %s-start", why, b.name, b.name)
	}
	if s.Cron != "" {
		if s.Timezone == "" {
			b.warn("its schedule (%s) is in procs' local time; a CronJob without timeZone runs in the time zone of kube-controller-manager (often UTC): add timezone: to the schedule", s.Spec)
		}
		return s.Cron, true
	}
	expr, ok := everyAsCron(s.Every)
	if !ok {
		b.warn("runs %s, which a CronJob schedule cannot say (it takes whole minutes that divide an hour, or hours that divide a day): left out; give it such an interval, or a cron: schedule", s.Spec)
		return "", false
	}
	b.warn("runs %s counted from when procs starts; its CronJob runs on the clock (%s)", s.Spec, expr)
	return expr, true
}

// everyAsCron is the cron expression of an interval that divides an hour
// or a day ("*/30 * * * *", "0 */6 * * *"), false for any other.
func everyAsCron(every time.Duration) (string, bool) {
	if every <= 0 || every%time.Minute != 0 {
		return "", false
	}
	minutes, hours := int(every/time.Minute), int(every/time.Hour)
	switch {
	case minutes == 1:
		return "* * * * *", true
	case minutes < 60 && 60%minutes == 0:
		return fmt.Sprintf("*/%d * * * *", minutes), true
	case every%time.Hour != 0:
		return "", false
	case hours == 1:
		return "0 * * * *", true
	case hours < 24 && 24%hours == 0:
		return fmt.Sprintf("0 */%d * * *", hours), true
	case hours == 24:
		return "0 0 * * *", true
	}
	return "", false
}

// Package kube exports a procs project as Kubernetes manifests, made from
// the typed k8s.io/api objects: per service a Deployment (its replicas)
// and, with a port, a Service; per task a Job; env in a ConfigMap;
// readiness as a readinessProbe and readyTimeout as a startupProbe;
// dependsOn as init containers that wait for each dependency's Service.
package kube

import (
	"fmt"
	"slices"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/yaml"

	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/compose/export"
)

// Format writes Kubernetes manifests.
type Format struct{}

// Name is "kubernetes".
func (Format) Name() string { return "kubernetes" }

// Summary says what it writes.
func (Format) Summary() string {
	return "Kubernetes manifests: Deployment and Service per service, Job per task, ConfigMap, probes, init containers"
}

// waitImage runs the init containers that wait for a dependency's Service.
const waitImage = "busybox:1.36"

// Export writes kubernetes.yaml, one document per object.
func (f Format) Export(p *export.Project) (*export.Output, error) {
	if err := p.CheckNames(f.Name(), "Kubernetes names are lower-case letters, digits and '-'", serviceHost); err != nil {
		return nil, err
	}
	out := &export.Output{Warnings: slices.Clone(p.Warnings)}
	var docs []string
	for _, proc := range p.Procs {
		b := &builder{project: p, proc: proc, name: serviceHost(proc)}
		objects := b.objects()
		out.Warnings = append(out.Warnings, b.warnings...)
		out.Warnings = append(out.Warnings, export.RestartFollowsLeftOut(proc)...)
		for _, obj := range objects {
			data, err := marshal(obj)
			if err != nil {
				return nil, fmt.Errorf("kubernetes: %s: %w", proc.Name, err)
			}
			docs = append(docs, string(data))
		}
	}
	out.Warnings = append(out.Warnings, p.LoopbackWarnings(serviceHost)...)
	data := export.Header("# ", f.Name(), p) + "---\n" + strings.Join(docs, "---\n")
	out.Files = []export.File{{Name: "kubernetes.yaml", Data: []byte(data)}}
	return out, nil
}

// serviceHost is the name of a process's objects, its Service's among
// them: the host other pods reach it by.
func serviceHost(proc *export.Process) string { return export.DNSName(proc.Name) }

// marshal writes an object as YAML, without the status a client never
// sets (an empty one is all the typed object holds).
func marshal(obj any) ([]byte, error) {
	data, err := yaml.Marshal(obj)
	if err != nil {
		return nil, err
	}
	var fields map[string]any
	if err := yaml.Unmarshal(data, &fields); err != nil {
		return nil, err
	}
	delete(fields, "status")
	return yaml.Marshal(fields)
}

// builder makes the objects of one process.
type builder struct {
	project  *export.Project
	proc     *export.Process
	name     string
	warnings []export.Warning
}

// warn says what was left out.
func (b *builder) warn(format string, args ...any) {
	b.warnings = append(b.warnings, export.Warning{Proc: b.proc.Name, Text: fmt.Sprintf(format, args...)})
}

// objects are the process's ConfigMap, Service and Deployment, or its
// Job, or its CronJob; none for a schedule no CronJob can run (said).
func (b *builder) objects() []any {
	var schedule string
	if s := b.proc.Schedule; s != nil {
		var ok bool
		if schedule, ok = b.cronSchedule(s); !ok {
			return nil
		}
	}
	var objects []any
	env := b.env()
	if len(env) > 0 {
		objects = append(objects, &corev1.ConfigMap{
			TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
			ObjectMeta: b.meta(b.name + "-env"),
			Data:       env,
		})
	}
	pod := b.podSpec(len(env) > 0)
	template := corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: b.labels()}, Spec: pod}
	if b.proc.Schedule != nil {
		return append(objects, b.cronJob(template, schedule))
	}
	if b.proc.Task {
		return append(objects, b.job(template))
	}
	if port := b.proc.ServicePort; port > 0 {
		objects = append(objects, &corev1.Service{
			TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Service"},
			ObjectMeta: b.meta(b.name),
			Spec: corev1.ServiceSpec{
				Selector: b.selector(),
				Ports:    []corev1.ServicePort{{Name: "main", Port: int32(port), TargetPort: intstr.FromInt32(int32(port))}},
			},
		})
	}
	replicas := int32(max(b.proc.Replicas, 1))
	deployment := &appsv1.Deployment{
		TypeMeta:   metav1.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
		ObjectMeta: b.meta(b.name),
		Spec: appsv1.DeploymentSpec{
			Replicas: &replicas,
			Selector: &metav1.LabelSelector{MatchLabels: b.selector()},
			Template: template,
		},
	}
	b.imageNote(&deployment.ObjectMeta)
	return append(objects, deployment)
}

// job runs a task to completion; its restart policy becomes backoffLimit.
func (b *builder) job(template corev1.PodTemplateSpec) *batchv1.Job {
	template.Spec.RestartPolicy = corev1.RestartPolicyNever
	backoff := int32(0)
	if policy := b.proc.Restart; policy.Policy != config.RestartNo && policy.Policy != "" {
		backoff = 6
		if policy.MaxRestarts > 0 {
			backoff = int32(policy.MaxRestarts)
		}
	}
	job := &batchv1.Job{
		TypeMeta:   metav1.TypeMeta{APIVersion: "batch/v1", Kind: "Job"},
		ObjectMeta: b.meta(b.name),
		Spec:       batchv1.JobSpec{BackoffLimit: &backoff, Template: template},
	}
	b.imageNote(&job.ObjectMeta)
	return job
}

// meta names an object of the process, with its labels.
func (b *builder) meta(name string) metav1.ObjectMeta {
	return metav1.ObjectMeta{Name: name, Labels: b.labels()}
}

// labels are the recommended labels: the process, the project, procs.
func (b *builder) labels() map[string]string {
	return map[string]string{
		"app.kubernetes.io/name":       b.name,
		"app.kubernetes.io/part-of":    b.project.Name,
		"app.kubernetes.io/managed-by": "procs-export",
	}
}

// selector picks the pods of the process.
func (b *builder) selector() map[string]string {
	return map[string]string{"app.kubernetes.io/name": b.name, "app.kubernetes.io/part-of": b.project.Name}
}

// env is the ConfigMap's data: the image's env for a server with one,
// else everything the config gives the process, env files read in.
func (b *builder) env() map[string]string {
	proc := b.proc
	if img := proc.Image; img != nil {
		out := map[string]string{}
		for k, v := range img.Env {
			out[k] = export.Fill([]string{v}, proc.ServicePort, b.name)[0]
		}
		return out
	}
	if len(proc.EnvFiles) > 0 && len(proc.FileEnv) > 0 {
		b.warn("the values of its env files are copied into ConfigMap %s-env: move secrets to a Secret", b.name)
	}
	return proc.AllEnv()
}

package kube

import (
	"fmt"
	"math"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/compose/export"
)

// imageAnnotation says, on a workload with a placeholder image, which
// image the user must provide.
const imageAnnotation = "procs.dev/provide-image"

// podSpec is the pod of the process: its container, with init containers
// for its dependencies.
func (b *builder) podSpec(withEnv bool) corev1.PodSpec {
	proc := b.proc
	grace := int64(math.Ceil(proc.Shutdown.Timeout.D().Seconds()))
	spec := corev1.PodSpec{
		InitContainers:                b.waits(),
		Containers:                    []corev1.Container{b.container(withEnv)},
		TerminationGracePeriodSeconds: &grace,
	}
	if img := proc.Image; img != nil && img.Data != "" {
		spec.Volumes = []corev1.Volume{{Name: "data", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}}}
		spec.Containers[0].VolumeMounts = []corev1.VolumeMount{{Name: "data", MountPath: img.Data}}
		b.warn("its data (%s) is in an emptyDir volume, lost with its pod: use a PersistentVolumeClaim (or a StatefulSet) to keep it", img.Data)
	}
	if signal := proc.Shutdown.Signal; signal != "" && signal != "SIGTERM" {
		b.warn("stops with %s under procs; Kubernetes sends SIGTERM: set STOPSIGNAL %s in its image", signal, signal)
	}
	return spec
}

// container is the process's container.
func (b *builder) container(withEnv bool) corev1.Container {
	proc := b.proc
	c := corev1.Container{Name: b.name}
	if img := proc.Image; img != nil {
		c.Image = img.Image
		c.Args = escape(export.Fill(img.Command, proc.ServicePort, b.name))
		b.warn("runs the image %s on port %d in place of its command `%s`; the command's other options and its env are left out", img.Image, proc.ServicePort, proc.Command)
	} else {
		c.Image = placeholderImage(b.project, b.name)
		c.Command = escape(proc.Command.Args())
		b.warn("no image is known for it: the placeholder %s must be replaced by an image that runs `%s`", c.Image, proc.Command)
		if proc.Replicas > 0 && export.ReplicaToken.MatchString(proc.Command.String()) {
			b.warn("{{.Replica}} in its command has no counterpart in a Deployment: every replica runs the same (a StatefulSet gives each pod its ordinal in its name)")
		}
	}
	if withEnv {
		c.EnvFrom = []corev1.EnvFromSource{{ConfigMapRef: &corev1.ConfigMapEnvSource{LocalObjectReference: corev1.LocalObjectReference{Name: b.name + "-env"}}}}
	}
	if port := proc.ServicePort; port > 0 {
		c.Ports = []corev1.ContainerPort{{Name: "main", ContainerPort: int32(port)}}
	}
	if !proc.Task {
		c.ReadinessProbe, c.StartupProbe = b.probes()
	}
	c.Resources = b.resources()
	return c
}

// resources are resources: as the container's limits, and its requests
// the same, so the scheduler places it where they fit. Kubernetes has no
// per-container pids limit: that one is said.
func (b *builder) resources() corev1.ResourceRequirements {
	r := b.proc.Resources
	list := corev1.ResourceList{}
	if r.Memory > 0 {
		list[corev1.ResourceMemory] = *resource.NewQuantity(int64(r.Memory), resource.BinarySI)
	}
	if r.CPU > 0 {
		list[corev1.ResourceCPU] = *resource.NewMilliQuantity(int64(math.Round(r.CPU*1000)), resource.DecimalSI)
	}
	if r.Pids > 0 {
		b.warn("resources: pids: %d has no per-container counterpart in Kubernetes (a node's podPidsLimit applies to every pod)", r.Pids)
	}
	if len(list) == 0 {
		return corev1.ResourceRequirements{}
	}
	return corev1.ResourceRequirements{Limits: list, Requests: list.DeepCopy()}
}

// placeholderImage names the image the user must provide: a name under
// the reserved .invalid domain, so that it can never be pulled by mistake.
func placeholderImage(p *export.Project, name string) string {
	return fmt.Sprintf("procs.invalid/%s/%s:provide-an-image", p.Name, name)
}

// imageNote annotates a workload whose image is a placeholder.
func (b *builder) imageNote(meta *metav1.ObjectMeta) {
	if b.proc.Image != nil {
		return
	}
	meta.Annotations = map[string]string{
		imageAnnotation: fmt.Sprintf("an image that runs `%s` in %s", b.proc.Command, b.project.Rel(b.proc.Cwd)),
	}
}

// probes are the readiness probe of the process's check, and a startup
// probe that gives it readyTimeout to pass first.
func (b *builder) probes() (readiness, startup *corev1.Probe) {
	proc := b.proc
	check := proc.Ready
	var handler corev1.ProbeHandler
	switch {
	case proc.Image != nil && len(proc.Image.Check) > 0:
		handler.Exec = &corev1.ExecAction{Command: escape(export.Fill(proc.Image.Check, proc.ServicePort, b.name))}
	case check == nil:
		return nil, nil
	case check.Kind == export.CheckPort:
		handler.TCPSocket = &corev1.TCPSocketAction{Port: intstr.FromInt32(int32(check.Port))}
	case check.Kind == export.CheckHTTP:
		scheme := corev1.URISchemeHTTP
		if check.Scheme == "https" {
			scheme = corev1.URISchemeHTTPS
		}
		handler.HTTPGet = &corev1.HTTPGetAction{Path: check.Path, Port: intstr.FromInt32(int32(check.Port)), Scheme: scheme}
	case check.Kind == export.CheckExec:
		handler.Exec = &corev1.ExecAction{Command: escape(check.Command.Args())}
	}
	period, timeout, failures := int32(5), int32(2), int32(3)
	if check != nil {
		period, timeout, failures = seconds(check.Interval.Seconds()), seconds(check.Timeout.Seconds()), int32(check.Failures)
	}
	readiness = &corev1.Probe{ProbeHandler: handler, PeriodSeconds: period, TimeoutSeconds: timeout, FailureThreshold: failures}
	if proc.ReadyTimeout > 0 {
		startupPeriod := int32(2)
		startup = &corev1.Probe{
			ProbeHandler: handler, PeriodSeconds: startupPeriod, TimeoutSeconds: timeout,
			FailureThreshold: max(seconds(proc.ReadyTimeout.Seconds()/float64(startupPeriod)), 1),
		}
	}
	return readiness, startup
}

// waits are init containers that wait, each, for the Service of a
// dependency to accept connections: a Service routes only to ready pods,
// so this waits for ready.
func (b *builder) waits() []corev1.Container {
	var out []corev1.Container
	for _, dep := range b.proc.DependsOn {
		target := b.project.Proc(dep.Name)
		name := export.DNSName(dep.Name)
		switch {
		case target.Schedule != nil:
			b.warn("waits for task %s to complete under procs, which is a CronJob here, run on its schedule: run it first (kubectl create job --from=cronjob/%s %s-first)", dep.Name, name, name)
			continue
		case dep.Condition == config.ConditionCompleted || target.Task:
			b.warn("waits for task %s to complete under procs; Kubernetes does not order a Job before a Deployment: run it first (kubectl wait --for=condition=complete job/%s)", dep.Name, name)
			continue
		case target.ServicePort == 0:
			b.warn("depends on %s, which has no port and so no Service to wait for: it starts without waiting", dep.Name)
			continue
		}
		script := fmt.Sprintf("until nc -z -w 2 %s %d; do echo waiting for %s; sleep 2; done", name, target.ServicePort, name)
		out = append(out, corev1.Container{Name: "wait-for-" + name, Image: waitImage, Command: []string{"sh", "-c", script}})
	}
	return out
}

// seconds rounds a number of seconds up to a whole one, at least 1.
func seconds(s float64) int32 { return max(int32(math.Ceil(s)), 1) }

// escape keeps Kubernetes from expanding $(VAR) in a command: every $ is
// written $$, which it reads back as $.
func escape(words []string) []string {
	if words == nil {
		return nil
	}
	out := slices.Clone(words)
	for i, w := range out {
		out[i] = strings.ReplaceAll(w, "$", "$$")
	}
	return out
}

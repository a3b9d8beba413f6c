package export

import (
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/procsdev/procs/compose/config"
)

// procs' healthcheck defaults (README, healthcheck).
const (
	defaultInterval = 5 * time.Second
	defaultTimeout  = 2 * time.Second
	defaultFailures = 3
)

// readyCheck is the check procs runs to tell d is ready, as the engine
// picks it: the healthcheck of procs.yaml, else the preset's probe on the
// process's port, else the port itself; for a server with an official
// image and none of these, the port it listens on. nil when readiness
// needs none of these (ready by running) or only a log line can tell.
func readyCheck(d *config.Proc, p *Process) *Check {
	c := &Check{Host: "localhost", Interval: defaultInterval, Timeout: defaultTimeout, Failures: defaultFailures}
	if hc := d.Healthcheck; hc != nil {
		if hc.Interval > 0 {
			c.Interval = hc.Interval.D()
		}
		if hc.Timeout > 0 {
			c.Timeout = hc.Timeout.D()
		}
		if hc.Failures > 0 {
			c.Failures = hc.Failures
		}
		return healthcheckOf(hc, c)
	}
	if probed := presetProbe(d, p, c); probed != nil {
		return probed
	}
	if d.Port > 0 {
		c.Kind, c.Port, c.From = CheckPort, d.Port, fmt.Sprintf("port: %d", d.Port)
		return c
	}
	if p.Image != nil && p.ServicePort > 0 {
		c.Kind, c.Port, c.From = CheckPort, p.ServicePort, fmt.Sprintf("the %s server's port %d", p.Preset.Name, p.ServicePort)
		return c
	}
	if p.portGivenBy != "" {
		c.Kind, c.Port, c.From = CheckPort, p.ServicePort, fmt.Sprintf("port %d, which %s gives", p.ServicePort, givenBy(p.portGivenBy))
		return c
	}
	return nil
}

// givenBy names where frameworks' PortOf found a port: its command's flag
// or argument, or a variable.
func givenBy(from string) string {
	switch {
	case from == "argument":
		return "its command's argument"
	case strings.HasPrefix(from, "-"):
		return "its command's " + from
	}
	return "its " + from + " variable"
}

// healthcheckOf is the check of a healthcheck: of procs.yaml.
func healthcheckOf(hc *config.Healthcheck, c *Check) *Check {
	switch {
	case hc.HTTP != "":
		u, err := url.Parse(hc.HTTP)
		if err != nil {
			return nil // checked when the config was loaded
		}
		c.Kind, c.Scheme, c.Host, c.From = CheckHTTP, u.Scheme, u.Hostname(), "healthcheck.http"
		c.Port, _ = strconv.Atoi(u.Port())
		if c.Port == 0 {
			c.Port = map[string]int{"http": 80, "https": 443}[u.Scheme]
		}
		c.Path = u.RequestURI()
	case !hc.Exec.IsZero():
		c.Kind, c.Command, c.From = CheckExec, hc.Exec, "healthcheck.exec"
	case hc.TCP != "":
		host, port, err := net.SplitHostPort(hc.TCP)
		if err != nil {
			return nil
		}
		c.Kind, c.Host, c.From = CheckPort, host, "healthcheck.tcp"
		c.Port, _ = strconv.Atoi(port)
	default:
		return nil
	}
	return c
}

// presetProbe is the preset's probe on the process's port, as the engine
// runs it while the process starts (compose.readyProbeOf): a TCP greeting
// becomes a port check, since no format can send one.
func presetProbe(d *config.Proc, p *Process, c *Check) *Check {
	preset := p.Preset
	if preset == nil || preset.Probe == nil || preset.Interactive {
		return nil
	}
	port := d.Port
	if port == 0 {
		port, _ = preset.PortOf(d.Command.String(), d.Env)
	}
	if port == 0 {
		return nil
	}
	c.Port = port
	probe := preset.Probe
	switch {
	case probe.TCP != nil:
		c.Kind, c.From = CheckPort, fmt.Sprintf("the %s preset's probe, its greeting made a port check", preset.Name)
	case probe.HTTP != "":
		c.Kind, c.Scheme, c.Path, c.From = CheckHTTP, "http", probe.HTTP, fmt.Sprintf("the %s preset's probe", preset.Name)
	default:
		c.Kind, c.Command, c.From = CheckExec, config.Command{Argv: probe.Fill(port)}, fmt.Sprintf("the %s preset's probe", preset.Name)
	}
	return c
}

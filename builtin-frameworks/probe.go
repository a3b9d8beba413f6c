package frameworks

import (
	"fmt"
	"net"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Probe is how a preset asks its server whether it serves, beyond an open
// port: a protocol greeting (redis PING → +PONG), an HTTP path (/health)
// or a command (pg_isready). Exactly one of TCP, HTTP and Exec is set. The
// engine runs it, with the port filled in, when the process has no
// healthcheck of its own.
type Probe struct {
	// TCP connects to the port and, with a Send or an Expect, greets it.
	TCP *Greeting
	// HTTP is a path to GET on the port ("/health"): a status below 400
	// passes.
	HTTP string
	// Exec is a command, run without a shell, that exits 0 when the server
	// serves; "{port}" in a word stands for the port.
	Exec []string
}

// Greeting is a TCP probe's exchange: Send is written once connected, and
// the reply must match the RE2 regex Expect. Either may be empty: with no
// Expect any reply passes, with neither a connection does.
type Greeting struct {
	Send   string `yaml:"send"`
	Expect string `yaml:"expect"`
}

// probeFile is the YAML form of a preset's probe.
type probeFile struct {
	TCP  *Greeting `yaml:"tcp"`
	HTTP string    `yaml:"http"`
	Exec execWords `yaml:"exec"`
}

// execWords is a command as a list of words, or as one string split like a
// shell would (without running one).
type execWords []string

// UnmarshalYAML accepts a command string or a list of words.
func (w *execWords) UnmarshalYAML(unmarshal func(any) error) error {
	var line string
	if err := unmarshal(&line); err == nil {
		*w = shellWords(line)
		return nil
	}
	var words []string
	if err := unmarshal(&words); err != nil {
		return fmt.Errorf("exec: want a command or a list of words: %w", err)
	}
	*w = words
	return nil
}

// probe turns the file form into a Probe, checking it.
func (f *probeFile) probe() (*Probe, error) {
	if f == nil {
		return nil, nil
	}
	p := &Probe{TCP: f.TCP, HTTP: f.HTTP, Exec: f.Exec}
	set := 0
	for _, isSet := range []bool{p.TCP != nil, p.HTTP != "", len(p.Exec) > 0} {
		if isSet {
			set++
		}
	}
	switch {
	case set != 1:
		return nil, fmt.Errorf("probe: want exactly one of tcp, http and exec")
	case p.HTTP != "" && !strings.HasPrefix(p.HTTP, "/"):
		return nil, fmt.Errorf("probe.http %q: want a path such as /health", p.HTTP)
	case p.TCP != nil && p.TCP.Expect != "":
		if _, err := regexp.Compile(p.TCP.Expect); err != nil {
			return nil, fmt.Errorf("probe.tcp.expect: %w", err)
		}
	}
	return p, nil
}

// Fill returns the words of an exec probe with "{port}" replaced by port.
func (p *Probe) Fill(port int) []string {
	words := make([]string, len(p.Exec))
	for i, w := range p.Exec {
		words[i] = strings.ReplaceAll(w, "{port}", strconv.Itoa(port))
	}
	return words
}

// ListensOnItsLinePort reports whether the preset's ready line, when it
// names a port (its URL, "port 3010", "on :8080"), names the one its
// program listens on: a program that listens (it has a default port) and
// is not driven at a prompt; a worker's line may name its broker's.
func (p *Preset) ListensOnItsLinePort() bool {
	return !p.Interactive && p.DefaultPort != 0
}

// PortOf finds the port a command runs the preset's program on, for its
// probe: the value of the preset's port flag in the command (`--port 7000`,
// `--port=7000`), else its port variable in env or in the command's
// VAR=value prefixes, else the first number after the preset's
// PortArgAfter word, else the default port. from says which ("--port",
// "RABBITMQ_NODE_PORT", "argument", "default"); 0 when none is known.
func (p *Preset) PortOf(command string, env map[string]string) (port int, from string) {
	words := allWords(command, 0)
	if p.PortFlag != "" {
		for i, w := range words {
			value, ok := "", false
			switch {
			case w == p.PortFlag && i+1 < len(words):
				value, ok = words[i+1], true
			case strings.HasPrefix(w, p.PortFlag+"="):
				value, ok = strings.TrimPrefix(w, p.PortFlag+"="), true
			}
			if n, isPort := portNumber(value); ok && isPort {
				return n, p.PortFlag
			}
		}
	}
	if value, ok := commandVar(words, env, p.PortEnv); ok {
		if n, err := strconv.Atoi(value); err == nil && n > 0 && n < 65536 {
			return n, p.PortEnv
		}
	}
	if n, ok := portArgument(words, p.PortArgAfter); ok {
		return n, "argument"
	}
	if p.DefaultPort != 0 {
		return p.DefaultPort, "default"
	}
	return 0, ""
}

// commandVar is the value the variable name has for a command of words:
// its last VAR=value prefix, else env's; false when neither sets it, or
// name is "".
func commandVar(words []string, env map[string]string, name string) (string, bool) {
	if name == "" {
		return "", false
	}
	value, ok := env[name]
	for _, w := range words {
		if v, isVar := strings.CutPrefix(w, name+"="); isVar {
			value, ok = v, true
		}
	}
	return value, ok
}

// portNumber reads a port flag's value: 8000, or the port of an address
// (0.0.0.0:8000, [::]:8000, as runserver and --bind take).
func portNumber(value string) (int, bool) {
	if _, port, err := net.SplitHostPort(value); err == nil {
		value = port
	}
	n, err := strconv.Atoi(value)
	return n, err == nil && n > 0 && n < 65536
}

// portArgument is the first word after the word after that is a port
// number, all digits (an option's value such as 127.0.0.1 is not one).
func portArgument(words []string, after string) (int, bool) {
	if after == "" {
		return 0, false
	}
	i := slices.Index(words, after)
	if i < 0 {
		return 0, false
	}
	for _, w := range words[i+1:] {
		if strings.Trim(w, "0123456789") != "" {
			continue
		}
		if n, err := strconv.Atoi(w); err == nil && n > 0 && n < 65536 {
			return n, true
		}
	}
	return 0, false
}

// allWords splits a command and the commands it nests (`sh -c '...'`)
// into words.
func allWords(command string, depth int) []string {
	var out []string
	for _, w := range shellWords(command) {
		if depth < 4 && strings.ContainsAny(w, " \t") {
			out = append(out, allWords(w, depth+1)...)
			continue
		}
		out = append(out, w)
	}
	return out
}

package frameworks

import (
	"net"
	"strings"
)

// HostOf finds the address a command runs the preset's program on: the
// value of one of its host flags in the command (`--host 0.0.0.0`,
// `--host=::`, `runserver 0.0.0.0:8000`), else its host variable in env
// or in the command's VAR=value prefixes, else its default. from says
// which ("--host", "FLASK_RUN_HOST", "default"); "" when none is known.
// A host flag given without a value (vite --host) is every address, "".
func (p *Preset) HostOf(command string, env map[string]string) (host, from string) {
	words := allWords(command, 0)
	for i, w := range words {
		for _, flag := range p.HostFlags {
			value, ok := hostFlagValue(words[i+1:], w, flag)
			if !ok {
				continue
			}
			if h, given := hostPart(value); given {
				return h, flag
			}
		}
	}
	if value, ok := commandVar(words, env, p.HostEnv); ok {
		if h, given := hostPart(value); given {
			return h, p.HostEnv
		}
	}
	if p.DefaultHost != "" {
		return p.DefaultHost, "default"
	}
	return "", ""
}

// hostFlagValue returns the value word w gives flag, with rest the words
// after it: --host=X, --host X, or a flag with no value (every address).
// A subcommand taking the address (runserver) is followed by its value,
// after any options.
func hostFlagValue(rest []string, w, flag string) (string, bool) {
	if v, ok := strings.CutPrefix(w, flag+"="); ok && strings.HasPrefix(flag, "-") {
		return v, true
	}
	if w != flag {
		return "", false
	}
	if !strings.HasPrefix(flag, "-") {
		for _, next := range rest {
			if !strings.HasPrefix(next, "-") {
				return next, true
			}
		}
		return "", false
	}
	if len(rest) == 0 || strings.HasPrefix(rest[0], "-") {
		return "0.0.0.0", true
	}
	return rest[0], true
}

// hostPart is the address of a host flag's value: 0.0.0.0, ::, 0.0.0.0:8000,
// [::1]:8000, :8000 (every address), 0 (Django's 0.0.0.0); given is false
// for a port alone (runserver 8000), which leaves the address as it was.
func hostPart(value string) (host string, given bool) {
	value = strings.TrimSpace(value)
	if value == "" {
		return "", false
	}
	if strings.Trim(value, "0123456789") == "" && value != "0" {
		return "", false // a port alone
	}
	if h, _, err := net.SplitHostPort(value); err == nil {
		value = h
	}
	value = strings.Trim(value, "[]")
	if value == "0" || value == "" {
		return "0.0.0.0", true
	}
	return value, true
}

// IsLoopback reports whether host is a loopback address or name
// (127.0.0.1, ::1, localhost), which only the machine itself reaches.
func IsLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

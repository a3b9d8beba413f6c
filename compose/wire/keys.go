package wire

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
)

// namedKeys are the keys `procs send --key` and the MCP send_input tool
// know by name, as a terminal sends them.
var namedKeys = map[string]string{
	"enter": "\r", "tab": "\t", "shift-tab": "\x1b[Z", "esc": "\x1b", "backspace": "\x7f",
	"up": "\x1b[A", "down": "\x1b[B", "right": "\x1b[C", "left": "\x1b[D",
	"home": "\x1b[H", "end": "\x1b[F", "pageup": "\x1b[5~", "pagedown": "\x1b[6~", "delete": "\x1b[3~",
}

// KeySequence returns what a terminal sends for the key name: one of
// KeyNames, or ctrl-A to ctrl-Z (any case; "escape" and "return" too).
func KeySequence(name string) (string, error) {
	key := strings.ToLower(strings.TrimSpace(name))
	switch key {
	case "escape":
		key = "esc"
	case "return":
		key = "enter"
	}
	if seq, ok := namedKeys[key]; ok {
		return seq, nil
	}
	if letter, ok := strings.CutPrefix(key, "ctrl-"); ok && len(letter) == 1 && unicode.IsLower(rune(letter[0])) {
		return string(rune(letter[0] - 'a' + 1)), nil
	}
	return "", fmt.Errorf("unknown key %q: use one of %s, or ctrl-a to ctrl-z", name, strings.Join(KeyNames(), ", "))
}

// KeyNames lists the named keys, sorted.
func KeyNames() []string {
	names := make([]string, 0, len(namedKeys))
	for name := range namedKeys {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

package frameworks

import "fmt"

// AgentPatterns are the patterns of an interactive preset (an agent CLI, a
// shell, a REPL) beyond ready, error and not-ready. For interactive presets
// every pattern, these and the others, is matched against the rows of the
// program's screen (what a person sees now), not against the stream of
// lines; the state follows the priority exit > error > not-ready >
// permission > question > ready > busy.
type AgentPatterns struct {
	// BusyPatterns show the program working (a spinner, "esc to
	// interrupt"); while one is on screen the prompt does not mean idle.
	BusyPatterns []string `yaml:"busyPatterns"`
	// QuestionPatterns show a question waiting for an answer: numbered
	// options, "Enter to select", a free-text request (awaiting-input).
	QuestionPatterns []string `yaml:"questionPatterns"`
	// PermissionPatterns show a confirmation dialog for a tool or a
	// command (awaiting-permission).
	PermissionPatterns []string `yaml:"permissionPatterns"`
	// RecoverablePatterns show an error the program retries by itself (a
	// rate limit with a countdown): failed, but recoverable.
	RecoverablePatterns []string `yaml:"recoverablePatterns"`
	// AnnouncesState says the program tells the terminal when it works and
	// when it is idle (OSC 7501, as Codex does): not ready before it says
	// idle, busy while it says working (rules.AgentSpec.AnnouncesState).
	AnnouncesState bool `yaml:"announcesState"`
}

// patternSet is one list of patterns of a preset, by its key in the file.
type patternSet struct {
	key      string
	patterns []string
}

// sets lists the agent pattern lists by their keys.
func (a AgentPatterns) sets() []patternSet {
	return []patternSet{
		{"busyPatterns", a.BusyPatterns},
		{"questionPatterns", a.QuestionPatterns},
		{"permissionPatterns", a.PermissionPatterns},
		{"recoverablePatterns", a.RecoverablePatterns},
	}
}

// validate checks the patterns are given only to an interactive preset,
// the only kind they make sense for (checkPatterns compiles them).
func (a AgentPatterns) validate(interactive bool) error {
	if a.AnnouncesState && !interactive {
		return fmt.Errorf("announcesState needs interactive: true")
	}
	for _, set := range a.sets() {
		if len(set.patterns) > 0 && !interactive {
			return fmt.Errorf("%s needs interactive: true", set.key)
		}
	}
	return nil
}

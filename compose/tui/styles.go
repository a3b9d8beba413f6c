package tui

import (
	"charm.land/lipgloss/v2"

	"github.com/procsdev/procs/rules"
)

// styles are the looks of the dashboard; with NO_COLOR every one of them
// is plain but for bold and reverse, which carry no colour.
type styles struct {
	header, title, faint, selected, stderr, errorText, okText lipgloss.Style
	states                                                    map[rules.State]lipgloss.Style
	highlight, current                                        lipgloss.Style
}

// newStyles returns the dashboard's styles, in colour unless noColor.
func newStyles(noColor bool) styles {
	plain := lipgloss.NewStyle()
	s := styles{
		header:    plain.Bold(true),
		title:     plain.Bold(true),
		faint:     plain.Faint(true),
		selected:  plain.Reverse(true),
		stderr:    plain.Bold(true),
		errorText: plain.Bold(true),
		okText:    plain,
		highlight: plain.Reverse(true),
		current:   plain.Reverse(true).Bold(true),
		states:    map[rules.State]lipgloss.Style{},
	}
	if noColor {
		return s
	}
	colour := func(c string) lipgloss.Style { return plain.Foreground(lipgloss.Color(c)) }
	s.stderr = colour("1").Bold(true)
	s.errorText = colour("1").Bold(true)
	s.okText = colour("2")
	s.highlight = plain.Background(lipgloss.Color("3")).Foreground(lipgloss.Color("0"))
	s.current = plain.Background(lipgloss.Color("208")).Foreground(lipgloss.Color("0")).Bold(true)
	for state, c := range map[rules.State]string{
		rules.StateReady: "2", rules.StateCompleted: "2",
		rules.StateStarting: "3", rules.StateBusy: "6", rules.StatePending: "8", rules.StateBlocked: "8",
		rules.StateAwaitingInput: "5", rules.StateAwaitingPermission: "5",
		rules.StateUnhealthy: "208", rules.StateBackoff: "208",
		rules.StateFailed: "1", rules.StateStopping: "8", rules.StateStopped: "8",
	} {
		s.states[state] = colour(c)
	}
	s.states[rules.StateFailed] = s.states[rules.StateFailed].Bold(true)
	return s
}

// state renders a state name in its colour.
func (s styles) state(st rules.State) string {
	if style, ok := s.states[st]; ok {
		return style.Render(string(st))
	}
	return string(st)
}

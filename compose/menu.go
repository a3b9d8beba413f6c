package compose

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
)

// selectionMarks are the marks a TUI menu draws before its selected option:
// "❯" (Claude Code, Gemini CLI), "›" (Codex), "●", "▸", "➤", "→", ">".
const selectionMarks = "❯›●▸➤→>"

// numbered matches an option's number, as in "2. Yes, I trust this folder".
var numbered = regexp.MustCompile(`^(\d)[.)]\s`)

// menuStep is the next key that picks option in the menu the rows show:
// Enter when the selection is on it, else an arrow toward it (enter false),
// or its digit when the menu marks no selection but numbers its options.
// It returns no keys, and why, when the option or the menu is not there.
func menuStep(rows []string, option *regexp.Regexp) (keys string, enter bool, note string) {
	target := optionRow(rows, option)
	if target < 0 {
		return "", false, fmt.Sprintf("no option /%s/ on screen", option)
	}
	selected := -1
	for i, row := range rows {
		if selectedOption(row) && (selected < 0 || distance(i, target) < distance(selected, target)) {
			selected = i
		}
	}
	switch {
	case selected == target:
		return "\r", true, ""
	case selected >= 0 && selected < target:
		return "\x1b[B", false, "moving the selection down"
	case selected > target:
		return "\x1b[A", false, "moving the selection up"
	}
	if m := numbered.FindStringSubmatch(optionText(rows[target])); m != nil {
		return m[1], true, ""
	}
	return "", false, fmt.Sprintf("the menu marks no selected option (%s)", selectionMarks)
}

// optionRow is the row of the option: the one whose label is the option's
// text ("Dark mode", not "Dark mode (colorblind-friendly)"), else one whose
// label starts with it, else the last row holding it; -1 when none does.
func optionRow(rows []string, option *regexp.Regexp) int {
	exact := regexp.MustCompile(`^(?:` + option.String() + `)$`)
	prefix := regexp.MustCompile(`^(?:` + option.String() + `)`)
	last, start := -1, -1
	for i, row := range rows {
		if !option.MatchString(row) {
			continue
		}
		label := optionLabel(row)
		if exact.MatchString(label) {
			return i
		}
		if start < 0 && prefix.MatchString(label) {
			start = i
		}
		last = i
	}
	if start >= 0 {
		return start
	}
	return last
}

// optionLabel is a menu row's text without its border, selection mark and
// number: "│ ❯ 2. Yes, I trust this folder │" is "Yes, I trust this folder".
func optionLabel(row string) string {
	row = optionText(row)
	for _, r := range selectionMarks {
		if after, ok := strings.CutPrefix(row, string(r)); ok {
			row = after
			break
		}
	}
	row = strings.TrimLeftFunc(row, unicode.IsSpace)
	if m := numbered.FindString(row); m != "" {
		row = row[len(m):]
	}
	return strings.TrimRightFunc(row, func(r rune) bool { return unicode.IsSpace(r) || strings.ContainsRune("│┃║|", r) })
}

// selectedOption reports whether a row is a menu's selected option: it starts with
// a selection mark.
func selectedOption(row string) bool {
	row = optionText(row)
	for _, r := range selectionMarks {
		if after, ok := strings.CutPrefix(row, string(r)); ok {
			return after == "" || after[0] == ' ' || strings.HasPrefix(after, "\u00a0")
		}
	}
	return false
}

// optionText is a row without the spaces and box borders before it (Gemini
// CLI draws its menus in a box: "│ ● 1. Trust folder").
func optionText(row string) string {
	return strings.TrimLeftFunc(row, func(r rune) bool { return unicode.IsSpace(r) || strings.ContainsRune("│┃║|", r) })
}

func distance(a, b int) int {
	if a > b {
		return a - b
	}
	return b - a
}

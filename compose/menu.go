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
	target := -1
	for i := len(rows) - 1; i >= 0; i-- {
		if option.MatchString(rows[i]) {
			target = i
			break
		}
	}
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

package tui

import tea "charm.land/bubbletea/v2"

// quitMsg is what tea.Quit produces, to compare message types.
func quitMsg() tea.Msg { return tea.Quit() }

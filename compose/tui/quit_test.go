package tui

import (
	"os/exec"

	tea "charm.land/bubbletea/v2"
)

// quitMsg is what tea.Quit produces, to compare message types.
func quitMsg() tea.Msg { return tea.Quit() }

type execCmd = exec.Cmd

func echoCmd(name string) *exec.Cmd { return exec.Command("echo", name) }

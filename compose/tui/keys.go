package tui

import (
	tea "charm.land/bubbletea/v2"
)

// onKey handles a key press in the current mode.
func (m *Model) onKey(msg tea.KeyPressMsg) tea.Cmd {
	key := msg.String()
	switch m.mode {
	case modeSearch, modeInput:
		return m.onPromptKey(msg)
	case modeConfirmDown:
		m.mode = modeNormal
		if key == "y" || key == "Y" {
			return m.down()
		}
		m.setStatus("down cancelled", false)
		return nil
	case modeConfirmQuit:
		m.mode = modeNormal
		switch key {
		case "y", "Y":
			return m.down()
		case "n", "N", "q":
			return tea.Quit
		}
		m.setStatus("", false)
		return nil
	case modeHelp:
		m.mode = modeNormal
		return nil
	}
	return m.onNormalKey(key)
}

// onNormalKey handles the dashboard's own keys.
func (m *Model) onNormalKey(key string) tea.Cmd {
	cur, ok := m.current()
	switch key {
	case "q", "ctrl+c":
		if m.opts.Owned && m.connected {
			m.mode = modeConfirmQuit
			return nil
		}
		return tea.Quit
	case "up", "k":
		m.selectRow(m.selected - 1)
	case "down", "j":
		m.selectRow(m.selected + 1)
	case "?":
		m.mode = modeHelp
	case "/":
		m.openPrompt(modeSearch, "/", m.search)
	case "n":
		m.log.HighlightNext()
		m.follow = false
	case "N":
		m.log.HighlightPrevious()
		m.follow = false
	case "esc":
		m.setSearch("")
	case "w":
		m.wrap = !m.wrap
		m.log.SoftWrap = m.wrap
		m.syncLog(false)
	case "pgup", "pgdown", "home", "end", "g", "G", "ctrl+u", "ctrl+d":
		m.scroll(key)
	case "R":
		return m.restartAll()
	case "l":
		m.allLogs = !m.allLogs
		m.syncLog(true)
		if !m.allLogs {
			return m.refreshScreen()
		}
		return nil
	case "x":
		m.mode = modeConfirmDown
	case "o":
		return m.cycleOrder()
	}
	if !ok {
		return nil
	}
	switch key {
	case "r":
		return m.act("restart", cur.Name)
	case "s":
		return m.act("stop", cur.Name)
	case "S":
		return m.act("start", cur.Name)
	case "i":
		m.openPrompt(modeInput, "send to "+cur.Name+"> ", "")
	case "p":
		return m.togglePause(cur)
	case "a":
		return m.attach(cur)
	case "up", "k", "down", "j":
		return m.refreshScreen()
	}
	return nil
}

// scroll moves the log pane; reaching the bottom follows again.
func (m *Model) scroll(key string) {
	switch key {
	case "pgup":
		m.log.PageUp()
	case "pgdown":
		m.log.PageDown()
	case "ctrl+u":
		m.log.HalfPageUp()
	case "ctrl+d":
		m.log.HalfPageDown()
	case "home", "g":
		m.log.GotoTop()
	case "end", "G":
		m.log.GotoBottom()
	}
	m.follow = m.log.AtBottom()
}

// openPrompt starts typing a search or a line.
func (m *Model) openPrompt(md mode, prompt, value string) {
	m.mode = md
	m.prompt.Prompt = prompt
	m.prompt.SetValue(value)
	m.prompt.CursorEnd()
	m.prompt.Focus()
	m.layout()
}

// onPromptKey edits the prompt; Enter applies it, Esc cancels.
func (m *Model) onPromptKey(msg tea.KeyPressMsg) tea.Cmd {
	switch msg.String() {
	case "esc", "ctrl+c":
		m.closePrompt()
		return nil
	case "enter":
		value, md := m.prompt.Value(), m.mode
		m.closePrompt()
		if md == modeSearch {
			m.setSearch(value)
			return nil
		}
		if cur, ok := m.current(); ok {
			return m.sendLine(cur.Name, value)
		}
		return nil
	}
	var cmd tea.Cmd
	m.prompt, cmd = m.prompt.Update(msg)
	if m.mode == modeSearch {
		m.setSearch(m.prompt.Value())
	}
	return cmd
}

func (m *Model) closePrompt() {
	m.mode = modeNormal
	m.prompt.Blur()
	m.layout()
}

// selectRow selects a process by its row, within bounds.
func (m *Model) selectRow(i int) {
	if i < 0 || i >= len(m.procs) || i == m.selected {
		return
	}
	m.selected = i
	m.follow = true
	m.syncLog(true)
}

// onClick selects the process whose row was clicked; a replicated
// process's header row selects its first instance.
func (m *Model) onClick(msg tea.MouseClickMsg) tea.Cmd {
	if msg.Button != tea.MouseLeft {
		return nil
	}
	row := msg.Y - m.tableTop
	if row < 0 || row >= m.visibleRows() {
		return nil
	}
	clicked := m.listRows()[m.firstRow()+row]
	if clicked.proc < 0 {
		clicked.proc = clicked.group[0]
	}
	m.selectRow(clicked.proc)
	return m.refreshScreen()
}

package tui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/procsdev/procs/rules"
)

// maxStatusLines bounds the last lines of a failure shown under the pane.
const maxStatusLines = 6

// View draws the dashboard.
func (m *Model) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = windowTitle
	return v
}

// render is the dashboard as text: header, process list, log pane, status
// and the key line.
func (m *Model) render() string {
	if m.mode == modeHelp {
		return m.renderHelp()
	}
	lines := []string{m.fit(m.renderHeader())}
	lines = append(lines, m.renderTable()...)
	lines = append(lines, m.fit(m.renderPaneTitle()))
	lines = append(lines, m.log.View())
	lines = append(lines, m.renderStatus()...)
	lines = append(lines, m.fit(m.renderFooter()))
	return strings.Join(lines, "\n")
}

// layout sizes the log pane to what the rest leaves.
func (m *Model) layout() {
	m.tableTop = 2
	used := 1 + 1 + m.visibleRows() + 1 + len(m.renderStatus()) + 1
	m.log.SetWidth(m.width)
	m.log.SetHeight(max(1, m.height-used))
	m.log.SoftWrap = m.wrap
	if m.follow {
		m.log.GotoBottom()
	}
}

// renderHeader is the counts per state and how long procs has run.
func (m *Model) renderHeader() string {
	parts := []string{m.styles.header.Render("procs")}
	if !m.connected {
		msg := "connecting…"
		if m.connErr != "" {
			msg = "not connected (" + m.connErr + "); retrying…"
		}
		return strings.Join(append(parts, m.styles.errorText.Render(msg)), "  ")
	}
	counts := map[rules.State]int{}
	var order []rules.State
	for _, p := range m.procs {
		if counts[p.State] == 0 {
			order = append(order, p.State)
		}
		counts[p.State]++
	}
	var states []string
	for _, st := range order {
		states = append(states, fmt.Sprintf("%d %s", counts[st], m.styles.state(st)))
	}
	parts = append(parts, strings.Join(states, ", "))
	if !m.info.StartedAt.IsZero() {
		parts = append(parts, "up "+shortDuration(m.now().Sub(m.info.StartedAt)))
	}
	if m.info.PID != 0 {
		parts = append(parts, fmt.Sprintf("pid %d", m.info.PID))
	}
	return strings.Join(parts, "  ")
}

// renderPaneTitle names what the pane shows and how.
func (m *Model) renderPaneTitle() string {
	cur, ok := m.current()
	if !ok {
		return m.styles.faint.Render("── no processes")
	}
	what := "log"
	if _, screen := m.screenOf(cur.Name); screen {
		what = "screen (a attaches)"
	}
	title := m.styles.title.Render(cur.Name)
	if m.allLogs {
		title, what = m.styles.title.Render("all processes"), "log (l: "+cur.Name+"'s)"
	}
	flags := []string{title, what}
	if sc := cur.Schedule; sc != nil && !m.allLogs {
		flags = append(flags, strings.TrimSuffix(sc.Spec+", "+sc.LastRunText(m.now()), ", "))
	}
	if m.follow {
		flags = append(flags, "following")
	} else {
		flags = append(flags, fmt.Sprintf("%d%%", int(m.log.ScrollPercent()*100)))
	}
	if m.wrap {
		flags = append(flags, "wrap")
	}
	if m.search != "" {
		matches := "matches"
		if m.matchCount() == 1 {
			matches = "match"
		}
		flags = append(flags, fmt.Sprintf("/%s: %d %s (n/N)", m.search, m.matchCount(), matches))
	}
	return "── " + strings.Join(flags, " · ") + " ──"
}

// renderStatus is the outcome of the last action, with a failure's last
// lines.
func (m *Model) renderStatus() []string {
	switch m.mode {
	case modeConfirmDown:
		return []string{m.styles.errorText.Render("Stop every process and procs? y/n")}
	case modeConfirmQuit:
		return []string{m.styles.errorText.Render("Stop procs too? y: stop everything, n: leave it running, esc: stay")}
	}
	if m.status == "" {
		return nil
	}
	style := m.styles.okText
	if m.statusFailed {
		style = m.styles.errorText
	}
	out := []string{m.fit(style.Render(m.status))}
	lines := m.statusLines
	if len(lines) > maxStatusLines {
		lines = lines[len(lines)-maxStatusLines:]
	}
	for _, l := range lines {
		out = append(out, m.fit("  | "+l))
	}
	return out
}

// renderFooter is the prompt being typed, or the keys.
func (m *Model) renderFooter() string {
	if m.mode == modeSearch || m.mode == modeInput {
		return m.prompt.View()
	}
	return m.styles.faint.Render("↑↓ select  r restart  s stop  S start  R restart all  l all logs  x down  i send  a attach  p pause  o sort  / search  w wrap  ? help  q quit")
}

// helpText lists every key.
const helpText = `procs tui — keys

  ↑/k ↓/j, click   select a process
  r                restart it and show the result (ready in N ms, or why not)
  s / S            stop it / start it
  R                restart every service
  x                stop everything and procs (asks first)
  i                send a line (and Enter) to it
  a                attach to a PTY process: keys go to it, Ctrl-] detaches
  p                pause / resume its onIdle actions
  o                sort the list by CPU, by memory, or in start order
  l                the log of every process, each line prefixed by its
                   name (l again: back to the selected process's)
  /                search its log (n / N: next / previous match, esc: clear)
  w                wrap long lines
  PgUp PgDn g G    scroll the log; G follows again
  q                quit (procs keeps running unless this TUI started it)

Log lines marked "!" came on stderr; "── NAME run N ──" marks where a
new run begins, as in procs logs. Any key closes this help.`

func (m *Model) renderHelp() string {
	lines := strings.Split(helpText, "\n")
	for i, l := range lines {
		lines[i] = m.fit(l)
	}
	return strings.Join(lines, "\n")
}

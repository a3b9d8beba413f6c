package compose

import (
	"fmt"
	"regexp"
	"strconv"

	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/rules"
)

// responder answers known dialogs for one run (autoRespond): each rule
// sends its text when its regex matches a line or, for a PTY run, a row of
// the screen. It is owned by the run loop.
type responder struct {
	rules []*autoRule
}

// autoRule is one autoRespond entry and what it has done in this run.
type autoRule struct {
	cfg  config.AutoRespond
	re   *regexp.Regexp
	sent int
	// latched is set while the dialog the rule answered is still on screen,
	// so a PTY dialog, seen as a line and on screen, is answered once.
	latched bool
}

// answer is a rule that fired and the text that made it fire.
type answer struct {
	rule    *autoRule
	matched string
}

func newResponder(cfg []config.AutoRespond) *responder {
	r := &responder{}
	for _, c := range cfg {
		// Validated at config load.
		re, err := regexp.Compile(c.Match)
		if err != nil {
			continue
		}
		r.rules = append(r.rules, &autoRule{cfg: c, re: re})
	}
	return r
}

// exhausted reports whether the rule has answered as often as it may.
func (a *autoRule) exhausted() bool {
	switch {
	case a.cfg.Once:
		return a.sent >= 1
	case a.cfg.MaxTimes > 0:
		return a.sent >= a.cfg.MaxTimes
	}
	return false
}

// line returns the answers a line triggers. On a PTY the dialog is also on
// the screen: the rule latches until the screen no longer shows it.
func (r *responder) line(text string, pty bool) []answer {
	var out []answer
	for _, rule := range r.rules {
		if rule.latched || rule.exhausted() || !rule.re.MatchString(text) {
			continue
		}
		rule.sent++
		rule.latched = pty
		out = append(out, answer{rule: rule, matched: text})
	}
	return out
}

// screen returns the answers the current screen triggers: a rule fires when
// its dialog appears, not again while it stays.
func (r *responder) screen(s *rules.Screen) []answer {
	var out []answer
	for _, rule := range r.rules {
		row, shown := s.Find(rule.re)
		if shown && !rule.latched && !rule.exhausted() {
			rule.sent++
			out = append(out, answer{rule: rule, matched: row})
		}
		rule.latched = shown
	}
	return out
}

// answer sends each answer as input and publishes it as an info event.
func (l *runLoop) answer(answers []answer) {
	for _, a := range answers {
		msg := fmt.Sprintf("autoRespond: %s matched /%s/, sent %s", strconv.Quote(a.matched), a.rule.cfg.Match, strconv.Quote(a.rule.cfg.Send))
		if !l.writer.enqueue(inputRequest{data: []byte(a.rule.cfg.Send)}) {
			msg = fmt.Sprintf("autoRespond: %s matched /%s/ but the input queue is full", strconv.Quote(a.matched), a.rule.cfg.Match)
		}
		l.s.bus.Publish(Event{Type: EventInfo, Proc: l.s.spec.name, Run: l.s.spec.run, Reason: ReasonAutoRespond, Message: msg})
	}
}

// ReasonAutoRespond marks the info event of an autoRespond answer.
const ReasonAutoRespond = "autorespond"

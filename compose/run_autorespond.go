package compose

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"time"

	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/rules"
)

// How autoRespond answers a dialog on a PTY screen: once the screen has
// been quiet for answerSettle (a dialog still drawing loses keys sent into
// it), and again, up to answerTries times in all, when the same dialog is
// still on screen answerRetry after the last answer (an answer can be lost).
const (
	answerSettle = 300 * time.Millisecond
	// answerSettleMax is how long a dialog under a screen that never goes
	// quiet (a spinner drawn elsewhere) waits for its answer at most.
	answerSettleMax = 2 * time.Second
	answerRetry     = 2 * time.Second
	answerTries     = 3
	// answerMoves bounds the arrow keys sent to reach one option.
	answerMoves = 20
)

// responder answers known dialogs for one run (autoRespond): each rule
// sends its text (or picks its option) when its regex matches a line of a
// pipe or a row of a PTY's screen. It is owned by the run loop.
type responder struct {
	rules []*autoRule
}

// autoRule is one autoRespond entry and what it has done in this run.
type autoRule struct {
	cfg    config.AutoRespond
	re     *regexp.Regexp
	choose *regexp.Regexp
	// sent counts the dialogs answered (re-sends of one answer are not new).
	sent int
	// For the dialog now on a PTY screen: shown says it is there,
	// answering that this rule answers it, gen numbers its timers (a
	// callback of an older one is stale), tries and moves count Enters and
	// arrows sent to it, lastTry is the last Enter.
	shown     bool
	shownAt   time.Time
	answering bool
	gen       int
	tries     int
	moves     int
	lastTry   time.Time
}

// answer is what a rule sends and the row or line that made it.
type answer struct {
	rule    *autoRule
	matched string
	keys    string
	note    string
}

func newResponder(cfg []config.AutoRespond) *responder {
	r := &responder{}
	for _, c := range cfg {
		// Validated at config load.
		re, err := regexp.Compile(c.Match)
		if err != nil {
			continue
		}
		rule := &autoRule{cfg: c, re: re}
		if c.Choose != "" {
			rule.choose = regexp.MustCompile(regexp.QuoteMeta(c.Choose))
		}
		r.rules = append(r.rules, rule)
	}
	return r
}

// exhausted reports whether the rule has answered as many dialogs as it may.
func (a *autoRule) exhausted() bool {
	switch {
	case a.cfg.Once:
		return a.sent >= 1
	case a.cfg.MaxTimes > 0:
		return a.sent >= a.cfg.MaxTimes
	}
	return false
}

// line returns the answers a line of a pipe triggers: each line is a new
// question. A PTY's dialogs are answered from its screen instead.
func (r *responder) line(text string, pty bool) []answer {
	if pty {
		return nil
	}
	var out []answer
	for _, rule := range r.rules {
		if rule.exhausted() || !rule.re.MatchString(text) {
			continue
		}
		rule.sent++
		out = append(out, answer{rule: rule, matched: text, keys: rule.cfg.Send})
	}
	return out
}

// screen notes which dialogs the screen shows after a change and returns
// the rules whose dialog waits for an answer: the caller asks again
// (settled) once the screen has been quiet for answerSettle.
func (r *responder) screen(s *rules.Screen, now time.Time) []*autoRule {
	var due []*autoRule
	for _, rule := range r.rules {
		_, shown := s.Find(rule.re)
		if !shown {
			if rule.shown {
				rule.shown, rule.answering, rule.tries, rule.moves = false, false, 0, 0
				rule.gen++
			}
			continue
		}
		if !rule.shown {
			// A new dialog: this rule answers it unless it has answered
			// as many as it may.
			rule.shown, rule.shownAt = true, now
			rule.answering = !rule.exhausted()
			if rule.answering {
				rule.sent++
			}
		}
		if !rule.answering || rule.tries >= answerTries || rule.moves >= answerMoves {
			continue
		}
		rule.gen++
		due = append(due, rule)
	}
	return due
}

// settled returns the answer of rule to the quiet screen s, if its timer
// gen is still current and its dialog still shown; and how long to wait
// before asking again (0: no more).
func (r *responder) settled(rule *autoRule, gen int, s *rules.Screen, now time.Time) (answer, bool, time.Duration) {
	if gen != rule.gen || !rule.answering {
		return answer{}, false, 0
	}
	row, shown := s.Find(rule.re)
	if !shown || rule.tries >= answerTries || rule.moves >= answerMoves {
		return answer{}, false, 0
	}
	if rule.tries > 0 {
		if wait := answerRetry - now.Sub(rule.lastTry); wait > 0 {
			return answer{}, false, wait
		}
	}
	a := answer{rule: rule, matched: row, keys: rule.cfg.Send}
	if rule.choose != nil {
		keys, enter, note := menuStep(s.Rows(), rule.choose)
		if keys == "" {
			return answer{rule: rule, matched: row, note: note}, true, 0
		}
		a.keys, a.note = keys, note
		if !enter {
			rule.moves++
			return a, true, answerRetry
		}
	}
	rule.tries++
	rule.lastTry = now
	if rule.tries > 1 {
		a.note = fmt.Sprintf("still on screen: try %d of %d", rule.tries, answerTries)
	}
	return a, true, answerRetry
}

// settleDelay is how long the screen must now stay quiet before the
// rule's dialog is answered: answerSettle, but no later than
// answerSettleMax after the dialog appeared.
func (a *autoRule) settleDelay(now time.Time) time.Duration {
	return max(0, min(answerSettle, a.shownAt.Add(answerSettleMax).Sub(now)))
}

// watchDialogs arms the settle timer of each rule whose dialog the screen
// now shows; the timer answers on the run loop if nothing was drawn since.
func (l *runLoop) watchDialogs() {
	now := time.Now()
	for _, rule := range l.responder.screen(l.screen, now) {
		l.armAnswer(rule, rule.settleDelay(now))
	}
}

// armAnswer asks the run loop to answer rule's dialog after d, unless the
// screen changes meanwhile (which arms a new timer: a newer generation).
func (l *runLoop) armAnswer(rule *autoRule, d time.Duration) {
	gen, s := rule.gen, l.s
	time.AfterFunc(d, func() {
		_ = s.onLoop(context.Background(), func(l *runLoop) {
			a, ok, again := l.responder.settled(rule, gen, l.screen, time.Now())
			if ok {
				l.answer([]answer{a})
			}
			if again > 0 {
				rule.gen++
				l.armAnswer(rule, again)
			}
		})
	})
}

// answer sends each answer as input and publishes it as an info event.
func (l *runLoop) answer(answers []answer) {
	for _, a := range answers {
		what := "sent " + strconv.Quote(a.keys)
		if a.rule.cfg.Choose != "" {
			what = fmt.Sprintf("chose %q: sent %s", a.rule.cfg.Choose, strconv.Quote(a.keys))
		}
		msg := fmt.Sprintf("autoRespond: %s matched /%s/, %s", strconv.Quote(a.matched), a.rule.cfg.Match, what)
		switch {
		case a.keys == "":
			msg = fmt.Sprintf("autoRespond: %s matched /%s/ but %s", strconv.Quote(a.matched), a.rule.cfg.Match, a.note)
		case !l.input().enqueue(inputRequest{data: []byte(a.keys)}):
			msg = fmt.Sprintf("autoRespond: %s matched /%s/ but the input queue is full", strconv.Quote(a.matched), a.rule.cfg.Match)
		case a.note != "":
			msg += " (" + a.note + ")"
		}
		l.s.bus.Publish(Event{Type: EventInfo, Proc: l.s.spec.name, Run: l.s.spec.run, Reason: rules.ReasonAutoRespond, Message: msg})
	}
}

package lifecycle

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// A run records the dependency it waited for: the one whose readiness (or
// completion) came last while it was waiting. A run started when its
// dependencies were already there waited for none: a restart, later, of a
// process whose dependency has long been ready (procs analyze would
// otherwise show the restart as part of the first start).
func TestARunRecordsTheDependencyItWaitedFor(t *testing.T) {
	r := newRig(t, `
procs:
  db: {command: db}
  cache: {command: cache}
  migrate: {command: migrate, kind: task, dependsOn: {db: ready}}
  api: {command: api, dependsOn: {migrate: completed, cache: ready}}
`, Options{})
	for _, name := range []string{"db", "cache", "migrate", "api"} {
		assert.Empty(t, r.m.Proc(name).WaitedFor, name)
	}
	r.clock.advance(time.Second)
	becomesReady("cache")(r)
	r.clock.advance(time.Second)
	becomesReady("db")(r)
	assert.Equal(t, "db", r.m.Proc("migrate").WaitedFor)
	r.clock.advance(time.Second)
	exits("migrate", exit0)(r)
	assert.Equal(t, "migrate", r.m.Proc("api").WaitedFor, "the last of its dependencies to be there")
	assert.Empty(t, r.m.Proc("db").WaitedFor, "no dependencies")

	r.clock.advance(time.Minute)
	becomesReady("api")(r)
	_, err := r.m.Restart([]string{"api"}, false)
	assert.NoError(t, err)
	r.take()
	r.clock.advance(time.Second)
	exits("api", stopExit)(r)
	assert.Equal(t, 2, r.m.Proc("api").Run, "restarted")
	assert.Empty(t, r.m.Proc("api").WaitedFor, "its dependencies were there when it was restarted")
}

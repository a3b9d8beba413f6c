package startgc

import (
	"os"
	"runtime/debug"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// percent reads GOGC without changing it.
func percent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

func TestOverlappingBeginsRestoreTheDefaultOnce(t *testing.T) {
	t.Setenv("GOGC", "")
	unsetGOGC(t)
	before := percent()
	endA := Begin(time.Hour)
	endB := Begin(time.Hour)
	assert.Equal(t, startPercent, percent())
	endA()
	endA() // twice is once
	assert.Equal(t, startPercent, percent(), "B still starts")
	endB()
	assert.Equal(t, before, percent())
}

func TestThePaceEndsByItself(t *testing.T) {
	t.Setenv("GOGC", "")
	unsetGOGC(t)
	before := percent()
	end := Begin(10 * time.Millisecond)
	defer end()
	assert.Eventually(t, func() bool { return percent() == before }, 10*time.Second, 5*time.Millisecond)
}

func TestTheUsersGOGCIsLeftAlone(t *testing.T) {
	t.Setenv("GOGC", "50")
	before := percent()
	end := Begin(time.Hour)
	assert.Equal(t, before, percent())
	end()
	assert.Equal(t, before, percent())
}

// unsetGOGC unsets GOGC for the test; the t.Setenv before it puts back
// what the environment had.
func unsetGOGC(t *testing.T) {
	t.Helper()
	if err := os.Unsetenv("GOGC"); err != nil {
		t.Fatal(err)
	}
}

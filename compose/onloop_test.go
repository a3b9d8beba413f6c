package compose

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A run loop that takes no request (a run in its finish, reading the last
// of its output) must not hold a screen or attach request past its
// caller's context.
func TestOnLoopGivesUpWithItsContext(t *testing.T) {
	s := newSupervisor(runSpec{name: "busy"}, nil, nil, nil, nil, nil)
	ctx, cancel := context.WithCancel(context.Background())
	ended := make(chan error, 1)
	go func() { ended <- s.onLoop(ctx, func(*runLoop) {}) }()
	cancel()
	select {
	case err := <-ended:
		require.Error(t, err)
		assert.True(t, errors.Is(err, context.Canceled))
	case <-time.After(waitLimit):
		t.Fatal("onLoop did not give up with its context")
	}
}

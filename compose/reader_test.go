package compose

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// An idle reader waits with a small buffer; one that fills it reads into a
// big one from the pool until a read would have fitted the small one again
// (so 50 idle processes hold 1 KiB per stream, not 32 KiB).
func TestReadBufferGrowsForBurstsOnly(t *testing.T) {
	var buf readBuffer
	defer buf.release()
	assert.Equal(t, smallReadBuffer, len(buf.next()))
	buf.done(10)
	assert.Equal(t, smallReadBuffer, len(buf.next()), "a short read keeps the small buffer")
	buf.done(smallReadBuffer)
	assert.Equal(t, bigReadBuffer, len(buf.next()), "a full read takes the big one")
	buf.done(bigReadBuffer / 2)
	assert.Equal(t, bigReadBuffer, len(buf.next()), "still a burst")
	buf.done(100)
	assert.Nil(t, buf.big, "the big buffer goes back to the pool")
	assert.Equal(t, smallReadBuffer, len(buf.next()))
}

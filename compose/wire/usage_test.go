package wire

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestFormatBytes(t *testing.T) {
	for n, want := range map[uint64]string{
		512: "512B", 999: "999B", 1000: "1.0K", 840 << 10: "840K", 5 << 20: "5.0M",
		212 << 20: "212M", 1229 << 20: "1.2G", 3 << 40: "3.0T",
	} {
		assert.Equal(t, want, FormatBytes(n), "%d bytes", n)
	}
}

func TestUsageTexts(t *testing.T) {
	assert.Equal(t, "-", Usage{}.CPUText(), "unknown is never 0")
	assert.Equal(t, "-", Usage{}.MemoryText())
	busy, idle := 99.5, 0.0
	assert.Equal(t, "99.5%", Usage{CPUPercent: &busy}.CPUText())
	assert.Equal(t, "0.0%", Usage{CPUPercent: &idle}.CPUText())
	assert.Equal(t, "212M", Usage{MemoryBytes: 212 << 20}.MemoryText())
}

func TestUsagePlus(t *testing.T) {
	a, b := 50.0, 25.5
	sum := Usage{CPUPercent: &a, MemoryBytes: 10 << 20}.Plus(Usage{CPUPercent: &b, MemoryBytes: 5 << 20})
	assert.Equal(t, 75.5, *sum.CPUPercent)
	assert.Equal(t, uint64(15<<20), sum.MemoryBytes)
	assert.Nil(t, Usage{}.Plus(Usage{}).CPUPercent, "nothing known stays unknown")
	assert.Equal(t, 50.0, *Usage{}.Plus(Usage{CPUPercent: &a}).CPUPercent)
}

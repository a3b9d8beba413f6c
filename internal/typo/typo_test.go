package typo

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"web", "web", 0}, {"", "abc", 3}, {"abc", "", 3},
		{"wbe", "web", 1}, {"kitten", "sitting", 3}, {"ca", "abc", 3},
		{"readyPatern", "readyPatterns", 2}, {"héllo", "hello", 1},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, Distance(tt.a, tt.b), "%q → %q", tt.a, tt.b)
		assert.Equal(t, tt.want, Distance(tt.b, tt.a), "%q → %q", tt.b, tt.a)
	}
}

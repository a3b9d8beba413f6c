package webui

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSpans(t *testing.T) {
	tests := []struct {
		name string
		raw  string
		want []Span
	}{
		{"plain", "hello", []Span{{Text: "hello"}}},
		{"basic colour and reset", "\x1b[31merr\x1b[0m ok", []Span{{Text: "err", Fg: "c1"}, {Text: " ok"}}},
		{"bold bright", "\x1b[1;92mup\x1b[m", []Span{{Text: "up", Fg: "c10", Bold: true}}},
		{"256 colour", "\x1b[38;5;208mx", []Span{{Text: "x", Fg: "#ff8700"}}},
		{"256 low index is a theme colour", "\x1b[38;5;4mx", []Span{{Text: "x", Fg: "c4"}}},
		{"true colour background", "\x1b[48;2;1;2;3my", []Span{{Text: "y", Bg: "#010203"}}},
		{"cursor moves dropped", "a\x1b[2Kb\x1b]0;title\x07c", []Span{{Text: "abc"}}},
		{"utf-8 kept", "\x1b[33m✓ café\x1b[0m", []Span{{Text: "✓ café", Fg: "c3"}}},
		{"empty", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, Spans(tt.raw))
		})
	}
}

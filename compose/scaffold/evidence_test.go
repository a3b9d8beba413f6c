package scaffold

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestWithoutComments(t *testing.T) {
	tests := []struct{ text, want string }{
		{"// const api = 'http://localhost:3001'\nconst api = 'https://x.app'", "\nconst api = 'https://x.app'"},
		{"# DATABASE_URL=postgres://db\nDATABASE_URL=", "\nDATABASE_URL="},
		{"a /* old: redis://cache */ b", "a  b"},
		{`"lint": "eslint src/**/*.ts", "/**": {}`, `"lint": "eslint src/**/*.ts", "/**": {}`},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, withoutComments(tt.text), tt.text)
	}
}

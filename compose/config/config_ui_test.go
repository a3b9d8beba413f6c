package config

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestUIConfig(t *testing.T) {
	const procs = "procs:\n  web: {command: sleep 1}\n"
	tests := []struct {
		name    string
		yaml    string
		want    *UIConfig
		wantErr string
	}{
		{"absent", procs, nil, ""},
		{"a port", "ui: {port: 8790}\n" + procs, &UIConfig{Port: 8790}, ""},
		{"0 is any free port", "ui: {port: 0}\n" + procs, &UIConfig{}, ""},
		{"out of range", "ui: {port: 70000}\n" + procs, nil, "ui.port: 70000 is not a port"},
		{"unknown key", "ui: {prot: 1}\n" + procs, nil, `unknown key "prot"`},
		{"not a mapping", "ui: 8790\n" + procs, nil, "ui: expected a mapping"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := Parse("procs.yaml", []byte(tt.yaml), nil)
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, cfg.UI)
		})
	}
}

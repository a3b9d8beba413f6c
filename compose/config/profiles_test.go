package config

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const profilesConfig = `procs:
  db:
    command: ./db
    profiles: [e2e]
  api:
    command: ./api
  e2e:
    command: ./e2e
    profiles: [e2e, ci]
    dependsOn: [db, stub]
  stub:
    command: ./stub
    profiles: [debug]
  tools:
    command: ./tools
    profiles: [debug]
    disabled: true
`

func TestProfilesDecode(t *testing.T) {
	cfg, err := Parse("procs.yaml", []byte(profilesConfig), nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"e2e", "ci"}, cfg.Procs["e2e"].Profiles)
	assert.Empty(t, cfg.Procs["api"].Profiles)
}

func TestUpSetByProfiles(t *testing.T) {
	cfg, err := Parse("procs.yaml", []byte(profilesConfig), nil)
	require.NoError(t, err)
	for _, tc := range []struct {
		active []string
		want   []string
	}{
		{nil, []string{"api"}},
		{[]string{"ci"}, []string{"api", "db", "e2e", "stub"}},
		{[]string{"e2e"}, []string{"api", "db", "e2e", "stub"}},
		{[]string{"debug"}, []string{"api", "stub"}},
		{[]string{"other"}, []string{"api"}},
	} {
		assert.Equal(t, tc.want, cfg.UpSet(tc.active), "active %v", tc.active)
	}
}

func TestParseProfiles(t *testing.T) {
	got, err := ParseProfiles("e2e", " debug, e2e ,", "")
	require.NoError(t, err)
	assert.Equal(t, []string{"e2e", "debug"}, got)
	_, err = ParseProfiles("e2e,my profile")
	require.ErrorContains(t, err, `invalid profile name "my profile"`)
}

func TestCheckProfiles(t *testing.T) {
	cfg, err := Parse("procs.yaml", []byte(profilesConfig), nil)
	require.NoError(t, err)
	assert.NoError(t, cfg.CheckProfiles(nil))
	assert.NoError(t, cfg.CheckProfiles([]string{"e2e", "debug", "ci"}))
	err = cfg.CheckProfiles([]string{"e2e", "debg"})
	require.Error(t, err)
	assert.Equal(t, `unknown profile "debg" (did you mean "debug"?): procs.yaml has profiles ci, debug, e2e`, err.Error())

	none, err := Parse("procs.yaml", []byte("procs:\n  api:\n    command: ./api\n"), nil)
	require.NoError(t, err)
	err = none.CheckProfiles([]string{"e2e"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `unknown profile "e2e": no process of`)
}

package config

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseByteSize(t *testing.T) {
	for text, want := range map[string]ByteSize{
		"65536": 65536, "64MiB": 64 << 20, "64M": 64 << 20, "64mib": 64 << 20, "500MB": 500e6,
		"1GiB": 1 << 30, "1.5GiB": 3 << 29, "512 KiB": 512 << 10, "2kB": 2000, "100b": 100,
	} {
		got, err := ParseByteSize(text)
		require.NoError(t, err, text)
		assert.Equal(t, want, got, text)
	}
	for _, text := range []string{"10XB", "", "MiB", "-1MiB", "1.2.3MB", "1TiB", "ten"} {
		_, err := ParseByteSize(text)
		assert.Error(t, err, text)
	}
	assert.Equal(t, "64MiB", ByteSize(64<<20).String())
	assert.Equal(t, "1000", ByteSize(1000).String())
}

// A process's own logs: settings win over the top-level ones, one by one.
func TestLogsOf(t *testing.T) {
	cfg, err := Parse(t.TempDir()+"/procs.yaml", []byte(`
logs: {maxSize: 128MiB, keep: 3}
procs:
  quiet: {command: "true"}
  chatty: {command: "true", logs: {maxSize: 1GiB}}
  none: {command: "true", logs: {keep: 0}}
`), nil)
	require.NoError(t, err)
	quiet, chatty, none := cfg.LogsOf(cfg.Procs["quiet"]), cfg.LogsOf(cfg.Procs["chatty"]), cfg.LogsOf(cfg.Procs["none"])
	assert.Equal(t, ByteSize(128<<20), quiet.MaxSize)
	assert.Equal(t, 3, *quiet.Keep)
	assert.Equal(t, ByteSize(1<<30), chatty.MaxSize)
	assert.Equal(t, 3, *chatty.Keep)
	assert.Equal(t, ByteSize(128<<20), none.MaxSize)
	assert.Equal(t, 0, *none.Keep)

	bare := &Config{}
	assert.Equal(t, Logs{}, bare.LogsOf(&Proc{}), "unset: the caller's defaults apply")
}

package frameworks

import (
	"io/fs"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPresetFiles checks every embedded preset file on its own: it parses
// strictly, its regexes compile, its required fields are set, and its file
// is named after it.
func TestPresetFiles(t *testing.T) {
	entries, err := fs.ReadDir(presetFiles, "presets")
	require.NoError(t, err)
	names := map[string]string{}
	for _, e := range entries {
		t.Run(e.Name(), func(t *testing.T) {
			require.True(t, strings.HasSuffix(e.Name(), ".yaml"), "only .yaml files belong in presets/")
			data, err := fs.ReadFile(presetFiles, "presets/"+e.Name())
			require.NoError(t, err)
			p, err := parsePreset(data)
			require.NoError(t, err)
			require.NoError(t, p.checkPatterns(), "procs compiles a preset's patterns only when a config uses it")
			assert.Equal(t, strings.TrimSuffix(e.Name(), ".yaml"), p.Name, "file name = name")
			assert.NotEmpty(t, p.Description)
			assert.Contains(t, []string{CategoryDevServer, CategoryService, CategoryGeneric}, p.Category)
			if p.Interactive {
				assert.NotEmpty(t, p.ReadyPatterns, "an interactive preset needs its prompt")
				assert.NotEmpty(t, p.Detect.Command, "an interactive preset is found by its command")
			}
			for _, set := range [][]string{p.ReadyPatterns, p.ErrorPatterns, p.NotReadyPatterns, p.Detect.Command} {
				for _, src := range set {
					_, err := regexp.Compile(src)
					assert.NoError(t, err, src)
				}
			}
			if p.Category != CategoryGeneric {
				assert.NotEmpty(t, p.ErrorPatterns, "a server preset needs error patterns")
				assert.True(t, len(p.Detect.Command) > 0 || len(p.Detect.PackageJSON) > 0 || len(p.Detect.Files) > 0,
					"a server preset needs a way to be detected")
			}
			if p.PortFlag != "" {
				assert.True(t, strings.HasPrefix(p.PortFlag, "-"), "portFlag is a flag")
			}
			if prev, dup := names[p.Name]; dup {
				t.Errorf("name %q used by %s and %s", p.Name, prev, e.Name())
			}
			names[p.Name] = e.Name()
		})
	}
}

func TestPresetFileRejectsBadInput(t *testing.T) {
	base := "name: x\ndescription: d\ncategory: service\n"
	for name, doc := range map[string]string{
		"unknown key":                 base + "readyPatern: [a]\n",
		"bad regex":                   base + "errorPatterns: ['(']\n",
		"bad agent regex":             base + "interactive: true\nbusyPatterns: ['[']\n",
		"bad category":                "name: x\ndescription: d\ncategory: db\n",
		"no description":              "name: x\ncategory: service\n",
		"bad duration":                base + "readyTimeout: 30\n",
		"files no runners":            base + "detect: {files: [manage.py]}\n",
		"assumed ready and a timeout": base + "assumeReadyAfter: 10s\nreadyTimeout: 30s\n",
		"bad assumeReadyAfter":        base + "assumeReadyAfter: soon\n",
	} {
		t.Run(name, func(t *testing.T) {
			p, err := parsePreset([]byte(doc))
			if err == nil {
				err = p.checkPatterns()
			}
			assert.Error(t, err)
		})
	}
	p, err := parsePreset([]byte(base + "detect: {files: [manage.py, [Gemfile, config.ru]], runners: [python]}\nreadyTimeout: 5s\n"))
	require.NoError(t, err)
	assert.Equal(t, [][]string{{"manage.py"}, {"Gemfile", "config.ru"}}, p.Detect.Files)
}

func TestAllLookupNames(t *testing.T) {
	all := All()
	require.GreaterOrEqual(t, len(all), 40)
	names := Names()
	assert.True(t, slices.IsSorted(names))
	for _, want := range []string{"nextjs", "vite", "django", "flask", "postgres", "redis", "nginx", "memcached", "shell"} {
		p, ok := Lookup(want)
		require.True(t, ok, want)
		assert.Equal(t, want, p.Name)
		assert.True(t, Known(want))
	}
	assert.True(t, Known("auto"))
	assert.True(t, Known("none"))
	assert.False(t, Known("no-such-framework"))
	_, ok := Lookup("no-such-framework")
	assert.False(t, ok)
}

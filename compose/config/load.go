package config

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	kmaps "github.com/knadh/koanf/maps"
	"github.com/knadh/koanf/parsers/yaml"
	"github.com/knadh/koanf/providers/confmap"
	"github.com/knadh/koanf/providers/env/v2"
	"github.com/knadh/koanf/v2"

	"github.com/procsdev/procs/internal/lazyregexp"
)

// LoadOptions says where Load finds the config and what overrides it.
type LoadOptions struct {
	// File is an explicit config path (-f); "" means PROCS_FILE from Environ,
	// then procs.yaml in Dir.
	File string
	// Dir is the folder to look in when File is ""; "" means the current folder.
	Dir string
	// Environ is the environment in os.Environ form; nil means os.Environ().
	Environ []string
	// Set holds flag overrides such as "procs.api.port=9090".
	Set []string
}

// envPrefix starts the environment variables that override the config.
const envPrefix = "PROCS_"

// pathDelim joins key paths inside koanf; process names may contain dots.
const pathDelim = "\x1f"

// Load reads procs.yaml (or, when there is none, a Procfile), then
// procs.override.yaml beside it, then PROCS_* variables, then --set
// overrides, and returns the validated config. Config problems are returned
// as ConfigErrors; a missing or unreadable file as a wrapped error (wrapping
// ErrNoConfig when neither procs.yaml nor a Procfile is found).
func Load(opts LoadOptions) (*Config, error) {
	environ := opts.Environ
	if environ == nil {
		environ = os.Environ()
	}
	file, err := findConfig(opts, environ)
	if err != nil {
		return nil, err
	}
	data, err := readConfigFile(file)
	if err != nil {
		return nil, fmt.Errorf("read config: %w", err)
	}
	ld := newLoader(file, environ)
	if IsProcfile(file) {
		ld.addProcfile(file, data)
	} else {
		ld.addFile(file, data)
	}
	override := overridePath(file)
	if data, err := readConfigFile(override); err == nil {
		ld.addFile(override, data)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("read override: %w", err)
	}
	ld.addEnv()
	ld.addSet(opts.Set)
	return ld.finish()
}

// Parse reads one config document with no override file, variables or
// flags; environ is used only to expand ${VAR}.
func Parse(file string, data []byte, environ []string) (*Config, error) {
	abs, err := filepath.Abs(file)
	if err != nil {
		return nil, fmt.Errorf("parse config: %w", err)
	}
	ld := newLoader(abs, environ)
	ld.addFile(abs, data)
	return ld.finish()
}

// findConfig returns the absolute path of the config file to load: -f or
// $PROCS_FILE, else procs.yaml or procs.yml (or else Procfile.dev or
// Procfile) in Dir, else the nearest procs.yaml or procs.yml in a folder
// above it, as docker compose looks for its file.
func findConfig(opts LoadOptions, environ []string) (string, error) {
	file := opts.File
	if file == "" {
		file = lookupEnv(environ, "PROCS_FILE")
	}
	if file != "" {
		abs, err := filepath.Abs(file)
		if err != nil {
			return "", fmt.Errorf("find config: %w", err)
		}
		if _, err := os.Stat(abs); err != nil {
			return "", fmt.Errorf("read config: %w", err)
		}
		return abs, nil
	}
	start, err := filepath.Abs(opts.Dir)
	if err != nil {
		return "", fmt.Errorf("find config: %w", err)
	}
	// A folder run with foreman or overmind works as it is.
	if file, err := configIn(start, append(yamlNames, procfileNames...)); file != "" || err != nil {
		return file, err
	}
	for dir := filepath.Dir(start); ; dir = filepath.Dir(dir) {
		if file, err := configIn(dir, yamlNames); file != "" || err != nil {
			return file, err
		}
		if dir == filepath.Dir(dir) {
			return "", fmt.Errorf("%w in %s or a folder above it: create one, or pass -f FILE", ErrNoConfig, start)
		}
	}
}

// yamlNames are the names of the config file, as docker compose accepts
// compose.yaml and compose.yml; both in one folder is an error.
var yamlNames = []string{"procs.yaml", "procs.yml"}

// procfileNames are the Procfiles a folder without procs.yaml runs, in
// order of preference: Procfile.dev is the one for development (Rails'
// bin/dev runs it), where Procfile is often what production runs.
var procfileNames = []string{"Procfile.dev", "Procfile"}

// configIn returns the first of names that exists in dir, "" if none; two
// of yamlNames at once are refused, since which one procs reads would be
// a guess.
func configIn(dir string, names []string) (string, error) {
	var found []string
	for _, name := range names {
		ok, err := existingFile(filepath.Join(dir, name))
		if err != nil {
			return "", err
		}
		if ok {
			found = append(found, name)
		}
	}
	if len(found) == 0 {
		return "", nil
	}
	if len(found) > 1 && slices.Contains(yamlNames, found[1]) {
		return "", fmt.Errorf("both %s and %s are in %s: keep one (procs reads either), or pass -f FILE", found[0], found[1], dir)
	}
	return filepath.Join(dir, found[0]), nil
}

// existingFile reports whether file exists; an error other than "does not
// exist" (a permission problem) is returned for the user to see.
func existingFile(file string) (bool, error) {
	_, err := os.Stat(file)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, fs.ErrNotExist):
		return false, nil
	}
	return false, fmt.Errorf("read config: %w", err)
}

// overridePath is procs.override.yaml for procs.yaml (name.override.ext),
// and for a Procfile.
func overridePath(file string) string {
	if IsProcfile(file) {
		return filepath.Join(filepath.Dir(file), "procs.override.yaml")
	}
	ext := filepath.Ext(file)
	return strings.TrimSuffix(file, ext) + ".override" + ext
}

// Chosen reports whether opts name the config file (-f, or $PROCS_FILE in
// Environ) rather than leave Load to find it.
func (opts LoadOptions) Chosen() bool {
	return opts.File != "" || lookupEnv(opts.Environ, "PROCS_FILE") != ""
}

func lookupEnv(environ []string, name string) string {
	value := ""
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok && k == name {
			value = v
		}
	}
	return value
}

// loader merges the layers with koanf while recording where each key came from.
type loader struct {
	k *koanf.Koanf
	// merged is koanf's merged config itself: the map its first merge
	// made, which every later merge adds to in place (firstMerge). finish
	// reads it, where koanf's Raw would copy the whole config by
	// reflection, a tenth of the load of two hundred processes.
	merged  map[string]any
	file    string
	environ []string
	src     *sources
	errs    ConfigErrors
}

func newLoader(file string, environ []string) *loader {
	return &loader{
		k:       koanf.New(pathDelim),
		file:    file,
		environ: environ,
		src:     newSources(file),
	}
}

// addFile merges one YAML file, after goccy/go-yaml has recorded positions.
// The two parses of the file, goccy's for positions and koanf's for values,
// run on two cores: a config of two hundred processes is a few
// milliseconds of each, before any process can start.
func (ld *loader) addFile(file string, data []byte) {
	// A byte order mark (Notepad's UTF-8) comes before line 1, column 1:
	// without it, both parsers place every key where an editor shows it.
	data = bytes.TrimPrefix(data, utf8BOM)
	if err := checkLimits(file, data); err != nil {
		ld.errs = append(ld.errs, err)
		return
	}
	values := make(chan decodedFile, 1)
	go func() { values <- decodeValues(data) }()
	if errs := recordFile(file, data, ld.src); len(errs) > 0 {
		ld.errs = append(ld.errs, errs...)
		return
	}
	decoded := <-values
	if decoded.err == nil {
		decoded.err = ld.loadSafely(decoded, nil)
	}
	if decoded.err != nil {
		ld.errs = append(ld.errs, yamlError(file, decoded.err))
	}
}

// decodedFile is a file's values as koanf's YAML parser decoded them, or
// why it could not; it is the koanf.Provider that merges them.
type decodedFile struct {
	values map[string]any
	err    error
}

// decodeValues runs koanf's YAML parser on data; a panic of the parser is
// an error, as in loadSafely.
func decodeValues(data []byte) (d decodedFile) {
	defer func() {
		if r := recover(); r != nil {
			d = decodedFile{err: fmt.Errorf("%v", r)}
		}
	}()
	values, err := yaml.Parser().Unmarshal(data)
	return decodedFile{values: values, err: err}
}

// ReadBytes is not used: Read gives the decoded values.
func (d decodedFile) ReadBytes() ([]byte, error) {
	return nil, errors.New("a decoded file has no bytes to read")
}

// Read gives the decoded values to koanf, which merges them; nothing else
// holds them, so they are not copied.
func (d decodedFile) Read() (map[string]any, error) { return d.values, nil }

func (ld *loader) loadSafely(p koanf.Provider, pa koanf.Parser) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	if ld.merged == nil {
		return ld.k.Load(p, pa, koanf.WithMergeFunc(ld.firstMerge))
	}
	return ld.k.Load(p, pa)
}

// firstMerge is koanf's own merge for the first layer, which keeps the map
// koanf then holds as its config (dest): koanf's merge of each later layer
// adds to that map in place (TestLoaderReadsKoanfsMergedConfig).
func (ld *loader) firstMerge(src, dest map[string]any) error {
	kmaps.Merge(src, dest)
	ld.merged = dest
	return nil
}

var yamlLine = lazyregexp.New(`line (\d+)`)

// yamlError places an error of the koanf YAML parser at the line it names.
func yamlError(file string, err error) *ConfigError {
	e := &ConfigError{File: file, Line: 1, Col: 1, Msg: "invalid YAML: " + strings.TrimPrefix(err.Error(), "yaml: ")}
	if m := yamlLine.FindStringSubmatch(err.Error()); m != nil {
		if n, convErr := strconv.Atoi(m[1]); convErr == nil && n > 0 {
			e.Line = n
		}
	}
	return e
}

// addEnv merges PROCS_* variables: PROCS_PROCS__API__PORT sets procs.api.port.
// Only variables with a double underscore are config keys, so PROCS_FILE
// and other single-level variables are left alone.
func (ld *loader) addEnv() {
	// Most environments have no such variable: koanf's merge of nothing
	// would still flatten the whole config again, a millisecond for two
	// hundred processes before the first one starts.
	if !slices.ContainsFunc(ld.environ, namesAKey) {
		return
	}
	// The merged config is copied (koanf's Raw is a deep copy) only when a
	// variable names a key: mostly none does, and the copy of a config of
	// 200 processes is a tenth of its load.
	var current map[string]any
	transform := func(name, value string) (string, any) {
		rest := strings.TrimPrefix(name, envPrefix)
		if !strings.Contains(rest, "__") {
			return "", nil
		}
		if current == nil {
			current = ld.k.Raw()
		}
		path, ok := ld.resolvePath(name, current, strings.Split(rest, "__"), false)
		if !ok {
			return "", nil
		}
		ld.src.setOverride(path, name, value)
		return strings.Join(path, pathDelim), value
	}
	provider := env.Provider(pathDelim, env.Opt{
		Prefix:        envPrefix,
		TransformFunc: transform,
		EnvironFunc:   func() []string { return ld.environ },
	})
	if err := ld.loadSafely(provider, nil); err != nil {
		ld.errs = append(ld.errs, &ConfigError{File: "environment", Msg: fmt.Sprintf("cannot merge PROCS_ variables: %v", err)})
	}
}

// namesAKey says whether the environment entry kv is a PROCS_ variable
// that sets a config key (addEnv).
func namesAKey(kv string) bool {
	name, _, _ := strings.Cut(kv, "=")
	rest, ok := strings.CutPrefix(name, envPrefix)
	return ok && strings.Contains(rest, "__")
}

// addSet merges --set key.path=value overrides.
func (ld *loader) addSet(sets []string) {
	if len(sets) == 0 {
		return
	}
	current := ld.k.Raw()
	flat := map[string]any{}
	for _, kv := range sets {
		key, value, ok := strings.Cut(kv, "=")
		if !ok || strings.TrimSpace(key) == "" {
			ld.errs = append(ld.errs, &ConfigError{File: "--set", Msg: fmt.Sprintf("%q must look like key.path=value, e.g. procs.api.port=9090", kv)})
			continue
		}
		path, ok := ld.resolvePath("--set", current, strings.Split(strings.TrimSpace(key), "."), true)
		if !ok {
			continue
		}
		ld.src.setOverride(path, "--set", value)
		flat[strings.Join(path, pathDelim)] = value
	}
	if err := ld.loadSafely(confmap.Provider(flat, pathDelim), nil); err != nil {
		ld.errs = append(ld.errs, &ConfigError{File: "--set", Msg: fmt.Sprintf("cannot merge --set values: %v", err)})
	}
}

// resolvePath maps the parts of a variable or flag name to a key path,
// matching keys case-insensitively against the keys already in the config
// and the known field names (READYTIMEOUT → readyTimeout). With dotted, a
// run of parts joined by dots may match one key, for names like "web.v2".
func (ld *loader) resolvePath(source string, tree map[string]any, parts []string, dotted bool) ([]string, bool) {
	var path []string
	var node any = tree
	for i := 0; i < len(parts); {
		if parts[i] == "" {
			ld.errs = append(ld.errs, &ConfigError{File: source, Msg: "empty key in the name: separate levels with " + map[bool]string{true: "one dot", false: "a double underscore"}[dotted]})
			return nil, false
		}
		m, _ := node.(map[string]any)
		seg, used := matchKey(m, structKeys(path), parts[i:], dotted)
		path = append(path, seg)
		i += used
		node = m[seg]
	}
	return path, true
}

// matchKey picks the key for the next parts: an existing key, then a known
// field name, both case-insensitively; otherwise the first part as written.
func matchKey(m map[string]any, known []string, parts []string, dotted bool) (string, int) {
	longest := 1
	if dotted {
		longest = len(parts)
	}
	for n := longest; n >= 1; n-- {
		want := strings.Join(parts[:n], ".")
		if _, ok := m[want]; ok {
			return want, n
		}
		for _, key := range sortedKeys(m) {
			if strings.EqualFold(key, want) {
				return key, n
			}
		}
	}
	for _, field := range known {
		if strings.EqualFold(field, parts[0]) {
			return field, 1
		}
	}
	return parts[0], 1
}

// finish expands, decodes and validates the merged layers.
func (ld *loader) finish() (*Config, error) {
	if len(ld.errs) > 0 {
		sortErrors(ld.errs)
		return nil, ld.errs
	}
	raw := ld.merged
	if raw == nil { // nothing was merged
		raw = map[string]any{}
	}
	dir := filepath.Dir(ld.file)
	p := &problems{src: ld.src}
	ex := &expander{p: p, environ: envMap(ld.environ), dir: dir, portReaders: map[string]*ConfigError{}}
	ex.config(raw)
	expanded := len(p.errs)
	d := &decoder{p: p, depPaths: map[[2]string][]string{}}
	cfg := d.config(raw)
	cfg.File, cfg.Dir, cfg.DotEnv = ld.file, dir, ex.dotEnv
	cfg.Warnings = ex.warnings()
	v := &validator{p: p, d: d, cfg: cfg, declared: d.declared}
	v.run()
	if len(p.errs) > 0 {
		p.errs = causesOnly(p.errs, expanded)
		ex.nameVariablesIn(p.errs)
		sortErrors(p.errs)
		return nil, p.errs
	}
	for name, at := range ex.portReaders {
		if p := cfg.Procs[name]; p != nil {
			p.portReader = at
		}
	}
	cfg.declared = cfg.Procs
	cfg.Procs = expandReplicas(cfg.declared)
	return cfg, nil
}

// causesOnly drops, from errs, the errors after the first expanded (the
// decoder's and the validator's) at a value the expander refused: what
// they say of the text it left ("127.0.0.1:" is not host:port) follows
// from the refusal, and names a wrong fix.
func causesOnly(errs ConfigErrors, expanded int) ConfigErrors {
	refused := map[string]bool{}
	for _, e := range errs[:expanded] {
		refused[e.Path] = e.Path != "" // an env file's own error is at no value
	}
	kept := errs[:expanded]
	for _, e := range errs[expanded:] {
		if !refused[e.Path] {
			kept = append(kept, e)
		}
	}
	return kept
}

// envMap turns an os.Environ list into a map; later entries win.
func envMap(environ []string) map[string]string {
	m := make(map[string]string, len(environ))
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok {
			m[k] = v
		}
	}
	return m
}

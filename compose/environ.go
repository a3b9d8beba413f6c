package compose

import (
	"maps"
	"os"

	"slices"
	"strconv"

	"github.com/procsdev/procs/compose/config"

	"github.com/procsdev/procs/compose/contain"
)

// environ makes the environment of a run; configured is what the config
// gave it (config.Environment), kept to tell, on a reload, whether an
// edited env file changes what the run was given. It reads env files, so
// the supervisor calls it, off the engine loop.
type environ func() (env []string, configured map[string]string, err error)

// environOf returns the environ of run of ps, in README's order (see
// processEnv).
func (e *Engine) environOf(ps *procState, run int) environ {
	cfg, p, presetEnv, instance := e.cfg, ps.cfg, ps.presetEnv, e.instance
	return func() ([]string, map[string]string, error) {
		return processEnv(cfg, p, presetEnv, instance, run)
	}
}

// processEnv makes the environment of run of p, lowest priority first:
// the preset's env (what the user sets anywhere beats it), the env files
// (.env, the global envFile, p's envFile), the environment procs runs in,
// env: (the global one, then p's), then the variables procs sets itself.
// That is README's order, and the one ${VAR} in procs.yaml expands in, so
// the two never disagree. configured is what the config gave (the env
// files and env:), to tell on a reload whether an edited file changes it.
func processEnv(cfg *config.Config, p *config.Proc, presetEnv map[string]string, instance string, run int) (env []string, configured map[string]string, err error) {
	files, explicit, err := cfg.EnvironmentLayers(p)
	if err != nil {
		return nil, nil, err
	}
	shell := os.Environ()
	b := newEnvBuilder(len(presetEnv) + len(files) + len(shell) + len(explicit) + 5)
	for _, k := range sortedEnvKeys(presetEnv) {
		b.set(k, presetEnv[k])
	}
	for _, k := range sortedEnvKeys(files) {
		b.set(k, files[k])
	}
	for _, kv := range shell {
		// The watchdog's mode is procs' own, never a child's.
		if k, _, ok := cutEnv(kv); ok && k != contain.WatchdogVar {
			b.setPair(k, kv)
		}
	}
	for _, k := range sortedEnvKeys(explicit) {
		b.set(k, explicit[k])
	}
	// A user who asked for no colour gets none, whatever the preset forces.
	if forced, ok := presetEnv["FORCE_COLOR"]; ok && b.get("NO_COLOR") != "" && b.get("FORCE_COLOR") == forced {
		b.unset("FORCE_COLOR")
	}
	b.set("PROCS_NAME", p.Name)
	b.set("PROCS_RUN", strconv.Itoa(run))
	if p.Replica.Index > 0 {
		b.set("PROCS_REPLICA", strconv.Itoa(p.Replica.Index))
	}
	if p.Port > 0 {
		b.set("PORT", strconv.Itoa(p.Port))
	}
	b.set(contain.OwnerVar, contain.Owner{Instance: instance, Name: p.Name, Run: run}.String())
	configured = files
	maps.Copy(configured, explicit)
	return b.list(), configured, nil
}

// envBuilder makes an environment list: each variable where it was first
// set, with the value it was set to last. Every start makes one, for a
// shell's few dozen variables, so a variable that comes from the
// environment keeps its own "KEY=value" string rather than being split
// and joined again.
type envBuilder struct {
	at    map[string]int // KEY → its index in pairs
	pairs []string       // "KEY=value"; "" where a variable was unset
}

func newEnvBuilder(size int) *envBuilder {
	return &envBuilder{at: make(map[string]int, size), pairs: make([]string, 0, size)}
}

func (b *envBuilder) set(k, v string) { b.setPair(k, k+"="+v) }

// setPair sets k to the value in pair, which is "k=value".
func (b *envBuilder) setPair(k, pair string) {
	if i, ok := b.at[k]; ok {
		b.pairs[i] = pair
		return
	}
	b.at[k] = len(b.pairs)
	b.pairs = append(b.pairs, pair)
}

func (b *envBuilder) get(k string) string {
	if i, ok := b.at[k]; ok {
		return b.pairs[i][len(k)+1:]
	}
	return ""
}

// unset removes k; set again, it goes last.
func (b *envBuilder) unset(k string) {
	if i, ok := b.at[k]; ok {
		b.pairs[i] = ""
		delete(b.at, k)
	}
}

func (b *envBuilder) list() []string {
	if len(b.at) == len(b.pairs) {
		return b.pairs
	}
	return slices.DeleteFunc(b.pairs, func(pair string) bool { return pair == "" })
}

func cutEnv(kv string) (string, string, bool) {
	for i := 1; i < len(kv); i++ {
		if kv[i] == '=' {
			return kv[:i], kv[i+1:], true
		}
	}
	return "", "", false
}

func sortedEnvKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

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
	var shell [][2]string
	for _, kv := range os.Environ() {
		// The watchdog's mode is procs' own, never a child's.
		if k, v, ok := cutEnv(kv); ok && k != contain.WatchdogVar {
			shell = append(shell, [2]string{k, v})
		}
	}
	vars := map[string]string{}
	var order []string
	set := func(k, v string) {
		if _, ok := vars[k]; !ok {
			order = append(order, k)
		}
		vars[k] = v
	}
	for _, k := range sortedEnvKeys(presetEnv) {
		set(k, presetEnv[k])
	}
	for _, k := range sortedEnvKeys(files) {
		set(k, files[k])
	}
	for _, kv := range shell {
		set(kv[0], kv[1])
	}
	for _, k := range sortedEnvKeys(explicit) {
		set(k, explicit[k])
	}
	// A user who asked for no colour gets none, whatever the preset forces.
	if _, forced := presetEnv["FORCE_COLOR"]; forced && vars["NO_COLOR"] != "" && vars["FORCE_COLOR"] == presetEnv["FORCE_COLOR"] {
		delete(vars, "FORCE_COLOR")
		order = slices.DeleteFunc(order, func(k string) bool { return k == "FORCE_COLOR" })
	}
	set("PROCS_NAME", p.Name)
	set("PROCS_RUN", strconv.Itoa(run))
	if p.Replica.Index > 0 {
		set("PROCS_REPLICA", strconv.Itoa(p.Replica.Index))
	}
	if p.Port > 0 {
		set("PORT", strconv.Itoa(p.Port))
	}
	set(contain.OwnerVar, contain.Owner{Instance: instance, Name: p.Name, Run: run}.String())
	env = make([]string, 0, len(order))
	for _, k := range order {
		env = append(env, k+"="+vars[k])
	}
	configured = files
	maps.Copy(configured, explicit)
	return env, configured, nil
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

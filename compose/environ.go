package compose

import (
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

// environOf returns the environ of run of ps: lowest priority first,
// procs' own environment, the preset's env, the global envFile and env,
// the process's envFile and env (config.Environment), then the variables
// procs sets itself.
func (e *Engine) environOf(ps *procState, run int) environ {
	cfg, p, presetEnv, instance := e.cfg, ps.cfg, ps.presetEnv, e.instance
	return func() ([]string, map[string]string, error) {
		return processEnv(cfg, p, presetEnv, instance, run)
	}
}

func processEnv(cfg *config.Config, p *config.Proc, presetEnv map[string]string, instance string, run int) ([]string, map[string]string, error) {
	vars := map[string]string{}
	var order []string
	set := func(k, v string) {
		if _, ok := vars[k]; !ok {
			order = append(order, k)
		}
		vars[k] = v
	}
	for _, kv := range os.Environ() {
		// The watchdog's mode is procs' own, never a child's.
		if k, v, ok := cutEnv(kv); ok && k != contain.WatchdogVar {
			set(k, v)
		}
	}
	for _, k := range sortedEnvKeys(presetEnv) {
		// A user who asked for no colour gets none, whatever the preset forces.
		if k == "FORCE_COLOR" && vars["NO_COLOR"] != "" {
			continue
		}
		set(k, presetEnv[k])
	}
	configured, err := cfg.Environment(p)
	if err != nil {
		return nil, nil, err
	}
	for _, k := range sortedEnvKeys(configured) {
		set(k, configured[k])
	}
	set("PROCS_NAME", p.Name)
	set("PROCS_RUN", strconv.Itoa(run))
	if p.Port > 0 {
		set("PORT", strconv.Itoa(p.Port))
	}
	set(contain.OwnerVar, contain.Owner{Instance: instance, Name: p.Name, Run: run}.String())
	env := make([]string, 0, len(order))
	for _, k := range order {
		env = append(env, k+"="+vars[k])
	}
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

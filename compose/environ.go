package compose

import (
	"os"
	"slices"
	"strconv"

	"github.com/procsdev/procs/compose/contain"
)

// processEnv builds the environment of the next run of ps, lowest priority
// first: procs' own environment, the preset's env, the global envFile and
// env, the process's envFile and env (config.Environment), then the
// variables procs sets itself.
func (e *Engine) processEnv(ps *procState) ([]string, error) {
	p := ps.cfg
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
	for _, k := range sortedEnvKeys(ps.presetEnv) {
		// A user who asked for no colour gets none, whatever the preset forces.
		if k == "FORCE_COLOR" && vars["NO_COLOR"] != "" {
			continue
		}
		set(k, ps.presetEnv[k])
	}
	configured, err := e.cfg.Environment(p)
	if err != nil {
		return nil, err
	}
	// Kept to tell, on a reload, whether an edited env file changes what
	// this run was given.
	ps.runEnv = configured
	for _, k := range sortedEnvKeys(configured) {
		set(k, configured[k])
	}
	set("PROCS_NAME", p.Name)
	set("PROCS_RUN", strconv.Itoa(ps.run))
	if p.Port > 0 {
		set("PORT", strconv.Itoa(p.Port))
	}
	set(contain.OwnerVar, contain.Owner{Instance: e.instance, Name: p.Name, Run: ps.run}.String())
	env := make([]string, 0, len(order))
	for _, k := range order {
		env = append(env, k+"="+vars[k])
	}
	return env, nil
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

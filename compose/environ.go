package compose

import (
	"fmt"
	"os"
	"slices"
	"strconv"

	"github.com/joho/godotenv"
)

// processEnv builds the environment of the next run of ps, lowest priority
// first: procs' own environment, the preset's env, the global envFile and
// env, the process's envFile and env, then the variables procs sets itself.
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
	for _, kv := range withoutVar(os.Environ(), watchdogEnv) {
		if k, v, ok := cutEnv(kv); ok {
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
	for _, layer := range []struct {
		file string
		env  map[string]string
	}{{e.cfg.DotEnv, nil}, {e.cfg.EnvFile, e.cfg.Env}, {p.EnvFile, p.Env}} {
		if layer.file != "" {
			fileVars, err := godotenv.Read(e.resolvePath(layer.file))
			if err != nil {
				return nil, fmt.Errorf("read env file %s: %w", layer.file, err)
			}
			for _, k := range sortedEnvKeys(fileVars) {
				set(k, fileVars[k])
			}
		}
		for _, k := range sortedEnvKeys(layer.env) {
			set(k, layer.env[k])
		}
	}
	set("PROCS_NAME", p.Name)
	set("PROCS_RUN", strconv.Itoa(ps.run))
	if p.Port > 0 {
		set("PORT", strconv.Itoa(p.Port))
	}
	set(ownerVar, ownerValue(e.instance, p.Name, ps.run))
	env := make([]string, 0, len(order))
	for _, k := range order {
		env = append(env, k+"="+vars[k])
	}
	return env, nil
}

// resolvePath makes a config-relative path absolute.
func (e *Engine) resolvePath(path string) string {
	if path == "" || path[0] == '/' {
		return path
	}
	return e.cfg.Dir + "/" + path
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

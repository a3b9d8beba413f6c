package config

import (
	"fmt"
	"maps"
	"path/filepath"
)

// Environment is what the config gives process p to its environment, with
// the env files read now: the .env beside procs.yaml, the global envFile
// and env, then p's envFile and env, later layers winning. procs' own
// environment, the preset's env and the variables procs sets itself (PORT,
// PROCS_NAME...) are not in it. A run's Environment, kept, tells whether an
// edit of an env file changes what the process would get.
func (c *Config) Environment(p *Proc) (map[string]string, error) {
	vars := map[string]string{}
	for _, layer := range []struct {
		file string
		env  map[string]string
	}{{c.DotEnv, nil}, {c.EnvFile, c.Env}, {p.EnvFile, p.Env}} {
		if layer.file != "" {
			file := layer.file
			if !filepath.IsAbs(file) {
				file = filepath.Join(c.Dir, file)
			}
			fileVars, err := readDotEnv(file)
			if err != nil {
				return nil, fmt.Errorf("read env file %s: %w", layer.file, err)
			}
			maps.Copy(vars, fileVars)
		}
		maps.Copy(vars, layer.env)
	}
	return vars, nil
}

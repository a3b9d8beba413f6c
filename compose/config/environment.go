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
	files, explicit, err := c.EnvironmentLayers(p)
	if err != nil {
		return nil, err
	}
	maps.Copy(files, explicit)
	return files, nil
}

// EnvironmentLayers is Environment in its two layers, which the environment
// procs runs in goes between (README, "Variables"): what the env files give
// p (.env, then the global envFile, then p's envFile, later files winning),
// and what env: gives it (the global env:, then p's).
func (c *Config) EnvironmentLayers(p *Proc) (files, explicit map[string]string, err error) {
	files, explicit = map[string]string{}, map[string]string{}
	for _, name := range []string{c.DotEnv, c.EnvFile, p.EnvFile} {
		if name == "" {
			continue
		}
		file := name
		if !filepath.IsAbs(file) {
			file = filepath.Join(c.Dir, file)
		}
		fileVars, err := readDotEnv(file)
		if err != nil {
			return nil, nil, fmt.Errorf("read env file %s: %w", name, err)
		}
		maps.Copy(files, fileVars)
	}
	maps.Copy(explicit, c.Env)
	maps.Copy(explicit, p.Env)
	return files, explicit, nil
}

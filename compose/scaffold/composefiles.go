package scaffold

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/procsdev/procs/internal/lazyregexp"
)

// composeOverrides are the files docker compose merges over each base file
// of composeFiles, by the base's stem.
var composeOverrides = map[string][]string{
	"compose":        {"compose.override.yaml", "compose.override.yml"},
	"docker-compose": {"docker-compose.override.yaml", "docker-compose.override.yml"},
}

// composeService is one service of a compose project, after its files are
// merged: where it was found (the file that last set it) and its settings.
type composeService struct {
	name string
	file string
	svc  map[string]any
}

// composeProjects finds the compose projects of the folder: the one beside
// procs.yaml, then the one of .devcontainer/ (the files devcontainer.json
// names, else those docker compose would find there). Each is read with
// its override file merged over it, as `docker compose up` does.
func (pl *plan) composeProjects() [][]composeService {
	var projects [][]composeService
	for _, files := range [][]string{pl.composeFilesIn(""), pl.devcontainerComposeFiles()} {
		if len(files) > 0 {
			projects = append(projects, pl.readComposeProject(files))
		}
	}
	return projects
}

// composeFilesIn is the first compose file docker compose finds in the
// folder rel, and its override file, if any.
func (pl *plan) composeFilesIn(rel string) []string {
	for _, name := range composeFiles {
		if !exists(pl.abs(rel), name) {
			continue
		}
		files := []string{path.Join(rel, name)}
		stem := name[:len(name)-len(path.Ext(name))]
		for _, override := range composeOverrides[stem] {
			if exists(pl.abs(rel), override) {
				files = append(files, path.Join(rel, override))
				break
			}
		}
		return files
	}
	return nil
}

// dockerComposeFile matches "dockerComposeFile" of devcontainer.json: one
// file, or a list of them.
var dockerComposeFile = lazyregexp.New(`"dockerComposeFile"\s*:\s*(\[[^\]]*\]|"[^"]*")`)
var quoted = lazyregexp.New(`"([^"]*)"`)

// devcontainerComposeFiles are the compose files of .devcontainer/: those
// its devcontainer.json names (relative to it), else the ones docker
// compose would find there.
func (pl *plan) devcontainerComposeFiles() []string {
	// devcontainer.json is JSON with comments: a pattern reads the one
	// key needed without a JSONC parser.
	m := dockerComposeFile.FindStringSubmatch(readAll(filepath.Join(pl.dir, ".devcontainer", "devcontainer.json")))
	var files []string
	if m != nil {
		for _, q := range quoted.Regexp().FindAllStringSubmatch(m[1], -1) {
			file := path.Clean(path.Join(".devcontainer", q[1]))
			if exists(pl.dir, filepath.FromSlash(file)) && !slices.Contains(files, file) {
				files = append(files, file)
			}
		}
	}
	if len(files) == 0 {
		files = pl.composeFilesIn(".devcontainer")
	}
	// A devcontainer.json may name the project's own compose file, read
	// already.
	return slices.DeleteFunc(files, func(f string) bool { return slices.Contains(pl.composeFilesIn(""), f) })
}

// readComposeProject reads files in order, each one's services merged over
// those before it (settings replaced, ports and depends_on added), as
// docker compose merges an override. A file it cannot read is reported as
// skipped: the rest still helps.
func (pl *plan) readComposeProject(files []string) []composeService {
	var services []composeService
	for _, file := range files {
		data, err := os.ReadFile(pl.abs(file))
		if err != nil {
			pl.skip("%s: cannot read it: %v", file, err)
			continue
		}
		var doc struct {
			Services yaml.MapSlice `yaml:"services"`
		}
		if err := yaml.Unmarshal(data, &doc); err != nil {
			pl.skip("%s: not valid YAML, so its services were not read", file)
			continue
		}
		for _, item := range doc.Services {
			name := fmt.Sprint(item.Key)
			svc, _ := item.Value.(map[string]any)
			i := slices.IndexFunc(services, func(s composeService) bool { return s.name == name })
			if i < 0 {
				services = append(services, composeService{name: name, file: file, svc: svc})
				continue
			}
			services[i].svc = mergeComposeService(services[i].svc, svc)
			if !strings.Contains(services[i].file, file) {
				services[i].file += " + " + path.Base(file)
			}
		}
	}
	return services
}

// mergeComposeService lays override over base: a setting is replaced,
// except the lists docker compose adds up (ports, depends_on).
func mergeComposeService(base, override map[string]any) map[string]any {
	out := make(map[string]any, len(base)+len(override))
	for k, v := range base {
		out[k] = v
	}
	for k, v := range override {
		before, wasList := out[k].([]any)
		more, isList := v.([]any)
		if (k == "ports" || k == "depends_on") && wasList && isList {
			out[k] = append(slices.Clone(before), more...)
			continue
		}
		out[k] = v
	}
	return out
}

// devcontainerService is the service devcontainer.json develops in: the
// editor's own container, not a server to run.
func (pl *plan) devcontainerService() string {
	m := regexp.MustCompile(`"service"\s*:\s*"([^"]*)"`).FindStringSubmatch(readAll(filepath.Join(pl.dir, ".devcontainer", "devcontainer.json")))
	if m == nil {
		return ""
	}
	return m[1]
}

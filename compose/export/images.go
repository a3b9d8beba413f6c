package export

import (
	_ "embed"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/goccy/go-yaml"

	frameworks "github.com/procsdev/procs/builtin-frameworks"
)

// Image is the official image of a well-known server, with what it needs
// to run as procs ran the process: on the same port, its data kept.
type Image struct {
	// Image is the image reference (postgres:17).
	Image string `yaml:"image"`
	// Command is the image's command, with {port} and {name}; nil keeps
	// the image's own.
	Command []string `yaml:"command"`
	// Env is what it needs to start, with {port}.
	Env map[string]string `yaml:"env"`
	// Data is the folder of its data, "" when it keeps none.
	Data string `yaml:"data"`
	// Check is a command in the image that exits 0 once it serves.
	Check []string `yaml:"check"`
}

// Fill returns words with {port} and {name} replaced.
func Fill(words []string, port int, name string) []string {
	out := make([]string, len(words))
	r := strings.NewReplacer("{port}", strconv.Itoa(port), "{name}", name)
	for i, w := range words {
		out[i] = r.Replace(w)
	}
	return out
}

//go:embed images.yaml
var imagesYAML []byte

// images are the images by preset name, read once.
var images = sync.OnceValue(func() map[string]*Image {
	out := map[string]*Image{}
	if err := yaml.Unmarshal(imagesYAML, &out); err != nil {
		panic(fmt.Sprintf("export: images.yaml: %v", err)) // embedded, and tested
	}
	return out
})

// imageFor returns the official image of preset's server, nil when it
// has none (an application, or a server without one here).
func imageFor(preset *frameworks.Preset) *Image {
	if preset == nil {
		return nil
	}
	return images()[preset.Name]
}

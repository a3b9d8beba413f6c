package export

import (
	"testing"

	"github.com/stretchr/testify/assert"

	frameworks "github.com/procsdev/procs/builtin-frameworks"
)

// TestImagesArePresets: every image of images.yaml is for a preset that
// exists and is a service, with an image and a check.
func TestImagesArePresets(t *testing.T) {
	assert.NotEmpty(t, images())
	for name, img := range images() {
		preset, ok := frameworks.Lookup(name)
		if assert.True(t, ok, "images.yaml: %s is no preset", name) {
			assert.Equal(t, frameworks.CategoryService, preset.Category, name)
		}
		assert.NotEmpty(t, img.Image, name)
		assert.NotEmpty(t, img.Check, name)
	}
}

package frameworks

import "testing"

// BenchmarkLoadCatalog measures decoding the embedded presets, which every
// procs that loads a config does once, before its first process starts.
func BenchmarkLoadCatalog(b *testing.B) {
	for b.Loop() {
		if _, err := loadCatalog(presetFiles, "presets"); err != nil {
			b.Fatal(err)
		}
	}
}

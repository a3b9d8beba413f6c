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

// BenchmarkDetect measures detection of a process from its command line,
// which procs does for every process of the config before the first one
// starts: a spread of commands, most of which match no preset's command
// pattern, in a folder with no project files.
func BenchmarkDetect(b *testing.B) {
	dir := b.TempDir()
	commands := []string{
		"echo ready; exec sleep 1000",
		"python3 -m http.server 8000",
		"npx vite --port 5173",
		"bundle exec rails server -p 3000",
		"go run ./cmd/api",
		"./bin/worker --queue default",
		"postgres -D data -k /tmp",
		"redis-server --port 6380",
	}
	loaded() // the catalog is BenchmarkLoadCatalog's
	for b.Loop() {
		for _, c := range commands {
			Detect(c, nil, dir)
		}
	}
}

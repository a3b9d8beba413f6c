package config

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// FuzzLoad feeds arbitrary bytes to Parse: it must never panic, and must
// return either a Config or ConfigErrors that each point inside the file.
func FuzzLoad(f *testing.F) {
	for _, pattern := range []string{"testdata/valid/*.yaml", "testdata/broken/*.yaml"} {
		files, err := filepath.Glob(pattern)
		if err != nil {
			f.Fatal(err)
		}
		for _, file := range files {
			data, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
		}
	}
	file := filepath.Join("testdata", "valid", "fuzz.yaml")
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := Parse(file, data, []string{"DB_PORT=5433"})
		if err == nil {
			if cfg == nil {
				t.Fatal("no error and no config")
			}
			return
		}
		if cfg != nil {
			t.Fatalf("a config with errors: %v", err)
		}
		var errs ConfigErrors
		if !errors.As(err, &errs) || len(errs) == 0 {
			t.Fatalf("want ConfigErrors, got %T: %v", err, err)
		}
		lines := countLines(data)
		for _, e := range errs {
			if e.Line < 1 || e.Line > lines+1 || e.Col < 1 {
				t.Fatalf("position %d:%d outside a %d-line file: %v", e.Line, e.Col, lines, e)
			}
		}
	})
}

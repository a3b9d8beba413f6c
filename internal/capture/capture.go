// Package capture is the format of a capture: one real run of a real
// program, as the recorder of builtin-frameworks/internal/recorder writes
// it and as the tests of rules and builtin-frameworks replay it. A capture
// is a folder SERVER/SCENARIO holding cmd.txt (the command, after comment
// lines on how it was run), output.raw (the bytes), chunks.jsonl (one
// Chunk per read, with its time) and meta.json (Meta: what happened).
package capture

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Meta is the meta.json of a capture: what really happened.
type Meta struct {
	Server   string `json:"server"`
	Scenario string `json:"scenario"`
	// Mode is pipe or pty.
	Mode string `json:"mode"`
	// Port is the port the run was probed on (0: none).
	Port int `json:"port,omitempty"`
	// Expect is what really happened: ready, error, hang or not-ready.
	Expect string `json:"expect"`
	// ReadyLine is the line a person calls ready, and ReadyLineT when it
	// came (seconds since start); nil when none.
	ReadyLine  *string  `json:"ready_line"`
	ReadyLineT *float64 `json:"ready_line_t"`
	// PortOpenT is when Port first accepted; nil when never.
	PortOpenT *float64 `json:"port_open_t"`
	// ExitCode or ExitSignal is how the run ended, at ExitT.
	ExitCode   *int    `json:"exit_code"`
	ExitSignal *string `json:"exit_signal"`
	ExitT      float64 `json:"exit_t"`
	// SignalAt and Signal are the stop the recorder sent, nil when none: a
	// stop procs would have requested.
	SignalAt  *float64 `json:"signal_at"`
	Signal    *string  `json:"signal"`
	Notes     string   `json:"notes"`
	Bytes     int      `json:"bytes"`
	Chunks    int      `json:"chunks"`
	Truncated bool     `json:"truncated"`
}

// Exited reports whether the run's end is recorded.
func (m Meta) Exited() bool {
	return m.ExitCode != nil || m.ExitSignal != nil
}

// Chunk is one read of the program's output.
type Chunk struct {
	// T is seconds since start.
	T float64 `json:"t"`
	// Stream is stdout, stderr or pty.
	Stream string `json:"stream"`
	Data   []byte `json:"data_b64"`
}

// Capture is one capture read from its folder.
type Capture struct {
	Dir string
	// Server is the folder above the scenario's.
	Server string
	// Command is the last line of cmd.txt that is not a comment.
	Command string
	Meta    Meta
	Chunks  []Chunk
}

// Load reads the capture in dir.
func Load(dir string) (Capture, error) {
	c := Capture{Dir: dir, Server: filepath.Base(filepath.Dir(dir))}
	meta, err := os.ReadFile(filepath.Join(dir, "meta.json"))
	if err != nil {
		return c, fmt.Errorf("load capture: %w", err)
	}
	if err := json.Unmarshal(meta, &c.Meta); err != nil {
		return c, fmt.Errorf("load capture %s: meta.json: %w", dir, err)
	}
	cmd, err := os.ReadFile(filepath.Join(dir, "cmd.txt"))
	if err != nil {
		return c, fmt.Errorf("load capture: %w", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(cmd)), "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			c.Command = line
		}
	}
	f, err := os.Open(filepath.Join(dir, "chunks.jsonl"))
	if err != nil {
		return c, fmt.Errorf("load capture: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var ch Chunk
		if err := json.Unmarshal(sc.Bytes(), &ch); err != nil {
			return c, fmt.Errorf("load capture %s: chunks.jsonl: %w", dir, err)
		}
		c.Chunks = append(c.Chunks, ch)
	}
	if err := sc.Err(); err != nil {
		return c, fmt.Errorf("load capture %s: chunks.jsonl: %w", dir, err)
	}
	return c, nil
}

// Find lists the capture folders root/SERVER/SCENARIO, sorted.
func Find(root string) ([]string, error) {
	metas, err := filepath.Glob(filepath.Join(root, "*", "*", "meta.json"))
	if err != nil {
		return nil, fmt.Errorf("find captures: %w", err)
	}
	dirs := make([]string, len(metas))
	for i, m := range metas {
		dirs[i] = filepath.Dir(m)
	}
	sort.Strings(dirs)
	return dirs, nil
}

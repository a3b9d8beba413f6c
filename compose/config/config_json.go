package config

import (
	"encoding/json"
	"time"
)

// MarshalJSON writes the command in the shape it was written: a string or a list.
func (c Command) MarshalJSON() ([]byte, error) {
	if c.Shell != "" || c.Argv == nil {
		return json.Marshal(c.Shell)
	}
	return json.Marshal(c.Argv)
}

// MarshalJSON writes dependsOn in its map form, name → {condition, restart}.
func (d Dependencies) MarshalJSON() ([]byte, error) {
	out := make(map[string]Dependency, len(d))
	for _, dep := range d {
		out[dep.Name] = dep
	}
	return json.Marshal(out)
}

// MarshalJSON writes the duration in Go syntax ("1.5s").
func (d Duration) MarshalJSON() ([]byte, error) {
	return json.Marshal(time.Duration(d).String())
}

// MarshalJSON writes the range as "min..max".
func (b BackoffRange) MarshalJSON() ([]byte, error) {
	if b.IsZero() {
		return json.Marshal("")
	}
	return json.Marshal(b.String())
}

// MarshalJSON writes pty as it is written: a boolean, or {cols, rows}.
func (p PTY) MarshalJSON() ([]byte, error) {
	if p.Cols == 0 && p.Rows == 0 {
		return json.Marshal(p.Enabled)
	}
	return json.Marshal(struct {
		Cols int `json:"cols,omitempty"`
		Rows int `json:"rows,omitempty"`
	}{p.Cols, p.Rows})
}

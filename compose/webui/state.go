package webui

import (
	"encoding/json"
	"os"
	"path/filepath"
)

// uiState is what the dashboard keeps in the project's .procs folder so
// that after procs restarts it listens at the same place: an open page
// then reaches the new procs, which tells it that its sign-in was for the
// old one (the token is new with every run of procs, and kept nowhere).
type uiState struct {
	Port int `json:"port"`
}

// stateFile is its name; mode 0600, like the API socket.
const stateFile = "ui.json"

func loadState(dir string) uiState {
	var st uiState
	if dir == "" {
		return st
	}
	data, err := os.ReadFile(filepath.Join(dir, stateFile))
	if err != nil || json.Unmarshal(data, &st) != nil {
		return uiState{}
	}
	return st
}

// saveState writes st; failing only costs an open page its reconnection.
func saveState(dir string, st uiState) {
	if dir == "" {
		return
	}
	data, _ := json.Marshal(st)
	_ = os.WriteFile(filepath.Join(dir, stateFile), data, 0o600)
}

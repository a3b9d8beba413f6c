package webui

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"

	"github.com/procsdev/procs/compose/control"
)

// Screen is the screen of a PTY process as the page draws it: each row as
// styled spans, as log lines are.
type Screen struct {
	Name  string `json:"name"`
	Cols  int    `json:"cols"`
	Rows  int    `json:"rows"`
	Text  string `json:"text"`
	Ended bool   `json:"ended,omitempty"`
	// Lines are the rows of Text with their colours and attributes.
	Lines [][]Span `json:"lines"`
	// Cursor is where the cursor is, nil when hidden or unknown.
	Cursor *Cursor `json:"cursor,omitempty"`
}

// Cursor is a cell of the screen, from 0.
type Cursor struct {
	Col int `json:"col"`
	Row int `json:"row"`
}

// screenView serves GET /ui/screen?proc=NAME.
type screenView struct {
	client *control.Client
}

func (sv screenView) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	name := r.URL.Query().Get("proc")
	if name == "" {
		refuse(w, http.StatusBadRequest, "procs ui: the screen needs proc=NAME")
		return
	}
	st, err := sv.client.StyledScreen(r.Context(), name)
	if err != nil {
		status := http.StatusBadGateway
		var apiErr *control.APIError
		if errors.As(err, &apiErr) {
			status = apiErr.Status
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_ = json.NewEncoder(w).Encode(map[string]string{"error": err.Error()})
		return
	}
	out := Screen{Name: st.Name, Cols: st.Cols, Rows: st.Rows, Text: st.Text, Ended: st.Ended}
	rows := st.Styled
	if rows == nil {
		// The last screen of an ended process has its text only.
		rows = strings.Split(st.Text, "\n")
	}
	out.Lines = make([][]Span, len(rows))
	for i, row := range rows {
		out.Lines[i] = Spans(row)
	}
	if st.CursorVisible {
		out.Cursor = &Cursor{Col: st.CursorCol, Row: st.CursorRow}
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(out)
}

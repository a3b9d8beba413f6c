package config

// The settings of interactive processes, decoded here to keep decode.go small.

// maxWindow bounds a PTY window side: larger is a typo, not a terminal.
const maxWindow = 1000

// pty reads true/false or {cols, rows}; a mapping turns the PTY on.
func (d *decoder) pty(path []string, v any) PTY {
	switch t := v.(type) {
	case nil:
		return PTY{}
	case map[string]any:
		m, _ := d.mapping(path, t, ptyKeys)
		p := PTY{Enabled: true, Set: true,
			Cols: d.windowSide(child(path, "cols"), m["cols"]),
			Rows: d.windowSide(child(path, "rows"), m["rows"]),
		}
		return p
	case bool, string:
		return PTY{Enabled: d.boolean(path, v), Set: true}
	}
	d.typeErr(path, "true, false or {cols, rows}", v)
	return PTY{}
}

// windowSide reads a column or row count of a PTY window.
func (d *decoder) windowSide(path []string, v any) int {
	n, ok := d.integer(path, v, "a window size")
	if ok && (n < 1 || n > maxWindow) {
		d.p.atValue(path, "%d is not a window size: use 1 to %d (default 120 columns, 40 rows)", n, maxWindow)
		return 0
	}
	return n
}

// onIdle reads {after, send, maxCycles}.
func (d *decoder) onIdle(path []string, v any) *OnIdle {
	m, ok := d.mapping(path, v, onIdleKeys)
	if !ok {
		return nil
	}
	reported := len(d.p.errs)
	o := &OnIdle{After: d.duration(child(path, "after"), m["after"])}
	// A value that is no duration is said once, not again as zero.
	afterRead := len(d.p.errs) == reported
	o.Send = d.stringList(child(path, "send"), m["send"])
	o.MaxCycles = d.count(child(path, "maxCycles"), m["maxCycles"])
	if m["after"] == nil {
		d.p.atKey(path, "missing after: how long the process must be idle, e.g. after: 30s")
	} else if afterRead && o.After == 0 {
		d.p.atValue(child(path, "after"), "after must be positive, e.g. 30s")
	}
	if len(o.Send) == 0 {
		d.p.atKey(path, `missing send: the inputs to send, e.g. send: ["/clear", "continue"]`)
	}
	return o
}

// optionalBool reads a boolean that may be absent (nil).
func (d *decoder) optionalBool(path []string, v any) *bool {
	if v == nil {
		return nil
	}
	b := d.boolean(path, v)
	return &b
}

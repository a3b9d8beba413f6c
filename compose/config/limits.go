package config

import (
	"fmt"
	"io"
	"os"
)

// A procs.yaml describes a handful to a few hundred processes; these limits
// sit far above that and far below what would make parsing slow. They keep a
// broken or hostile file from costing seconds and gigabytes before its
// error is printed (YAML parsers and position tracking grow with nesting).
const (
	// maxConfigBytes is the largest config file procs reads.
	maxConfigBytes = 1 << 20
	// maxNesting is the deepest nesting of mappings and sequences accepted.
	maxNesting = 64
	// maxEnvFileBytes is the largest .env or envFile procs reads: a
	// dotenv file holds settings, and Linux refuses an environment string
	// over 128 KiB anyway.
	maxEnvFileBytes = 1 << 20
)

// readConfigFile reads file, refusing one larger than maxConfigBytes without
// reading the rest of it.
func readConfigFile(file string) ([]byte, error) {
	f, err := openRegular(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxConfigBytes+1))
	if err != nil {
		return nil, err
	}
	return data, nil
}

// openRegular opens file for reading if it is a regular file: a FIFO (or
// a device) named procs.yaml would block the read for good, or never end.
func openRegular(file string) (*os.File, error) {
	info, err := os.Stat(file)
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is %s, not a file: procs reads its settings only from files", file, fileKind(info.Mode()))
	}
	return os.Open(file)
}

// fileKind names what a path that is not a regular file is.
func fileKind(mode os.FileMode) string {
	switch {
	case mode.IsDir():
		return "a folder"
	case mode&os.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case mode&os.ModeSocket != 0:
		return "a socket"
	case mode&os.ModeDevice != 0:
		return "a device"
	}
	return "not a regular file"
}

// checkLimits reports a file over maxConfigBytes or nested deeper than
// maxNesting, before any parser sees it.
func checkLimits(file string, data []byte) *ConfigError {
	if len(data) > maxConfigBytes {
		return &ConfigError{File: file, Line: 1, Col: 1,
			Msg: fmt.Sprintf("the file is larger than %d KiB: a procs.yaml this large is almost certainly not one; split shared settings with YAML anchors or x- keys", maxConfigBytes>>10)}
	}
	if at, ok := tooDeep(data); ok {
		return &ConfigError{File: file, Line: at.line, Col: at.col,
			Msg: fmt.Sprintf("nested more than %d levels deep: flatten this value", maxNesting)}
	}
	return nil
}

// tooDeep scans YAML text for nesting deeper than maxNesting: flow brackets
// ([ and {) outside quotes and comments, plus block indentation levels and
// "- " sequence entries. It over-counts rather than parses (a block level
// and a flow level inside it both count), which is what a limit needs.
func tooDeep(data []byte) (pos, bool) {
	var (
		line, col    int
		flow, dashes int
		indents      []int // indentation of the open block levels
		quote        byte  // the open quote, 0 outside a quoted scalar
		comment      bool
		lineStart    = true // only blanks and "- " seen on this line so far
		afterBlank   = true
		prev         = byte(' ') // the last character outside quotes and comments
	)
	for i := 0; i < len(data); i, col = i+1, col+1 {
		c := data[i]
		if c == '\n' {
			line, col = line+1, -1
			comment, lineStart, dashes, afterBlank, prev = false, true, 0, true, ' '
			continue
		}
		if comment {
			continue
		}
		if quote != 0 {
			if quote == '"' && c == '\\' && i+1 < len(data) && data[i+1] != '\n' {
				i, col = i+1, col+1 // an escaped character cannot close the quote
			} else if c == quote {
				quote = 0
			}
			continue
		}
		blank := c == ' ' || c == '\t'
		if lineStart && !blank {
			if c == '-' && (i+1 == len(data) || data[i+1] == ' ' || data[i+1] == '\n') {
				dashes++
			} else {
				lineStart = false
				if c != '#' && flow == 0 {
					indents = openBlock(indents, col)
				}
			}
		}
		switch c {
		case '#':
			comment = afterBlank
		case '\'', '"':
			// A quote opens a scalar only where one can start, not in don't.
			if afterBlank || prev == '[' || prev == '{' || prev == ',' || prev == ':' {
				quote = c
			}
		case '[', '{':
			flow++
		case ']', '}':
			flow = max(flow-1, 0)
		}
		afterBlank, prev = blank, c
		if flow+len(indents)+dashes > maxNesting {
			return pos{line + 1, col + 1}, true
		}
	}
	return pos{}, false
}

// openBlock records the indentation of a line that starts a key or value,
// closing the block levels it dedents out of.
func openBlock(indents []int, indent int) []int {
	for len(indents) > 0 && indents[len(indents)-1] >= indent {
		indents = indents[:len(indents)-1]
	}
	return append(indents, indent)
}

package config

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/token"
)

// pos is a 1-based line and column in a file.
type pos struct{ line, col int }

// origin says where one value of the merged config came from: a position in
// a file, or an environment variable or --set flag.
type origin struct {
	// source is the file path, or the variable or flag name.
	source string
	// key and val are the positions of the key and of its value in a file.
	key, val pos
	// text marks values written as text (variables, flags, expanded ${...}),
	// which may be converted to numbers, booleans and durations.
	text bool
	// raw is the scalar as written, used to quote numbers back to the user.
	raw string
	// quoted and block describe how a scalar was written, to place errors
	// found inside it.
	quoted, block bool
}

// sources maps every key path of the merged config to its origin; a later
// layer replaces the entries of an earlier one.
type sources struct {
	main   string
	byPath map[string]*origin
	// lines counts the lines of each file, to keep positions inside it.
	lines map[string]int
}

func newSources(main string) *sources {
	return &sources{main: main, byPath: map[string]*origin{}, lines: map[string]int{}}
}

func pathKey(path []string) string { return strings.Join(path, "\x00") }

// showPath formats a key path as procs.api.readyPatterns[0].
func showPath(path []string) string {
	var b strings.Builder
	for i, seg := range path {
		if i > 0 && !strings.HasPrefix(seg, "[") {
			b.WriteByte('.')
		}
		b.WriteString(seg)
	}
	return b.String()
}

// child returns path extended by one segment, never sharing path's array.
func child(path []string, seg string) []string {
	out := make([]string, len(path), len(path)+1)
	copy(out, path)
	return append(out, seg)
}

func index(path []string, i int) []string { return child(path, fmt.Sprintf("[%d]", i)) }

func (s *sources) set(path []string, o *origin) { s.byPath[pathKey(path)] = o }

// setIfMissing records o for path and each of its ancestors not yet known.
func (s *sources) setIfMissing(path []string, o *origin) {
	for i := len(path); i >= 0; i-- {
		if _, ok := s.byPath[pathKey(path[:i])]; ok {
			return
		}
		s.set(path[:i], o)
	}
}

// setOverride records that a variable or flag, source, set path to the
// text value, and made each ancestor of path not yet known. The ancestors
// first: once path itself is known, setIfMissing would stop there, and a
// process the override makes (a misspelt name) would be placed in the file.
func (s *sources) setOverride(path []string, source, value string) {
	s.setIfMissing(path, &origin{source: source})
	s.set(path, &origin{source: source, text: true, raw: value})
}

// find returns the origin of path, or of its nearest known ancestor.
func (s *sources) find(path []string) *origin {
	for i := len(path); i >= 0; i-- {
		if o, ok := s.byPath[pathKey(path[:i])]; ok {
			return o
		}
	}
	return &origin{source: s.main, key: pos{1, 1}, val: pos{1, 1}}
}

// exact returns the origin recorded for path itself, or nil.
func (s *sources) exact(path []string) *origin { return s.byPath[pathKey(path)] }

// errorAt builds an error for path at its key or value position.
func (s *sources) errorAt(path []string, atKey bool, msg string) *ConfigError {
	o := s.find(path)
	e := &ConfigError{File: o.source, Path: showPath(path), Msg: msg}
	if p := o.val; o.key.line > 0 {
		if atKey || p.line == 0 {
			p = o.key
		}
		e.Line, e.Col = p.line, p.col
	}
	return e
}

// recordFile parses data with goccy/go-yaml, which keeps positions, and
// records the origin of every key path. It reports syntax errors,
// duplicate keys and a document that is not a mapping.
func recordFile(file string, data []byte, src *sources) (errs ConfigErrors) {
	defer func() {
		if r := recover(); r != nil {
			errs = ConfigErrors{{File: file, Line: 1, Col: 1, Msg: fmt.Sprintf("cannot parse YAML: %v", r)}}
		}
	}()
	src.setIfMissing(nil, &origin{source: file, key: pos{1, 1}, val: pos{1, 1}})
	src.lines[file] = countLines(data)
	parsed, err := parser.ParseBytes(data, 0)
	if err != nil {
		return ConfigErrors{syntaxError(file, data, err)}
	}
	if len(parsed.Docs) > 1 {
		second := parsed.Docs[1]
		at := pos{1, 1}
		if second.Start != nil {
			at = tokenPos(second.Start, at)
		} else if second.Body != nil {
			at = tokenPos(second.Body.GetToken(), at)
		}
		return ConfigErrors{{File: file, Line: at.line, Col: at.col, Msg: "only one YAML document is allowed: remove the extra ---"}}
	}
	if len(parsed.Docs) == 0 || parsed.Docs[0].Body == nil {
		return nil
	}
	body := unwrap(parsed.Docs[0].Body)
	switch body.(type) {
	case *ast.MappingNode, *ast.MappingValueNode, *ast.NullNode, *ast.CommentGroupNode:
	default:
		at := tokenPos(body.GetToken(), pos{1, 1})
		return ConfigErrors{{File: file, Line: at.line, Col: at.col, Msg: "the file must be a mapping with a procs: key"}}
	}
	w := &fileWalker{file: file, src: src}
	w.node(nil, body)
	return w.errs
}

// syntaxError turns a goccy/go-yaml error in data into a ConfigError at
// its token, with what to do where the library's words do not say it.
func syntaxError(file string, data []byte, err error) *ConfigError {
	e := &ConfigError{File: file, Line: 1, Col: 1, Msg: "invalid YAML: " + err.Error()}
	var yerr interface {
		GetToken() *token.Token
		GetMessage() string
	}
	if errors.As(err, &yerr) {
		at := tokenPos(yerr.GetToken(), pos{1, 1})
		e.Line, e.Col, e.Msg = at.line, at.col, "invalid YAML: "+yerr.GetMessage()
		if yerr.GetMessage() == "mapping value is not allowed in this context" {
			e.Msg += ": " + colonHint(data, at)
		}
	}
	return e
}

// colonHint says what to do about a ": " where YAML takes no key: in the
// value that starts at at (a command such as python3 -c "print('a: b')"),
// or on a next line indented deeper than its key, which YAML reads as
// more of that value.
func colonHint(data []byte, at pos) string {
	lines := bytes.Split(data, []byte("\n"))
	if at.line <= len(lines) {
		line := lines[at.line-1]
		rest := line[min(at.col-1, len(line)):]
		if bytes.Contains(rest, []byte(": ")) || bytes.HasSuffix(bytes.TrimRight(rest, " \r"), []byte(":")) {
			return `a value holding ": " must be quoted ('...', with each ' inside doubled) or written as a block (| after the key, then the value on the next line, indented)`
		}
	}
	return "a line below is indented deeper than the key of this value: indent the keys of one mapping alike"
}

func tokenPos(tk *token.Token, fallback pos) pos {
	if tk == nil || tk.Position == nil || tk.Position.Line < 1 {
		return fallback
	}
	return pos{tk.Position.Line, max(tk.Position.Column, 1)}
}

// unwrap skips anchors and tags to reach the node holding the value.
func unwrap(n ast.Node) ast.Node {
	for {
		switch v := n.(type) {
		case *ast.AnchorNode:
			n = v.Value
		case *ast.TagNode:
			n = v.Value
		case *ast.MappingKeyNode:
			n = v.Value
		default:
			return n
		}
		if n == nil {
			return &ast.NullNode{}
		}
	}
}

// fileWalker records the origin of every key path in one file's AST.
type fileWalker struct {
	file string
	src  *sources
	errs ConfigErrors
}

func (w *fileWalker) node(path []string, n ast.Node) {
	switch v := unwrap(n).(type) {
	case *ast.MappingNode:
		w.mapping(path, v.Values)
	case *ast.MappingValueNode:
		w.mapping(path, []*ast.MappingValueNode{v})
	case *ast.SequenceNode:
		start := tokenPos(v.Start, pos{1, 1})
		for i, item := range v.Values {
			at := w.valuePos(item, start)
			w.src.set(index(path, i), w.scalarOrigin(item, at, at))
			w.node(index(path, i), item)
		}
	}
}

func (w *fileWalker) mapping(path []string, values []*ast.MappingValueNode) {
	seen := map[string]int{}
	for _, mv := range values {
		if mv == nil || mv.Key == nil || mv.Key.IsMergeKey() {
			continue
		}
		name := keyText(mv.Key)
		keyAt := tokenPos(unwrap(mv.Key).GetToken(), pos{1, 1})
		if first, dup := seen[name]; dup {
			w.errs = append(w.errs, &ConfigError{File: w.file, Line: keyAt.line, Col: keyAt.col,
				Path: showPath(child(path, name)), Msg: fmt.Sprintf("duplicate key %q (first at line %d): keep only one", name, first)})
			continue
		}
		seen[name] = keyAt.line
		w.src.set(child(path, name), w.scalarOrigin(mv.Value, keyAt, w.valuePos(mv.Value, keyAt)))
		if mv.Value != nil {
			w.node(child(path, name), mv.Value)
		}
	}
}

// valuePos is where a value starts: its first key for a block mapping.
func (w *fileWalker) valuePos(n ast.Node, fallback pos) pos {
	if n == nil {
		return fallback
	}
	switch v := unwrap(n).(type) {
	case *ast.MappingNode:
		if len(v.Values) > 0 && v.Values[0] != nil && v.Values[0].Key != nil && !v.IsFlowStyle {
			return tokenPos(unwrap(v.Values[0].Key).GetToken(), fallback)
		}
		return tokenPos(v.Start, fallback)
	case *ast.MappingValueNode:
		return tokenPos(unwrap(v.Key).GetToken(), fallback)
	case *ast.NullNode:
		if v.BaseNode == nil || v.Token == nil || v.Token.Value == "" {
			return fallback
		}
	}
	return tokenPos(unwrap(n).GetToken(), fallback)
}

func (w *fileWalker) scalarOrigin(n ast.Node, keyAt, valAt pos) *origin {
	o := &origin{source: w.file, key: keyAt, val: valAt}
	if n == nil {
		return o
	}
	v := unwrap(n)
	if _, ok := v.(*ast.LiteralNode); ok {
		o.block = true
		return o
	}
	if tk := v.GetToken(); tk != nil {
		o.raw = tk.Value
		o.quoted = tk.Type == token.SingleQuoteType || tk.Type == token.DoubleQuoteType
	}
	return o
}

// keyText is a mapping key as the YAML decoder spells it.
func keyText(k ast.MapKeyNode) string {
	switch v := unwrap(k).(type) {
	case *ast.StringNode:
		return v.Value
	case ast.ScalarNode:
		if tk := v.GetToken(); tk != nil {
			return tk.Value
		}
	}
	return k.String()
}

// countLines counts lines as YAML does: \n, \r\n and a lone \r each end one.
func countLines(data []byte) int {
	return bytes.Count(data, []byte("\n")) + bytes.Count(data, []byte("\r")) - bytes.Count(data, []byte("\r\n")) + 1
}

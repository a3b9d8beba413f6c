package rules

import (
	"slices"

	"github.com/expr-lang/expr/ast"
)

// RuleDeps is what a rule reads of its dependencies' states.
type RuleDeps struct {
	// Uses says the rule reads deps at all.
	Uses bool
	// Names are the dependencies it names (deps.db, deps["db"]), in order.
	Names []string
	// States are the words it compares them with (deps.db == "ready",
	// deps.db in ["ready", "busy"]), in order.
	States []string
}

// Deps says what the rule reads of its dependencies' states, so that a
// config can check the names and words, and the engine can send the
// states only to the runs whose rule reads them.
func (r *Rule) Deps() RuleDeps { return r.deps }

// ReadsPortOpen says the rule reads port.open, which only a process with
// a port: can make true: a config checks that it has one.
func (r *Rule) ReadsPortOpen() bool { return r.portOpen }

// portOpenFinder finds a read of port.open in a rule.
type portOpenFinder struct{ found bool }

// Visit records port.open.
func (f *portOpenFinder) Visit(node *ast.Node) {
	m, ok := (*node).(*ast.MemberNode)
	if !ok {
		return
	}
	id, isIdent := m.Node.(*ast.IdentifierNode)
	prop, isString := m.Property.(*ast.StringNode)
	if isIdent && isString && id.Value == "port" && prop.Value == "open" {
		f.found = true
	}
}

// depsCollector finds the reads of deps in a rule.
type depsCollector struct{ deps RuleDeps }

// Visit records deps, a constant deps member, and the constant words it is
// compared with.
func (c *depsCollector) Visit(node *ast.Node) {
	switch n := (*node).(type) {
	case *ast.IdentifierNode:
		if n.Value == "deps" {
			c.deps.Uses = true
		}
	case *ast.MemberNode:
		if name, ok := depsMember(n); ok {
			c.deps.Names = append(c.deps.Names, name)
		}
	case *ast.BinaryNode:
		switch n.Operator {
		case "==", "!=":
			c.compared(n.Left, n.Right)
			c.compared(n.Right, n.Left)
		case "in", "not in":
			c.compared(n.Left, n.Right)
		}
	}
}

// compared records the constant words of other when member is deps.NAME.
func (c *depsCollector) compared(member, other ast.Node) {
	m, ok := member.(*ast.MemberNode)
	if !ok {
		return
	}
	if _, ok := depsMember(m); !ok {
		return
	}
	switch o := other.(type) {
	case *ast.StringNode:
		c.deps.States = append(c.deps.States, o.Value)
	case *ast.ArrayNode:
		for _, item := range o.Nodes {
			if s, ok := item.(*ast.StringNode); ok {
				c.deps.States = append(c.deps.States, s.Value)
			}
		}
	case *ast.ConstantNode:
		c.deps.States = append(c.deps.States, constantWords(o.Value)...)
	}
}

// constantWords returns the strings of a constant the compiler folded a
// list of words into (`in ["ready", "busy"]` becomes a set).
func constantWords(v any) []string {
	var words []string
	switch v := v.(type) {
	case string:
		words = append(words, v)
	case map[any]struct{}:
		for k := range v {
			if s, ok := k.(string); ok {
				words = append(words, s)
			}
		}
	case map[string]struct{}:
		for k := range v {
			words = append(words, k)
		}
	case []any:
		for _, item := range v {
			if s, ok := item.(string); ok {
				words = append(words, s)
			}
		}
	}
	slices.Sort(words)
	return words
}

// depsMember returns NAME of deps.NAME or deps["NAME"].
func depsMember(n *ast.MemberNode) (string, bool) {
	id, ok := n.Node.(*ast.IdentifierNode)
	if !ok || id.Value != "deps" {
		return "", false
	}
	s, ok := n.Property.(*ast.StringNode)
	if !ok {
		return "", false
	}
	return s.Value, true
}

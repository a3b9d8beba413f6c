package rules

import (
	"errors"
	"fmt"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/vm"
)

// Rule is a compiled `ready` expression. A Rule is immutable and may be
// shared by any number of detectors.
type Rule struct {
	// Source is the expression as written.
	Source  string
	program *vm.Program
	// matches and contains are the constant arguments of log.matches and
	// log.contains: a detector tests each line against them as it arrives,
	// so the rule never rescans the output of the run.
	matches, contains []string
	// dynamic is set when some log.matches/log.contains argument is not a
	// constant; detectors then keep a bounded history to answer it.
	dynamic bool
	// deps is what the rule reads of its dependencies' states.
	deps RuleDeps
	// portOpen says the rule reads port.open.
	portOpen bool
}

// RuleError is a `ready` expression that does not compile or is not boolean.
// Line and Column are 1-based positions inside the expression.
type RuleError struct {
	Line, Column int
	Msg          string
}

func (e *RuleError) Error() string { return e.Msg }

// CompileRule compiles a `ready` expression against Env, requiring a bool.
// Constant log.matches regexes are compiled here too, so a bad regex is a
// config error rather than a rule that is never true.
func CompileRule(src string) (*Rule, error) {
	program, err := expr.Compile(src, expr.Env(Env{}), expr.AsBool())
	if err != nil {
		var fileErr *file.Error
		if errors.As(err, &fileErr) {
			return nil, &RuleError{Line: fileErr.Line, Column: fileErr.Column + 1, Msg: fileErr.Message}
		}
		return nil, &RuleError{Line: 1, Column: 1, Msg: err.Error()}
	}
	r := &Rule{Source: src, program: program}
	node := program.Node()
	c := &logCallCollector{rule: r}
	ast.Walk(&node, c)
	if c.err != nil {
		return nil, c.err
	}
	deps := &depsCollector{}
	ast.Walk(&node, deps)
	r.deps = deps.deps
	port := &portOpenFinder{}
	ast.Walk(&node, port)
	r.portOpen = port.found
	return r, nil
}

// Eval runs the rule against env.
func (r *Rule) Eval(env *Env) (bool, error) {
	return r.evalWith(&vm.VM{}, env)
}

// evalWith runs the rule on a caller-owned VM, which keeps its stack between
// runs: a detector evaluates its rule on every event.
func (r *Rule) evalWith(machine *vm.VM, env *Env) (bool, error) {
	out, err := machine.Run(r.program, env)
	if err != nil {
		return false, fmt.Errorf("evaluate ready rule: %w", err)
	}
	return out.(bool), nil
}

// logCallCollector finds log.matches(...) and log.contains(...) calls.
type logCallCollector struct {
	rule *Rule
	err  error
}

// Visit records the argument of each log.matches / log.contains call.
func (c *logCallCollector) Visit(node *ast.Node) {
	call, ok := (*node).(*ast.CallNode)
	if !ok || len(call.Arguments) != 1 {
		return
	}
	if isScreenMatches(call.Callee) {
		c.checkRegex(call.Arguments[0])
		return
	}
	method := logMethod(call.Callee)
	if method == "" {
		return
	}
	arg, ok := call.Arguments[0].(*ast.StringNode)
	if !ok {
		c.rule.dynamic = true
		return
	}
	if method == "contains" {
		c.rule.contains = appendUnique(c.rule.contains, arg.Value)
		return
	}
	if err := checkRuleRegexp(arg.Value); err != nil && c.err == nil {
		line, col := position(c.rule.Source, arg.Location().From)
		c.err = &RuleError{Line: line, Column: col, Msg: err.Error()}
		return
	}
	c.rule.matches = appendUnique(c.rule.matches, arg.Value)
}

// logMethod returns "matches" or "contains" when callee is log.<that>.
func logMethod(callee ast.Node) string {
	member, ok := callee.(*ast.MemberNode)
	if !ok {
		return ""
	}
	ident, ok := member.Node.(*ast.IdentifierNode)
	if !ok || ident.Value != "log" {
		return ""
	}
	prop, ok := member.Property.(*ast.StringNode)
	if !ok || (prop.Value != "matches" && prop.Value != "contains") {
		return ""
	}
	return prop.Value
}

func appendUnique(list []string, s string) []string {
	for _, have := range list {
		if have == s {
			return list
		}
	}
	return append(list, s)
}

// position turns a rune offset in src into a 1-based line and column.
func position(src string, offset int) (line, col int) {
	line, col = 1, 1
	for i, r := range []rune(src) {
		if i >= offset {
			break
		}
		if r == '\n' {
			line, col = line+1, 1
			continue
		}
		col++
	}
	return line, col
}

// isScreenMatches reports whether callee is screen.matches.
func isScreenMatches(callee ast.Node) bool {
	member, ok := callee.(*ast.MemberNode)
	if !ok {
		return false
	}
	ident, ok := member.Node.(*ast.IdentifierNode)
	prop, isString := member.Property.(*ast.StringNode)
	return ok && isString && ident.Value == "screen" && prop.Value == "matches"
}

// checkRegex rejects a constant regex argument that does not compile, so a
// typo is a config error rather than a rule that is never true.
func (c *logCallCollector) checkRegex(arg ast.Node) {
	str, ok := arg.(*ast.StringNode)
	if !ok || c.err != nil {
		return
	}
	if err := checkRuleRegexp(str.Value); err != nil {
		line, col := position(c.rule.Source, str.Location().From)
		c.err = &RuleError{Line: line, Column: col, Msg: err.Error()}
	}
}

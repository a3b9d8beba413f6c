package rules

import (
	"errors"
	"fmt"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/vm"
)

// Rule is a compiled `ready` expression.
type Rule struct {
	// Source is the expression as written.
	Source  string
	program *vm.Program
}

// RuleError is a `ready` expression that does not compile or is not boolean.
// Line and Column are 1-based positions inside the expression.
type RuleError struct {
	Line, Column int
	Msg          string
}

func (e *RuleError) Error() string { return e.Msg }

// CompileRule compiles a `ready` expression against Env, requiring a bool.
func CompileRule(src string) (*Rule, error) {
	program, err := expr.Compile(src, expr.Env(Env{}), expr.AsBool())
	if err != nil {
		var fileErr *file.Error
		if errors.As(err, &fileErr) {
			return nil, &RuleError{Line: fileErr.Line, Column: fileErr.Column + 1, Msg: fileErr.Message}
		}
		return nil, &RuleError{Line: 1, Column: 1, Msg: err.Error()}
	}
	return &Rule{Source: src, program: program}, nil
}

// Eval runs the rule against env.
func (r *Rule) Eval(env *Env) (bool, error) {
	out, err := expr.Run(r.program, env)
	if err != nil {
		return false, fmt.Errorf("evaluate ready rule: %w", err)
	}
	return out.(bool), nil
}

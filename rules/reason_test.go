package rules

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReasonWith(t *testing.T) {
	assert.Equal(t, "timeout: no ready line", ReasonTimeout.With("no ready line"))
	assert.Equal(t, "error line \"x\"", ReasonError.With("error line \"x\""))
	assert.Equal(t, "crash", ReasonCrash.With(""))
	assert.Equal(t, "as it is", Reason("").With("as it is"))
}

// No code outside reason.go gives a reason as a string literal or compares
// one with a literal: every reason is a constant, so a renamed reason
// cannot leave a comparison behind.
func TestReasonsAreConstants(t *testing.T) {
	root := moduleRoot(t)
	fset := token.NewFileSet()
	var found []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || strings.HasSuffix(path, "rules/reason.go") {
			return nil
		}
		file, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(file, func(n ast.Node) bool {
			if pos, ok := reasonLiteral(n); ok {
				found = append(found, fset.Position(pos).String())
			}
			return true
		})
		return nil
	})
	require.NoError(t, err)
	assert.Empty(t, found, "reasons given or compared as string literals")
}

// reasonLiteral reports a `Reason: "x"` field, a `x.Reason == "x"`
// comparison or a `x.Reason = "x"` assignment.
func reasonLiteral(n ast.Node) (token.Pos, bool) {
	isReason := func(e ast.Expr) bool {
		switch e := e.(type) {
		case *ast.SelectorExpr:
			return e.Sel.Name == "Reason"
		case *ast.Ident:
			return e.Name == "Reason"
		}
		return false
	}
	// A reason is a short word ("port-in-use", "not started"); a sentence
	// in a field named Reason (procs detect's why a preset was chosen) is
	// another thing.
	word := regexp.MustCompile(`^"[a-z][a-z -]{0,20}"$`)
	isLiteral := func(e ast.Expr) bool {
		lit, ok := e.(*ast.BasicLit)
		return ok && lit.Kind == token.STRING && word.MatchString(lit.Value)
	}
	switch n := n.(type) {
	case *ast.KeyValueExpr:
		if isReason(n.Key) && isLiteral(n.Value) {
			return n.Pos(), true
		}
	case *ast.BinaryExpr:
		if (n.Op == token.EQL || n.Op == token.NEQ) && (isReason(n.X) && isLiteral(n.Y) || isReason(n.Y) && isLiteral(n.X)) {
			return n.Pos(), true
		}
	case *ast.AssignStmt:
		for i, lhs := range n.Lhs {
			if i < len(n.Rhs) && isReason(lhs) && isLiteral(n.Rhs[i]) {
				return n.Pos(), true
			}
		}
	}
	return token.NoPos, false
}

func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	require.NoError(t, err)
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		require.NotEqual(t, dir, parent, "no go.mod above the test")
		dir = parent
	}
}

package config

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/procsdev/procs/internal/lazyregexp"
	"github.com/procsdev/procs/rules"
)

// The messages of expr's type check that name what a rule does not have:
// they name Go types (rules.PortView) that a procs.yaml never shows.
var (
	ruleNoMember   = lazyregexp.New(`^type rules\.(\w+) has no (?:field|method) (\w+)$`)
	ruleUnknownTop = lazyregexp.New(`^unknown name (\w+)$`)
)

// ruleNames are the names a ready rule knows (rules.Env), by the Go type of
// each: "" for the top level, "PortView" for port.
var ruleNames = func() map[string]ruleScope {
	scopes := map[string]ruleScope{}
	var top []string
	env := reflect.TypeFor[rules.Env]()
	for i := range env.NumField() {
		f := env.Field(i)
		name := f.Tag.Get("expr")
		top = append(top, name)
		if f.Type.Kind() == reflect.Struct && f.Type.PkgPath() == env.PkgPath() {
			scope := ruleScope{name: name}
			for j := range f.Type.NumField() {
				scope.members = append(scope.members, f.Type.Field(j).Tag.Get("expr"))
			}
			slices.Sort(scope.members)
			scopes[f.Type.Name()] = scope
		}
	}
	slices.Sort(top)
	scopes[""] = ruleScope{members: top}
	return scopes
}()

// ruleScope is a level of a rule's names: the top (name "") or a view.
type ruleScope struct {
	name    string
	members []string
}

// explainRuleMessage says an unknown name of a ready rule in the rule's
// own words, with the name meant and the names there are; other messages
// are returned as they are.
func explainRuleMessage(msg string) string {
	if m := ruleNoMember.FindStringSubmatch(msg); m != nil {
		if scope, ok := ruleNames[m[1]]; ok {
			return fmt.Sprintf("%s has no %q%s: %s has %s", scope.name, m[2], didYouMean(m[2], scope.members),
				scope.name, strings.Join(scope.members, ", "))
		}
	}
	if m := ruleUnknownTop.FindStringSubmatch(msg); m != nil {
		known := ruleNames[""].members
		return fmt.Sprintf("unknown name %s%s: a rule knows %s", m[1], didYouMean(m[1], known), strings.Join(known, ", "))
	}
	return msg
}

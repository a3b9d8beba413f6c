package control

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// documentedRoute is a route as ARCHITECTURE.md writes it: `GET /v1/procs`.
var documentedRoute = regexp.MustCompile("`((?:GET|POST|PUT|PATCH|DELETE) /[^`]*)`")

// The routes ARCHITECTURE.md §7 lists are the routes the server serves:
// adding an endpoint without documenting it, or the other way, fails here.
func TestArchitectureListsEveryRoute(t *testing.T) {
	doc, err := os.ReadFile("../../ARCHITECTURE.md")
	require.NoError(t, err)
	_, section, found := strings.Cut(string(doc), "\n## 7. Control plane\n")
	require.True(t, found, "ARCHITECTURE.md has no section 7. Control plane")
	section, _, _ = strings.Cut(section, "\n## ")

	var documented []string
	for _, m := range documentedRoute.FindAllStringSubmatch(section, -1) {
		documented = append(documented, m[1])
	}
	var served []string
	for _, rt := range new(Server).routeTable() {
		served = append(served, rt.pattern)
	}
	slices.Sort(documented)
	slices.Sort(served)
	assert.Equal(t, served, slices.Compact(slices.Clone(served)), "a route is in the table twice")
	assert.Equal(t, served, documented, "ARCHITECTURE.md §7 and the route table of routes.go differ")
}

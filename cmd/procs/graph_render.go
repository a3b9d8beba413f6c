package main

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/procsdev/procs/compose/config"
)

// graphFormats are the formats of procs graph --format.
var graphFormats = []string{"text", "mermaid", "dot"}

// graphEdge is a dependency: To waits for From to meet Condition.
type graphEdge struct {
	From      string           `json:"from"`
	To        string           `json:"to"`
	Condition config.Condition `json:"condition"`
}

// dependencyGraph is what procs graph --json prints: the processes in
// start order and the dependencies between them.
type dependencyGraph struct {
	Processes []string    `json:"processes"`
	Edges     []graphEdge `json:"edges"`
}

// newDependencyGraph reads the dependency graph of cfg.
func newDependencyGraph(cfg *config.Config) (dependencyGraph, error) {
	order, err := cfg.StartOrder()
	if err != nil {
		return dependencyGraph{}, err
	}
	return dependencyGraph{Processes: order, Edges: graphEdges(cfg, order)}, nil
}

// renderGraph writes the dependency graph of cfg in format (text, mermaid
// or dot): processes in start order, each edge from the process depended on
// to the one that waits for it.
func renderGraph(cfg *config.Config, format string) (string, error) {
	graph, err := newDependencyGraph(cfg)
	if err != nil {
		return "", err
	}
	edges := graph.Edges
	switch format {
	case "text":
		return graphText(graph.Processes, edges), nil
	case "mermaid":
		return graphMermaid(cfg.Names(), edges), nil
	case "dot":
		return graphDot(cfg.Names(), edges), nil
	}
	return "", fmt.Errorf("--format %q is not a graph format: use text, mermaid or dot", format)
}

// graphEdges lists the dependencies, by the start order of the process
// depended on, then of its dependent.
func graphEdges(cfg *config.Config, order []string) []graphEdge {
	edges := []graphEdge{}
	for _, from := range order {
		for _, to := range order {
			for _, dep := range cfg.Procs[to].DependsOn {
				if dep.Name == from {
					edges = append(edges, graphEdge{From: from, To: to, Condition: dep.Condition})
				}
			}
		}
	}
	return edges
}

// graphText lists each process in start order, with the processes waiting
// for it indented below.
func graphText(order []string, edges []graphEdge) string {
	var b strings.Builder
	for _, name := range order {
		fmt.Fprintln(&b, name)
		for _, e := range edges {
			if e.From == name {
				fmt.Fprintf(&b, "  → %s (%s)\n", e.To, e.Condition)
			}
		}
	}
	return b.String()
}

// mermaidUnsafe are the characters a Mermaid node id cannot hold.
var mermaidUnsafe = regexp.MustCompile(`[^A-Za-z0-9_]`)

// graphMermaid writes a Mermaid flowchart, left to right.
func graphMermaid(names []string, edges []graphEdge) string {
	id := func(name string) string { return mermaidUnsafe.ReplaceAllString(name, "_") }
	var b strings.Builder
	b.WriteString("flowchart LR\n")
	for _, name := range names {
		if id(name) == name {
			fmt.Fprintf(&b, "  %s\n", name)
		} else {
			fmt.Fprintf(&b, "  %s[%s]\n", id(name), strconv.Quote(name))
		}
	}
	for _, e := range edges {
		fmt.Fprintf(&b, "  %s -->|%s| %s\n", id(e.From), e.Condition, id(e.To))
	}
	return b.String()
}

// graphDot writes a Graphviz digraph, left to right.
func graphDot(names []string, edges []graphEdge) string {
	var b strings.Builder
	b.WriteString("digraph procs {\n  rankdir=LR;\n")
	for _, name := range names {
		fmt.Fprintf(&b, "  %s;\n", strconv.Quote(name))
	}
	for _, e := range edges {
		fmt.Fprintf(&b, "  %s -> %s [label=%q];\n", strconv.Quote(e.From), strconv.Quote(e.To), string(e.Condition))
	}
	b.WriteString("}\n")
	return b.String()
}

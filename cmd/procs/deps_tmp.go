package main

import (
	_ "github.com/charmbracelet/x/ansi"
	_ "github.com/creack/pty"
	_ "github.com/expr-lang/expr"
	_ "github.com/fatih/color"
	_ "github.com/goccy/go-yaml"
	_ "github.com/invopop/jsonschema"
	_ "github.com/joho/godotenv"
	_ "github.com/knadh/koanf/parsers/yaml"
	_ "github.com/knadh/koanf/providers/confmap"
	_ "github.com/knadh/koanf/providers/env/v2"
	_ "github.com/knadh/koanf/providers/rawbytes"
	_ "github.com/knadh/koanf/v2"
	_ "github.com/rogpeppe/go-internal/testscript"
	_ "github.com/santhosh-tekuri/jsonschema/v6"
	_ "github.com/spf13/cobra"
	_ "github.com/stretchr/testify/require"
)

func main() {}

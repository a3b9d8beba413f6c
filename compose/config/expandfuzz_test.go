package config

import (
	"strings"
	"testing"

	"github.com/joho/godotenv"
)

// FuzzExpandBounded expands any text against a 64 KiB variable under any
// limit up to 64 KiB: the result never passes the limit, and building it
// never costs much more than the limit, however many ${BIG} the text holds.
func FuzzExpandBounded(f *testing.F) {
	f.Add("${BIG}", "x", uint16(100))
	f.Add(strings.Repeat("${BIG}", 500), "abc", uint16(65535))
	f.Add("a ${BIG:-d} ${NONE:-${BIG}} $$ ${SMALL}", "v", uint16(10))
	f.Add(strings.Repeat("${SMALL}", 1000)+"${BIG}", "yy", uint16(2000))
	f.Add("${NONE-"+strings.Repeat("z", 300)+"}", "", uint16(50))
	f.Fuzz(func(t *testing.T, text, seed string, limit uint16) {
		if seed == "" {
			seed = "."
		}
		big := strings.Repeat(seed, (64<<10)/len(seed)+1)[:64<<10]
		lookup := chain(map[string]string{"BIG": big, "SMALL": seed})
		var out string
		var err error
		used := allocatedBy(func() { out, err = expandString(text, lookup, int(limit)) })
		if err == nil && len(out) > int(limit) {
			t.Fatalf("expanded to %d bytes, over the limit of %d", len(out), limit)
		}
		// The builder may double once past what it keeps, and the text's
		// own bytes are copied; anything more is expansion unbounded.
		if bound := uint64(4*int(limit) + 16*len(text) + 64<<10); used > bound {
			t.Fatalf("expanding %d bytes of text under a limit of %d allocated %d bytes (bound %d)", len(text), limit, used, bound)
		}
	})
}

// FuzzDotEnvSizes checks the size bound of a dotenv file against godotenv
// itself: for any file the bound accepts, each value godotenv builds is no
// longer than the bound said (the bound mirrors godotenv's parser).
func FuzzDotEnvSizes(f *testing.F) {
	f.Add("A=1\nB=${A}${A}\nC=\"$B \\$A\"\nD='${C}'\n")
	f.Add("export A : x # c\n# comment\nB=\"multi\nline ${A}\"\nA=${B}${B}\r\nC=$A$A$(A)\n")
	f.Add("A=\"esc\\\"aped ${A}\"\nB=\\\\${A}\nC=\"\\\\${A}\"")
	f.Add("V0=xxxxxxxx\nV1=${V0}${V0}\nV2=${V1}${V1}\nV3=${V2}${V2}\n")
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 4096 {
			return
		}
		sizes, err := dotEnvSizes([]byte(text))
		if err != nil {
			return
		}
		vars, perr := godotenv.UnmarshalBytes([]byte(text))
		if perr != nil {
			return
		}
		for key, value := range vars {
			if len(value) > sizes[key] {
				t.Fatalf("%s is %d bytes, over its bound of %d", key, len(value), sizes[key])
			}
		}
	})
}

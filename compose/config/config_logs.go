package config

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Logs says how much of a process's output its log files keep: NAME.log
// grows to MaxSize, then moves to NAME.log.1 (the older ones to .2, .3 and
// so on) and a new NAME.log begins; Keep rotated files are kept.
type Logs struct {
	MaxSize ByteSize `json:"maxSize,omitempty" jsonschema_description:"Size at which NAME.log is rotated to NAME.log.1, e.g. 32MiB (the default), 500MB, 1GiB. At least 1KiB."`
	Keep    *int     `json:"keep,omitempty" jsonschema:"minimum=0" jsonschema_description:"How many rotated files (NAME.log.1 ... NAME.log.N) are kept besides NAME.log; default 1, 0 keeps none."`
}

// The log retention where logs: does not say otherwise: at most 64 MiB per
// process, in NAME.log and NAME.log.1.
const (
	DefaultLogMaxSize ByteSize = 32 << 20
	DefaultLogKeep             = 1
)

// minLogMaxSize is the smallest maxSize accepted: below it a log would
// rotate at nearly every line.
const minLogMaxSize ByteSize = 1 << 10

// maxLogKeep bounds keep: each rotation renames every kept file.
const maxLogKeep = 1000

// LogsOf is the log retention of process p: each of its own logs: settings,
// else the top-level one; a setting neither gives is left unset (zero
// MaxSize, nil Keep) for the caller's default.
func (c *Config) LogsOf(p *Proc) Logs {
	var out Logs
	for _, l := range []*Logs{c.Logs, p.Logs} {
		if l == nil {
			continue
		}
		if l.MaxSize != 0 {
			out.MaxSize = l.MaxSize
		}
		if l.Keep != nil {
			out.Keep = l.Keep
		}
	}
	return out
}

// logsKeys are the keys of logs:.
var logsKeys = jsonKeys[Logs]()

// logs decodes a logs: mapping (top level or of a process).
func (d *decoder) logs(path []string, v any) *Logs {
	m, ok := d.mapping(path, v, logsKeys)
	if !ok {
		return nil
	}
	out := &Logs{}
	if raw := m["maxSize"]; raw != nil {
		sizePath := child(path, "maxSize")
		out.MaxSize = d.byteSize(sizePath, raw)
		if out.MaxSize != 0 && out.MaxSize < minLogMaxSize {
			d.p.atValue(sizePath, "maxSize %s is too small: use at least 1KiB", out.MaxSize)
			out.MaxSize = 0
		}
	}
	if raw := m["keep"]; raw != nil {
		keepPath := child(path, "keep")
		if keep, ok := d.integer(keepPath, raw, "a number of files"); ok {
			if keep < 0 || keep > maxLogKeep {
				d.p.atValue(keepPath, "keep %d is out of range: use a number of rotated files from 0 to %d", keep, maxLogKeep)
			} else {
				out.Keep = &keep
			}
		}
	}
	return out
}

// byteSize reads a size: a number of bytes, or a number with a unit.
func (d *decoder) byteSize(path []string, v any) ByteSize {
	text, ok := d.scalarText(path, v)
	if !ok || isBool(v) {
		d.typeErr(path, "a size (e.g. 64MiB)", v)
		return 0
	}
	size, err := ParseByteSize(text)
	if err != nil {
		d.p.atValue(path, "%v", err)
		return 0
	}
	return size
}

// ByteSize is a number of bytes, written in procs.yaml as a number with an
// optional unit: 65536, 512KiB, 64MiB, 1GiB (powers of 1024; K, M and G
// too), or 500kB, 64MB, 1GB (powers of 1000).
type ByteSize int64

// byteUnits maps the units of a size, lower-cased, to their bytes.
var byteUnits = map[string]int64{
	"": 1, "b": 1,
	"k": 1 << 10, "kib": 1 << 10, "kb": 1e3,
	"m": 1 << 20, "mib": 1 << 20, "mb": 1e6,
	"g": 1 << 30, "gib": 1 << 30, "gb": 1e9,
}

// ParseByteSize reads a size such as 64MiB, 500MB or 1048576.
func ParseByteSize(text string) (ByteSize, error) {
	s := strings.TrimSpace(text)
	i := strings.IndexFunc(s, func(r rune) bool { return (r < '0' || r > '9') && r != '.' })
	if i < 0 {
		i = len(s)
	}
	number, unit := s[:i], strings.ToLower(strings.TrimSpace(s[i:]))
	scale, known := byteUnits[unit]
	n, err := strconv.ParseFloat(number, 64)
	if number == "" || err != nil || !known || n < 0 || n*float64(scale) > 1<<50 {
		return 0, fmt.Errorf("%q is not a size: write a number of bytes with a unit, e.g. 64MiB, 500MB or 1GiB", text)
	}
	return ByteSize(n * float64(scale)), nil
}

// String writes the size with the largest binary unit that divides it.
func (b ByteSize) String() string {
	for _, u := range []struct {
		name string
		size ByteSize
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if b != 0 && b%u.size == 0 {
			return strconv.FormatInt(int64(b/u.size), 10) + u.name
		}
	}
	return strconv.FormatInt(int64(b), 10)
}

// MarshalJSON writes the size as procs.yaml does ("64MiB").
func (b ByteSize) MarshalJSON() ([]byte, error) { return json.Marshal(b.String()) }

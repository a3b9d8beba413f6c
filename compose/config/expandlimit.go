package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
)

// ${VAR} expansion multiplies text: a 400 KB value referenced 10,000 times
// in a 440 KB file is 4 GB. These bounds sit far above any real use (Linux
// refuses an argument or environment string over 128 KiB, and 2 MiB for
// all of them together) and far below what would exhaust memory, so that
// a hostile or broken file costs milliseconds and megabytes, like the
// limits of limits.go.
const (
	// maxExpandedValue bounds one value after expansion.
	maxExpandedValue = 1 << 20
	// maxExpandedTotal bounds all the expanded values of one config.
	maxExpandedTotal = 16 << 20
)

// errExpandedTooLarge is returned by expandString for a result that would
// pass its limit; the expander says which limit and where.
var errExpandedTooLarge = errors.New("expanded value too large")

// envFileSizeError is an env file refused for its size: over
// maxEnvFileBytes, read no further, or too large once godotenv would have
// expanded it. It reads after "env file NAME is".
type envFileSizeError struct{ reason string }

func (e *envFileSizeError) Error() string { return e.reason }

// errEnvFileTooLarge is a file over maxEnvFileBytes.
var errEnvFileTooLarge = &envFileSizeError{fmt.Sprintf("larger than %d KiB: a dotenv file holds settings; keep large data in a file the process reads", maxEnvFileBytes>>10)}

// expandLimit is how large the next expanded value may be, and false once
// the whole config's bound is spent (its error already reported).
func (ex *expander) expandLimit() (int, bool) {
	left := maxExpandedTotal - ex.spent
	return min(maxExpandedValue, left), left > 0
}

// tooLarge reports the value at path whose expansion passed limit. What it
// built counts against the total, so that thousands of oversized values
// cost no more than one config's bound.
func (ex *expander) tooLarge(path []string, limit int) {
	if limit < maxExpandedValue {
		ex.p.atValue(path, "the expanded config is larger than %d MiB at this value: a ${VAR} repeats a large value too often; give it to the processes once, through env:", maxExpandedTotal>>20)
		ex.spent = maxExpandedTotal
		return
	}
	ex.p.atValue(path, "expands to more than %d KiB: no process could take it (Linux refuses an argument or variable over 128 KiB); check what its ${VAR}s hold", maxExpandedValue>>10)
	ex.spent += limit
}

// readEnvFileBytes reads file, refusing one over maxEnvFileBytes without
// reading the rest of it. A byte order mark (Notepad's UTF-8) is left out:
// it is no part of the first variable's name.
func readEnvFileBytes(file string) ([]byte, error) {
	f, err := openRegular(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxEnvFileBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxEnvFileBytes {
		return nil, errEnvFileTooLarge
	}
	return bytes.TrimPrefix(data, utf8BOM), nil
}

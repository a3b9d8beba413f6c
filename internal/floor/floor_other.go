//go:build !unix

package floor

import "errors"

// Run is measured on Unix only: the floor forks sh.
func Run(int, Shape) (Result, error) {
	return Result{}, errors.New("the floor is measured on Unix, where procs' figures are")
}

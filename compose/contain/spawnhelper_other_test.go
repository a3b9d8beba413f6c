//go:build !linux

package contain

// runSpawnHelperIfRequested: the spawn pool's helper process is Linux's
// (its test checks the parent-death signal), so there is none to run here.
func runSpawnHelperIfRequested() {}

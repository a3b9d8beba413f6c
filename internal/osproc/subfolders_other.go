//go:build !linux

package osproc

import "os"

// hasSubfolders says whether the folder dir may have folders in it; where
// the link count does not tell, whether it exists.
func hasSubfolders(dir string) bool {
	_, err := os.Stat(dir)
	return err == nil
}

package osproc

import "syscall"

// hasSubfolders says whether the folder dir may have folders in it: on
// Linux a folder's link count is two plus its subfolders, in cgroupfs
// (kernfs) as in other file systems.
func hasSubfolders(dir string) bool {
	var st syscall.Stat_t
	return syscall.Stat(dir, &st) == nil && st.Nlink > 2
}

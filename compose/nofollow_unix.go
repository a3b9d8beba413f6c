//go:build unix

package compose

import "syscall"

// openNoFollow makes an open fail on a symbolic link rather than follow it
// (logFile.open).
const openNoFollow = syscall.O_NOFOLLOW

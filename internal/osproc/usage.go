package osproc

import "time"

// ProcessUsage is what one process has used, as the OS counts it.
type ProcessUsage struct {
	// CPU is the processor time it has used since it started.
	CPU time.Duration
	// Memory is its resident memory now, in bytes.
	Memory uint64
	// Peak is its highest resident memory, in bytes; 0 where the OS does
	// not keep it (everywhere but Linux).
	Peak uint64
}

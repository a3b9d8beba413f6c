package osproc

import "os"

// ReadKernelFile appends the content of a small file the system makes to
// buf and returns it; nil when it cannot be read.
func ReadKernelFile(path string, buf []byte) []byte {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	return append(buf, data...)
}

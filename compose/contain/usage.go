package contain

// RunCgroup returns the cgroup folder of owner's run, where it has one:
// the kernel counts the CPU and memory of the whole run there.
func RunCgroup(owner Owner) (string, bool) {
	return getSpawner().cgroupDir(owner)
}

package frameworks

import "fmt"

// refine replaces a detected preset by one that specialises it
// (detect.refines) when the project's package.json names that one's
// dependency: a SvelteKit app runs `vite dev`, which the command alone
// calls vite.
func (c *catalog) refine(d Detection, dir string) Detection {
	pkg, ok := readPackageJSON(dir)
	if !ok {
		return d
	}
	for _, p := range c.sorted {
		if p.Detect.Refines != d.Preset.Name {
			continue
		}
		if dep, ok := pkg.dependsOn(p.Detect.PackageJSON); ok {
			return Detection{Preset: p, Reason: fmt.Sprintf("%s, and package.json depends on %q", d.Reason, dep)}
		}
	}
	return d
}

// dependsOn returns the first of deps in dependencies or devDependencies.
func (pkg *packageJSON) dependsOn(deps []string) (string, bool) {
	for _, dep := range deps {
		_, inDeps := pkg.Dependencies[dep]
		_, inDev := pkg.DevDependencies[dep]
		if inDeps || inDev {
			return dep, true
		}
	}
	return "", false
}

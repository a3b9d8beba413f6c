package scaffold

import (
	"fmt"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/procsdev/procs/internal/lazyregexp"
)

// springBootPort is the port a Spring Boot web app listens on unless
// server.port says otherwise.
const springBootPort = 8080

var (
	// springBootBuild matches a build file that uses the Spring Boot plugin
	// or parent: only then do spring-boot:run and bootRun exist.
	springBootBuild = lazyregexp.New(`spring-boot-starter|spring-boot-maven-plugin|org\.springframework\.boot`)
	// mavenModules matches the <modules> of an aggregator pom, which runs
	// nothing itself: its modules are found in their own folders.
	mavenModules = lazyregexp.New(`<modules>`)
	// serverPortProperty is server.port in application.properties, and
	// serverPortYAML the same under server: in application.yml.
	serverPortProperty = lazyregexp.New(`(?m)^\s*server\.port\s*[=:]\s*(?:\$\{[A-Za-z_.]+:)?(\d{2,5})\b`)
	serverPortYAML     = lazyregexp.New(`(?m)^server:\s*\n(?:[ \t]+.*\n)*?[ \t]+port:\s*(?:\$\{[A-Za-z_.]+:)?(\d{2,5})\b`)
)

// springApp runs a Spring Boot app (or module) in rel the way its README
// says to: with the Maven or Gradle wrapper of the project when it has
// one, spring-boot:run or bootRun, on server.port (default 8080).
func (pl *plan) springApp(rel string) *process {
	dir := pl.abs(rel)
	source := springBuildFile(dir)
	if source == "" {
		return nil
	}
	command := pl.wrapper(rel, "mvnw", "mvn") + " spring-boot:run"
	if source != "pom.xml" {
		command = pl.wrapper(rel, "gradlew", "gradle") + " bootRun"
	}
	if !exists(dir, "src", "main") {
		return nil // a parent build or a library: its modules are the apps
	}
	p := &process{
		// Spring Boot reads SERVER_PORT, which procs exports from port.
		run: func(int) runs { return runs{command: command} },
		cwd: rel, port: springBootPort, portNote: "Spring Boot's default", movable: true,
		source: path.Join(rel, source), kind: "spring-boot",
	}
	if port, file := springServerPort(dir); port != 0 {
		p.port, p.portNote = port, "server.port in "+path.Join(rel, file)
	}
	pl.detect(p)
	return p
}

// springBuildFile is the build file of dir that applies Spring Boot
// (Maven first, as READMEs list it), or "" when none does. An aggregator
// pom runs nothing itself: its modules are found in their own folders.
func springBuildFile(dir string) string {
	for _, name := range []string{"pom.xml", "build.gradle", "build.gradle.kts"} {
		text := readAll(filepath.Join(dir, name))
		if springBootBuild.MatchString(text) && !(name == "pom.xml" && mavenModules.MatchString(text)) {
			return name
		}
	}
	return ""
}

// wrapper is how rel runs the build tool: the project's wrapper script
// (in rel or a parent folder up to the project), else the tool itself.
func (pl *plan) wrapper(rel, script, tool string) string {
	up := ""
	for dir := rel; ; dir = path.Dir(dir) {
		if dir == "." {
			dir = ""
		}
		if exists(pl.abs(dir), script) {
			return "./" + up + script
		}
		if dir == "" {
			return tool
		}
		up += "../"
	}
}

// springServerPort is server.port in the app's main configuration, and
// the file it is in; 0 when none sets it.
func springServerPort(dir string) (int, string) {
	resources := filepath.Join(dir, "src", "main", "resources")
	for _, name := range []string{"application.properties", "application.yml", "application.yaml"} {
		text := readAll(filepath.Join(resources, name))
		re := serverPortProperty
		if !strings.HasSuffix(name, ".properties") {
			re = serverPortYAML
		}
		if m := re.FindStringSubmatch(text); m != nil {
			if port, err := strconv.Atoi(m[1]); err == nil && port > 0 && port <= 65535 {
				return port, fmt.Sprintf("src/main/resources/%s", name)
			}
		}
	}
	return 0, ""
}

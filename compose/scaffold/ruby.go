package scaffold

import (
	"fmt"
	"path"
)

// rackupPort is rackup's default port.
const rackupPort = 9292

// rubyApp runs a Rails app (Gemfile and config/application.rb) with rails
// server, or another Rack app (Gemfile and config.ru) with rackup.
func (pl *plan) rubyApp(rel string) *process {
	dir := pl.abs(rel)
	if !exists(dir, "Gemfile") {
		return nil
	}
	p := &process{cwd: rel, movable: true, kind: "rails"}
	switch {
	case exists(dir, "config", "application.rb"):
		command := "bundle exec rails server"
		if exists(dir, "bin", "rails") {
			command = "bin/rails server"
		}
		// rails server listens on PORT, which procs sets from port.
		p.run = func(int) runs { return runs{command: command} }
		p.source = path.Join(rel, "config/application.rb")
	case exists(dir, "config.ru"):
		p.run = func(port int) runs { return runs{command: fmt.Sprintf("bundle exec rackup --port %d", port)} }
		p.source, p.kind = path.Join(rel, "config.ru"), "rack"
		p.port, p.portNote = rackupPort, "rackup's default"
	default:
		return nil
	}
	pl.detect(p)
	if p.port == 0 && p.preset != nil {
		p.port, p.portNote = p.preset.DefaultPort, p.preset.Name+"'s default"
	}
	return p
}

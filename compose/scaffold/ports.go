package scaffold

import "fmt"

// assignPorts gives each process its port: first the ones that cannot move
// (written in the project's files), then the others, each moved up past
// the ports already given when it can follow, and left without a port
// (with a comment) when it cannot.
func (pl *plan) assignPorts() {
	taken := map[int]string{}
	for _, fixedPass := range []bool{true, false} {
		for _, p := range pl.procs {
			if p.port == 0 || p.movable == fixedPass {
				continue
			}
			pl.assignPort(p, taken)
		}
	}
}

func (pl *plan) assignPort(p *process, taken map[int]string) {
	owner, clash := taken[p.port]
	switch {
	case !clash:
	case !p.movable:
		p.notes = append(p.notes, fmt.Sprintf("port %d (%s) is also %s's: give one of them another port", p.port, p.portNote, owner))
		p.port = 0
		return
	default:
		from := p.port
		for clash {
			p.port++
			_, clash = taken[p.port]
		}
		p.portNote = fmt.Sprintf("%d (%s) is taken by %s", from, p.portNote, owner)
	}
	taken[p.port] = p.name
}

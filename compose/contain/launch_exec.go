package contain

import "strings"

// shellOperators are the characters that make a command string more than
// one simple command: lists, pipes, redirections, subshells, substitutions.
const shellOperators = ";&|<>()`\n"

// notExecutable are first words a shell runs itself, not as a program.
var notExecutable = map[string]bool{
	"if": true, "for": true, "while": true, "until": true, "case": true, "{": true, "!": true,
	"function": true, "exec": true, "cd": true, "export": true, "set": true, "source": true,
	".": true, "eval": true, "exit": true, "alias": true, "ulimit": true, "umask": true,
	"trap": true, "wait": true, "read": true, "unset": true, "shift": true, "return": true,
}

// execArgv makes `sh -c "CMD"` run `exec CMD` when CMD is one simple
// command: the program then replaces the shell and is the process procs
// watches, signals and reads the exit status of (dash otherwise stays as
// the leader of a PTY session, and re-raises a Ctrl-C the program caught).
// Other argv come back as they are.
func execArgv(argv []string) []string {
	if len(argv) != 3 || argv[0] != "sh" || argv[1] != "-c" || !simpleCommand(argv[2]) {
		return argv
	}
	return []string{"sh", "-c", "exec " + argv[2]}
}

// simpleCommand reports whether a command string is one program with its
// arguments: no shell operators, no leading variable assignment, no
// keyword or builtin first.
func simpleCommand(cmd string) bool {
	fields := strings.Fields(cmd)
	if len(fields) == 0 || strings.ContainsAny(cmd, shellOperators) || strings.Contains(cmd, "$(") {
		return false
	}
	first := fields[0]
	return !strings.Contains(first, "=") && !notExecutable[first]
}

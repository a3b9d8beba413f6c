package config

// foreignNames maps the names people bring from docker compose and
// process-compose (keys, restart policies, dependency conditions) to the
// procs name that means the same, or the nearest. didYouMean suggests it
// wherever the procs name is one of the candidates, so each entry only
// hints where it applies: environment is env in a process and at the top.
// This is the one table of such hints; edit distance finds the typos.
var foreignNames = map[string]string{
	// Keys of a service (docker compose) or process (process-compose).
	"depends_on":  "dependsOn",
	"environment": "env",
	"env_file":    "envFile",
	"working_dir": "cwd",
	// The same keys as other tools name them: a Dockerfile (CMD, WORKDIR),
	// Kubernetes (workingDir), CI runners (working-directory), Taskfile
	// (dir). "cmd" is one letter from "cwd", which edit distance alone
	// would suggest.
	"cmd":               "command",
	"workdir":           "cwd",
	"workingDir":        "cwd",
	"working-directory": "cwd",
	"working_directory": "cwd",
	"dir":               "cwd",
	"ports":             "port",
	"entrypoint":        "command",
	"availability":      "restart",
	"readiness_probe":   "healthcheck",
	"liveness_probe":    "healthcheck",
	"ready_log_line":    "readyPatterns",
	"stop_signal":       "shutdown",
	"stop_grace_period": "shutdown",
	"log_location":      "logs",
	"is_tty":            "pty",
	"tty":               "pty",
	// Keys of the top level.
	"services":  "procs",
	"processes": "procs",
	// Restart policies: procs' always leaves a process you stop stopped,
	// which is what docker's unless-stopped does.
	"unless-stopped": "always",
	"on_failure":     "on-failure",
	// Dependency conditions.
	"service_started":                "started",
	"service_healthy":                "ready",
	"healthy":                        "ready",
	"service_completed_successfully": "completed",
	"process_started":                "started",
	"process_healthy":                "ready",
	"process_log_ready":              "ready",
	"process_completed":              "completed",
	"process_completed_successfully": "completed",
}

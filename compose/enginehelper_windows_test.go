package compose

import (
	"fmt"
	"os"
)

// runEngineHelperIfRequested refuses on Windows: the helper's `procs down`
// is a SIGUSR1, which Windows does not have.
func runEngineHelperIfRequested() {
	if os.Getenv(engineHelperEnv) != "" {
		fmt.Println("the engine helper runs on Unix only")
		os.Exit(2)
	}
}

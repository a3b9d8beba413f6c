// A build that fails: go run prints the package, then the compiler's
// file:line:col message.
package main

import "log"

func main() {
	log.Println("starting")
	undefinedThing()
}

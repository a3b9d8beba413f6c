// A server that panics while it starts.
package main

import "log"

func main() {
	log.Println("loading routes")
	var routes map[string]int
	routes["/"] = 1
}

// A server whose database is down: log.Fatalf, then go run's exit status.
package main

import (
	"log"
	"net"
)

func main() {
	log.Println("connecting to database")
	if _, err := net.Dial("tcp", "127.0.0.1:27719"); err != nil {
		log.Fatalf("failed to connect to database: %v", err)
	}
}

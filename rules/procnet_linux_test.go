package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestParseTCPTable(t *testing.T) {
	table := `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 4242 1 0000000000000000 100 0 0 10 0
   1: 0100007F:1F91 0100007F:A000 01 00000000:00000000 00:00000000 00000000  1000        0 4243 1 0000000000000000 20 4 30 10 -1
   2: 00000000000000000000000000000000:14EB 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 4244 1 0000000000000000 100 0 0 10 0
`
	got := map[uint64]int{}
	parseTCPTable([]byte(table), got)
	assert.Equal(t, map[uint64]int{4242: 8080, 4244: 5355}, got, "only LISTEN sockets, IPv4 and IPv6")
}

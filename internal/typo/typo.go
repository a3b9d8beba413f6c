// Package typo measures how far apart two spellings are, to name what a
// mistyped word meant ("did you mean ...?").
package typo

// Distance is the number of single-rune insertions, deletions,
// substitutions and swaps of neighbours that turn a into b (the optimal
// string alignment distance): "wbe" is one swap from "web", as a typo is.
func Distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	// rows[0..2] are the rows for i-2, i-1 and i.
	rows := [3][]int{make([]int, len(rb)+1), make([]int, len(rb)+1), make([]int, len(rb)+1)}
	for j := range rows[1] {
		rows[1][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		twoUp, up, cur := rows[0], rows[1], rows[2]
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(up[j]+1, cur[j-1]+1, up[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], twoUp[j-2]+1)
			}
		}
		rows[0], rows[1], rows[2] = up, cur, twoUp
	}
	return rows[1][len(rb)]
}

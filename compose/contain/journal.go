package contain

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
)

// journal is the record of what the watchdog must stop should procs die:
// the protocol lines (see runWatchdog), which procs appends to one of two
// unlinked files it shares with the watchdog (memfds on Linux). Writing a
// line wakes no one; the watchdog reads the record only once procs is gone.
//
// Each file begins with a header naming its generation, and the record is
// the file with the highest whole header. Once the file written to has
// grown, the state it records (a few lines per live run) is written to the
// other file, which a new header then makes the record: the record stays
// small however many runs start and stop, and a procs that dies half-way
// leaves the previous file whole. Its owner serializes the calls.
type journal struct {
	files     [2]*os.File
	active    int    // index of the file appended to
	gen       uint64 // its generation
	size      int64  // its size: where the next line goes
	compactAt int64  // the size at which it is rewritten
}

const (
	// journalHeaderLen is the length of a file's header, "G" and the
	// generation on 19 digits, then a newline: a short write within a page
	// that a procs killed meanwhile has done whole or not at all.
	journalHeaderLen = 21
	// journalCompactFrom is the smallest size at which the record is
	// rewritten: 64 KiB is some five thousand starts and stops.
	journalCompactFrom = 64 << 10
)

// newJournal makes the two files of a record that holds first.
func newJournal(first string) (*journal, error) {
	j := &journal{active: 1} // the first rewrite goes to files[0]
	for i := range j.files {
		f, err := unlinkedFile("procs-watchdog")
		if err != nil {
			j.close()
			return nil, fmt.Errorf("make the watchdog's record: %w", err)
		}
		j.files[i] = f
	}
	if err := j.rewrite([]byte(first + "\n")); err != nil {
		j.close()
		return nil, fmt.Errorf("make the watchdog's record: %w", err)
	}
	return j, nil
}

// append adds one protocol line to the record.
func (j *journal) append(line string) {
	n, err := j.files[j.active].WriteAt([]byte(line+"\n"), j.size)
	if err != nil {
		// The next line overwrites what part of this one was written.
		return
	}
	j.size += int64(n)
	if j.size >= j.compactAt {
		j.compact()
	}
}

// compact rewrites the record as the state it holds.
func (j *journal) compact() {
	body, ok := journalBody(j.files[j.active])
	if !ok {
		return
	}
	state := readLeftovers(bytes.NewReader(body))
	_ = j.rewrite(state.lines())
}

// rewrite makes body the record, in the file not appended to: the body
// first, then the header that makes it the record; then the other file is
// emptied (its memory given back).
func (j *journal) rewrite(body []byte) error {
	next := 1 - j.active
	f := j.files[next]
	if err := f.Truncate(0); err != nil {
		return err
	}
	if _, err := f.WriteAt(body, journalHeaderLen); err != nil {
		return err
	}
	header := fmt.Sprintf("G%019d\n", j.gen+1)
	if _, err := f.WriteAt([]byte(header), 0); err != nil {
		return err
	}
	_ = j.files[j.active].Truncate(0)
	j.active, j.gen, j.size = next, j.gen+1, journalHeaderLen+int64(len(body))
	j.compactAt = max(journalCompactFrom, 2*j.size)
	return nil
}

// current returns the record's whole lines.
func (j *journal) current() []byte {
	body, _ := journalBody(j.files[j.active])
	return body
}

func (j *journal) close() {
	for _, f := range j.files {
		if f != nil {
			_ = f.Close()
		}
	}
}

// readJournal returns the whole lines of the record kept in files: the one
// with the highest whole header (nil if none has one).
func readJournal(files ...*os.File) []byte {
	var record []byte
	var newest uint64
	for _, f := range files {
		if gen, ok := journalGen(f); ok && gen > newest {
			if body, ok := journalBody(f); ok {
				record, newest = body, gen
			}
		}
	}
	return record
}

// journalGen reads the generation in f's header, if it is whole.
func journalGen(f *os.File) (uint64, bool) {
	var header [journalHeaderLen]byte
	if _, err := f.ReadAt(header[:], 0); err != nil || header[0] != 'G' || header[journalHeaderLen-1] != '\n' {
		return 0, false
	}
	gen, err := strconv.ParseUint(string(header[1:journalHeaderLen-1]), 10, 64)
	return gen, err == nil
}

// journalBody reads the lines of f after its header, up to its last
// newline: a line procs was killed while writing is not one.
func journalBody(f *os.File) ([]byte, bool) {
	data, err := io.ReadAll(io.NewSectionReader(f, journalHeaderLen, math.MaxInt64-journalHeaderLen))
	if err != nil {
		return nil, false
	}
	return data[:bytes.LastIndexByte(data, '\n')+1], true
}

// unlinkedTempFile makes a file that is only open, never on disk for
// longer than its creation takes: procs and the watchdog hold it, and it
// goes when both have closed it.
func unlinkedTempFile(name string) (*os.File, error) {
	f, err := os.CreateTemp("", name+"-*")
	if err != nil {
		return nil, err
	}
	if err := os.Remove(f.Name()); err != nil {
		_ = f.Close()
		return nil, err
	}
	return f, nil
}

#!/usr/bin/env python3
"""A stand-in for an agent CLI such as Claude Code, for the agent example.

It needs only Python's standard library and a terminal (procs gives it one
with pty: true). Like a real agent it draws whole screens:

  on start, a dialog: "Do you trust the files in this folder?"; Enter
    accepts (autoRespond in procs.yaml answers it), anything else exits 1
  then a prompt box: "❯ " with "? for shortcuts" under it
  each line typed: a spinner row "✻ Thinking… (esc to interrupt)" for a
    second, then "● done: LINE" and the prompt again
  /exit: ends it with exit code 0
"""
import os
import sys
import time

THINK_SECONDS = 1.0

try:
    COLS, ROWS = os.get_terminal_size(sys.stdout.fileno())
except OSError:
    COLS, ROWS = 100, 30

history = []


def draw(text):
    sys.stdout.write(text)
    sys.stdout.flush()


def at(row, col=1):
    return "\x1b[%d;%dH" % (row, col)


def screen(status):
    """The main screen: title, conversation, prompt box and a status row,
    with the cursor left in the prompt, where a real agent waits."""
    out = ["\x1b[H\x1b[2J", at(1), "fake agent · %s" % os.path.basename(os.getcwd())]
    for i, line in enumerate(history[-(ROWS - 9):]):
        out.append(at(3 + i) + line[:COLS])
    out.append(at(ROWS - 4) + "─" * COLS)
    out.append(at(ROWS - 3) + "❯ ")
    out.append(at(ROWS - 2) + "─" * COLS)
    out.append(at(ROWS - 1) + "  " + status)
    out.append(at(ROWS - 3, 3))
    return "".join(out)


def trust_dialog():
    """The first-run question; only Enter (an empty line) accepts."""
    draw("\x1b[H\x1b[2J" + at(2) + " Do you trust the files in this folder?"
         + at(4) + "   " + os.getcwd()
         + at(6) + " ❯ 1. Yes, proceed" + at(7) + "   2. No, exit"
         + at(9) + " Enter to confirm · Esc to exit" + at(10))
    if sys.stdin.readline().strip() not in ("", "1"):
        draw("\r\nnot trusted: bye\r\n")
        sys.exit(1)


def think(line):
    """Busy: the spinner row under the conversation, redrawn in place."""
    draw(screen("esc to interrupt"))
    frames = "✻✶✳✢·"
    end, i = time.time() + THINK_SECONDS, 0
    while time.time() < end:
        spinner = "%s Thinking… (esc to interrupt)" % frames[i % len(frames)]
        draw("\x1b7" + at(ROWS - 6) + "\x1b[2K" + spinner + "\x1b8")
        i += 1
        time.sleep(0.1)
    history.append("> " + line)
    history.append("● done: " + line)


def main():
    trust_dialog()
    while True:
        draw(screen("? for shortcuts"))
        line = sys.stdin.readline()
        if not line:
            return  # the terminal closed
        line = line.strip()
        if line == "/exit":
            draw("\x1b[H\x1b[2Jbye\r\n")
            return
        if line:
            think(line)


if __name__ == "__main__":
    main()

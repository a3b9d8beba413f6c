#!/usr/bin/env python3
"""A scripted stand-in for an agent CLI, drawn like a real TUI.

It runs on a terminal in raw mode and redraws its screen with absolute
cursor moves, the way Claude Code and other agent CLIs do. States:

  theme picker (first run, unless --no-first-run): "Choose the text style",
    numbered options, arrows move the selection, Enter accepts
  ready: a prompt box ("❯ ") with "? for shortcuts" under it
  busy: a spinner row "✻ Thinking… (esc to interrupt)" redrawn in place
  question (type "ask"): numbered options, "Enter to select"
  permission (type "perm"): "Do you want to proceed?" with Yes/No
  recoverable error (type "ratelimit"): "API Error: rate limit · Retrying in 1s"
  exit: "/exit" exits 0, "crash" exits 3

Any other line makes it busy for --work seconds (default 0.3; "slow": 3),
then it answers "done: LINE". With FAKEAGENT_READY_LOG set, it appends the time
(ns since the epoch) at which it draws each ready prompt.
"""
import os
import sys
import time
import tty
import termios
import select
import signal

OUT = sys.stdout.fileno()
IN = sys.stdin.fileno()

args = sys.argv[1:]
FIRST_RUN = "--no-first-run" not in args
WORK = 0.3
if "--work" in args:
    WORK = float(args[args.index("--work") + 1])
READY_LOG = os.environ.get("FAKEAGENT_READY_LOG")

try:
    COLS, ROWS = os.get_terminal_size(OUT)
except OSError:
    COLS, ROWS = 120, 40

conversation = []
typed = ""
turns = 0  # shown in the header, as real agents show usage: every answer changes the screen


def write(s):
    data = s.encode()
    while data:
        n = os.write(OUT, data)
        data = data[n:]


def at(row, col=1):
    return "\x1b[%d;%dH" % (row, col)


def clear():
    return "\x1b[H\x1b[2J"


def frame(status):
    """The whole main screen: header, conversation, prompt box, status."""
    out = [clear(), at(1), "\x1b[1mfake agent 1.0\x1b[0m · turn %d" % turns]
    room = ROWS - 8
    for i, line in enumerate(conversation[-room:]):
        out.append(at(3 + i) + line[:COLS])
    out.append(at(ROWS - 4) + "─" * COLS)
    out.append(at(ROWS - 3) + "❯ " + typed)
    out.append(at(ROWS - 2) + "─" * COLS)
    out.append(at(ROWS - 1) + "  " + status)
    out.append(at(ROWS - 3, 3 + len(typed)))
    return "".join(out)


def draw_ready():
    s = frame("? for shortcuts")
    if READY_LOG:
        with open(READY_LOG, "a") as f:
            f.write("%d\n" % time.time_ns())
    write(s)


def read_key(timeout=None):
    r, _, _ = select.select([IN], [], [], timeout)
    if not r:
        return None
    data = os.read(IN, 64)
    if not data:
        sys.exit(0)
    return data.decode(errors="replace")


def menu(title, options, hint, extra=()):
    """A numbered-choice dialog; arrows move, digits or Enter choose."""
    sel = 0
    while True:
        out = [clear(), at(2), title]
        row = 3
        for line in extra:
            out.append(at(row) + line)
            row += 1
        row += 1
        for i, opt in enumerate(options):
            mark = "❯" if i == sel else " "
            out.append(at(row + i) + " %s %d. %s" % (mark, i + 1, opt))
        out.append(at(row + len(options) + 1) + hint)
        out.append("\x1b[?25l")
        write("".join(out))
        key = read_key()
        if key in ("\x1b[A", "\x1bOA"):
            sel = (sel - 1) % len(options)
        elif key in ("\x1b[B", "\x1bOB"):
            sel = (sel + 1) % len(options)
        elif key and key[0].isdigit() and 1 <= int(key[0]) <= len(options):
            sel = int(key[0]) - 1
            break
        elif key and key[0] in "\r\n":
            break
    write("\x1b[?25h")
    return options[sel]


def spin(seconds, label="Thinking…"):
    """Busy: redraw one spinner row in place with save/move/restore."""
    write(frame("esc to interrupt"))
    frames = "✻✶✳✢·"
    end = time.time() + seconds
    i = 0
    while time.time() < end:
        write("\x1b7" + at(ROWS - 6) + "\x1b[2K" + "%s %s (esc to interrupt)" % (frames[i % len(frames)], label) + "\x1b8")
        i += 1
        time.sleep(0.05)


def handle(line):
    global typed, turns
    turns += 1
    if line == "/exit":
        write(clear() + "bye\r\n")
        sys.exit(0)
    if line == "crash":
        write("\r\nfatal: simulated crash\r\n")
        sys.exit(3)
    if line == "/clear":
        conversation.clear()
        return
    conversation.append("> " + line)
    if line == "ask":
        choice = menu("Which approach should we use?", ["Fast", "Safe"], "Enter to select · ↑/↓ to navigate · Esc to cancel")
        conversation.append("answered: " + choice)
        return
    if line == "perm":
        choice = menu("Bash command", ["Yes", "No"], "Esc to cancel", extra=("  rm -rf build", "", "Do you want to proceed?"))
        conversation.append("permission: " + choice)
        return
    if line == "ratelimit":
        write(frame("esc to interrupt") + at(ROWS - 6) + "API Error: rate limit · Retrying in 1s" + at(ROWS - 3, 3))
        time.sleep(1.0)
        conversation.append("recovered")
        return
    spin(3.0 if line == "slow" else WORK)
    conversation.append("done: " + line)


view = "start"


def on_resize(signum, frame_):
    """Like a real TUI: take the new window size and redraw."""
    global COLS, ROWS
    COLS, ROWS = os.get_terminal_size(OUT)
    if view == "prompt":
        write(frame("? for shortcuts"))


def main():
    global typed, view
    signal.signal(signal.SIGWINCH, on_resize)
    old = termios.tcgetattr(IN)
    tty.setraw(IN)
    try:
        write("\x1b[?1049h")
        if FIRST_RUN:
            menu("Choose the text style that looks best with your terminal", ["Dark mode", "Light mode"], "Enter to select")
        draw_ready()
        view = "prompt"
        while True:
            key = read_key()
            if key is None:
                continue
            for ch in key:
                if ch in "\r\n":
                    line, typed = typed, ""
                    view = "working"
                    if line:
                        handle(line)
                    draw_ready()
                    view = "prompt"
                elif ch == "\x7f":
                    typed = typed[:-1]
                    write("\b \b")
                elif ch == "\x03":
                    sys.exit(130)
                elif ch >= " ":
                    typed += ch
                    write(ch)
    finally:
        write("\x1b[?1049l")
        termios.tcsetattr(IN, termios.TCSADRAIN, old)


if __name__ == "__main__":
    main()

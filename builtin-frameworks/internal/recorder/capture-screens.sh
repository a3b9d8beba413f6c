#!/bin/sh
# Records the real screens of agent CLIs in testdata/screens, on a PTY of
# 120x40 with the recorder answering terminal queries and typing each -step
# once the screen shows what it waits for. Each run gets a fresh $HOME, so
# the first-run dialogs show; there is no network, so requests fail the way
# they do offline. Needs the CLIs on PATH:
#   npm i -g @anthropic-ai/claude-code@2.1.197 @openai/codex@0.169.0 \
#     opencode-ai@1.18.33 @google/gemini-cli@0.61.0
# Usage: capture-agents.sh [NAME...]
set -u
cd "$(dirname "$0")/../.."
OUT=testdata/screens
REC=${REC:-/tmp/record}
go build -o "$REC" ./internal/recorder/cmd/record || exit 1

rec() { # name scenario flags... -- command
	name=$1 scenario=$2; shift 2
	rm -rf "$OUT/$name/$scenario"
	"$REC" -out "$OUT/$name/$scenario" -server "$name" -scenario "$scenario" -pty -terminal "$@"
}
want() { [ -z "$ONLY" ] && return 0; for w in $ONLY; do [ "$w" = "$1" ] && return 0; done; return 1; }
ONLY="$*"
set --

if want claude-code; then
# A token that is not a real one: Claude Code then skips its OAuth preflight
# and shows the theme picker, the security notes, the folder trust dialog,
# its prompt, and, for a message, the retries of a request with no network.
rec claude-code first-run -timeout 40s -env ANTHROPIC_AUTH_TOKEN=procs-test-not-a-real-token \
	-step '1s:Choose the text style=>\r' -step '1s:Press Enter to continue=>\r' \
	-step '1s:Yes, I trust this folder=>\r' -step '2s:for shortcuts=>hello' -step '500ms:=>\r' \
	-step '12s:=>/exit' -step '1s:=>\r' -- 'env HOME=$TMP claude'
# Without any credentials, the OAuth preflight fails without network.
rec claude-code offline -expect error -timeout 15s -- 'env HOME=$TMP claude'
fi

# 2.1.330 (on PATH in place of 2.1.197; run as capture-agents.sh
# claude-code-2.1.330): its folder trust dialog defaults to "No, exit", so
# Down picks "Yes, I trust this folder" before Enter.
if [ "$ONLY" = claude-code-2.1.330 ]; then
rec claude-code first-run-2.1.330 -timeout 40s -env ANTHROPIC_AUTH_TOKEN=procs-test-not-a-real-token \
	-step '1s:Choose the text style=>\r' -step '1s:Press Enter to continue=>\r' \
	-step '1s:Yes, I trust this folder=>\x1b[B' -step '1s:❯ Yes, I trust this folder=>\r' \
	-step '2s:shift\+tab to cycle=>hello' -step '500ms:=>\r' \
	-step '12s:=>/exit' -step '1s:=>\r' -- 'env HOME=$TMP claude'
fi

if want codex; then
rec codex sign-in -timeout 40s -step '30s:=>' -- 'env HOME=$TMP codex'
# Codex takes keys followed quickly by Enter for a paste: Enter comes 2s later.
rec codex prompt -timeout 80s -max-bytes 1048576 \
	-setup 'printf sk-procs-test-not-a-real-key | HOME=$TMP codex login --with-api-key' \
	-step '2s:Ask Codex to do anything=>hello' -step '2s:=>\r' -step '15s:=>\x03' \
	-step '2s:=>/quit' -step '2s:=>\r' -- 'env HOME=$TMP codex'
fi

if want opencode; then
rec opencode prompt -timeout 40s -step '2s:ctrl\+p commands=>hello' -step '500ms:=>\r' \
	-step '1s:=>' -step '8s:=>' -step '2s:=>/exit' -step '1s:=>\r' -- 'env HOME=$TMP opencode'
fi

if want gemini-cli; then
rec gemini-cli first-run -timeout 30s -step '2s:Do you trust the files in this folder=>\r' \
	-step '8s:=>' -- 'env HOME=$TMP gemini'
fi

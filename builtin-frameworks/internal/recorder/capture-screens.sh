#!/bin/sh
# Records the real screens of interactive programs (agent CLIs, REPLs,
# shells, psql) in testdata/screens, on a PTY of 120x40 with the recorder
# answering terminal queries and typing each -step once the screen shows
# what it waits for. Each run gets a fresh $HOME, so the first-run dialogs
# show; there is no network, so requests fail the way they do offline.
# Needs the agent CLIs on PATH:
#   npm i -g @anthropic-ai/claude-code@2.1.197 @openai/codex@0.169.0 \
#     opencode-ai@1.18.33 @google/gemini-cli@0.61.0
# and python3, node, bash, dash, zsh, psql and postgres 15 (Debian packages).
# Usage: capture-screens.sh [NAME...]
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

# 2.1.330 and later (on PATH in place of 2.1.197; run as capture-screens.sh
# claude-code-current, recorded as first-run-VERSION): its folder trust
# dialog defaults to "No, exit", so Down picks "Yes, I trust this folder"
# before Enter.
if [ "$ONLY" = claude-code-current ]; then
v=$(claude --version | cut -d' ' -f1)
rec claude-code first-run-$v -timeout 40s -env ANTHROPIC_AUTH_TOKEN=procs-test-not-a-real-token \
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

# 0.171 takes input only once it says idle (OSC 7501), seconds after its
# prompt shows: prompt-0.171.0 types once its footer offers "for agents",
# early-enter-0.171.0 at once, as the 0.169 run did. (Run with TMPDIR=/var/tmp:
# Codex 0.171 warns when its home is under /tmp.)
if want codex-0.171; then
for sc in prompt-0.171.0 early-enter-0.171.0; do
	first='2s:Ask Codex to do anything=>hello'
	[ $sc = prompt-0.171.0 ] && first='30s:for agents=>hello'
	rec codex $sc -timeout 90s -max-bytes 1048576 \
		-setup 'printf sk-procs-test-not-a-real-key | HOME=$TMP codex login --with-api-key' \
		-step "$first" -step '2s:=>\r' -step '15s:=>\x03' \
		-step '2s:=>/quit' -step '2s:=>\r' -- 'env HOME=$TMP codex'
done
fi

if want opencode; then
rec opencode prompt -timeout 40s -step '2s:ctrl\+p commands=>hello' -step '500ms:=>\r' \
	-step '1s:=>' -step '8s:=>' -step '2s:=>/exit' -step '1s:=>\r' -- 'env HOME=$TMP opencode'
fi

if want gemini-cli; then
rec gemini-cli first-run -timeout 30s -step '2s:Do you trust the files in this folder=>\r' \
	-step '8s:=>' -- 'env HOME=$TMP gemini'
fi

# A person's session: a command that takes a while, a question asked by the
# program (input(), read -p), a statement over two lines, an error, then
# leaving. Keys are typed, then Enter 300 ms later, as a person types.
if want python-repl; then
rec python-repl session -timeout 40s \
	-step '1s:^>>>=>import time' -step '300ms:=>\r' \
	-step '1s:=>time.sleep(3)' -step '300ms:=>\r' \
	-step '4s:=>name = input("name? ")' -step '300ms:=>\r' \
	-step '1s:^name\?=>ada' -step '300ms:=>\r' \
	-step '1s:=>for i in range(2):' -step '300ms:=>\r' -step '500ms:=>  print(i)' -step '300ms:=>\r' -step '500ms:=>\r' \
	-step '1s:=>1/0' -step '300ms:=>\r' \
	-step '1s:ZeroDivisionError=>exit()' -step '300ms:=>\r' -- python3
fi

if want node-repl; then
rec node-repl session -timeout 40s \
	-step '1s:^> =>await new Promise(r => setTimeout(r, 3000))' -step '300ms:=>\r' \
	-step '4s:=>function f() {' -step '300ms:=>\r' -step '500ms:=>  return 42' -step '300ms:=>\r' -step '500ms:=>}' -step '300ms:=>\r' \
	-step '1s:=>f()' -step '300ms:=>\r' \
	-step '1s:=>throw new Error("boom")' -step '300ms:=>\r' \
	-step '1s:Uncaught Error: boom=>.exit' -step '300ms:=>\r' -- node
fi

if want interactive-shell; then
for sh in bash dash zsh; do
	cmd="env HOME=\$TMP $sh" read='read -p "name? " n'
	[ $sh = dash ] && cmd='env HOME=$TMP ENV= dash -i'
	[ $sh = zsh ] && read='read "n?name? "'
	rec interactive-shell $sh -timeout 40s \
		-step '1s:[#$%] $=>sleep 3' -step '300ms:=>\r' \
		-step "4s:=>$read" -step '300ms:=>\r' \
		-step '1s:^name\?=>ada' -step '300ms:=>\r' \
		-step '1s:=>ls /nonexistent' -step '300ms:=>\r' \
		-step '1s:No such file=>exit' -step '300ms:=>\r' -- "$cmd"
done
fi

# psql against a postgres started for it, which stops itself after 60 s.
if want psql; then
PGSETUP='/usr/lib/postgresql/15/bin/initdb -D $TMP/data -U postgres >/dev/null 2>&1'
rec psql session -timeout 40s \
	-setup "chown postgres \$TMP && runuser -u postgres -- sh -c '$PGSETUP' && (runuser -u postgres -- timeout 60 /usr/lib/postgresql/15/bin/postgres -D \$TMP/data -p 27231 -k \$TMP -c listen_addresses=127.0.0.1 >/dev/null 2>&1 &) && until pg_isready -q -h 127.0.0.1 -p 27231; do sleep 0.1; done" \
	-step '1s:=# $=>select pg_sleep(3);' -step '300ms:=>\r' \
	-step '4s:=>select 1 +' -step '300ms:=>\r' -step '500ms:-# $=>1;' -step '300ms:=>\r' \
	-step '1s:=>select * from nope;' -step '300ms:=>\r' \
	-step '1s:does not exist=>begin;' -step '300ms:=>\r' \
	-step '1s:\*# $=>rollback;' -step '300ms:=>\r' \
	-step '1s:=>\q' -step '300ms:=>\r' -- "psql -h 127.0.0.1 -p 27231 -U postgres"
fi

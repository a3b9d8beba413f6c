#!/bin/sh
# Records the real captures in testdata/captures. Needs the servers
# installed (see the packages listed in the package README of
# builtin-frameworks) and npm modules in $NPM_DIR (npm i vite@5 express@5
# next@15 react@19 react-dom@19 http-server). Usage: capture-all.sh [NAME...]
set -u
cd "$(dirname "$0")/../.."
OUT=testdata/captures
REC=${REC:-/tmp/record}
NPM_DIR=${NPM_DIR:-/tmp/procs-npm}
go build -o "$REC" ./internal/recorder/cmd/record || exit 1
PYPATH="PATH=/usr/bin:/bin:/usr/sbin:/sbin"

rec() { # name scenario flags... -- command
	name=$1 scenario=$2; shift 2
	rm -rf "$OUT/$name/$scenario"
	"$REC" -out "$OUT/$name/$scenario" -server "$name" -scenario "$scenario" "$@"
}
want() { [ -z "$ONLY" ] && return 0; for w in $ONLY; do [ "$w" = "$1" ] && return 0; done; return 1; }
ONLY="$*"
set --

if want redis; then
rec redis start -port 27101 -ready-line 'Ready to accept' -stop-after 1s -- \
	"redis-server --port 27101 --bind 127.0.0.1 --save '' --appendonly no --dir \$TMP"
rec redis start-pty -pty -port 27102 -ready-line 'Ready to accept' -stop-after 1s -- \
	"redis-server --port 27102 --bind 127.0.0.1 --save '' --appendonly no --dir \$TMP"
rec redis port-in-use -expect error -port 27103 -occupy -- \
	"redis-server --port 27103 --bind 127.0.0.1 --save '' --appendonly no --dir \$TMP"
rec redis bad-config -expect error -port 27104 -- \
	"redis-server --port 27104 --no-such-directive yes"
# Below the banner, ">>> 'the line at fault'" and what is wrong with it,
# in words of its own ("argument couldn't be parsed into an integer").
rec redis bogus-option -expect error -port 27105 -- \
	"redis-server --port 27105 --bogus-option yes"
rec redis bad-value -expect error -port 27106 -- \
	"redis-server --port 27106 --maxmemory lots"
rec redis bad-config-file -expect error -port 27107 -setup 'printf "port 27107\nappendonly maybe\n" > redis.conf' -- \
	"redis-server \$TMP/redis.conf"
fi

if want postgres; then
PGSETUP='/usr/lib/postgresql/15/bin/initdb -D $TMP/data -U postgres >/dev/null'
rec postgres start -user postgres -setup "chown postgres \$TMP && runuser -u postgres -- sh -c '$PGSETUP'" \
	-port 27201 -ready-line 'ready to accept connections' -stop-after 1s -- \
	"/usr/lib/postgresql/15/bin/postgres -D \$TMP/data -p 27201 -k \$TMP -c listen_addresses=127.0.0.1"
rec postgres ipv6-warning -user postgres -setup "chown postgres \$TMP && runuser -u postgres -- sh -c '$PGSETUP'" \
	-port 27202 -ready-line 'ready to accept connections' -stop-after 1s -- \
	"/usr/lib/postgresql/15/bin/postgres -D \$TMP/data -p 27202 -k \$TMP -c 'listen_addresses=127.0.0.1,::1'"
rec postgres port-in-use -expect error -user postgres -setup "chown postgres \$TMP && runuser -u postgres -- sh -c '$PGSETUP'" \
	-port 27203 -occupy -- \
	"/usr/lib/postgresql/15/bin/postgres -D \$TMP/data -p 27203 -k \$TMP -c listen_addresses=127.0.0.1"
# Killed from outside once ready (kill -9, the OOM killer): postgres logs
# on stderr, so its last stderr line is its ready line, no error.
rec postgres killed -user postgres -setup "chown postgres \$TMP && runuser -u postgres -- sh -c '$PGSETUP'" \
	-port 27205 -ready-line 'ready to accept connections' -stop-after 1s -signal KILL -- \
	"/usr/lib/postgresql/15/bin/postgres -D \$TMP/data -p 27205 -k \$TMP -c listen_addresses=127.0.0.1"
rec postgres bad-datadir -expect error -user postgres -port 27204 -- \
	"/usr/lib/postgresql/15/bin/postgres -D \$TMP/nodata -p 27204 -k \$TMP"
fi

if want nginx; then
NGCONF='printf "pid %s/nginx.pid;\nerror_log stderr;\nevents {}\nhttp { access_log off; client_body_temp_path %s; proxy_temp_path %s; fastcgi_temp_path %s; uwsgi_temp_path %s; scgi_temp_path %s; server { listen 127.0.0.1:PORT; return 200 ok; } }\n" $TMP $TMP $TMP $TMP $TMP $TMP > nginx.conf'
rec nginx start -setup "$(echo "$NGCONF" | sed s/PORT/27301/)" -port 27301 -stop-after 1s -signal TERM -- \
	"nginx -p \$TMP -c \$TMP/nginx.conf -g 'daemon off;'"
rec nginx port-in-use -expect error -setup "$(echo "$NGCONF" | sed s/PORT/27302/)" -port 27302 -occupy -timeout 10s -- \
	"nginx -p \$TMP -c \$TMP/nginx.conf -g 'daemon off;'"
rec nginx bad-config -expect error -setup 'echo "events {} http { server { listen 27303; bogus_directive on; } }" > nginx.conf' -port 27303 -- \
	"nginx -p \$TMP -c \$TMP/nginx.conf -g 'daemon off;'"
fi

if want memcached; then
rec memcached start -port 27401 -stop-after 1s -- "memcached -u memcache -l 127.0.0.1 -p 27401"
rec memcached port-in-use -expect error -port 27402 -occupy -- "memcached -u memcache -l 127.0.0.1 -p 27402"
rec memcached bad-args -expect error -port 27403 -- "memcached -u memcache -p 27403 --no-such-flag"
rec memcached root -expect error -port 27404 -- "memcached -l 127.0.0.1 -p 27404"
fi

if want mysql; then
MYSETUP='chmod 777 $TMP && mariadb-install-db --no-defaults --datadir=$TMP/data --user=mysql --auth-root-authentication-method=normal >/dev/null 2>&1'
rec mysql start -user mysql -setup "$MYSETUP" -port 27501 -ready-line 'ready for connections' -stop-after 1s -signal TERM -timeout 60s -- \
	"mariadbd --no-defaults --datadir=\$TMP/data --port=27501 --bind-address=127.0.0.1 --socket=\$TMP/my.sock --pid-file=\$TMP/my.pid"
rec mysql port-in-use -expect error -user mysql -setup "$MYSETUP" -port 27502 -occupy -timeout 60s -- \
	"mariadbd --no-defaults --datadir=\$TMP/data --port=27502 --bind-address=127.0.0.1 --socket=\$TMP/my.sock --pid-file=\$TMP/my.pid"
rec mysql bad-option -expect error -user mysql -setup "$MYSETUP" -port 27503 -- \
	"mariadbd --no-defaults --datadir=\$TMP/data --port=27503 --no-such-option --socket=\$TMP/my.sock"
fi

FLASKAPP='printf "from flask import Flask\napp = Flask(__name__)\n@app.get(\"/\")\ndef index():\n    return \"ok\"\n" > app.py'
if want flask; then
rec flask start -env "$PYPATH" -setup "$FLASKAPP" -port 27601 -ready-line 'Running on' -stop-after 1s -- "flask --app app run --port 27601"
rec flask start-unbuffered -env "$PYPATH" -env PYTHONUNBUFFERED=1 -setup "$FLASKAPP" -port 27602 -ready-line 'Running on' -stop-after 1s -- "flask --app app run --port 27602"
rec flask port-in-use -expect error -env "$PYPATH" -env PYTHONUNBUFFERED=1 -setup "$FLASKAPP" -port 27603 -occupy -- "flask --app app run --port 27603"
rec flask import-error -expect error -env "$PYPATH" -setup 'echo "import no_such_module" > app.py' -port 27604 -- "flask --app app run --port 27604"
fi

if want django; then
DJSETUP='django-admin startproject proj . >/dev/null'
rec django start -env "$PYPATH" -env PYTHONUNBUFFERED=1 -setup "$DJSETUP" -port 27701 -ready-line 'Starting development server' -stop-after 1.5s -timeout 30s -- \
	"python3 manage.py runserver 127.0.0.1:27701"
rec django port-in-use -expect error -env "$PYPATH" -env PYTHONUNBUFFERED=1 -setup "$DJSETUP" -port 27702 -occupy -timeout 30s \
	-notes "Prints 'Starting development server at' (a false ready line), then 'Error: That port is already in use.' 16 ms later." -- \
	"python3 manage.py runserver 127.0.0.1:27702"
rec django bad-settings -expect error -env "$PYPATH" -env PYTHONUNBUFFERED=1 -setup "$DJSETUP && echo 'INSTALLED_APPS += [\"no_such_app\"]' >> proj/settings.py" -port 27703 -timeout 30s \
	-notes "The app fails to load but the autoreloader keeps the process alive: it never exits by itself (stopped by the recorder's timeout); only the error lines tell." -- \
	"python3 manage.py runserver 127.0.0.1:27703"
fi

if want python-http-server; then
rec python-http-server start -env "$PYPATH" -env PYTHONUNBUFFERED=1 -port 27801 -ready-line 'Serving HTTP' -stop-after 1s -- "python3 -m http.server 27801 --bind 127.0.0.1"
rec python-http-server start-buffered -expect hang -env "$PYPATH" -port 27802 -stop-after 1s -notes "No PYTHONUNBUFFERED: under a pipe the Serving HTTP line is block-buffered and only comes out at exit, after the stop signal; the port is open long before. The preset sets PYTHONUNBUFFERED=1." -- "python3 -m http.server 27802 --bind 127.0.0.1"
rec python-http-server port-in-use -expect error -env "$PYPATH" -env PYTHONUNBUFFERED=1 -port 27803 -occupy -- "python3 -m http.server 27803 --bind 127.0.0.1"
fi

if want uvicorn; then
ASGI='printf "from fastapi import FastAPI\napp = FastAPI()\n@app.get(\"/\")\ndef index():\n    return {}\n" > main.py'
rec uvicorn start -env "$PYPATH" -env PYTHONUNBUFFERED=1 -setup "$ASGI" -port 27901 -ready-line 'Uvicorn running on' -stop-after 1s -- "python3 -m uvicorn main:app --port 27901"
rec uvicorn port-in-use -expect error -env "$PYPATH" -env PYTHONUNBUFFERED=1 -setup "$ASGI" -port 27902 -occupy -- "python3 -m uvicorn main:app --port 27902"
rec uvicorn import-error -expect error -env "$PYPATH" -env PYTHONUNBUFFERED=1 -setup "$ASGI" -port 27903 -- "python3 -m uvicorn nosuch:app --port 27903"
fi

if want gunicorn; then
WSGI='printf "def app(environ, start_response):\n    start_response(\"200 OK\", [])\n    return [b\"ok\"]\n" > wsgi.py'
rec gunicorn start -env "$PYPATH" -env PYTHONUNBUFFERED=1 -setup "$WSGI" -port 28001 -ready-line 'Booting worker' -stop-after 1s -signal TERM -- "gunicorn --bind 127.0.0.1:28001 wsgi:app"
rec gunicorn port-in-use -expect error -env "$PYPATH" -env PYTHONUNBUFFERED=1 -setup "$WSGI" -port 28002 -occupy -timeout 15s -- "gunicorn --bind 127.0.0.1:28002 wsgi:app"
rec gunicorn import-error -expect error -env "$PYPATH" -env PYTHONUNBUFFERED=1 -setup "$WSGI" -port 28003 -- "gunicorn --bind 127.0.0.1:28003 nosuch:app"
fi

if want hypercorn; then
# An app that takes 2 s to import, as a real one loading its models or
# settings does: hypercorn binds, and says "Running on", only once it has.
SLOWASGI='printf "import time\ntime.sleep(2)\nasync def app(scope, receive, send):\n    if scope[\"type\"] == \"http\":\n        await send({\"type\": \"http.response.start\", \"status\": 200, \"headers\": []})\n        await send({\"type\": \"http.response.body\", \"body\": b\"ok\"})\n" > main.py'
rec hypercorn slow-start -env "$PYPATH" -env PYTHONUNBUFFERED=1 -setup "$SLOWASGI" -port 29101 -ready-line 'Running on http' -stop-after 1s -- "hypercorn main:app --bind 127.0.0.1:29101"
rec hypercorn port-in-use -expect error -env "$PYPATH" -env PYTHONUNBUFFERED=1 -setup "$SLOWASGI" -port 29102 -occupy -- "hypercorn main:app --bind 127.0.0.1:29102"
rec hypercorn import-error -expect error -env "$PYPATH" -env PYTHONUNBUFFERED=1 -setup 'echo "import no_such_module" > main.py' -port 29103 -- "hypercorn main:app --bind 127.0.0.1:29103"
fi

if want waitress; then
SLOWWSGI='printf "import time\ntime.sleep(2)\ndef app(environ, start_response):\n    start_response(\"200 OK\", [])\n    return [b\"ok\"]\n" > wsgi.py'
rec waitress slow-start -env "$PYPATH" -env PYTHONUNBUFFERED=1 -setup "$SLOWWSGI" -port 29104 -ready-line 'Serving on http' -stop-after 1s -- "waitress-serve --listen=127.0.0.1:29104 wsgi:app"
rec waitress port-in-use -expect error -env "$PYPATH" -env PYTHONUNBUFFERED=1 -setup "$SLOWWSGI" -port 29105 -occupy -- "waitress-serve --listen=127.0.0.1:29105 wsgi:app"
rec waitress import-error -expect error -env "$PYPATH" -env PYTHONUNBUFFERED=1 -setup 'echo "import no_such_module" > wsgi.py' -port 29106 -- "waitress-serve --listen=127.0.0.1:29106 wsgi:app"
fi

if want hugo; then
HUGOSITE='hugo new site s >/dev/null 2>&1 && cp -r s/. . && rm -rf s'
rec hugo start -setup "$HUGOSITE" -port 28101 -ready-line 'Web Server is available' -stop-after 1s -timeout 30s -- "hugo server --port 28101 --bind 127.0.0.1"
rec hugo port-in-use -expect error -setup "$HUGOSITE" -port 28102 -occupy -timeout 30s -- "hugo server --port 28102 --bind 127.0.0.1"
rec hugo bad-config -expect error -setup "$HUGOSITE && echo 'baseURL = [' >> hugo.toml" -port 28103 -timeout 30s -- "hugo server --port 28103 --bind 127.0.0.1"
fi

if want nats; then
rec nats start -port 28201 -ready-line 'Server is ready' -stop-after 1s -- "nats-server -a 127.0.0.1 -p 28201"
rec nats port-in-use -expect error -port 28202 -occupy -- "nats-server -a 127.0.0.1 -p 28202"
rec nats bad-args -expect error -port 28203 -- "nats-server -p 28203 --no-such-flag"
fi

if want caddy; then
rec caddy start -setup 'echo hi > index.html' -env XDG_DATA_HOME=/tmp/caddydata -env XDG_CONFIG_HOME=/tmp/caddyconf -port 28301 -ready-line 'serving static files' -stop-after 1s -- \
	"caddy file-server --listen 127.0.0.1:28301 --root \$TMP"
rec caddy port-in-use -expect error -env XDG_DATA_HOME=/tmp/caddydata -env XDG_CONFIG_HOME=/tmp/caddyconf -port 28302 -occupy -- \
	"caddy file-server --listen 127.0.0.1:28302 --root \$TMP"
rec caddy run-config -setup 'printf "{\n  admin off\n}\n:28304 {\n  respond ok\n}\n" > Caddyfile' -env XDG_DATA_HOME=/tmp/caddydata -env XDG_CONFIG_HOME=/tmp/caddyconf -port 28304 -ready-line 'serving initial configuration' -stop-after 1s -- \
	"caddy run --config \$TMP/Caddyfile --adapter caddyfile"
rec caddy bad-config -expect error -setup 'echo ":28303 { bogus }" > Caddyfile' -env XDG_DATA_HOME=/tmp/caddydata -env XDG_CONFIG_HOME=/tmp/caddyconf -port 28303 -- \
	"caddy run --config \$TMP/Caddyfile --adapter caddyfile"
fi

if want rails; then
RACK='echo "run ->(env) { [200, {}, [\"ok\"]] }" > config.ru'
rec rails puma-start -setup "$RACK" -port 28401 -ready-line 'Listening on' -stop-after 1s -- "puma -b tcp://127.0.0.1:28401 config.ru"
rec rails puma-port-in-use -expect error -setup "$RACK" -port 28402 -occupy -- "puma -b tcp://127.0.0.1:28402 config.ru"
rec rails puma-bad-rackup -expect error -setup 'echo "run NoSuchApp" > config.ru' -port 28403 -- "puma -b tcp://127.0.0.1:28403 config.ru"
fi

if want sinatra; then
SIN='printf "require \"sinatra\"\nset :bind, \"127.0.0.1\"\nget(\"/\") { \"ok\" }\n" > app.rb'
rec sinatra start -setup "$SIN" -port 28501 -ready-line 'Listening on|has taken the stage' -stop-after 1s -- "ruby app.rb -p 28501"
rec sinatra port-in-use -expect error -setup "$SIN" -port 28502 -occupy -- "ruby app.rb -p 28502"
fi

if want jekyll; then
JK='printf "title: t\n" > _config.yml && echo "<p>hi</p>" > index.html'
rec jekyll start -setup "$JK" -port 28601 -ready-line 'Server running' -stop-after 1s -timeout 60s -- "jekyll serve --port 28601 --host 127.0.0.1 --no-watch"
rec jekyll port-in-use -expect error -setup "$JK" -port 28602 -occupy -timeout 60s -- "jekyll serve --port 28602 --host 127.0.0.1 --no-watch"
fi

NODE="ln -s $NPM_DIR/node_modules node_modules"
if want express && [ -d "$NPM_DIR/node_modules/express" ]; then
EXP="$NODE && printf \"const express = require('express');\nconst app = express();\nconst port = process.env.PORT;\napp.get('/', (req, res) => res.send('ok'));\napp.listen(port, () => console.log('Example app listening on port ' + port));\n\" > app.js"
rec express start -setup "$EXP" -env PORT=28701 -port 28701 -ready-line 'listening on port' -stop-after 1s -- "node app.js"
rec express port-in-use -expect error -setup "$EXP" -env PORT=28702 -port 28702 -occupy -- "node app.js"
rec express syntax-error -expect error -setup "$NODE && echo 'const x = ;' > app.js" -env PORT=28703 -port 28703 -- "node app.js"
# node --watch keeps running when the app ends: Express 5 calls listen's
# callback even when the bind failed, the app prints its listening line and
# ends, and the watcher says "Completed running 'app.js'".
rec express watch-start -setup "$EXP" -env PORT=28704 -port 28704 -ready-line 'listening on port' -stop-after 1s -- "node --watch app.js"
rec express watch-port-in-use -expect error -setup "$EXP" -env PORT=28705 -port 28705 -occupy -timeout 3s -- "node --watch app.js"
# The same through npm run dev, with the app as its author wrote it (a
# template literal, PORT with a default) and no port: in procs.yaml: its
# ready line names the port, which must be its tree's to count. The last
# app keeps a timer, so it runs on after its failed bind: only the port
# on its line tells it is not serving.
EXP5="$NODE && printf '%s\n' \"const express = require('express'); const app = express();\" 'const port = process.env.PORT || 3000;' \"app.get('/', (req, res) => res.send('hi'));\" 'app.listen(port, () => console.log(\`Example app listening on port \${port}\`));'"
npmdev() { printf "printf '{\"name\":\"app\",\"version\":\"1.0.0\",\"scripts\":{\"dev\":\"%s\"}}\\\\n' > package.json" "$1"; }
rec express npm-start -setup "$EXP5 > app.js && $(npmdev 'node app.js')" -env PORT=28706 -port 28706 -ready-line 'listening on port' -stop-after 1s -- "npm run dev"
rec express npm-port-in-use -expect error -notes "Express 5 calls listen's callback with the bind error; the app ignores it and prints its listening line, then exits 0 (npm exits about 0.2 s later). Nothing of its tree ever listened on the port." -setup "$EXP5 > app.js && $(npmdev 'node app.js')" -env PORT=28707 -port 28707 -occupy -- "npm run dev"
rec express npm-watch-start -setup "$EXP5 > app.js && $(npmdev 'node --watch app.js')" -env PORT=28708 -port 28708 -ready-line 'listening on port' -stop-after 1s -- "npm run dev"
rec express npm-watch-port-in-use -expect error -notes "Express 5 calls listen's callback with the bind error; the app ignores it, prints its listening line and ends; node --watch says Completed running and waits for an edit. Nothing of its tree ever listened on the port." -setup "$EXP5 > app.js && $(npmdev 'node --watch app.js')" -env PORT=28709 -port 28709 -occupy -timeout 3s -- "npm run dev"
rec express npm-watch-port-in-use-timer -expect error -notes "Express 5 calls listen's callback with the bind error; the app ignores it, prints its listening line and, with a timer of its own, runs on serving nothing: only the port its line names tells." -setup "$EXP5 'setInterval(() => {}, 60 * 1000);' > app.js && $(npmdev 'node --watch app.js')" -env PORT=28710 -port 28710 -occupy -timeout 5s -- "npm run dev"
fi

if want vite && [ -d "$NPM_DIR/node_modules/vite" ]; then
VITE="$NODE && echo '<h1>hi</h1>' > index.html"
rec vite dev -setup "$VITE" -port 28801 -ready-line 'ready in' -stop-after 1s -- "./node_modules/.bin/vite --port 28801 --host 127.0.0.1"
rec vite dev-pty -pty -setup "$VITE" -port 28802 -ready-line 'ready in' -stop-after 1s -- "./node_modules/.bin/vite --port 28802 --host 127.0.0.1"
rec vite port-moved -setup "$VITE" -port 28803 -occupy -ready-line 'ready in' -stop-after 1s \
	-notes 'Port taken: vite says "Port N is in use, trying another one..." and serves on N+1; a healthy start.' -- "./node_modules/.bin/vite --port 28803 --host 127.0.0.1"
rec vite strict-port-in-use -expect error -setup "$VITE" -port 28804 -occupy -- "./node_modules/.bin/vite --port 28804 --host 127.0.0.1 --strictPort"
rec vite bad-config -expect error -setup "$VITE && echo 'export default {' > vite.config.js" -port 28805 -- "./node_modules/.bin/vite --port 28805 --host 127.0.0.1"
fi

# Vite 6 as the e2e fixture has it: VITE6_DIR is a copy of testdata/e2e/vite
# with its node_modules (cp -r it outside the checkout first).
VITE6_DIR=${VITE6_DIR:-/tmp/procs-vite6}
if want vite6 && [ -x "$VITE6_DIR/node_modules/.bin/vite" ]; then
V6="ln -s $VITE6_DIR/node_modules node_modules && cp $VITE6_DIR/package.json $VITE6_DIR/index.html ."
rec vite v6-dev -setup "$V6" -port 28811 -ready-line 'ready in' -stop-after 1s -- "./node_modules/.bin/vite --port 28811 --host 127.0.0.1"
rec vite v6-npm-run-dev -setup "$V6" -port 28812 -ready-line 'ready in' -stop-after 1s -signal TERM \
	-notes 'npm run dev, as procs runs it: npm prints the script line first; SIGTERM to the group, as procs sends.' -- "npm run dev -- --port 28812 --host 127.0.0.1"
rec vite v6-port-moved -setup "$V6" -port 28813 -occupy -ready-line 'ready in' -stop-after 1s \
	-notes 'Port taken: vite 6 says "Port N is in use, trying another one..." and serves on the next free port; a healthy start.' -- "./node_modules/.bin/vite --port 28813 --host 127.0.0.1"
rec vite v6-strict-port-in-use -expect error -setup "$V6" -port 28814 -occupy -- "./node_modules/.bin/vite --port 28814 --host 127.0.0.1 --strictPort"
rec vite v6-bad-config -expect error -setup "$V6 && echo 'export default {' > vite.config.js" -port 28815 -- "./node_modules/.bin/vite --port 28815 --host 127.0.0.1"
rec vite v6-dev-pty -pty -setup "$V6" -port 28816 -ready-line 'ready in' -stop-after 1s -- "./node_modules/.bin/vite --port 28816 --host 127.0.0.1"
fi

# Vite 8 (Rolldown and Oxc): VITE8_DIR holds npm i vite@8 and a package.json
# whose "dev" script is "vite".
VITE8_DIR=${VITE8_DIR:-/tmp/procs-vite8}
if want vite8 && [ -x "$VITE8_DIR/node_modules/.bin/vite" ]; then
V8="ln -s $VITE8_DIR/node_modules node_modules && cp $VITE8_DIR/package.json . && echo '<h1>hi</h1>' > index.html"
rec vite v8-dev -setup "$V8" -port 28821 -ready-line 'ready in' -stop-after 1s -- "./node_modules/.bin/vite --port 28821 --host 127.0.0.1"
rec vite v8-dev-pty -pty -setup "$V8" -port 28822 -ready-line 'ready in' -stop-after 1s -- "./node_modules/.bin/vite --port 28822 --host 127.0.0.1"
rec vite v8-npm-run-dev -setup "$V8" -port 28823 -ready-line 'ready in' -stop-after 1s -signal TERM \
	-notes 'npm run dev, as procs runs it; SIGTERM to the group, as procs sends.' -- "npm run dev -- --port 28823 --host 127.0.0.1"
rec vite v8-port-moved -setup "$V8" -port 28826 -occupy -ready-line 'ready in' -stop-after 1s \
	-notes 'Port taken: vite 8 says "Port N is in use, trying another one..." and serves on the next free port; a healthy start.' -- "./node_modules/.bin/vite --port 28826 --host 127.0.0.1"
rec vite v8-strict-port-in-use -expect error -setup "$V8" -port 28824 -occupy -- "./node_modules/.bin/vite --port 28824 --host 127.0.0.1 --strictPort"
rec vite v8-bad-config -expect error -setup "$V8 && echo 'export default { plugins: [ , }' > vite.config.js" -port 28825 \
	-notes 'Rolldown bundles the config: its Oxc diagnostic "[PARSE_ERROR] Unexpected token" over an excerpt headed "╭─[ vite.config.js:1:N ]".' -- "./node_modules/.bin/vite --port 28825 --host 127.0.0.1"
fi

# Angular CLI 20 (the application builder): ANGULAR_DIR is a project made by
# `npx @angular/cli@20 new ngapp --defaults --skip-git --ssr=false`, installed.
ANGULAR_DIR=${ANGULAR_DIR:-/tmp/procs-angular}
if want angular && [ -x "$ANGULAR_DIR/node_modules/.bin/ng" ]; then
NG="cp -r $ANGULAR_DIR/src $ANGULAR_DIR/public $ANGULAR_DIR/*.json . && cp -al $ANGULAR_DIR/node_modules node_modules"
NGSERVE="./node_modules/.bin/ng serve --host 127.0.0.1 --port"
rec angular start -setup "$NG" -env NG_CLI_ANALYTICS=false -port 28831 -ready-line 'Local:' -stop-after 1s -timeout 90s -- "$NGSERVE 28831"
rec angular port-in-use -expect error -setup "$NG" -env NG_CLI_ANALYTICS=false -port 28832 -occupy -timeout 90s -- "$NGSERVE 28832"
rec angular build-error -expect error -setup "$NG && sed -i \"s/signal('ngapp');/signal('ngapp') +;/\" src/app/app.ts" -env NG_CLI_ANALYTICS=false -port 28833 -timeout 30s \
	-notes 'A first build that fails: ng serve prints the errors, opens no port and waits for an edit (killed at the timeout).' -- "$NGSERVE 28833"
fi

# Bun from npm: BUN_DIR holds npm i bun@1 (its package brings the binary).
BUN_DIR=${BUN_DIR:-/tmp/procs-bun}
if want bun && [ -x "$BUN_DIR/node_modules/.bin/bun" ]; then
BUNSETUP="ln -s $BUN_DIR/node_modules node_modules"
BUNSERVE='const server = Bun.serve({ port: Number(process.env.PORT), hostname: "127.0.0.1", fetch() { return new Response("ok"); } });'
rec bun start -env PORT=29111 -setup "$BUNSETUP && printf '$BUNSERVE\nconsole.log(\"Listening on \" + server.url);\n' > server.ts" -port 29111 -ready-line 'Listening on http' -stop-after 1s -- "./node_modules/.bin/bun run server.ts"
rec bun silent-start -env PORT=29112 -setup "$BUNSETUP && printf '$BUNSERVE\n' > server.ts" -port 29112 -stop-after 1s -- "./node_modules/.bin/bun run server.ts"
rec bun port-in-use -expect error -env PORT=29113 -setup "$BUNSETUP && printf '$BUNSERVE\nconsole.log(\"Listening on \" + server.url);\n' > server.ts" -port 29113 -occupy -- "./node_modules/.bin/bun run server.ts"
rec bun syntax-error -expect error -setup "$BUNSETUP && printf 'const x = ;\n' > server.ts" -port 29114 -- "./node_modules/.bin/bun run server.ts"
fi

# More npm dev servers: NPM2_DIR holds
#   npm i webpack@5 webpack-cli@6 webpack-dev-server@5 astro@5   (astro brings esbuild)
NPM2_DIR=${NPM2_DIR:-/tmp/procs-npm2}
NODE2="ln -s $NPM2_DIR/node_modules node_modules"
if want webpack-dev-server && [ -d "$NPM2_DIR/node_modules/webpack-dev-server" ]; then
WDS="$NODE2 && mkdir src && echo 'console.log(1)' > src/index.js"
WEBPACK="./node_modules/.bin/webpack serve --mode development --host 127.0.0.1 --port"
rec webpack-dev-server start -setup "$WDS" -port 29101 -ready-line 'compiled successfully' -stop-after 1s -timeout 60s -- "$WEBPACK 29101"
rec webpack-dev-server port-in-use -expect error -setup "$WDS" -port 29102 -occupy -timeout 60s -- "$WEBPACK 29102"
rec webpack-dev-server compile-error -expect error -setup "$NODE2 && mkdir src && echo 'const x = ;' > src/index.js" -port 29103 -timeout 15s \
	-notes 'The dev server keeps running after a compile error, waiting for a fix (stopped by the recorder timeout); only the lines tell.' -- "$WEBPACK 29103"
fi

# webpack-dev-server 6: WDS6_DIR holds npm i webpack@5 webpack-cli@7 webpack-dev-server@6.
# It prints "compiled successfully" before it listens.
WDS6_DIR=${WDS6_DIR:-/tmp/procs-wds6}
if want webpack-dev-server6 && [ -d "$WDS6_DIR/node_modules/webpack-dev-server" ]; then
WDS6="ln -s $WDS6_DIR/node_modules node_modules && mkdir src && echo 'console.log(1)' > src/index.js"
WEBPACK="./node_modules/.bin/webpack serve --mode development --host 127.0.0.1 --port"
rec webpack-dev-server v6-start -setup "$WDS6" -port 29104 -ready-line 'compiled successfully' -stop-after 1s -timeout 60s \
	-notes 'webpack-dev-server 6 prints its compiled line some 15 ms before it listens.' -- "$WEBPACK 29104"
rec webpack-dev-server v6-port-in-use -expect error -setup "$WDS6" -port 29105 -occupy -timeout 60s -- "$WEBPACK 29105"
rec webpack-dev-server v6-compile-error -expect error -setup "ln -s $WDS6_DIR/node_modules node_modules && mkdir src && echo 'const x = ;' > src/index.js" -port 29106 -timeout 15s \
	-notes 'The dev server keeps running after a compile error, waiting for a fix (stopped by the recorder timeout); only the lines tell.' -- "$WEBPACK 29106"
fi

if want astro && [ -d "$NPM2_DIR/node_modules/astro" ]; then
ASTRO="$NODE2 && echo '{\"name\":\"site\",\"type\":\"module\"}' > package.json && mkdir -p src/pages && echo '<h1>hi</h1>' > src/pages/index.astro"
AENV="-env ASTRO_TELEMETRY_DISABLED=1"
rec astro start $AENV -setup "$ASTRO" -port 29201 -ready-line 'ready in' -stop-after 1s -timeout 60s -- "./node_modules/.bin/astro dev --port 29201 --host 127.0.0.1"
rec astro port-moved $AENV -setup "$ASTRO" -port 29202 -occupy -ready-line 'ready in' -stop-after 1s -timeout 60s \
	-notes 'Port taken: astro (through vite) says "Port N is in use, trying another one..." and serves on the next one; a healthy start.' -- "./node_modules/.bin/astro dev --port 29202 --host 127.0.0.1"
rec astro bad-config -expect error $AENV -setup "$ASTRO && echo 'export default {' > astro.config.mjs" -port 29203 -timeout 60s -- "./node_modules/.bin/astro dev --port 29203 --host 127.0.0.1"
fi

# SvelteKit: also npm i @sveltejs/kit@2 svelte@5 @sveltejs/vite-plugin-svelte@5 @sveltejs/adapter-auto@6 in NPM2_DIR.
if want sveltekit && [ -d "$NPM2_DIR/node_modules/@sveltejs/kit" ]; then
SK="$NODE2 && echo '{\"type\":\"module\",\"scripts\":{\"dev\":\"vite dev\"},\"devDependencies\":{\"@sveltejs/kit\":\"^2.20.0\",\"vite\":\"^6.2.0\"}}' > package.json && mkdir -p src/routes \
&& printf \"import { sveltekit } from '@sveltejs/kit/vite';\nexport default { plugins: [sveltekit()] };\n\" > vite.config.js \
&& printf '<!doctype html>\n<html><head>%%sveltekit.head%%</head><body>%%sveltekit.body%%</body></html>\n' > src/app.html \
&& echo '<h1>hi</h1>' > src/routes/+page.svelte"
SKCONF="printf \"import adapter from '@sveltejs/adapter-auto';\nexport default { kit: { adapter: adapter() } };\n\" > svelte.config.js"
rec sveltekit dev -setup "$SK && $SKCONF" -port 29401 -ready-line 'ready in' -stop-after 1s -timeout 60s -- "./node_modules/.bin/vite dev --port 29401 --host 127.0.0.1"
rec sveltekit port-moved -setup "$SK && $SKCONF" -port 29402 -occupy -ready-line 'ready in' -stop-after 1s -timeout 60s \
	-notes 'Port taken: vite moves to the next free port; a healthy start.' -- "./node_modules/.bin/vite dev --port 29402 --host 127.0.0.1"
rec sveltekit bad-config -expect error -setup "$SK && echo 'export default {' > svelte.config.js" -port 29403 -timeout 60s -- "./node_modules/.bin/vite dev --port 29403 --host 127.0.0.1"
fi

if want esbuild && [ -x "$NPM2_DIR/node_modules/.bin/esbuild" ]; then
ESB="$NODE2 && echo hi > index.html"
rec esbuild serve-pty -pty -setup "$ESB" -port 29301 -ready-line 'Local:' -stop-after 1s \
	-notes 'On a terminal, as a person runs it. esbuild serve stops when its stdin closes; procs keeps a stdin pipe open.' -- "./node_modules/.bin/esbuild --serve=127.0.0.1:29301 --servedir=."
rec esbuild port-in-use-pty -expect error -pty -setup "$ESB" -port 29302 -occupy -- "./node_modules/.bin/esbuild --serve=127.0.0.1:29302 --servedir=."
rec esbuild stdin-closed -expect error -setup "$ESB" -port 29303 \
	-notes 'stdin is /dev/null: esbuild serve stops at once and exits 0, a failure that exits 0.' -- "./node_modules/.bin/esbuild --serve=127.0.0.1:29303 --servedir=."
fi

if want nextjs && [ -d "$NPM_DIR/node_modules/next" ]; then
NEXT="$NODE && mkdir -p app && printf \"export default function Page() { return <p>hi</p> }\n\" > app/page.js && printf \"export default function Layout({children}) { return <html><body>{children}</body></html> }\n\" > app/layout.js"
rec nextjs dev -setup "$NEXT" -env NEXT_TELEMETRY_DISABLED=1 -port 28901 -ready-line 'Ready in' -stop-after 5s -timeout 60s -- "./node_modules/.bin/next dev --port 28901"
rec nextjs port-in-use -expect error -setup "$NEXT" -env NEXT_TELEMETRY_DISABLED=1 -port 28902 -occupy -timeout 60s -- "./node_modules/.bin/next dev --port 28902"
fi

# Next.js 16 (Turbopack by default): NEXT16_DIR holds npm i next@16 react@19 react-dom@19
# (hard-linked, not a symlink: Turbopack compiles nothing outside its workspace root).
NEXT16_DIR=${NEXT16_DIR:-/tmp/procs-next16}
if want next16 && [ -d "$NEXT16_DIR/node_modules/next" ]; then
NEXT16="cp -al $NEXT16_DIR/node_modules node_modules && mkdir -p app && printf \"export default function Page() { return <p>hi</p> }\n\" > app/page.js && printf \"export default function Layout({children}) { return <html><body>{children}</body></html> }\n\" > app/layout.js"
rec nextjs v16-dev -setup "$NEXT16" -env NEXT_TELEMETRY_DISABLED=1 -port 28903 -ready-line 'Ready in' -stop-after 5s -timeout 60s -- "./node_modules/.bin/next dev --port 28903"
rec nextjs v16-port-in-use -expect error -setup "$NEXT16" -env NEXT_TELEMETRY_DISABLED=1 -port 28904 -occupy -timeout 60s -- "./node_modules/.bin/next dev --port 28904"
fi

# Create React App: CRA_DIR is a project made by npx create-react-app@5 (react-scripts 5,
# webpack 5, webpack-dev-server 4); its node_modules hard-linked, as react-scripts
# resolves its loaders from the project.
CRA_DIR=${CRA_DIR:-/tmp/procs-cra}
if want create-react-app && [ -d "$CRA_DIR/node_modules/react-scripts" ]; then
CRA="cp -al $CRA_DIR/node_modules node_modules && cp -r $CRA_DIR/package.json $CRA_DIR/public $CRA_DIR/src ."
CENV="-env BROWSER=none -env CI=false"
rec create-react-app start $CENV -env PORT=29501 -setup "$CRA" -port 29501 -ready-line 'Compiled successfully' -stop-after 1s -timeout 120s -- "./node_modules/.bin/react-scripts start"
rec create-react-app start-pty -pty $CENV -env PORT=29502 -setup "$CRA" -port 29502 -ready-line 'Compiled successfully' -stop-after 1s -timeout 120s -- "./node_modules/.bin/react-scripts start"
rec create-react-app port-in-use -expect error $CENV -env PORT=29503 -setup "$CRA" -port 29503 -occupy -timeout 60s \
	-notes 'Not on a terminal, react-scripts says "Something is already running on port N." and exits 0.' -- "./node_modules/.bin/react-scripts start"
rec create-react-app port-in-use-pty -pty -expect error $CENV -env PORT=29504 -setup "$CRA" -port 29504 -occupy -timeout 20s \
	-notes 'On a terminal, react-scripts asks "Would you like to run the app on another port instead?" and waits for an answer (stopped by the recorder timeout).' -- "./node_modules/.bin/react-scripts start"
rec create-react-app compile-error -expect error $CENV -env PORT=29505 -setup "$CRA && sed -i 's/<p>/<p>{ x = ; }/' src/App.js" -port 29505 -timeout 60s \
	-notes 'The dev server keeps running after "Failed to compile.", waiting for a fix (stopped by the recorder timeout); only the lines tell.' -- "./node_modules/.bin/react-scripts start"
rec create-react-app lint-error -expect error $CENV -env PORT=29507 -setup "$CRA && sed -i 's/function App() {/function App() { foo();/' src/App.js" -port 29507 -timeout 60s \
	-notes 'ESLint fails the build ("no-undef"): "Failed to compile." over "[eslint]", the file, and "Line N:M:  message  rule" (stopped by the recorder timeout).' -- "./node_modules/.bin/react-scripts start"
rec create-react-app missing-import -expect error $CENV -env PORT=29506 -setup "$CRA && echo \"import x from './nope';\" >> src/index.js" -port 29506 -timeout 60s \
	-notes 'An import of a file that is not there: webpack heads its error with the place in what babel-loader made of the file (line 26 of 18).' -- "./node_modules/.bin/react-scripts start"
fi

# Gatsby 5: GATSBY_DIR holds npm i --ignore-scripts gatsby@5 react@18 react-dom@18
# (sharp's install script downloads from GitHub; the dev server does not need it).
GATSBY_DIR=${GATSBY_DIR:-/tmp/procs-gatsby}
if want gatsby && [ -d "$GATSBY_DIR/node_modules/gatsby" ]; then
GPAGE='import * as React from "react"; export default function Index() { return <h1>hi</h1> }'
GATSBY="ln -s $GATSBY_DIR/node_modules node_modules && echo '{\"name\":\"site\",\"private\":true,\"dependencies\":{\"gatsby\":\"^5\"}}' > package.json \
&& mkdir -p src/pages && echo '$GPAGE' > src/pages/index.js && echo 'module.exports = {}' > gatsby-config.js"
GENV="-env GATSBY_TELEMETRY_DISABLED=1"
rec gatsby develop $GENV -setup "$GATSBY" -port 29601 -ready-line 'You can now view' -stop-after 1s -timeout 180s \
	-notes 'gatsby develop listens and says "You can now view" before its first bundle; requests wait for the bundle.' -- "./node_modules/.bin/gatsby develop --port 29601 --host 127.0.0.1"
rec gatsby not-a-site -expect error $GENV -setup "ln -s $GATSBY_DIR/node_modules node_modules" -timeout 60s \
	-notes 'A folder with no package.json naming gatsby: its help, then "gatsby <develop> can only be run for a gatsby site."' -- "./node_modules/.bin/gatsby develop --port 29605 --host 127.0.0.1"
rec gatsby port-in-use -expect error $GENV -setup "$GATSBY" -port 29602 -occupy -timeout 120s -- "./node_modules/.bin/gatsby develop --port 29602 --host 127.0.0.1"
rec gatsby build-error -expect error $GENV -setup "$GATSBY && echo 'const x = ;' >> src/pages/index.js" -port 29603 -timeout 120s \
	-notes 'The first bundle fails: gatsby 5 says " ERROR  UNKNOWN" over babel-loader'"'"'s error, then "not finished Building development bundle", and exits 1.' -- "./node_modules/.bin/gatsby develop --port 29603 --host 127.0.0.1"
fi

# MinIO built from its source by the Go module proxy (GOBIN=DIR go install
# github.com/minio/minio@latest; it is in no Debian or npm package): MINIO
# names the binary.
MINIO=${MINIO:-minio}
if want minio && command -v "$MINIO" >/dev/null; then
CONSOLE="--console-address 127.0.0.1"
rec minio start -port 29801 -ready-line '^API: ' -stop-after 1s -timeout 60s \
	-- "$MINIO server \$TMP/data --address 127.0.0.1:29801 $CONSOLE:29811"
rec minio port-in-use -expect error -port 29802 -occupy -timeout 30s \
	-- "$MINIO server \$TMP/data --address 127.0.0.1:29802 $CONSOLE:29812"
rec minio drive-not-a-directory -expect error -port 29803 -setup 'touch drive' -timeout 30s \
	-- "$MINIO server \$TMP/drive --address 127.0.0.1:29803 $CONSOLE:29813"
rec minio password-without-user -expect error -env MINIO_ROOT_PASSWORD=secret123 -port 29804 -timeout 30s \
	-- "$MINIO server \$TMP/data --address 127.0.0.1:29804 $CONSOLE:29814"
fi

# Eleventy 3 (npm i @11ty/eleventy@3 in ELEVENTY_DIR), a site of one page.
ELEVENTY_DIR=${ELEVENTY_DIR:-/tmp/procs-eleventy}
if want eleventy && [ -d "$ELEVENTY_DIR/node_modules/@11ty/eleventy" ]; then
SITE="ln -s $ELEVENTY_DIR/node_modules node_modules && printf -- '---\\ntitle: Hi\\n---\\n# Hello {{ title }}\\n' > index.md"
rec eleventy start -setup "$SITE" -port 29901 -ready-line 'Server at' -stop-after 1s -timeout 60s \
	-- "./node_modules/.bin/eleventy --serve --port 29901"
# Not port-in-use: its dev server takes the next port when the one asked
# for is held, and says so in its Server at line; procs checks a port set
# in procs.yaml free before the start.
rec eleventy bad-template -expect error -setup "$SITE && printf -- '---\\ntitle: Hi\\n---\\n# Hello {{ title }\\n' > index.md" -port 29904 -timeout 60s \
	-- "./node_modules/.bin/eleventy --serve --port 29904"
fi

# Wrangler 4 (npm i wrangler@4 in WRANGLER_DIR; its workerd comes as an npm
# package), a worker of one file. Offline, as here, it says it cannot fetch
# the Request.cf object, with a stack, and goes on.
WRANGLER_DIR=${WRANGLER_DIR:-/tmp/procs-wrangler}
if want wrangler && [ -x "$WRANGLER_DIR/node_modules/.bin/wrangler" ]; then
WORKER="ln -s $WRANGLER_DIR/node_modules node_modules && mkdir src && printf 'name = \"hello\"\\nmain = \"src/index.js\"\\ncompatibility_date = \"2025-01-01\"\\n' > wrangler.toml"
GOOD="printf 'export default { async fetch() { return new Response(\"hello\"); } };\\n' > src/index.js"
rec wrangler start -setup "$WORKER && $GOOD" -port 29921 -ready-line 'Ready on' -stop-after 1s -timeout 90s \
	-- "./node_modules/.bin/wrangler dev --port 29921 --ip 127.0.0.1"
rec wrangler port-in-use -expect error -setup "$WORKER && $GOOD" -port 29922 -occupy -timeout 90s \
	-- "./node_modules/.bin/wrangler dev --port 29922 --ip 127.0.0.1"
rec wrangler build-error -expect error -setup "$WORKER && printf 'export default { async fetch() { return new Response(\"hello\") } ;\\n' > src/index.js" -port 29923 -timeout 90s \
	-- "./node_modules/.bin/wrangler dev --port 29923 --ip 127.0.0.1"
fi

# Docusaurus 3 (npm i @docusaurus/core@3 @docusaurus/preset-classic@3
# react@19 react-dom@19 in DOCUSAURUS_DIR), a site of one page.
DOCUSAURUS_DIR=${DOCUSAURUS_DIR:-/tmp/procs-docusaurus}
if want docusaurus && [ -x "$DOCUSAURUS_DIR/node_modules/.bin/docusaurus" ]; then
# Its webpack cache in node_modules/.cache outlives a site: each starts
# without it.
DOCS="rm -rf $DOCUSAURUS_DIR/node_modules/.cache && ln -s $DOCUSAURUS_DIR/node_modules node_modules && echo '{\"name\":\"site\",\"private\":true}' > package.json && mkdir docs \
&& echo \"module.exports = { title: 'Site', url: 'http://localhost', baseUrl: '/', presets: [['classic', { docs: { routeBasePath: '/' }, blog: false }]] };\" > docusaurus.config.js"
PAGE="printf -- '---\\nslug: /\\n---\\n# Hello\\n' > docs/intro.md"
rec docusaurus start -setup "$DOCS && $PAGE" -port 29931 -ready-line 'Compiled successfully' -stop-after 1s -timeout 180s \
	-- "./node_modules/.bin/docusaurus start --port 29931 --host 127.0.0.1 --no-open"
rec docusaurus port-in-use -expect error -setup "$DOCS && $PAGE" -port 29932 -occupy -timeout 60s \
	-- "./node_modules/.bin/docusaurus start --port 29932 --host 127.0.0.1 --no-open"
rec docusaurus mdx-error -expect error -setup "$DOCS && printf -- '---\\nslug: /\\n---\\n# Hello\\n\\n<Foo\\n' > docs/intro.md" -port 29933 -timeout 90s \
	-- "./node_modules/.bin/docusaurus start --port 29933 --host 127.0.0.1 --no-open"
fi

# Storybook 8.6 (react-vite): SB_DIR holds npm i --ignore-scripts storybook@8.6
# @storybook/react-vite@8.6 @storybook/react@8.6 react@18 react-dom@18 vite@6.
SB_DIR=${SB_DIR:-/tmp/procs-storybook}
if want storybook && [ -d "$SB_DIR/node_modules/storybook" ]; then
SB="ln -s $SB_DIR/node_modules node_modules && echo '{\"name\":\"sb\",\"private\":true,\"type\":\"module\"}' > package.json \
&& mkdir -p .storybook src && echo \"export default { stories: ['../src/*.stories.jsx'], framework: { name: '@storybook/react-vite', options: {} } };\" > .storybook/main.js \
&& echo 'export const Button = ({ label }) => <button>{label}</button>;' > src/Button.jsx \
&& echo \"import { Button } from './Button'; export default { component: Button }; export const Primary = { args: { label: 'Hi' } };\" > src/Button.stories.jsx"
SENV="-env STORYBOOK_DISABLE_TELEMETRY=1"
rec storybook start $SENV -setup "$SB" -port 29701 -ready-line 'Storybook .* started' -stop-after 1s -timeout 120s \
	-- "./node_modules/.bin/storybook dev -p 29701 --host 127.0.0.1"
rec storybook port-in-use -expect error $SENV -setup "$SB" -port 29702 -occupy -timeout 60s \
	-notes 'With no terminal to ask on, "Port N is not available. Would you like to run Storybook on port N+1 instead?" and exit 0.' \
	-- "./node_modules/.bin/storybook dev -p 29702 --host 127.0.0.1"
rec storybook bad-config -expect error $SENV -setup "$SB && echo 'export const = 1;' >> .storybook/main.js" -timeout 60s \
	-notes 'A syntax error in .storybook/main.js: MainFileEvaluationError over esbuild'"'"'s error, "WARN Broken build, fix the error above.", exit 1.' \
	-- "./node_modules/.bin/storybook dev -p 29703 --host 127.0.0.1"
fi

if want http-server && [ -d "$NPM_DIR/node_modules/http-server" ]; then
rec http-server start -setup "$NODE && echo hi > index.html" -port 29001 -ready-line 'Available on' -stop-after 1s -- "./node_modules/.bin/http-server -p 29001 -a 127.0.0.1"
rec http-server port-in-use -expect error -setup "$NODE" -port 29002 -occupy -- "./node_modules/.bin/http-server -p 29002 -a 127.0.0.1"
fi

# Clients that connect while a server starts (issue 13, item 5): a client
# loop runs beside the server, its output to /dev/null. Timing decides
# whether a client lands in the start-up window: re-run until the capture
# shows the lines (postgres: "FATAL:  the database system is starting up").
PGCLIENTS='printf "import time, psycopg2\nend = time.time() + 20\nwhile time.time() < end:\n    try:\n        c = psycopg2.connect(host=\"127.0.0.1\", port=PORT, user=\"postgres\", dbname=\"postgres\", connect_timeout=2)\n    except psycopg2.OperationalError:\n        time.sleep(0.005)\n        continue\n    c.close()\n    break\n" > clients.py'
if want postgres; then
PGSETUP='/usr/lib/postgresql/15/bin/initdb -D $TMP/data -U postgres >/dev/null 2>&1'
rec postgres clients-during-start -user postgres -setup "chown postgres \$TMP && runuser -u postgres -- sh -c '$PGSETUP' && $(echo "$PGCLIENTS" | sed s/PORT/27211/)" \
	-port 27211 -ready-line 'ready to accept connections' -stop-after 1s -- \
	"/usr/bin/python3 clients.py >/dev/null 2>&1 & exec /usr/lib/postgresql/15/bin/postgres -D \$TMP/data -p 27211 -k \$TMP -c listen_addresses=127.0.0.1"
PGCRASH="$PGSETUP"' && (/usr/lib/postgresql/15/bin/postgres -D $TMP/data -p 27214 -k $TMP -c listen_addresses=127.0.0.1 >/dev/null 2>&1 &) && until pg_isready -q -h 127.0.0.1 -p 27214; do sleep 0.1; done && psql -q -h 127.0.0.1 -p 27214 -U postgres -c "create table t as select generate_series(1,200000) n" && kill -9 $(head -1 $TMP/data/postmaster.pid) && sleep 0.5'
rec postgres clients-during-recovery -user postgres -setup "chown postgres \$TMP && runuser -u postgres -- sh -c '$PGCRASH' && $(echo "$PGCLIENTS" | sed s/PORT/27214/)" \
	-ready-line 'ready to accept connections' -stop-after 1s -timeout 30s -- \
	"/usr/bin/python3 clients.py >/dev/null 2>&1 & exec /usr/lib/postgresql/15/bin/postgres -D \$TMP/data -p 27214 -k \$TMP -c listen_addresses=127.0.0.1"
rec postgres as-root -expect error -port 27215 -- "/usr/lib/postgresql/15/bin/postgres -D \$TMP/data -p 27215 -k \$TMP"
fi
if want mysql; then
TCPCLIENTS='printf "import socket, time\nend = time.time() + 20\nn = 0\nwhile time.time() < end and n < 40:\n    try:\n        s = socket.create_connection((\"127.0.0.1\", 27511), timeout=1)\n        s.close()\n        n += 1\n    except OSError:\n        pass\n    time.sleep(0.01)\n" > clients.py'
rec mysql clients-during-start -user mysql -setup "$MYSETUP && $TCPCLIENTS" -ready-line 'ready for connections' -stop-after 1s -signal TERM -timeout 60s -- \
	"/usr/bin/python3 clients.py >/dev/null 2>&1 & exec mariadbd --no-defaults --datadir=\$TMP/data --port=27511 --bind-address=127.0.0.1 --socket=\$TMP/my.sock --pid-file=\$TMP/my.pid"
fi
HTTPCLIENTS='printf "import time, urllib.request, urllib.error\nend = time.time() + 20\nn = 0\nwhile time.time() < end and n < 10:\n    try:\n        urllib.request.urlopen(\"http://127.0.0.1:PORT/health\", timeout=1)\n        n += 1\n    except urllib.error.HTTPError:\n        n += 1\n    except OSError:\n        pass\n    time.sleep(0.02)\n" > clients.py'
if want flask; then
rec flask clients-during-start -env "$PYPATH" -env PYTHONUNBUFFERED=1 -setup "$FLASKAPP && $(echo "$HTTPCLIENTS" | sed s/PORT/27611/)" -port 27611 -ready-line 'Running on' -stop-after 1s -- \
	"python3 clients.py >/dev/null 2>&1 & exec flask --app app run --port 27611"
fi

# Python programs (the python preset), workers and their brokers.
if want python; then
PYOPTS="-env $PYPATH -env PYTHONUNBUFFERED=1"
rec python import-error -expect error $PYOPTS -port 27621 -setup 'printf "import os\nimport no_such_module\n" > app.py' -- "python3 app.py"
rec python syntax-error -expect error $PYOPTS -port 27622 -setup 'printf "import os\ndef handler(:\n    pass\n" > app.py' -- "python3 app.py"
rec python flask-app-run $PYOPTS -port 27623 -ready-line 'Running on' -stop-after 1s -setup 'printf "from flask import Flask\napp = Flask(__name__)\n@app.get(\"/\")\ndef index():\n    return \"ok\"\nif __name__ == \"__main__\":\n    app.run(port=27623)\n" > app.py' -- "python3 app.py"
rec python silent-server $PYOPTS -port 27624 -stop-after 1s -setup 'printf "import socketserver, http.server\nsocketserver.TCPServer((\"127.0.0.1\", 27624), http.server.SimpleHTTPRequestHandler).serve_forever()\n" > srv.py' -- "python3 srv.py"
rec python port-in-use -expect error $PYOPTS -port 27625 -occupy -setup 'printf "from flask import Flask\napp = Flask(__name__)\nif __name__ == \"__main__\":\n    app.run(port=27625)\n" > app.py' -- "python3 app.py"
fi
if want go; then
# Small Go programs (internal/recorder/testdata/go) run with go run, as a
# developer does: the build is part of the start.
GOAPPS="$PWD/internal/recorder/testdata/go"
GOENV="-env GOTOOLCHAIN=local -env GOFLAGS=-mod=mod -env GOPROXY=off"
rec go start $GOENV -env PORT=27731 -setup "cp $GOAPPS/server/* ." -port 27731 -ready-line 'listening on' -stop-after 1s -timeout 60s -- "go run ."
rec go port-in-use -expect error $GOENV -env PORT=27732 -setup "cp $GOAPPS/server/* ." -port 27732 -occupy -timeout 60s -- "go run ."
rec go compile-error -expect error $GOENV -setup "cp $GOAPPS/compile-error/* ." -port 27733 -timeout 60s -- "go run ."
rec go panic -expect error $GOENV -setup "cp $GOAPPS/panic/* ." -port 27734 -timeout 60s -- "go run ."
rec go fatal -expect error $GOENV -setup "cp $GOAPPS/fatal/* ." -port 27735 -timeout 60s -- "go run ."
# Gin and Echo need their modules in the module cache (go mod download in
# testdata/go/gin and testdata/go/echo, once, with the module proxy).
rec go gin-start $GOENV -env PORT=27736 -setup "cp $GOAPPS/gin/* ." -port 27736 -ready-line 'Listening and serving' -stop-after 1s -timeout 90s -- "go run ."
rec go gin-port-in-use -expect error $GOENV -env PORT=27737 -setup "cp $GOAPPS/gin/* ." -port 27737 -occupy -timeout 90s -- "go run ."
rec go echo-start $GOENV -env PORT=27738 -setup "cp $GOAPPS/echo/* ." -port 27738 -ready-line 'http server started' -stop-after 1s -timeout 90s -- "go run ."
# air (go install github.com/air-verse/air@v1.67.4) rebuilds and reruns on
# an edit; a build that fails at the start leaves it waiting for one.
AIRENV="-env PATH=$HOME/go/bin:/usr/local/go/bin:/usr/bin:/bin"
rec go air-start $GOENV $AIRENV -env PORT=27741 -setup "cp $GOAPPS/server/* ." -port 27741 -ready-line 'listening on' -stop-after 1s -timeout 60s -- "air"
rec go air-build-error -expect error $GOENV $AIRENV -setup "cp $GOAPPS/compile-error/* ." -port 27742 -timeout 15s -- "air"
rec go echo-port-in-use -expect error $GOENV -env PORT=27739 -setup "cp $GOAPPS/echo/* ." -port 27739 -occupy -timeout 90s -- "go run ."
fi
if want celery; then
TASKS='printf "from celery import Celery\napp = Celery(\"tasks\", broker=\"redis://127.0.0.1:PORT/0\")\n@app.task\ndef add(x, y):\n    return x + y\n" > tasks.py'
rec celery start -env "$PYPATH" -env PYTHONUNBUFFERED=1 -setup "$(echo "$TASKS" | sed s/PORT/27711/)" -ready-line 'Connected to' -stop-after 2s -timeout 60s -- \
	"redis-server --port 27711 --bind 127.0.0.1 --save '' --appendonly no --dir \$TMP >/dev/null & exec python3 -m celery -A tasks worker --loglevel=INFO"
rec celery no-broker -expect not-ready -env "$PYPATH" -env PYTHONUNBUFFERED=1 -setup "$(echo "$TASKS" | sed s/PORT/27712/)" -timeout 25s -- "python3 -m celery -A tasks worker --loglevel=INFO"
rec celery broker-later -env "$PYPATH" -env PYTHONUNBUFFERED=1 -setup "$(echo "$TASKS" | sed s/PORT/27713/) && printf 'sleep 15\nexec redis-server --port 27713 --bind 127.0.0.1 --save \"\" --appendonly no --dir \$TMP >/dev/null\n' > broker.sh" \
	-ready-line 'Connected to' -stop-after 2s -timeout 60s -- "sh broker.sh & exec python3 -m celery -A tasks worker --loglevel=INFO"
rec celery bad-app -expect error -env "$PYPATH" -env PYTHONUNBUFFERED=1 -timeout 30s -- "python3 -m celery -A nosuch worker --loglevel=INFO"
fi
if want rq; then
rec rq start -env "$PYPATH" -env PYTHONUNBUFFERED=1 -ready-line 'Listening on' -stop-after 1s -timeout 30s -- \
	"redis-server --port 27721 --bind 127.0.0.1 --save '' --appendonly no --dir \$TMP >/dev/null & sleep 0.3; exec rq worker --url redis://127.0.0.1:27721"
rec rq no-redis -expect error -env "$PYPATH" -env PYTHONUNBUFFERED=1 -timeout 30s -- "rq worker --url redis://127.0.0.1:27722"
fi
if want sidekiq; then
SKW='printf "require \"sidekiq\"\nSidekiq.configure_server { |c| c.redis = { url: ENV[\"REDIS_URL\"] } }\nclass HardJob\n  include Sidekiq::Worker\n  def perform(x); end\nend\n" > worker.rb'
rec sidekiq start-pty -pty -setup "$SKW" -ready-line 'Starting processing' -stop-after 1s -timeout 40s -- \
	"redis-server --port 27731 --bind 127.0.0.1 --save '' --appendonly no --dir \$TMP >/dev/null & sleep 0.3; REDIS_URL=redis://127.0.0.1:27731/0 exec sidekiq -r ./worker.rb"
rec sidekiq no-redis -expect error -env REDIS_URL=redis://127.0.0.1:27732/0 -setup "$SKW" -timeout 40s -- "sidekiq -r ./worker.rb"
fi
if want etcd; then
ETCD='etcd --data-dir $TMP/d --listen-client-urls http://127.0.0.1:PORT --advertise-client-urls http://127.0.0.1:PORT --listen-peer-urls http://127.0.0.1:PEER'
rec etcd start -port 27811 -ready-line 'ready to serve client requests' -stop-after 1s -- "$(echo "$ETCD" | sed 's/PORT/27811/g; s/PEER/27812/')"
rec etcd port-in-use -expect error -port 27813 -occupy -- "$(echo "$ETCD" | sed 's/PORT/27813/g; s/PEER/27814/')"
rec etcd bad-flag -expect error -port 27815 -- "$(echo "$ETCD" | sed 's/PORT/27815/g; s/PEER/27816/') --no-such-flag"
fi
if want rabbitmq; then
# The temp dir stays root-only: the node (user rabbitmq) cannot read it.
RENV='env HOME=$TMP RABBITMQ_MNESIA_BASE=$TMP/mnesia RABBITMQ_LOG_BASE=$TMP/log RABBITMQ_LOGS=- RABBITMQ_NODE_PORT=27843 RABBITMQ_DIST_PORT=27844 RABBITMQ_NODENAME=rabbit27843@localhost RABBITMQ_ENABLED_PLUGINS_FILE=$TMP/plugins RABBITMQ_PID_FILE=$TMP/pid RABBITMQ_FEATURE_FLAGS_FILE=$TMP/feature_flags ERL_EPMD_PORT=27833'
rec rabbitmq unreadable-dir -expect error -setup 'echo "[]." > plugins' -port 27843 -timeout 90s -- "$RENV rabbitmq-server"
# Handed to rabbitmq, the node can read its files. Run as root, Debian's
# wrapper runs the node through su in a session of its own, which the stop
# signal to the process group does not reach: stop the node (beam.smp) by
# hand once the capture has its ready line.
RENV2=$(echo "$RENV" | sed 's/2784\([345]\)/2785\1/g; s/27833/27855/')
rec rabbitmq start -setup 'echo "[]." > plugins && chown -R rabbitmq .' -port 27853 -ready-line 'Server startup complete' -stop-after 1s -timeout 150s -- "$RENV2 rabbitmq-server"
fi
if want tomcat; then
# Debian's tomcat10 in a base of its own; no tomcat-users.xml, as in a
# fresh base, which Tomcat reports SEVERE and goes on.
TCBASE='mkdir -p base/conf base/logs base/temp base/webapps/ROOT base/work && cp /etc/tomcat10/server.xml /etc/tomcat10/web.xml /etc/tomcat10/logging.properties /etc/tomcat10/context.xml /etc/tomcat10/catalina.properties base/conf/ && echo hi > base/webapps/ROOT/index.html && sed -i "s/port=\"8080\"/port=\"PORT\"/; s/port=\"8005\"/port=\"-1\"/" base/conf/server.xml'
rec tomcat start -ready-line 'Server startup in' -stop-after 1.5s -signal TERM -timeout 90s -env CATALINA_BASE=base \
	-setup "$(echo "$TCBASE" | sed s/PORT/27911/)" -- '/usr/share/tomcat10/bin/catalina.sh run'
rec tomcat port-in-use -expect error -port 27912 -occupy -timeout 60s -env CATALINA_BASE=base \
	-setup "$(echo "$TCBASE" | sed s/PORT/27912/)" -- '/usr/share/tomcat10/bin/catalina.sh run'
fi
if want nestjs; then
# A minimal NestJS 10 app in $NPM_DIR/nest (npm i @nestjs/core@10
# @nestjs/common@10 @nestjs/platform-express@10 reflect-metadata rxjs tsx
# typescript; src/main.ts with one controller, listening on PORT), run by
# tsx. Nest logs "successfully started" before it binds.
NESTSETUP="cp -r $NPM_DIR/nest/src $NPM_DIR/nest/package.json $NPM_DIR/nest/tsconfig.json . && ln -s $NPM_DIR/nest/node_modules node_modules"
rec nestjs start -env PORT=27921 -setup "$NESTSETUP" -port 27921 -ready-line 'successfully started' -stop-after 1s -timeout 60s -- 'node_modules/.bin/tsx src/main.ts'
rec nestjs port-in-use -expect error -env PORT=27922 -setup "$NESTSETUP" -port 27922 -occupy -timeout 60s -- 'node_modules/.bin/tsx src/main.ts'
fi
if want parcel; then
# Parcel 2 in $NPM_DIR/parcel (npm i parcel@2), serving src/index.html and
# its src/app.js; a package.json with "main" is a library target, which
# parcel serve refuses.
PARCELSETUP="mkdir src && printf '<!doctype html><script type=\"module\" src=\"app.js\"></script>\n' > src/index.html && ln -s $NPM_DIR/parcel/node_modules node_modules && echo '{\"name\": \"web\"}' > package.json"
rec parcel start -setup "$PARCELSETUP && echo 'console.log(1)' > src/app.js" -port 27951 -ready-line 'Server running at' -stop-after 1.5s -timeout 90s -- 'node_modules/.bin/parcel serve src/index.html --port 27951'
rec parcel port-in-use -expect error -setup "$PARCELSETUP && echo 'console.log(1)' > src/app.js" -port 27952 -occupy -timeout 60s -- 'node_modules/.bin/parcel serve src/index.html --port 27952'
rec parcel syntax-error -expect error -setup "$PARCELSETUP && printf 'console.log(1\nlet x = ;\n' > src/app.js" -port 27953 -timeout 30s -- 'node_modules/.bin/parcel serve src/index.html --port 27953'
rec parcel library-target -expect error -setup "$PARCELSETUP && echo 'console.log(1)' > src/app.js && echo '{\"name\": \"web\", \"main\": \"index.js\"}' > package.json" -port 27954 -timeout 30s -- 'node_modules/.bin/parcel serve src/index.html --port 27954'
fi
if want tsc; then
# tsc --watch (TypeScript 7.0.2 when recorded) in $NPM_DIR/ts/node_modules (npm i typescript).
TSSETUP="ln -s $NPM_DIR/ts/node_modules node_modules && mkdir src && echo '{\"compilerOptions\":{\"outDir\":\"dist\",\"rootDir\":\"src\",\"strict\":true},\"include\":[\"src\"]}' > tsconfig.json"
rec tsc watch -setup "$TSSETUP && echo 'const x: number = 1;' > src/index.ts" -ready-line 'Found 0 errors' -stop-after 1s -timeout 60s -- 'node_modules/.bin/tsc --watch'
rec tsc type-error -expect error -setup "$TSSETUP && echo 'const x: number = \"a\";' > src/index.ts" -timeout 8s -- 'node_modules/.bin/tsc --watch'
rec tsc no-tsconfig -expect error -setup "ln -s $NPM_DIR/ts/node_modules node_modules" -timeout 8s -- 'node_modules/.bin/tsc --watch'
fi
if want deno; then
# Deno 2 from npm in $NPM_DIR/deno (npm i deno; its binary comes in
# @deno/linux-x64-glibc), a Deno.serve server and a deno serve module.
DENO=node_modules/.bin/deno
DENOSETUP="ln -s $NPM_DIR/deno/node_modules node_modules"
DENOSERVE='Deno.serve({ port: Number(Deno.env.get("PORT")) }, () => new Response("hi"));'
rec deno start -env DENO_NO_UPDATE_CHECK=1 -env PORT=27971 -setup "$DENOSETUP && echo '$DENOSERVE' > server.ts" -port 27971 -ready-line 'Listening on' -stop-after 1s -timeout 60s -- "$DENO run --allow-net --allow-env server.ts"
rec deno port-in-use -env DENO_NO_UPDATE_CHECK=1 -expect error -env PORT=27972 -setup "$DENOSETUP && echo '$DENOSERVE' > server.ts" -port 27972 -occupy -timeout 30s -- "$DENO run --allow-net --allow-env server.ts"
# No --allow-net: a run with no terminal is refused the permission, not asked.
rec deno no-permission -env DENO_NO_UPDATE_CHECK=1 -expect error -env PORT=27973 -setup "$DENOSETUP && echo '$DENOSERVE' > server.ts" -port 27973 -timeout 30s -- "$DENO run --allow-env server.ts"
rec deno syntax-error -env DENO_NO_UPDATE_CHECK=1 -expect error -env PORT=27974 -setup "$DENOSETUP && printf 'Deno.serve({ port: 27974 }, () => {\n  return new Response(42;\n});\n' > server.ts" -port 27974 -timeout 30s -- "$DENO run --allow-net server.ts"
rec deno serve -env DENO_NO_UPDATE_CHECK=1 -setup "$DENOSETUP && echo 'export default { fetch() { return new Response(String(42)); } };' > main.ts" -port 27975 -ready-line 'Listening on' -stop-after 1s -timeout 60s -- "$DENO serve --port 27975 main.ts"
rec deno missing-module -env DENO_NO_UPDATE_CHECK=1 -expect error -env PORT=27976 -setup "$DENOSETUP && printf 'import { x } from \047./nope.ts\047;\nconsole.log(x);\n' > server.ts" -port 27976 -timeout 30s -- "$DENO run --allow-net server.ts"
fi
if want nuxt; then
# Nuxt 3 in $NPM_DIR/nuxt (npm i nuxt@3, package.json "type": "module"),
# serving an app.vue.
NUXTSETUP="ln -s $NPM_DIR/nuxt/node_modules node_modules && cp $NPM_DIR/nuxt/package.json . && printf '<template><div>hi</div></template>\n' > app.vue"
# Not -port: its port opens seconds before Nitro is built; the line decides.
rec nuxt dev -setup "$NUXTSETUP" -ready-line 'Nitro server built' -stop-after 1.5s -timeout 120s -- 'node_modules/.bin/nuxt dev --port 27962'
rec nuxt port-in-use -setup "$NUXTSETUP" -port 27963 -occupy -ready-line 'Nitro server built' -stop-after 1.5s -timeout 120s -- 'node_modules/.bin/nuxt dev --port 27963'
rec nuxt bad-config -expect error -setup "$NUXTSETUP && printf 'export default defineNuxtConfig({\n' > nuxt.config.ts" -port 27964 -timeout 60s -- 'node_modules/.bin/nuxt dev --port 27964'
fi

# Nuxt 4 in NUXT4_DIR (npm i nuxt@4 vue, package.json "type": "module").
NUXT4_DIR=${NUXT4_DIR:-/tmp/procs-nuxt4}
if want nuxt4 && [ -d "$NUXT4_DIR/node_modules/nuxt" ]; then
NUXT4="cp -al $NUXT4_DIR/node_modules node_modules && cp $NUXT4_DIR/package.json . && printf '<template><div>hi</div></template>\n' > app.vue"
rec nuxt v4-dev -setup "$NUXT4" -ready-line 'Nitro server built' -stop-after 1.5s -timeout 120s -- 'node_modules/.bin/nuxt dev --port 27965'
rec nuxt v4-port-in-use -setup "$NUXT4" -port 27966 -occupy -ready-line 'Nitro server built' -stop-after 1.5s -timeout 120s -- 'node_modules/.bin/nuxt dev --port 27966'
rec nuxt v4-bad-config -expect error -setup "$NUXT4 && printf 'export default defineNuxtConfig({\n' > nuxt.config.ts" -port 27967 -timeout 60s -- 'node_modules/.bin/nuxt dev --port 27967'
fi
if want remix; then
# A minimal Remix 2 app on Vite in $NPM_DIR/remix (npm i @remix-run/dev@2
# @remix-run/react@2 @remix-run/node@2 @remix-run/serve@2 react@18
# react-dom@18 vite@5 isbot@4, with app/root.jsx, app/routes/_index.jsx
# and vite.config.js using the remix plugin).
rec remix vite-dev -expect ready -port 27901 -ready-line 'Local:' -stop-after 1.5s -timeout 60s \
	-setup "cp -r $NPM_DIR/remix/app $NPM_DIR/remix/vite.config.js $NPM_DIR/remix/package.json . && ln -s $NPM_DIR/remix/node_modules node_modules" \
	-- 'node_modules/.bin/remix vite:dev --port 27901'
fi

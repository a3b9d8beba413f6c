#!/bin/sh
# Runs PostgreSQL for this example, with its data in .data/pg:
#   pg.sh initdb          make the cluster, on the first run only
#   pg.sh postgres ARGS   run the server in the foreground
# postgres refuses to run as root, so as root both run as the postgres user
# (Debian's postgresql package makes it), which then owns .data.
set -eu

data=.data/pg

# pgbin NAME prints the path of a PostgreSQL program: from PATH, else from
# Debian's versioned folder, which is not on PATH.
pgbin() {
  if command -v "$1" >/dev/null 2>&1; then
    command -v "$1"
    return
  fi
  found=$(ls -d /usr/lib/postgresql/*/bin/"$1" 2>/dev/null | sort -V | tail -n 1)
  if [ -z "$found" ]; then
    echo "pg.sh: $1 not found: install PostgreSQL (Debian: apt-get install postgresql)" >&2
    exit 127
  fi
  echo "$found"
}

as_postgres=""
if [ "$(id -u)" = 0 ]; then
  as_postgres="runuser -u postgres --"
fi

case "${1:-}" in
initdb)
  if [ -f "$data/PG_VERSION" ]; then
    echo "pg.sh: $data exists, keeping its data"
    exit 0
  fi
  initdb=$(pgbin initdb)
  mkdir -p .data
  if [ -n "$as_postgres" ]; then
    chown -R postgres: .data
    # By its full path: the postgres programs look the folder up again from /.
    if ! $as_postgres test -w "$(pwd)/.data"; then
      echo "pg.sh: the postgres user cannot reach $(pwd)/.data: make the folders above it searchable (chmod o+x) or copy the example elsewhere" >&2
      exit 1
    fi
  fi
  # trust: a local development database, reached only on 127.0.0.1.
  exec $as_postgres "$initdb" -D "$data" -U postgres --auth=trust --encoding=UTF8 --no-sync
  ;;
postgres)
  shift
  postgres=$(pgbin postgres)
  exec $as_postgres "$postgres" -D "$data" "$@"
  ;;
*)
  echo "usage: pg.sh initdb | pg.sh postgres [ARGS...]" >&2
  exit 2
  ;;
esac

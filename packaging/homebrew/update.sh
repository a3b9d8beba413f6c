#!/usr/bin/env bash
# update.sh VERSION CHECKSUMS [FORMULA]: sets the Homebrew formula's version
# and the sha256 of each archive it names from goreleaser's checksums.txt.
# It fails, leaving the formula as it was, when an archive has no checksum.
set -euo pipefail
version=${1#v}
sums=$2
formula=${3:-$(dirname "$0")/procs.rb}
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
awk -v version="$version" -v sums="$sums" '
  BEGIN {
    while ((getline line < sums) > 0) { split(line, f, "  "); sha[f[2]] = f[1] }
  }
  /^  version "/ { print "  version \"" version "\""; next }
  /url "/ {
    match($0, /procs_#\{version\}_[a-z]+_[a-z0-9]+\.tar\.gz/)
    archive = substr($0, RSTART, RLENGTH)
    sub(/#\{version\}/, version, archive)
  }
  /sha256 "/ && archive != "" {
    if (!(archive in sha)) { print "update.sh: no checksum for " archive " in " sums > "/dev/stderr"; failed = 1; exit 1 }
    sub(/"[0-9a-f]*"/, "\"" sha[archive] "\"")
    archive = ""; updated++
  }
  { print }
  END {
    if (failed) exit 1
    if (updated != 4) { print "update.sh: updated " updated + 0 " sha256 lines, want 4" > "/dev/stderr"; exit 1 }
  }
' "$formula" >"$tmp"
cp "$tmp" "$formula"

#!/usr/bin/env bash
# Runs the browser test binaries N times in a row (default 30) and stops at
# the first failure, to show that the browser tests do not flake.
#
#     scripts/browser-soak.sh 30                      # browser, venue_browser, teams_browser
#     scripts/browser-soak.sh 30 browser accessibility
#
# The binaries are built once; every run starts its own app, chromedriver and
# Chromium. A missing chromedriver is a failure here (CI=1), not a skip.
set -euo pipefail
cd "$(dirname "$0")/.."

n=${1:-30}
case $n in '' | *[!0-9]*) echo "usage: $0 [RUNS] [TEST ...]" >&2; exit 2 ;; esac
shift || true
tests=("$@")
[ ${#tests[@]} -gt 0 ] || tests=(browser venue_browser teams_browser)

# Private copies, so a rebuild during the soak cannot swap a binary.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for t in "${tests[@]}"; do
  bin=$(cargo test --test "$t" --no-run 2>&1 | tee /dev/stderr |
    sed -n "s/^ *Executable tests\/$t\.rs (\(.*\))\$/\1/p" | tail -n 1)
  [ -x "$bin" ] || { echo "could not find the $t test binary" >&2; exit 1; }
  cp "$bin" "$tmp/$t"
done
log=$tmp/log
export CI=1
start=$(date +%s)
for i in $(seq 1 "$n"); do
  for t in "${tests[@]}"; do
    if ! "$tmp/$t" >"$log" 2>&1; then
      cat "$log"
      echo "run $i of $n FAILED in $t after $(($(date +%s) - start)) s ($((i - 1)) passed)" >&2
      exit 1
    fi
  done
  echo "run $i of $n passed (${tests[*]})"
done
echo "$n of $n runs passed in $(($(date +%s) - start)) s (${tests[*]})"

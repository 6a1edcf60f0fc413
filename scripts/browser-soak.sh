#!/usr/bin/env bash
# Runs the browser test binary N times in a row (default 30) and stops at the
# first failure, to show that the browser tests do not flake.
#
#     scripts/browser-soak.sh 30
#
# The binary is built once; every run starts its own app, chromedriver and
# Chromium. A missing chromedriver is a failure here (CI=1), not a skip.
set -euo pipefail
cd "$(dirname "$0")/.."

n=${1:-30}
case $n in '' | *[!0-9]*) echo "usage: $0 [RUNS]" >&2; exit 2 ;; esac

bin=$(cargo test --test browser --no-run 2>&1 | tee /dev/stderr |
  sed -n 's/^ *Executable tests\/browser\.rs (\(.*\))$/\1/p' | tail -n 1)
[ -x "$bin" ] || { echo "could not find the browser test binary" >&2; exit 1; }

# A private copy, so a rebuild during the soak cannot swap the binary.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$bin" "$tmp/browser"
log=$tmp/log
export CI=1
start=$(date +%s)
for i in $(seq 1 "$n"); do
  if ! "$tmp/browser" >"$log" 2>&1; then
    cat "$log"
    echo "run $i of $n FAILED after $(($(date +%s) - start)) s ($((i - 1)) passed)" >&2
    exit 1
  fi
  echo "run $i of $n passed"
done
echo "$n of $n runs passed in $(($(date +%s) - start)) s"

#!/usr/bin/env bash
# The federation's ratings under a real server: 20,000 people and 1,000,000
# games over 36 months (examples/ratings_fixture.rs) in SQLite, the release
# build serving them. Prints, each with the command's wall time:
#   - the first rating list after start (the games read and every month
#     rated from scratch),
#   - the rating list page and the API's list from the kept ratings
#     (median and p99 of N=50 requests each, gzip as browsers ask),
#   - a person's page,
#   - the list again after a result of the last month is corrected (the
#     games read again, the last month rated again).
# Needs curl and Python 3.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d /tmp/kraal-ratings.XXXXXX)
port=8183
n=${N:-50}
target=${CARGO_TARGET_DIR:-target}
cargo build --release --quiet --example ratings_fixture --bin kraal
start=$(date +%s.%N)
"$target"/release/examples/ratings_fixture "$work/kraal.db" "${PEOPLE:-20000}" "${GAMES:-1000000}" 2>/dev/null >/dev/null
echo "fixture: $(python3 -c "print(f'{$(date +%s.%N) - $start:.1f}')") s, $(du -h "$work/kraal.db" | cut -f1)"
token=$("$target"/release/kraal token create bench --database "$work/kraal.db")
"$target"/release/kraal serve --database "$work/kraal.db" --bind 127.0.0.1:$port >"$work/kraal.log" 2>&1 &
kpid=$!
trap 'kill $kpid 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
base="http://127.0.0.1:$port"
rss() { awk '/VmRSS/ {print $2}' "/proc/$kpid/status"; }
echo "server memory before the ratings: $(rss) kB"
t=$(curl -sf -o /dev/null -w '%{time_total}' "$base/api/v1/ratings")
echo "first list (read 1,000,000 games, rate 36 months): ${t} s; server memory $(rss) kB"
times() {
  python3 - "$@" <<'PY'
import sys, subprocess, statistics
url, n = sys.argv[1], int(sys.argv[2])
ts = []
for _ in range(n):
    out = subprocess.run(["curl", "-sf", "-o", "/dev/null", "-H", "Accept-Encoding: gzip, br",
                          "-w", "%{time_total} %{size_download}", url], capture_output=True, text=True).stdout.split()
    ts.append(float(out[0]) * 1000)
    size = out[1]
ts.sort()
print(f"median {statistics.median(ts):.1f} ms, p99 {ts[min(len(ts)-1, int(len(ts)*0.99))]:.1f} ms, {size} bytes")
PY
}
echo "rating list page (/ratings, 200 of 20,000): $(times "$base/ratings" "$n")"
echo "rating list page 50 (/ratings?page=50): $(times "$base/ratings?page=50" "$n")"
echo "API list (/api/v1/ratings, all 20,000): $(times "$base/api/v1/ratings" "$n")"
echo "a person's page (/people/1234): $(times "$base/people/1234" "$n")"
echo "a person's JSON (/api/v1/people/1234): $(times "$base/api/v1/people/1234" "$n")"
game=$(python3 - "$work/kraal.db" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
print(c.execute("SELECT g.id FROM games g JOIN pairings p ON p.id = g.pairing_id JOIN rounds r ON r.id = p.round_id ORDER BY r.played_on DESC, g.id DESC LIMIT 1").fetchone()[0])
PY
)
curl -sf -o /dev/null -X PUT -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
  -d '{"result": "1/2-1/2"}' "$base/api/v1/games/$game"
t=$(curl -sf -o /dev/null -w '%{time_total}' "$base/api/v1/ratings")
echo "after a result of the last month corrected (read the games, rate the last month): ${t} s"
t=$(curl -sf -o /dev/null -w '%{time_total}' "$base/api/v1/ratings")
echo "and once more, kept: ${t} s"

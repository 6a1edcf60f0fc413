#!/usr/bin/env bash
# The server under load: Kraal's public standings page of a 1,000-player,
# 9-round tournament against nginx serving the same page as a static file,
# both measured with wrk in one run. Needs nginx and wrk (Debian packages).
#
# SSE=1000 also holds 1,000 open event streams of the tournament (what 1,000
# open round pages keep) while wrk runs, then saves a result through the API
# and reports how long the change took to reach every stream
# (scripts/sse-hold.py, Python 3).
set -euo pipefail
sse=${SSE:-0}
ulimit -n 16384
cd "$(dirname "$0")/.."
work=$(mktemp -d /tmp/kraal-bench.XXXXXX)
kport=8181
nport=8182
conns=${CONNS:-64}
secs=${SECS:-15}

target=${CARGO_TARGET_DIR:-target}
cargo build --release --quiet --example load_fixture --bin kraal
tid=$("$target"/release/examples/load_fixture "$work/kraal.db")
"$target"/release/kraal serve --database "$work/kraal.db" --bind 127.0.0.1:$kport >"$work/kraal.log" 2>&1 &
kpid=$!
trap 'kill $kpid 2>/dev/null; [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$kport/" >/dev/null && break; sleep 0.1; done

mkdir -p "$work/www"
# nginx workers run as an unprivileged user: let them read the copy.
chmod 755 "$work" "$work/www"
curl -sf "http://127.0.0.1:$kport/t/$tid/standings" >"$work/www/standings.html"
echo "page: $(wc -c <"$work/www/standings.html") bytes"
cat >"$work/nginx.conf" <<CONF
worker_processes auto;
pid $work/nginx.pid;
error_log $work/nginx-error.log;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 100000;
  types { text/html html; }
  server {
    listen 127.0.0.1:$nport;
    root $work/www;
  }
}
CONF
nginx -c "$work/nginx.conf"
sleep 0.5

if [ "$sse" -gt 0 ]; then
  python3 scripts/sse-hold.py 127.0.0.1 $kport "$tid" "$sse" "$work/saved" >"$work/sse.log" 2>&1 &
  hpid=$!
  for _ in $(seq 300); do grep -q connected "$work/sse.log" && break; sleep 0.1; done
  echo "== holding open event streams: $(cat "$work/sse.log")"
fi

echo "== Kraal: /t/$tid/standings"
wrk -t2 -c"$conns" -d"${secs}s" --latency "http://127.0.0.1:$kport/t/$tid/standings"
echo "== nginx: static copy"
wrk -t2 -c"$conns" -d"${secs}s" --latency "http://127.0.0.1:$nport/standings.html"

if [ "$sse" -gt 0 ]; then
  token=$(DATABASE_URL="$work/kraal.db" "$target"/release/kraal token create bench --label bench | tail -n1 | awk '{print $NF}')
  read -r game result < <(curl -sf "http://127.0.0.1:$kport/api/v1/tournaments/$tid/rounds/9" |
    python3 -c 'import json,sys; g=json.load(sys.stdin)["pairings"][0]["games"][0]; print(g["id"], g["result"])')
  new=$([ "$result" = "1-0" ] && echo "0-1" || echo "1-0")
  date +%s.%N >"$work/saved.tmp"
  curl -sf -o /dev/null -X PUT -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
    -d "{\"result\": \"$new\"}" "http://127.0.0.1:$kport/api/v1/games/$game"
  mv "$work/saved.tmp" "$work/saved"
  wait "$hpid" || true
  echo "== a saved result (game $game: $result -> $new) reaching the open streams"
  tail -n1 "$work/sse.log"
fi

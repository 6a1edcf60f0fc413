#!/usr/bin/env bash
# The server under load: Kraal's public standings page of a 1,000-player,
# 9-round tournament against nginx serving the same page as a static file,
# both measured with wrk in one run. Needs nginx and wrk (Debian packages).
set -euo pipefail
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

echo "== Kraal: /t/$tid/standings"
wrk -t2 -c"$conns" -d"${secs}s" --latency "http://127.0.0.1:$kport/t/$tid/standings"
echo "== nginx: static copy"
wrk -t2 -c"$conns" -d"${secs}s" --latency "http://127.0.0.1:$nport/standings.html"

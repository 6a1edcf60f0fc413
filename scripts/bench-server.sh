#!/usr/bin/env bash
# The server under load as phones call it: Kraal's public standings page of
# a 1,000-player, 9-round Swiss against nginx serving the same bytes, both
# measured with wrk in one run, four ways:
#   gzip         Accept-Encoding: gzip (Kraal's copy made when the page was
#                built; nginx's gzip_static with a `gzip -9` copy)
#   br           Accept-Encoding: br for Kraal (its brotli copy), gzip for
#                nginx (Debian's nginx has no brotli_static): what Chrome
#                gets from each
#   identity     no Accept-Encoding (nginx: sendfile)
#   conditional  If-None-Match with the gzip copy's ETag (both answer 304)
# and prints each ratio (the medians of ROUNDS=3 alternating runs of SECS=5
# seconds each), and for gzip and br whether the target holds: at least
# 0.8x nginx with Kraal's p99 at most 20 ms. Needs nginx and wrk (Debian packages), Python 3.
#
# PLAYERS=10000 builds a 10,000-player event instead (and reports the
# page's build time and the memory its cached copies take).
# SSE=1000 holds that many open event streams of the tournament through
# every run (what 1,000 open round pages keep), then saves a result while
# wrk reads the page and reports how long the change took to reach every
# stream, how their refetches were answered (one build, the rest from the
# new copy) and the p99 of the other readers meanwhile
# (scripts/sse-hold.py). REFETCH=0 leaves the refetches out and times the
# change's arrival alone (the holder is one Python process: at 10,000
# streams its own refetches slow its reading of the streams it times).
set -euo pipefail
sse=${SSE:-0}
players=${PLAYERS:-1000}
# Every open stream is a file descriptor in Kraal and in the holder.
ulimit -n "$(ulimit -Hn)"
if [ "$sse" -gt 0 ] && [ $((sse + 1024)) -gt "$(ulimit -n)" ]; then
  echo "SSE=$sse needs $((sse + 1024)) open files; the limit here is $(ulimit -n)" >&2
  exit 1
fi
cd "$(dirname "$0")/.."
work=$(mktemp -d /tmp/kraal-bench.XXXXXX)
kport=8181
nport=8182
conns=${CONNS:-64}
secs=${SECS:-5}
rounds=${ROUNDS:-3}

# BIN=/some/dir: a kraal and a load_fixture built before (as bench-saves.sh).
target=${CARGO_TARGET_DIR:-target}
bin=${BIN:-}
if [ -z "$bin" ]; then
  cargo build --release --quiet --example load_fixture --bin kraal
  bin="$target/release"
  fixture="$bin/examples/load_fixture"
else
  fixture="$bin/load_fixture"
fi
tid=$("$fixture" "$work/kraal.db" "$players" 2>/dev/null)
"$bin"/kraal serve --database "$work/kraal.db" --bind 127.0.0.1:$kport >"$work/kraal.log" 2>&1 &
kpid=$!
trap 'kill $kpid 2>/dev/null; [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$kport/" >/dev/null && break; sleep 0.1; done
page="http://127.0.0.1:$kport/t/$tid/standings"
rss() { awk '/VmRSS/ {print $2}' "/proc/$kpid/status"; }

mkdir -p "$work/www"
# nginx workers run as an unprivileged user: let them read the copies.
chmod 755 "$work" "$work/www"
rss_before=$(rss)
build=$(curl -sf -o "$work/www/standings.html" -w '%{time_total}' "$page")
rss_after=$(rss)
gzip -9 -k "$work/www/standings.html"
kgz=$(curl -sf -H 'Accept-Encoding: gzip' "$page" | wc -c)
kbr=$(curl -sf -H 'Accept-Encoding: br' "$page" | wc -c)
echo "page: $(wc -c <"$work/www/standings.html") bytes; gzip $kgz (nginx's gzip -9: $(wc -c <"$work/www/standings.html.gz")); brotli $kbr"
echo "first build (load, standings, render, compress): ${build} s; server memory ${rss_before} -> ${rss_after} kB"
cat >"$work/nginx.conf" <<CONF
worker_processes auto;
pid $work/nginx.pid;
error_log $work/nginx-error.log;
events { worker_connections 4096; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 100000;
  types { text/html html; }
  gzip_static on;
  server {
    listen 127.0.0.1:$nport;
    root $work/www;
  }
}
CONF
nginx -c "$work/nginx.conf"
sleep 0.5
npage="http://127.0.0.1:$nport/standings.html"
tag() { curl -sf -o /dev/null -D - -H 'Accept-Encoding: gzip' "$1" | awk 'tolower($1) == "etag:" {print $2}' | tr -d '\r'; }
ktag=$(tag "$page")
ntag=$(tag "$npage")
[ "$(curl -s -o /dev/null -w '%{http_code}' -H 'Accept-Encoding: gzip' -H "If-None-Match: $ktag" "$page")" = 304 ]
[ "$(curl -s -o /dev/null -w '%{http_code}' -H 'Accept-Encoding: gzip' -H "If-None-Match: $ntag" "$npage")" = 304 ]

if [ "$sse" -gt 0 ]; then
  python3 scripts/sse-hold.py 127.0.0.1 $kport "$tid" "$sse" "$work/saved" >"$work/sse.log" 2>&1 &
  hpid=$!
  for _ in $(seq 600); do grep -q connected "$work/sse.log" && break; sleep 0.1; done
  echo "== holding open event streams: $(cat "$work/sse.log"); server memory $(rss) kB"
fi

# One wrk run: requests/s and p99 (ms) on one line.
measure() {
  local url=$1
  shift
  wrk -t2 -c"$conns" -d"${secs}s" --latency "$@" "$url" | python3 -c '
import re, sys
text = sys.stdin.read()
rate = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
n, unit = re.search(r"\s99%\s+([\d.]+)(us|ms|s)", text).groups()
p99 = float(n) * {"us": 0.001, "ms": 1, "s": 1000}[unit]
non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
print(f"{rate:.0f} {p99:.1f} {non2xx.group(1) if non2xx else 0}")'
}

# Each way alternates the two servers (Kraal, nginx, Kraal, nginx, ...)
# ROUNDS times, SECS seconds each, and takes each one's median: a burst
# of noise on a shared machine then falls on both, or on neither.
median() { python3 -c 'import statistics, sys; print(statistics.median(float(x) for x in sys.argv[1:]))' "$@"; }
printf '%-12s %12s %9s %12s %9s %7s\n' way kraal_rps k_p99_ms nginx_rps n_p99_ms ratio
for way in ${WAYS:-gzip br identity conditional}; do
  case $way in
    gzip) kh=(-H 'Accept-Encoding: gzip'); nh=(-H 'Accept-Encoding: gzip') ;;
    br) kh=(-H 'Accept-Encoding: br'); nh=(-H 'Accept-Encoding: gzip') ;;
    identity) kh=(); nh=() ;;
    conditional) kh=(-H 'Accept-Encoding: gzip' -H "If-None-Match: $ktag"); nh=(-H 'Accept-Encoding: gzip' -H "If-None-Match: $ntag") ;;
  esac
  krates=(); kp99s=(); nrates=(); np99s=(); bad=0
  for _ in $(seq "$rounds"); do
    read -r r p b < <(measure "$page" "${kh[@]}"); krates+=("$r"); kp99s+=("$p"); bad=$((bad + b))
    read -r r p b < <(measure "$npage" "${nh[@]}"); nrates+=("$r"); np99s+=("$p"); bad=$((bad + b))
  done
  krate=$(median "${krates[@]}"); nrate=$(median "${nrates[@]}"); kp99=$(median "${kp99s[@]}")
  ratio=$(python3 -c "print(f'{$krate / $nrate:.2f}')")
  printf '%-12s %12.0f %9s %12.0f %9s %7s\n' "$way" "$krate" "$kp99" "$nrate" "$(median "${np99s[@]}")" "$ratio"
  # The target: what browsers fetch (gzip, br) at 0.8x nginx's
  # gzip_static or better, p99 at most 20 ms; identity and 304 reported.
  case $way in
    gzip | br)
      if python3 -c "import sys; sys.exit(0 if $ratio >= 0.8 and $kp99 <= 20 else 1)"; then
        echo "  target (>= 0.80x nginx, p99 <= 20 ms): met"
      else
        echo "  target (>= 0.80x nginx, p99 <= 20 ms): NOT met"
      fi ;;
  esac
  echo "  kraal ${krates[*]} / nginx ${nrates[*]} req/s"
  if [ "$bad" != 0 ]; then echo "  ($bad responses were not 2xx or 3xx)"; fi
done

if [ "$sse" -gt 0 ]; then
  token=$(DATABASE_URL="$work/kraal.db" "$bin"/kraal token create bench --label bench | tail -n1 | awk '{print $NF}')
  read -r game result < <(curl -sf "http://127.0.0.1:$kport/api/v1/tournaments/$tid/rounds/9" |
    python3 -c 'import json,sys; g=json.load(sys.stdin)["pairings"][0]["games"][0]; print(g["id"], g["result"])')
  new=$([ "$result" = "1-0" ] && echo "0-1" || echo "1-0")
  # Other readers keep reading the page while the change fans out.
  (secs=6 measure "$page" -H 'Accept-Encoding: gzip' >"$work/during") &
  wpid=$!
  sleep 2
  date +%s.%N >"$work/saved.tmp"
  curl -sf -o /dev/null -X PUT -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
    -d "{\"result\": \"$new\"}" "http://127.0.0.1:$kport/api/v1/games/$game"
  mv "$work/saved.tmp" "$work/saved"
  wait "$wpid"
  wait "$hpid" || true
  echo "== a saved result (game $game: $result -> $new) reaching the open streams"
  tail -n2 "$work/sse.log"
  read -r drate dp99 _ <"$work/during"
  echo "other readers meanwhile (gzip, ${conns} connections, 6 s): $drate requests/s, p99 $dp99 ms; server memory $(rss) kB"
fi

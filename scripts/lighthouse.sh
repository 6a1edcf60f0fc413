#!/usr/bin/env bash
# Lighthouse 12 (default mobile mode: a Moto G Power's screen, simulated
# slow 4G and a 4x slower CPU) on the pages a player's phone opens: the
# personal page, the round page and the standings page. Prints one line
# per page: the performance, accessibility and best-practices scores
# (0-100) and the ids of the failing audits (score below 1; informative,
# not applicable and manual ones left out; "!" marks an audit that erred).
#
#   scripts/lighthouse.sh            starts $KRAAL_BIN (target/release/kraal)
#                                    on a free port with a fresh database
#                                    under /tmp, seeded through the API (an
#                                    8-player Swiss, round 1 paired and
#                                    published: scripts/phone-weight.py)
#   scripts/lighthouse.sh URL...     these pages of a running Kraal
#
# The JSON reports stay in $OUT (default: a new /tmp/kraal-lighthouse.XXXXXX).
# Installs Lighthouse 12 with npm into ~/.cache/kraal-lighthouse the first
# time; Chromium is $CHROME_PATH (/usr/bin/chromium).
set -euo pipefail
cd "$(dirname "$0")/.."
lh_dir=$HOME/.cache/kraal-lighthouse
lh=$lh_dir/node_modules/.bin/lighthouse
if [ ! -x "$lh" ]; then
  npm install --silent --prefix "$lh_dir" lighthouse@12 >&2
fi
export CHROME_PATH=${CHROME_PATH:-/usr/bin/chromium}
out=${OUT:-$(mktemp -d /tmp/kraal-lighthouse.XXXXXX)}
mkdir -p "$out"

server=
cleanup() {
  if [ -n "$server" ]; then
    kill "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
  fi
}
trap cleanup EXIT
if [ $# -gt 0 ]; then
  urls=("$@")
else
  export KRAAL_BIN=${KRAAL_BIN:-target/release/kraal}
  python3 scripts/phone-weight.py --serve >"$out/urls" 2>"$out/server.log" &
  server=$!
  for _ in $(seq 300); do
    [ "$(wc -l <"$out/urls")" -ge 3 ] && break
    kill -0 "$server" 2>/dev/null || { cat "$out/server.log" >&2; exit 1; }
    sleep 0.1
  done
  mapfile -t urls <"$out/urls"
fi

echo "lighthouse $("$lh" --version), $("$CHROME_PATH" --version 2>/dev/null | head -n 1); reports in $out"
n=0
for url in "${urls[@]}"; do
  n=$((n + 1))
  "$lh" "$url" --quiet --output=json --output-path="$out/$n.json" \
    --only-categories=performance,accessibility,best-practices \
    --chrome-flags="--headless=new --no-sandbox" || { echo "$url: lighthouse failed" >&2; continue; }
  python3 - "$out/$n.json" <<'PY'
import json, sys, urllib.parse
r = json.load(open(sys.argv[1]))
c = r["categories"]
score = lambda k: "-" if c[k]["score"] is None else round(c[k]["score"] * 100)
failing = [a["id"] + ("!" if a["scoreDisplayMode"] == "error" else "")
           for a in r["audits"].values()
           if a["scoreDisplayMode"] not in ("informative", "notApplicable", "manual")
           and (a["scoreDisplayMode"] == "error" or (a["score"] is not None and a["score"] < 1))]
page = urllib.parse.urlparse(r["finalDisplayedUrl"]).path
warn = "; ".join(r.get("runWarnings", []))
print(f"{page:<42} perf {score('performance'):>3}  a11y {score('accessibility'):>3}  "
      f"bp {score('best-practices'):>3}  failing: {' '.join(sorted(failing)) or '-'}"
      + (f"  (warnings: {warn})" if warn else ""))
PY
done

#!/usr/bin/env bash
# Saving results under load: 8 referees at once, each saving results of its
# own games of round 9 of the 1,000-player fixture (examples/load_fixture),
# one after another, as fast as the server answers. Every request changes
# its game (1-0 and 0-1 in turn), so each one commits a write (SQLite,
# synchronous = FULL). Needs wrk, sqlite3 and Python 3.
#
#     scripts/bench-saves.sh           # both ways, 15 s each
#     MODE=api scripts/bench-saves.sh  # PUT /api/v1/games/{id} with a token
#     MODE=form scripts/bench-saves.sh # the results page's form, signed in
#     BIN=/tmp/kraal-before scripts/bench-saves.sh  # kraal and load_fixture from there
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${MODE:-both}
secs=${SECS:-15}
conns=${CONNS:-8}
per=${GAMES:-50}
port=${PORT:-8183}
target=${CARGO_TARGET_DIR:-target}
bin=${BIN:-}
if [ -z "$bin" ]; then
  cargo build --release --quiet --example load_fixture --bin kraal
  bin="$target/release"
  fixture="$bin/examples/load_fixture"
else
  fixture="$bin/load_fixture"
fi
work=$(mktemp -d /tmp/kraal-saves.XXXXXX)
tid=$("$fixture" "$work/kraal.db" 2>/dev/null)
"$bin"/kraal serve --database "$work/kraal.db" --bind 127.0.0.1:$port >"$work/kraal.log" 2>&1 &
kpid=$!
trap 'kill $kpid 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
token=$(DATABASE_URL="$work/kraal.db" "$bin"/kraal token create bench --label bench | tail -n1 | awk '{print $NF}')

# Each wrk thread is one referee on one connection with games of its own:
# its list, with each game's result now, goes into the Lua script of its
# way of saving (the API's games and the form's are not the same).
python3 - "$port" "$tid" "$conns" "$per" "$token" "$work" <<'PY'
import http.client, json, sys
port, tid, conns, per, token, work = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5], sys.argv[6]
c = http.client.HTTPConnection("127.0.0.1", int(port))
c.request("GET", f"/api/v1/tournaments/{tid}/rounds/9")
games = [g for p in json.load(c.getresponse())["pairings"] for g in p["games"]]
assert len(games) >= 2 * conns * per, len(games)
csrf = "b" * 64
sessions = []
for _ in range(conns):
    c = http.client.HTTPConnection("127.0.0.1", int(port))
    c.request("POST", "/login", "name=bench&password=bench-password",
              {"Content-Type": "application/x-www-form-urlencoded",
               "Cookie": f"kraal_csrf={csrf}", "X-CSRF-Token": csrf})
    r = c.getresponse(); r.read()
    cookie = [v.split(";")[0] for k, v in r.getheaders() if k.lower() == "set-cookie" and v.startswith("kraal_session=")]
    assert cookie, r.status
    sessions.append(cookie[0])
for mode, first in (("api", 0), ("form", conns * per)):
  lists = ",\n".join(
    "{" + ", ".join(f'{{{g["id"]}, "{g["result"]}"}}' for g in games[first + i * per:first + (i + 1) * per]) + "}"
    for i in range(conns))
  with open(f"{work}/saves-{mode}.lua", "w") as f:
    f.write(f"""
local lists = {{
{lists}
}}
local sessions = {{ {", ".join(f'"{s}"' for s in sessions)} }}
local token = "{token}"
local csrf = "{csrf}"
local tid = {tid}
local count = 0
function setup(thread)
  count = count + 1
  thread:set("me", count)
end
function init(args)
  mine = lists[me]
  results = {{}}
  for k, g in ipairs(mine) do results[k] = g[2] end
  at = 0
end
function request()
  at = at % #mine + 1
  local id, was = mine[at][1], results[at]
  local now = (was == "1-0") and "0-1" or "1-0"
  results[at] = now
  if "{mode}" == "form" then
    return wrk.format("POST", "/t/" .. tid .. "/rounds/9/results",
      {{["Content-Type"] = "application/x-www-form-urlencoded",
       ["Cookie"] = sessions[me] .. "; kraal_csrf=" .. csrf, ["X-CSRF-Token"] = csrf}},
      "g" .. id .. "=" .. now .. "&o" .. id .. "=" .. was)
  end
  return wrk.format("PUT", "/api/v1/games/" .. id,
    {{["Authorization"] = "Bearer " .. token, ["Content-Type"] = "application/json"}},
    '{{"result": "' .. now .. '"}}')
end
""")
PY

stored() { sqlite3 "$work/kraal.db" "select count(*) from audit_entries where action = 'result'"; }
run() {
  echo "== $1: $conns referees, $per games each, ${secs}s"
  local before
  before=$(stored)
  wrk -t"$conns" -c"$conns" -d"${secs}s" --latency -s "$work/saves-$1.lua" "http://127.0.0.1:$port"
  # Every request should have changed its game.
  echo "results stored: $(($(stored) - before))"
}
case $mode in
  api) run api ;;
  form) run form ;;
  *) run api; run form ;;
esac

#!/usr/bin/env python3
"""Durability under kill -9: results are saved through the API one after
another while the server is killed with SIGKILL at random moments and
started again; at the end every result the server acknowledged must be
stored (a save cut off mid-request may or may not have landed).

    kill9-probe.py KRAAL_BINARY DATABASE_URL KILLS

Uses DATABASE_URL as given (a new SQLite file, or an empty PostgreSQL
database). Prints the saves acknowledged, the kills and what was lost.
"""
import http.client
import json
import random
import signal
import sys
import time

import served

binary, url, kills = sys.argv[1], sys.argv[2], int(sys.argv[3])
port = served.free_port()


def start():
    return served.start(binary, url, port)[0]


token = served.prepare(binary, url, admin="prober")
headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}


def call(method, path, body=None, timeout=5):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    c.request(method, path, json.dumps(body) if body is not None else None, headers)
    r = c.getresponse()
    return r.status, json.loads(r.read() or b"null")


server = start()
_, t = call("POST", "/api/v1/tournaments", {"name": "Durability Open", "rules": "official", "rounds": 3})
for i in range(40):
    call("POST", f"/api/v1/tournaments/{t['id']}/players", {"name": f"Player {i + 1}"})
_, r = call("POST", f"/api/v1/tournaments/{t['id']}/rounds", {})
games = [g["id"] for p in r["pairings"] for g in p["games"]]
acked = {}      # game -> last acknowledged result
maybe = {}      # game -> results sent but not acknowledged (cut off by a kill)
saves = 0
rng = random.Random(2026)
for k in range(kills):
    deadline = time.time() + rng.uniform(0.2, 1.0)
    while time.time() < deadline:
        g = rng.choice(games)
        want = rng.choice(["1-0", "0-1", "1/2-1/2"])
        try:
            status, _ = call("PUT", f"/api/v1/games/{g}", {"result": want})
            if status == 200:
                acked[g] = want
                maybe.pop(g, None)
                saves += 1
        except OSError:
            maybe.setdefault(g, set()).add(want)
    # Kill while a save is likely under way: send one and kill at once.
    g = rng.choice(games)
    want = rng.choice(["1-0", "0-1"])
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    c.request("PUT", f"/api/v1/games/{g}", json.dumps({"result": want}), headers)
    server.send_signal(signal.SIGKILL)
    server.wait()
    maybe.setdefault(g, set()).add(want)
    server = start()
_, round1 = call("GET", f"/api/v1/tournaments/{t['id']}/rounds/1")
stored = {g["id"]: g["result"] for p in round1["pairings"] for g in p["games"]}
lost = [g for g, v in acked.items() if stored[g] != v and stored[g] not in maybe.get(g, set())]
server.send_signal(signal.SIGTERM)
server.wait()
print(f"{saves} saves acknowledged, {kills} kills -9, {len(lost)} acknowledged results lost")
sys.exit(1 if lost else 0)

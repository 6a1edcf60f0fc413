#!/usr/bin/env python3
"""Many referees at once: 100 writers save results through the API at the
same time for SECONDS seconds, each on games of its own tables; at the end
every game holds the last result its writer had acknowledged.

    concurrent-writers.py KRAAL_BINARY DATABASE_URL [SECONDS]

Uses DATABASE_URL as given (a new SQLite file, or an empty PostgreSQL
database). Prints saves, refusals by status and lost updates.
"""
import http.client
import random
import sys
import threading
import time

import served

binary, url = sys.argv[1], sys.argv[2]
seconds = float(sys.argv[3]) if len(sys.argv) > 3 else 10
token = served.prepare(binary, url, admin="director")
server, port = served.start(binary, url)
call = served.api(token)


c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
_, t = call(c, "POST", "/api/v1/tournaments", {"name": "Crowded Hall Open", "rules": "official", "rounds": 3})
for i in range(200):
    call(c, "POST", f"/api/v1/tournaments/{t['id']}/players", {"name": f"Player {i + 1}"})
_, r = call(c, "POST", f"/api/v1/tournaments/{t['id']}/rounds", {})
games = [g["id"] for p in r["pairings"] for g in p["games"]]
acked, refused, saves = {}, {}, [0]
lock = threading.Lock()


def writer(k):
    mine = games[k::100]
    rng = random.Random(k)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    end = time.time() + seconds
    while time.time() < end:
        g = rng.choice(mine)
        want = rng.choice(["1-0", "0-1", "1/2-1/2"])
        status, _ = call(conn, "PUT", f"/api/v1/games/{g}", {"result": want})
        with lock:
            if status == 200:
                acked[g] = want
                saves[0] += 1
            else:
                refused[status] = refused.get(status, 0) + 1


threads = [threading.Thread(target=writer, args=(k,)) for k in range(100)]
started = time.time()
for th in threads:
    th.start()
for th in threads:
    th.join()
elapsed = time.time() - started
c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)  # the idle one timed out
_, round1 = call(c, "GET", f"/api/v1/tournaments/{t['id']}/rounds/1")
stored = {g["id"]: g["result"] for p in round1["pairings"] for g in p["games"]}
lost = [g for g, v in acked.items() if stored[g] != v]
server.terminate()
server.wait()
print(f"100 writers, {elapsed:.1f} s: {saves[0]} saves ({saves[0] / elapsed:.0f}/s), "
      f"refused: {refused or 'none'}, {len(lost)} lost updates")
sys.exit(1 if lost else 0)

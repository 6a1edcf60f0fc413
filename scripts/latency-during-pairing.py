#!/usr/bin/env python3
"""Pages while a big round is paired: a `gar` Swiss of 2,000 unrated players
in 40 clubs of 50 (the slowest field the benches know) is paired through the
API while a reader fetches pages of another tournament and the home page
without pause. Prints the pairing's time and the pages' latencies during it.

    latency-during-pairing.py KRAAL_BINARY [PLAYERS]
"""
import http.client
import statistics
import sys
import tempfile
import threading
import time

import served

binary = sys.argv[1]
players = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
tmp = tempfile.mkdtemp()
url = f"sqlite://{tmp}/kraal.db"
token = served.prepare(binary, url, admin="director")
server, port = served.start(binary, url)
call = served.api(token)


c = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
_, big = call(c, "POST", "/api/v1/tournaments",
              {"name": "National Open", "rules": "gar", "rounds": 9, "games_per_pairing": 2})
for i in range(players):
    st, _ = call(c, "POST", f"/api/v1/tournaments/{big['id']}/players",
                 {"name": f"Player {i + 1:04}", "club": f"Club {i % 40:02}"})
    assert st == 201, st
_, small = call(c, "POST", "/api/v1/tournaments", {"name": "Club Night", "rules": "official", "rounds": 5})
for i in range(24):
    call(c, "POST", f"/api/v1/tournaments/{small['id']}/players", {"name": f"Member {i + 1}"})
call(c, "POST", f"/api/v1/tournaments/{small['id']}/rounds", {})
pages = ["/", f"/t/{small['id']}", f"/t/{small['id']}/standings", f"/t/{small['id']}/rounds/1"]


def read_pages(until, out):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    k = 0
    while not until.is_set():
        path = pages[k % len(pages)]
        k += 1
        start = time.monotonic()
        conn.request("GET", path)
        r = conn.getresponse()
        r.read()
        out.append((time.monotonic() - start, r.status))


def summary(label, out):
    times = sorted(t for t, _ in out)
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    print(f"{label}: {len(times)} pages, median {statistics.median(times) * 1000:.1f} ms, "
          f"p99 {p99 * 1000:.1f} ms, max {times[-1] * 1000:.1f} ms, "
          f"statuses {sorted(set(s for _, s in out))}")


idle = []
stop = threading.Event()
t = threading.Thread(target=read_pages, args=(stop, idle))
t.start()
time.sleep(3)
stop.set()
t.join()
summary("idle", idle)

during = []
stop = threading.Event()
t = threading.Thread(target=read_pages, args=(stop, during))
t.start()
start = time.monotonic()
st, body = call(c, "POST", f"/api/v1/tournaments/{big['id']}/rounds", {})
paired = time.monotonic() - start
stop.set()
t.join()
assert st == 201, (st, body)
print(f"pairing round 1 of {players} players (gar, 40 clubs of {players // 40}): {paired:.2f} s through the API")
summary("during the pairing", during)
server.terminate()
server.wait()

#!/usr/bin/env python3
"""The end of a round: 200 players report their results from their phones
within one minute while the venue reads the public pages.

A Swiss of 200 players (2 games a pairing, so 100 tables and 200 games) has
round 1 published. Each player, at a random moment of the minute, reports
both games of their pairing through `POST /api/v1/player/{key}/results`
and opens their own page, as the browser does after the form; one table in
twenty disagrees on game 2 (disputed). Each phone comes from its own
loopback address (127.0.0.2 up), so the per-client limits count as at a
venue whose phones have addresses of their own. Meanwhile readers fetch the
round page, the standings, the venue display and a player's page without
pause, as browsers do (`Accept-Encoding: br, gzip`).

Prints the latencies of the reports, of the players' own pages and of the
public pages (median, p99, slowest), and checks what was stored.

    bench-reports.py KRAAL_BINARY [PLAYERS] [READERS] [DATABASE_URL] [--games N] [--one-address]

DATABASE_URL defaults to a new SQLite file; give an empty PostgreSQL
database's URL to measure that backend. `--games 6` plays 6-game pairings
(each player reports all six; every tenth player first sends a slip on
game 1 and then corrects it); `--one-address` sends every phone from
127.0.0.1, as a venue's Wi-Fi or reverse proxy does.
"""
import http.client
import json
import random
import statistics
import sys
import tempfile
import threading
import time

import served

args = sys.argv[1:]
one_address = "--one-address" in args
if one_address:
    args.remove("--one-address")
games_per_pairing = 2
if "--games" in args:
    k = args.index("--games")
    games_per_pairing = int(args[k + 1])
    del args[k:k + 2]
binary = args[0]
players = int(args[1]) if len(args) > 1 else 200
readers = int(args[2]) if len(args) > 2 else 4
tmp = tempfile.mkdtemp()
url = args[3] if len(args) > 3 else f"sqlite://{tmp}/kraal.db"
token = served.prepare(binary, url, admin="director")
server, port = served.start(binary, url)
call = served.api(token)

c = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
_, t = call(c, "POST", "/api/v1/tournaments",
            {"name": "Free State Open", "rules": "official", "rounds": 7,
             "games_per_pairing": games_per_pairing})
tid = t["id"]
for i in range(players):
    st, _ = call(c, "POST", f"/api/v1/tournaments/{tid}/players",
                 {"name": f"Player {i + 1:03}", "club": f"Club {i % 20:02}", "rating": 2200 - i})
    assert st == 201, st
st, r1 = call(c, "POST", f"/api/v1/tournaments/{tid}/rounds", {})
assert st == 201, (st, r1)
_, links = call(c, "GET", f"/api/v1/tournaments/{tid}/rounds/1/links")
key = {l["player"]: l["url"].rsplit("/", 1)[1] for l in links["links"]}
tables = [p for p in r1["pairings"] if p["second_id"] is not None]

# What each player reports: game 1 won by its starter, game 2 drawn, any
# further game won by its starter; every twentieth table disagrees on game
# 2. With more than two games, every tenth player slips on game 1 first
# (0-1) and corrects it at once.
jobs = []
for k, p in enumerate(tables):
    ids = [g["id"] for g in p["games"]]
    for who in (p["first_id"], p["second_id"]):
        second = "1/2-1/2"
        if k % 20 == 0 and who == p["second_id"]:
            second = "0-1"
        sent = [(ids[0], "1-0"), (ids[1], second)] + [(g, "1-0") for g in ids[2:]]
        if len(ids) > 2 and who % 10 == 0:
            sent.insert(0, (ids[0], "0-1"))
        jobs.append((random.uniform(0, 60), who, sent))
jobs.sort()

# The players' own pages of a quiet event, one at a time, for comparison.
quiet = []
for who in list(key)[:20]:
    q = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    start = time.monotonic()
    q.request("GET", f"/player/{key[who]}", headers={"Accept-Encoding": "br, gzip"})
    q.getresponse().read()
    quiet.append(time.monotonic() - start)
    q.close()

reports, own_pages, errors, refused_reports = [], [], [], []
lock = threading.Lock()


def phone(job_list, index):
    for at, who, games in job_list:
        time.sleep(max(0, at - (time.monotonic() - t0)))
        # Each phone has its own address (127.0.0.2 onwards), or all share
        # the venue's one.
        addr = "127.0.0.1" if one_address else f"127.0.{1 + who // 250}.{2 + who % 250}"
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60, source_address=(addr, 0))
        for game, result in games:
            start = time.monotonic()
            conn.request("POST", f"/api/v1/player/{key[who]}/results",
                         json.dumps({"game": game, "result": result}),
                         {"Content-Type": "application/json"})
            r = conn.getresponse()
            r.read()
            with lock:
                reports.append(time.monotonic() - start)
                if r.status != 200:
                    errors.append(("report", r.status))
                    refused_reports.append(r.status)
        start = time.monotonic()
        conn.request("GET", f"/player/{key[who]}", headers={"Accept-Encoding": "br, gzip"})
        r = conn.getresponse()
        r.read()
        with lock:
            own_pages.append(time.monotonic() - start)
            if r.status != 200:
                errors.append(("own page", r.status))
        conn.close()


pages = [f"/t/{tid}/rounds/1", f"/t/{tid}/standings", f"/t/{tid}/display",
         f"/t/{tid}/players/{tables[0]['first_id']}"]
seen = {p: [] for p in pages}


def read_pages(until, n):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    k = n
    while not until.is_set():
        path = pages[k % len(pages)]
        k += 1
        start = time.monotonic()
        conn.request("GET", path, headers={"Accept-Encoding": "br, gzip"})
        r = conn.getresponse()
        r.read()
        took = time.monotonic() - start
        with lock:
            seen[path].append(took)
            if r.status != 200:
                errors.append((path, r.status))
        time.sleep(0.005)


def summary(label, times):
    times = sorted(times)
    if not times:
        print(f"{label}: none")
        return
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    print(f"{label}: {len(times)}, median {statistics.median(times) * 1000:.1f} ms, "
          f"p99 {p99 * 1000:.1f} ms, slowest {times[-1] * 1000:.1f} ms")


until = threading.Event()
read_threads = [threading.Thread(target=read_pages, args=(until, n)) for n in range(readers)]
t0 = time.monotonic()
for th in read_threads:
    th.start()
phones = 16
phone_threads = [threading.Thread(target=phone, args=(jobs[i::phones], i)) for i in range(phones)]
for th in phone_threads:
    th.start()
for th in phone_threads:
    th.join()
elapsed = time.monotonic() - t0
until.set()
for th in read_threads:
    th.join()

print(f"{players} players, {len(tables)} tables of {games_per_pairing} games"
      f"{', one address' if one_address else ''}: {len(reports)} reports in {elapsed:.1f} s, "
      f"{readers} readers without pause; reports refused: {len(refused_reports)} "
      f"({refused_reports.count(429)} with 429)")
summary("own pages, quiet event", quiet)
summary("reports", reports)
summary("own pages", own_pages)
every = []
for path, times in seen.items():
    summary(f"  {path}", times)
    every += times
summary("public pages", every)
c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
_, round1 = call(c, "GET", f"/api/v1/tournaments/{tid}/rounds/1")
games = [g for p in round1["pairings"] for g in p["games"]]
stored = sum(1 for g in games if g["result"] and g["reported"])
disputed = sum(1 for g in games if g["disputed"])
print(f"stored from reports: {stored} of {len(games)} games; disputed: {disputed}; errors: {errors[:5]}")
server.kill()

#!/usr/bin/env python3
"""Result writes per second through the API, one referee saving one result
after another over one keep-alive connection (each save is a transaction:
the game's update and its audit line).

    bench-writes.py HOST PORT TOKEN GAME_ID COUNT
"""
import http.client
import json
import sys
import time

host, port, token, game, count = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], int(sys.argv[5])
conn = http.client.HTTPConnection(host, port)
headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
times = []
for i in range(count):
    body = json.dumps({"result": "1-0" if i % 2 else "0-1"})
    t = time.perf_counter()
    conn.request("PUT", f"/api/v1/games/{game}", body, headers)
    r = conn.getresponse()
    r.read()
    times.append(time.perf_counter() - t)
    if r.status != 200:
        sys.exit(f"write {i}: {r.status}")
times.sort()
total = sum(times)
print(f"{count} writes in {total:.2f} s: {count / total:.0f}/s, median {times[count // 2] * 1000:.2f} ms, p99 {times[int(count * 0.99)] * 1000:.2f} ms")

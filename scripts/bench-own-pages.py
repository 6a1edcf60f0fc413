#!/usr/bin/env python3
"""What a result costs when every player's own page is open: a Swiss of
PLAYERS (default 1,000) has round 1 published; a referee enters one
result, and then every player's page is fetched once, 32 at a time, as
the phones do when the page's notice says something changed (browsers
send `Accept-Encoding: br, gzip`). Prints the server's CPU time for those
fetches (user + system, from /proc) and their wall time, and checks each
page answered 200 and shows the new result's points.

    bench-own-pages.py KRAAL_BINARY [PLAYERS] [DATABASE_URL]
"""
import http.client
import json
import os
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import served  # noqa: E402


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main():
    binary = sys.argv[1]
    players = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    work = tempfile.mkdtemp(prefix="kraal-own.", dir="/tmp")
    url = sys.argv[3] if len(sys.argv) > 3 else f"sqlite://{work}/kraal.db"
    token = served.prepare(binary, url, admin="bencher")
    server, port = served.start(binary, url)
    caller = served.api(token)

    def call(method, path, body=None):
        conn = http.client.HTTPConnection("127.0.0.1", port)
        try:
            return caller(conn, method, path, body)
        finally:
            conn.close()

    try:
        status, t = call("POST", "/api/v1/tournaments",
                         {"name": "Gauteng Open", "system": "swiss", "rules": "official", "rounds": 7})
        tid = t["id"]
        for i in range(players):
            status, _ = call("POST", f"/api/v1/tournaments/{tid}/players",
                             {"name": f"Player {i + 1:04d}", "rating": 2200 - i})
            assert status == 201, status
        status, r1 = call("POST", f"/api/v1/tournaments/{tid}/rounds", {})
        assert status == 201, (status, r1)
        status, links = call("GET", f"/api/v1/tournaments/{tid}/rounds/1/links")
        paths = [l["url"][l["url"].index("/player/"):] for l in links["links"] if l["url"]]
        game = r1["pairings"][0]["games"][0]["id"]

        def fetch(path):
            c = http.client.HTTPConnection("127.0.0.1", port)
            c.request("GET", path, headers={"Accept-Encoding": "br, gzip"})
            res = c.getresponse()
            body = res.read()
            c.close()
            return res.status, len(body)

        # Every page once before the result, as the phones opened them.
        with ThreadPoolExecutor(32) as pool:
            assert all(s == 200 for s, _ in pool.map(fetch, paths))
        status, _ = call("PUT", f"/api/v1/games/{game}", {"result": "1-0"})
        assert status == 200, status
        before = cpu_seconds(server.pid)
        started = time.monotonic()
        with ThreadPoolExecutor(32) as pool:
            answers = list(pool.map(fetch, paths))
        wall = time.monotonic() - started
        cpu = cpu_seconds(server.pid) - before
        assert all(s == 200 for s, _ in answers), {s for s, _ in answers}
        print(f"{len(paths)} players' pages after one result: server CPU {cpu:.2f} s, "
              f"wall {wall:.2f} s (32 at a time), {sum(n for _, n in answers) / len(answers):.0f} B a page")
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()

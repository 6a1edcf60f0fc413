#!/usr/bin/env python3
"""Live boards under a round played at the board: GAMES games recorded at
once, each by both players' phones (a ply every INTERVAL seconds per game,
the games' starts spread evenly over one interval), while VIEWERS open
live boards follow them (`GET /t/{tid}/games/{gid}/events`, spread evenly
over the games) and FEEDS more follow the whole round
(`GET /api/v1/tournaments/{tid}/rounds/1/live`), and a reader fetches the
standings and the round page a few times a second (`Accept-Encoding:
gzip, br`).

The script serves a fresh database itself (`kraal migrate`, an admin and
its token, `kraal serve` on a free loopback port), makes a Swiss of 200
players (twice GAMES if more) with the official rules (two games a
pairing; game 1 of each of the first GAMES pairings is recorded),
publishes round 1, reads the players' links and reads the two pages once.
Each game is a legal sequence of placements (the 24 junctions split
between the two sides so that neither ever has a line of three: no ply
calls for a shot); for each ply the starter's phone posts `POST
/api/v1/player/{key}/games/{gid}/plies` and the other phone the same ply
once the first is answered. A game stops after 24 plies or at the end of
the run; the script then waits up to 5 s for the last plies' events.

Prints:
- deliveries: every (viewer, ply) pair expected against those received;
  the latency from the starter's POST being answered to the viewer
  reading the event (p50, p95, p99, max), and from the POST being sent;
  the first viewer of each ply and the spread of one ply over its
  viewers; `"ply": null` events (a stream that fell behind); streams the
  server ended;
- the plies' POST latency and their statuses;
- the other pages' latency (p50, p99, max) during play, and before it
  with the streams already open (`--quiet` seconds of pages alone);
- each server process's memory (VmHWM, and the largest VmRSS read every
  half second) and CPU time (user + system, /proc/PID/stat) over the run;
- the load generator's own CPU time and how late its event loops woke:
  it runs on the same cores as the server and competes with it. The
  viewers are read in this process, the phones and the page reader in a
  second one, so that reading 10,000 streams delays neither;
- the machine's busy CPU time over the run and how much of it went to
  other processes (PostgreSQL's among them), and the load average;
- the targets: every ply delivered, its p99 within 1 s, the other pages'
  p99 within 20 ms, at most 300 MB a server process;
- the warnings and errors in each server's log.

Exits 1 if any delivery is missing (a stream that did not open misses
all of its own).

    scripts/bench-live-boards.py target/release/kraal
    scripts/bench-live-boards.py target/release/kraal --backend postgres \\
        --pg-url postgres://postgres@127.0.0.1:55433/postgres
    scripts/bench-live-boards.py target/release/kraal --backend postgres \\
        --pg-url postgres://postgres@127.0.0.1:55433/postgres --two-processes
    scripts/bench-live-boards.py target/debug/kraal --games 10 --viewers 200 --seconds 20

Defaults: 100 games, 10,000 viewers, 10 feeds, 60 seconds, a ply every
5 s (`--interval`), 4 page reads a second (`--page-rate`) and 10 s of
them before the first ply (`--quiet`), the server's own number of
workers (`--workers`). `--backend postgres` makes a new
database in the cluster that `--pg-url` (default: KRAAL_TEST_POSTGRES_URL)
names, with `psql`, which must be on the PATH, and drops it afterwards
(`--keep` keeps it, and the SQLite file and the servers' logs).
`--two-processes` serves two processes on the one database: each game's
viewers alternate between them, the plies go to the first, the pages
alternate, and the deliveries are given per process. Every stream is a
file descriptor here and in the server: the script raises its own
open-file limit (and so the servers') to the hard limit, and holds fewer
viewers, saying so, if that is not enough.
"""
import argparse
import asyncio
import gc
import http.client
import itertools
import json
import math
import multiprocessing
import os
import platform
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import served  # noqa: E402

# The 20 lines of three of the board (OGR 2.3), junctions by name.
JUNCTIONS = ["A1", "D1", "G1", "B2", "D2", "F2", "C3", "D3", "E3", "A4", "B4", "C4",
             "E4", "F4", "G4", "C5", "D5", "E5", "B6", "D6", "F6", "A7", "D7", "G7"]
LINES = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9, 10, 11], [12, 13, 14], [15, 16, 17],
         [18, 19, 20], [21, 22, 23], [0, 9, 21], [3, 10, 18], [6, 11, 15], [1, 4, 7],
         [16, 19, 22], [8, 12, 17], [5, 13, 20], [2, 14, 23], [0, 3, 6], [2, 5, 8],
         [21, 18, 15], [23, 20, 17]]


def placements():
    """24 placements, dark and light in turn, filling the board so that
    neither side ever has a line of three (no ply calls for a shot): the
    first split of the junctions into two sets of 12 that leaves no line
    within either."""
    for dark in itertools.combinations(range(24), 12):
        d = set(dark)
        if all(0 < len(d.intersection(line)) < 3 for line in LINES):
            light = [j for j in range(24) if j not in d]
            return [JUNCTIONS[j] for pair in zip(dark, light) for j in pair]
    raise AssertionError("no split of the board without a line")


PLIES = placements()
DATA = re.compile(rb"^data: (.*)$", re.M)
GAME = re.compile(rb'"game":(\d+|null)')
PLY = re.compile(rb'"ply":(\d+|null)')


def pct(values, p):
    """The p-th percentile (nearest rank) of sorted `values`."""
    if not values:
        return float("nan")
    return values[min(len(values) - 1, max(0, math.ceil(p / 100 * len(values)) - 1))]


def ms(x):
    return f"{x * 1000:.0f} ms" if x == x else "-"


def ms1(x):
    return f"{x * 1000:.1f} ms" if x == x else "-"


def summary(values, ps=(50, 99)):
    v = sorted(values)
    parts = [f"p{p} {ms1(pct(v, p))}" for p in ps]
    return ", ".join(parts + [f"max {ms1(v[-1]) if v else '-'}"])


def machine_busy():
    """CPU seconds the whole machine has spent busy (all cores, /proc/stat)."""
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    return (sum(v[:8]) - v[3] - v[4]) / os.sysconf("SC_CLK_TCK")


def cpu_by_process():
    """{pid: (name, CPU seconds)} of every process now."""
    out = {}
    tick = os.sysconf("SC_CLK_TCK")
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat") as f:
                text = f.read()
        except OSError:
            continue
        name = text[text.index("(") + 1:text.rindex(")")]
        fields = text.rsplit(")", 1)[1].split()
        out[int(pid)] = (name, (int(fields[11]) + int(fields[12])) / tick)
    return out


def proc_stat(pid):
    """(CPU seconds user + system, VmRSS kB, VmHWM kB) of process `pid`."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    rss = hwm = 0
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                rss = int(line.split()[1])
            elif line.startswith("VmHWM:"):
                hwm = int(line.split()[1])
    return cpu, rss, hwm


# ---------------------------------------------------------------- HTTP


class Http:
    """One HTTP/1.1 client connection, opened again when the server may
    have closed it (its keep-alive is 5 s) or did."""

    def __init__(self, port):
        self.port = port
        self.reader = self.writer = None
        self.used = 0.0

    def close(self):
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None

    async def call(self, method, path, body=None, headers=()):
        data = json.dumps(body).encode() if body is not None else b""
        head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n"
        for k, v in headers:
            head += f"{k}: {v}\r\n"
        if body is not None:
            head += f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n"
        request = head.encode() + b"\r\n" + data
        for attempt in (0, 1):
            fresh = self.writer is None or time.monotonic() - self.used > 3.0
            if fresh:
                self.close()
                self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
            try:
                self.writer.write(request)
                return await self._answer()
            except (ConnectionError, asyncio.IncompleteReadError):
                self.close()
                if fresh or attempt:
                    raise

    async def _answer(self):
        r = self.reader
        head = (await r.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
        status = int(head[0].split()[1])
        headers = {}
        for line in head[1:]:
            if ":" in line:
                k, v = line.split(":", 1)
                headers[k.strip().lower()] = v.strip()
        if "content-length" in headers:
            body = await r.readexactly(int(headers["content-length"]))
        elif headers.get("transfer-encoding", "").lower() == "chunked":
            parts = []
            while True:
                size = int((await r.readuntil(b"\r\n")).split(b";")[0], 16)
                parts.append(await r.readexactly(size + 2))
                if size == 0:
                    break
            body = b"".join(p[:-2] for p in parts)
        else:
            body = await r.read()
            self.close()
        if headers.get("connection", "").lower() == "close":
            self.close()
        self.used = time.monotonic()
        return status, headers, body


async def loop_lag(lags, until):
    """How late this process's event loop wakes a 20 ms sleep."""
    while time.monotonic() < until:
        t = time.monotonic()
        await asyncio.sleep(0.02)
        lags.append(time.monotonic() - t - 0.02)


# ---------------------------------------------------------------- the phones


def driver_main(pipe, post_port, page_ports, tid, tables, args):
    """The phones and the page reader, in a process of their own: waits
    for the start time, plays, and sends back what it saw."""
    before, t0 = pipe.recv()
    gc.collect()
    gc.disable()
    cpu0 = sum(os.times()[:2])
    result = asyncio.run(drive(before, t0, post_port, page_ports, tid, tables, args))
    result["cpu"] = sum(os.times()[:2]) - cpu0
    result["pid"] = os.getpid()
    pipe.send(result)
    pipe.close()


async def drive(before, t0, post_port, page_ports, tid, tables, args):
    """Pages alone from `before`, then plies too from `t0` for
    args.seconds."""
    end = t0 + args.seconds
    posts = []   # (table index, ply, phone 0|1, scheduled, sent, answered, status, ply status)
    pages = []   # (path, port, sent, answered, status, bytes)
    errors = []
    lags = []

    async def table(i, t):
        phones = [Http(post_port), Http(post_port)]
        start = t0 + i * args.interval / len(tables)
        for n, move in enumerate(PLIES, 1):
            at = start + (n - 1) * args.interval
            if at >= end:
                break
            await asyncio.sleep(max(0.0, at - time.monotonic()))
            for phone, key in enumerate((t["starter_key"], t["other_key"])):
                sent = time.monotonic()
                try:
                    status, _, body = await phones[phone].call(
                        "POST", f"/api/v1/player/{key}/games/{t['game']}/plies",
                        {"ply": n, "move": move})
                    answered = time.monotonic()
                    try:
                        what = json.loads(body).get("status") if status in (200, 201) else body[:200].decode()
                    except ValueError:
                        what = body[:200].decode(errors="replace")
                except (OSError, asyncio.IncompleteReadError) as e:
                    answered, status, what = time.monotonic(), type(e).__name__, None
                posts.append((i, n, phone, at, sent, answered, status, what))
        for p in phones:
            p.close()

    async def reader():
        conns = [Http(p) for p in page_ports]
        paths = [f"/t/{tid}/standings", f"/t/{tid}/rounds/1"]
        k = 0
        while True:
            at = before + k / args.page_rate
            if at >= end:
                break
            await asyncio.sleep(max(0.0, at - time.monotonic()))
            path, c = paths[k % len(paths)], conns[(k // len(paths)) % len(conns)]
            k += 1
            sent = time.monotonic()
            try:
                status, _, body = await c.call("GET", path, headers=[("Accept-Encoding", "gzip, br")])
                pages.append((path, c.port, sent, time.monotonic(), status, len(body)))
            except (OSError, asyncio.IncompleteReadError) as e:
                errors.append(f"{path}: {type(e).__name__}")
        for c in conns:
            c.close()

    await asyncio.sleep(max(0.0, before - time.monotonic()))
    lag = asyncio.create_task(loop_lag(lags, end))
    await asyncio.gather(reader(), *(table(i, t) for i, t in enumerate(tables)))
    lag.cancel()
    return {"posts": posts, "pages": pages, "errors": errors, "lags": lags}


# ---------------------------------------------------------------- the viewers


class Viewer:
    __slots__ = ("port", "path", "table", "arrivals", "events", "nulls", "closed", "error")

    def __init__(self, port, path, table):
        self.port, self.path, self.table = port, path, table
        # Game viewer: ply -> first arrival; feed: (game, ply) -> first arrival.
        self.arrivals = {}
        self.events = 0
        self.nulls = 0
        self.closed = False
        self.error = None


async def watch(v, opened):
    """Opens viewer `v`'s stream, says so through `opened`, then reads its
    events until cancelled, noting when each ply first arrived."""
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", v.port, limit=1 << 16)
        writer.write(f"GET {v.path} HTTP/1.1\r\nHost: 127.0.0.1:{v.port}\r\n"
                     "Accept: text/event-stream\r\n\r\n".encode())
        head = await reader.readuntil(b"\r\n\r\n")
        status = head.split(None, 2)[1]
        if status != b"200":
            v.error = f"HTTP {status.decode()}"
            writer.close()
            return
    except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError) as e:
        v.error = type(e).__name__
        return
    finally:
        opened.release()
    feed = v.table is None
    arrivals = v.arrivals
    rest = b""
    try:
        while True:
            chunk = await reader.read(1 << 16)
            now = time.monotonic()
            if not chunk:
                v.closed = True
                return
            text = rest + chunk
            cut = text.rfind(b"\n") + 1
            text, rest = text[:cut], text[cut:]
            for m in DATA.finditer(text):
                data = m.group(1)
                ply = PLY.search(data)
                if ply is None or ply.group(1) == b"null":
                    v.nulls += 1
                    continue
                v.events += 1
                n = int(ply.group(1))
                key = (int(GAME.search(data).group(1)), n) if feed else n
                if key not in arrivals:
                    arrivals[key] = now
    except (OSError, asyncio.IncompleteReadError):
        v.closed = True
    finally:
        writer.close()


async def view_and_measure(args, servers, ports, tid, tables, pipe):
    viewers = []
    for i in range(args.viewers):
        t = tables[i % len(tables)]
        # Each game's viewers alternate between the processes.
        port = ports[(i + i // len(tables)) % len(ports)]
        viewers.append(Viewer(port, f"/t/{tid}/games/{t['game']}/events", i % len(tables)))
    for i in range(args.feeds):
        viewers.append(Viewer(ports[i % len(ports)], f"/api/v1/tournaments/{tid}/rounds/1/live", None))

    before = {s.pid: proc_stat(s.pid) for s in servers}
    opened = asyncio.Semaphore(0)
    started = time.monotonic()
    tasks = []
    batch = 200
    for i in range(0, len(viewers), batch):
        for v in viewers[i:i + batch]:
            tasks.append(asyncio.create_task(watch(v, opened)))
        for _ in viewers[i:i + batch]:
            await opened.acquire()
    opening = time.monotonic() - started
    failed = [v for v in viewers if v.error]
    held = {s.pid: proc_stat(s.pid) for s in servers}
    print(f"opened {len(viewers) - len(failed)} of {len(viewers)} streams in {opening:.1f} s"
          + (f" ({len(failed)} failed: {sorted({v.error for v in failed})})" if failed else "")
          + "; server memory (VmRSS) "
          + ", ".join(f"{before[p][1] / 1024:.0f} -> {held[p][1] / 1024:.0f} MB" for p in before),
          flush=True)

    # No collector pauses while timing: what the streams hold is kept to
    # the end anyway.
    gc.collect()
    gc.freeze()
    gc.disable()
    before = time.monotonic() + 0.5
    t0 = before + args.quiet
    pipe.send((before, t0))
    await asyncio.sleep(max(0.0, t0 - time.monotonic()))
    measured_from = time.monotonic()
    cpu0 = {s.pid: proc_stat(s.pid)[0] for s in servers}
    self0 = resource.getrusage(resource.RUSAGE_SELF)
    busy0 = machine_busy()
    each0 = cpu_by_process()
    peak = {s.pid: 0 for s in servers}
    lags = []
    lag = asyncio.create_task(loop_lag(lags, float("inf")))
    while not pipe.poll():
        for s in servers:
            peak[s.pid] = max(peak[s.pid], proc_stat(s.pid)[1])
        await asyncio.sleep(0.5)
    result = pipe.recv()
    run_end = time.monotonic()
    cpu = {s.pid: proc_stat(s.pid)[0] - cpu0[s.pid] for s in servers}
    self1 = resource.getrusage(resource.RUSAGE_SELF)
    busy = machine_busy() - busy0
    each1 = cpu_by_process()

    # What every viewer should have: each ply its starter's phone saw taken.
    posted, sent_at = {}, {}
    for i, n, phone, at, sent, answered, status, what in result["posts"]:
        if phone == 0 and status in (200, 201):
            posted[(i, n)] = answered
            sent_at[(i, n)] = sent
    expected_by_table = {}
    for (i, n), t in posted.items():
        expected_by_table.setdefault(i, []).append((n, t))
    last_post = max(posted.values(), default=run_end)

    def missing_count():
        k = 0
        for v in viewers:
            if v.error:
                continue
            if v.table is None:
                k += sum(1 for (i, n) in posted if (tables[i]["game"], n) not in v.arrivals)
            else:
                k += sum(1 for n, _ in expected_by_table.get(v.table, ()) if n not in v.arrivals)
        return k

    # The last plies' events: wait for them (5 s at most after the last ply).
    while time.monotonic() < last_post + 5 and missing_count():
        await asyncio.sleep(0.25)
    for s in servers:
        peak[s.pid] = max(peak[s.pid], proc_stat(s.pid)[1])
    final = {s.pid: proc_stat(s.pid) for s in servers}
    lag.cancel()
    gc.enable()
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)

    # ---- deliveries
    latencies = {p: [] for p in ports}
    feed_lat = []
    from_sent = []
    firsts, spreads = {}, {}
    # A stream that did not open misses all its deliveries.
    missing = covered = 0
    for v in viewers:
        if v.table is None:
            for (i, n), t in posted.items():
                a = v.arrivals.get((tables[i]["game"], n))
                if a is None:
                    missing += 1
                else:
                    feed_lat.append(a - t)
                    from_sent.append(a - sent_at[(i, n)])
            continue
        for n, t in expected_by_table.get(v.table, ()):
            a = v.arrivals.get(n)
            if a is None:
                missing += 1
                if any(m > n for m in v.arrivals):
                    covered += 1
                continue
            latencies[v.port].append(a - t)
            key = (v.table, n)
            from_sent.append(a - sent_at[key])
            lo, hi = spreads.get(key, (a, a))
            spreads[key] = (min(lo, a), max(hi, a))
            firsts[key] = min(firsts.get(key, a), a)
    game_lat = sorted(x for p in ports for x in latencies[p])
    every = sorted(game_lat + feed_lat)
    expected = len(every) + missing
    print()
    print(f"plies taken: {len(posted)} (of {len(tables)} games); viewer streams: "
          f"{sum(1 for v in viewers if v.table is not None and not v.error)} on games, "
          f"{sum(1 for v in viewers if v.table is None and not v.error)} on the round feed")
    print(f"deliveries: {len(every)} of {expected} received, {missing} missing"
          + (f" ({covered} of them with a later ply's event received)" if missing else ""))
    print(f"  ply -> viewer: p50 {ms(pct(every, 50))}, p95 {ms(pct(every, 95))}, "
          f"p99 {ms(pct(every, 99))}, max {ms(every[-1] if every else float('nan'))} "
          f"(min {ms(every[0] if every else float('nan'))}; counted from the starter's POST being answered)")
    from_sent.sort()
    print(f"  counted from the POST being sent instead: p50 {ms(pct(from_sent, 50))}, "
          f"p99 {ms(pct(from_sent, 99))}, max {ms(from_sent[-1] if from_sent else float('nan'))}")
    if len(ports) > 1:
        for k, p in enumerate(ports):
            lat = sorted(latencies[p])
            where = "the process the plies went to" if k == 0 else "the other process"
            print(f"  viewers on {where}: {len(lat)} deliveries, p50 {ms(pct(lat, 50))}, "
                  f"p99 {ms(pct(lat, 99))}, max {ms(lat[-1] if lat else float('nan'))}")
    if feed_lat:
        f = sorted(feed_lat)
        print(f"  round feeds: p50 {ms(pct(f, 50))}, p99 {ms(pct(f, 99))}, max {ms(f[-1])}")
    first = sorted(firsts[k] - posted[k] for k in firsts)
    spread = sorted(hi - lo for lo, hi in spreads.values())
    print(f"  first viewer of a ply: p50 {ms(pct(first, 50))}, p99 {ms(pct(first, 99))}; "
          f"first to last viewer of a ply: p50 {ms(pct(spread, 50))}, p99 {ms(pct(spread, 99))}, "
          f"max {ms(spread[-1] if spread else float('nan'))}")
    nulls = sum(v.nulls for v in viewers)
    closed = sum(1 for v in viewers if v.closed)
    events = sum(v.events for v in viewers if v.table is not None)
    got = sum(len(v.arrivals) for v in viewers if v.table is not None)
    print(f"  events read by the game viewers: {events} for {got} plies ({events / max(got, 1):.2f} a ply); "
          f"\"ply\": null events (fell behind): {nulls}; streams the server ended: {closed}")

    # ---- the phones
    posts = result["posts"]
    statuses, plies = {}, {}
    for *_, status, what in posts:
        statuses[status] = statuses.get(status, 0) + 1
        if status in (200, 201):
            plies[what] = plies.get(what, 0) + 1
    post_lat = [answered - sent for _, _, _, _, sent, answered, status, _ in posts]
    late = sorted(sent - at for i, n, phone, at, sent, *_ in posts if phone == 0)
    print(f"ply POSTs: {len(posts)} ({', '.join(f'{n} x {s}' for s, n in sorted(statuses.items(), key=str))}; "
          f"ply status {', '.join(f'{n} {s}' for s, n in sorted(plies.items(), key=str))}): "
          f"{summary(post_lat)}; starters' POSTs sent late by p99 {ms1(pct(late, 99))}")
    odd = [(i, n, phone, status, what) for i, n, phone, _, _, _, status, what in posts
           if status not in (200, 201) or what != "accepted"]
    for i, n, phone, status, what in odd[:5]:
        print(f"  game {tables[i]['game']} ply {n} phone {phone + 1}: {status} {what}")

    # ---- the pages
    quiet = [(answered - sent, status) for _, _, sent, answered, status, _ in result["pages"] if sent < t0]
    pages = [row for row in result["pages"] if row[2] >= t0]
    by_path = {}
    for path, port, sent, answered, status, size in pages:
        by_path.setdefault(path, []).append((answered - sent, status, size))
    all_pages = [d for rows in by_path.values() for d, _, _ in rows]
    bad = [(p, s) for p, rows in by_path.items() for _, s, _ in rows if s != 200]
    bad += [("before play", s) for _, s in quiet if s != 200]
    if quiet:
        print(f"other pages before play (streams open, no plies, {args.quiet:g} s): {len(quiet)} fetched, "
              f"{summary([d for d, _ in quiet])}")
    print(f"other pages during play: {len(pages)} fetched, {summary(all_pages)}"
          + (f"; not 200: {len(bad)} {sorted(set(bad), key=str)[:4]}" if bad else ""))
    for path, rows in by_path.items():
        print(f"  {path}: {len(rows)}, {summary([d for d, _, _ in rows])}, {rows[-1][2]} B as sent")
    for e in result["errors"][:5]:
        print(f"  error: {e}")

    # ---- the server and the load generator
    span = run_end - measured_from
    for k, s in enumerate(servers):
        name = f"server {k + 1} (pid {s.pid})" if len(servers) > 1 else f"server (pid {s.pid})"
        top = max(peak[s.pid], final[s.pid][2])
        print(f"{name}: memory at most {top / 1024:.0f} MB (VmHWM {final[s.pid][2] / 1024:.0f} MB, "
              f"largest VmRSS seen {peak[s.pid] / 1024:.0f} MB); "
              f"CPU {cpu[s.pid]:.1f} s over the {span:.0f} s of the run ({cpu[s.pid] / span * 100:.0f}% of a core)")
    own = (self1.ru_utime + self1.ru_stime) - (self0.ru_utime + self0.ru_stime)
    lags.sort()
    dlags = sorted(result["lags"])
    print(f"load generator (same cores): viewers' process CPU {own:.1f} s, loop late p99 {ms1(pct(lags, 99))}, "
          f"max {ms1(lags[-1] if lags else float('nan'))}; phones' and pages' process CPU {result['cpu']:.1f} s, "
          f"loop late p99 {ms1(pct(dlags, 99))}, max {ms1(dlags[-1] if dlags else float('nan'))}")
    others = max(0.0, busy - sum(cpu.values()) - own - result["cpu"])
    mine = {os.getpid(), *(s.pid for s in servers)}
    names = {}
    for pid, (name, t) in each1.items():
        if pid not in mine and pid != result["pid"]:
            spent = t - each0.get(pid, (name, 0.0))[1] if each0.get(pid, ("",))[0] == name else t
            name = name.split("/")[0]
            names[name] = names.get(name, 0.0) + spent
    top = sorted(((t, n) for n, t in names.items() if t >= 0.1), reverse=True)[:4]
    print(f"machine: {busy:.1f} s of CPU busy over {span:.0f} s ({busy / span / (os.cpu_count() or 1) * 100:.0f}% "
          f"of {os.cpu_count()} cores), of which {others:.1f} s other processes"
          + (f" (the most among those seen at the start or the end: {', '.join(f'{n} {t:.1f} s' for t, n in top)})"
             if top else "")
          + f"; load average {open('/proc/loadavg').read().split()[0]} at the end")
    memory = max(max(peak[p], final[p][2]) for p in peak) / 1024
    p99s = [pct(every, 99), pct(sorted(all_pages), 99)]
    print(f"targets: every ply delivered {'yes' if not missing else 'NO'}; "
          f"ply p99 {ms(p99s[0])} <= 1 s {'yes' if p99s[0] <= 1 else 'NO'}; "
          f"other pages p99 during play {ms1(p99s[1])} <= 20 ms "
          f"{'yes' if p99s[1] <= 0.02 and not bad and not result['errors'] else 'NO'}; "
          f"memory {memory:.0f} MB <= 300 MB a process {'yes' if memory <= 300 else 'NO'}")
    return missing


# ---------------------------------------------------------------- setup


def start(binary, url, workers, log):
    """`kraal serve` on a free port with its log in `log`; (process, port)."""
    port = served.free_port()
    cmd = [binary, "serve", "--bind", f"127.0.0.1:{port}"]
    if workers:
        cmd += ["--workers", str(workers)]
    server = subprocess.Popen(cmd, env=dict(os.environ, DATABASE_URL=url),
                              stdout=log, stderr=subprocess.STDOUT)
    for _ in range(600):
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            c.request("GET", "/healthz")
            if c.getresponse().status == 200:
                return server, port
        except OSError:
            pass
        if server.poll() is not None:
            break
        time.sleep(0.05)
    server.kill()
    raise SystemExit(f"the app did not start (see {log.name})")


def make_event(port, token, players, games):
    call = served.api(token)
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    st, t = call(c, "POST", "/api/v1/tournaments",
                 {"name": "Highveld Live Open", "rules": "official", "rounds": 7})
    assert st == 201, (st, t)
    tid = t["id"]
    for i in range(players):
        st, body = call(c, "POST", f"/api/v1/tournaments/{tid}/players",
                        {"name": f"Player {i + 1:03}", "rating": 2200 - i})
        assert st == 201, (st, body)
    st, r1 = call(c, "POST", f"/api/v1/tournaments/{tid}/rounds", {})
    assert st == 201, (st, r1)
    st, links = call(c, "GET", f"/api/v1/tournaments/{tid}/rounds/1/links")
    assert st == 200, (st, links)
    key = {l["player"]: l["url"].rsplit("/", 1)[1] for l in links["links"] if l["url"]}
    tables = []
    for p in r1["pairings"]:
        if p["second_id"] is None:
            continue
        g = next(g for g in p["games"] if g["number"] == 1)
        starter, other = (p["first_id"], p["second_id"]) if g["first_started"] else (p["second_id"], p["first_id"])
        tables.append({"game": g["id"], "starter_key": key[starter], "other_key": key[other]})
    c.close()
    assert len(tables) >= games, f"round 1 has {len(tables)} pairings, {games} wanted"
    return tid, tables[:games]


def psql(url, sql):
    subprocess.run(["psql", url, "-v", "ON_ERROR_STOP=1", "-qc", sql], check=True,
                   stdout=subprocess.DEVNULL)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("binary", help="the kraal binary")
    ap.add_argument("--backend", choices=["sqlite", "postgres"], default="sqlite")
    ap.add_argument("--pg-url", help="a PostgreSQL cluster (any database of it) to make the new database in",
                    default=os.environ.get("KRAAL_TEST_POSTGRES_URL"))
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--viewers", type=int, default=10000, help="live boards of single games")
    ap.add_argument("--feeds", type=int, default=10, help="streams of the whole round's feed")
    ap.add_argument("--seconds", type=float, default=60, help="how long the games are played")
    ap.add_argument("--interval", type=float, default=5, help="seconds between two plies of a game")
    ap.add_argument("--page-rate", type=float, default=4, help="other pages fetched a second")
    ap.add_argument("--quiet", type=float, default=10,
                    help="seconds of other pages alone, streams open, before the first ply")
    ap.add_argument("--workers", type=int, help="the servers' worker threads (default: theirs)")
    ap.add_argument("--two-processes", action="store_true")
    ap.add_argument("--keep", action="store_true", help="keep the database and the servers' logs")
    args = ap.parse_args()
    binary = os.path.abspath(args.binary)
    players = max(200, 2 * args.games)

    # Every stream is a file descriptor here and in the server (which
    # inherits this limit).
    print(f"$ {' '.join([os.path.basename(sys.argv[0])] + sys.argv[1:])}")
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        room = hard - 512
        streams = args.viewers + args.feeds
        if streams > room:
            print(f"the open-file limit is {hard}: holding {room} streams, not {streams}")
            args.viewers = max(0, room - args.feeds)

    cpu_model = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
    built = time.strftime("%Y-%m-%d %H:%M", time.localtime(os.path.getmtime(binary)))
    print(f"machine: {os.cpu_count()} cores ({cpu_model}), {platform.system()} {platform.release()}, "
          f"Python {platform.python_version()}; binary {args.binary} (built {built})")
    print(f"{args.backend}{', two app processes' if args.two_processes else ''}; {args.games} games, "
          f"a ply every {args.interval:g} s each ({args.games / args.interval:.0f} plies/s, "
          f"each posted by both phones), {args.viewers} game viewers + {args.feeds} round feeds, "
          f"{args.seconds:g} s, {args.page_rate:g} other pages/s; "
          f"{args.workers or 'the default number of'} workers a process", flush=True)

    work = tempfile.mkdtemp(prefix="kraal-live.", dir="/tmp")
    admin_url = None
    if args.backend == "sqlite":
        url = f"sqlite://{work}/kraal.db"
    else:
        if not args.pg_url:
            raise SystemExit("--backend postgres needs --pg-url (or KRAAL_TEST_POSTGRES_URL)")
        if shutil.which("psql") is None:
            raise SystemExit("--backend postgres makes its database with psql, which is not on the PATH")
        admin_url = args.pg_url
        name = f"kraal_live_{os.getpid()}_{int(time.time())}"
        psql(admin_url, f"CREATE DATABASE {name}")
        u = urllib.parse.urlsplit(admin_url)
        url = urllib.parse.urlunsplit((u.scheme, u.netloc, "/" + name, u.query, u.fragment))

    servers, logs = [], []
    missing = 1
    try:
        token = served.prepare(binary, url, admin="bencher")
        ports = []
        for k in range(2 if args.two_processes else 1):
            log = open(os.path.join(work, f"server{k + 1}.log"), "wb")
            logs.append(log)
            s, p = start(binary, url, args.workers, log)
            servers.append(s)
            ports.append(p)
        setup = time.monotonic()
        tid, tables = make_event(ports[0], token, players, args.games)
        # The pages as they stood before play began: read once on each process.
        for p in ports:
            for path in (f"/t/{tid}/standings", f"/t/{tid}/rounds/1"):
                c = http.client.HTTPConnection("127.0.0.1", p, timeout=60)
                c.request("GET", path, headers={"Accept-Encoding": "gzip, br"})
                assert c.getresponse().status == 200, path
                c.close()
        print(f"event: {players} players, round 1 published, {len(tables)} games recorded "
              f"(set up in {time.monotonic() - setup:.1f} s)", flush=True)

        ctx = multiprocessing.get_context("fork")
        here, there = ctx.Pipe()
        driver = ctx.Process(target=driver_main, args=(there, ports[0], ports, tid, tables, args))
        driver.start()
        there.close()
        try:
            missing = asyncio.run(view_and_measure(args, servers, ports, tid, tables, here))
        finally:
            if driver.is_alive():
                driver.terminate()
            driver.join()
    finally:
        for s in servers:
            s.terminate()
        for s in servers:
            try:
                s.wait(timeout=10)
            except subprocess.TimeoutExpired:
                s.kill()
                s.wait()
        said = []
        for log in logs:
            log.close()
            lines = [re.sub(r"\x1b\[[0-9;]*m", "", l) for l in open(log.name, errors="replace")]
            lines = [l for l in lines if re.search(r"\b(WARN|ERROR)\b", l)]
            said.append(f"{os.path.basename(log.name)}: {len(lines)} warnings and errors"
                        + "".join(f"\n  {l.rstrip()[:200]}" for l in lines[:5]))
        if args.keep:
            said.append(f"kept: {work}" + (f", database {url}" if admin_url else ""))
        else:
            shutil.rmtree(work, ignore_errors=True)
            if admin_url:
                psql(admin_url, f"DROP DATABASE IF EXISTS {url.rsplit('/', 1)[1].split('?')[0]} WITH (FORCE)")
        print("\n".join(said))
    sys.exit(1 if missing else 0)


if __name__ == "__main__":
    main()

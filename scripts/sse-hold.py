#!/usr/bin/env python3
"""Holds N open event streams of a tournament (as N open round pages would)
and reports how long a change took to reach them.

    sse-hold.py HOST PORT TOURNAMENT N MARK

Prints "connected N" once every stream has its first event, then waits for
the file MARK to hold the time (seconds since the epoch) a result was saved,
and prints how long the next "changed" event took to reach each stream.
Each stream then fetches the standings page again, as an open page does
(gzip, revalidating the copy it holds), and the second line says how those
refetches were answered: how many pages were built for them (one is the
goal: the rest come from the new copy) and when they were done.
"""
import asyncio
import os
import sys
import time

# REFETCH=0: only time the change's arrival (the holder's own refetches
# would compete with its reading of the streams it times).
REFETCH = os.environ.get("REFETCH", "1") != "0"


async def refetch(host, port, tid, etag):
    """GET the standings page as a live page does; its X-Kraal-Page."""
    reader, writer = await asyncio.open_connection(host, port, limit=1 << 16)
    writer.write(
        f"GET /t/{tid}/standings HTTP/1.1\r\nHost: {host}:{port}\r\n"
        f"Accept-Encoding: gzip\r\nIf-None-Match: {etag}\r\nConnection: close\r\n\r\n".encode()
    )
    await writer.drain()
    head = (await reader.readuntil(b"\r\n\r\n")).decode().lower()
    await reader.read()
    writer.close()
    status = head.split()[1]
    how = next((l.split(":", 1)[1].strip() for l in head.splitlines() if l.startswith("x-kraal-page:")), "")
    return status, how


async def stream(host, port, tid, ready, arrivals, i, refetched, etag):
    reader, writer = await asyncio.open_connection(host, port, limit=1 << 16)
    writer.write(
        f"GET /t/{tid}/events HTTP/1.1\r\nHost: {host}:{port}\r\n"
        "Accept: text/event-stream\r\n\r\n".encode()
    )
    await writer.drain()
    first = None
    while True:
        line = await reader.readline()
        if not line:
            return
        text = line.decode().strip()
        if not text.startswith("data: "):
            continue
        revision = int(text[6:])
        if first is None:
            first = revision
            ready.release()
        elif revision != first and i not in arrivals:
            arrivals[i] = time.time()
            if not REFETCH:
                continue
            try:
                status, how = await refetch(host, port, tid, etag)
            except (OSError, asyncio.IncompleteReadError) as e:
                status, how = type(e).__name__, ""
            refetched[i] = (time.time(), status, how)


async def main():
    host, port, tid, n, mark = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), sys.argv[5]
    ready = asyncio.Semaphore(0)
    arrivals = {}
    refetched = {}
    # The tag of the copy every open page holds before the change.
    reader, writer = await asyncio.open_connection(host, port)
    writer.write(
        f"GET /t/{tid}/standings HTTP/1.1\r\nHost: {host}:{port}\r\n"
        "Accept-Encoding: gzip\r\nConnection: close\r\n\r\n".encode()
    )
    head = (await reader.readuntil(b"\r\n\r\n")).decode().lower()
    await reader.read()
    etag = next(l.split(":", 1)[1].strip() for l in head.splitlines() if l.startswith("etag:"))
    writer.close()
    tasks = []
    for i in range(n):
        tasks.append(asyncio.create_task(stream(host, port, tid, ready, arrivals, i, refetched, etag)))
        if i % 100 == 99:
            await asyncio.sleep(0.05)
    for _ in range(n):
        await ready.acquire()
    print(f"connected {n}", flush=True)
    while not (os.path.exists(mark) and os.path.getsize(mark) > 0):
        await asyncio.sleep(0.05)
    saved = float(open(mark).read().strip())
    deadline = time.time() + 10
    while len(arrivals) < n and time.time() < deadline:
        await asyncio.sleep(0.05)
    lat = sorted(t - saved for t in arrivals.values())
    if not lat:
        print("no stream saw the change within 10 s", flush=True)
    else:
        def pct(p):
            return lat[min(len(lat) - 1, int(p * len(lat)))] * 1000
        print(
            f"change reached {len(lat)} of {n} streams: "
            f"median {pct(0.5):.0f} ms, p99 {pct(0.99):.0f} ms, max {lat[-1] * 1000:.0f} ms",
            flush=True,
        )
    while len(refetched) < len(arrivals) and time.time() < deadline + 10:
        await asyncio.sleep(0.05)
    done = sorted(t - saved for t, _, _ in refetched.values())
    if done:
        built = sum(1 for _, _, how in refetched.values() if how == "built")
        statuses = {}
        for _, status, _ in refetched.values():
            statuses[status] = statuses.get(status, 0) + 1
        answers = ", ".join(f"{n} {s}" for s, n in sorted(statuses.items()))
        print(
            f"refetched {len(done)} pages (answers: {answers}; 200 is the new page): "
            f"{built} built, {len(done) - built} from the new copy; done after "
            f"median {done[len(done) // 2] * 1000:.0f} ms, p99 {done[min(len(done) - 1, int(0.99 * len(done)))] * 1000:.0f} ms, "
            f"max {done[-1] * 1000:.0f} ms",
            flush=True,
        )
    for t in tasks:
        t.cancel()


asyncio.run(main())

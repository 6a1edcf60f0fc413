#!/usr/bin/env python3
"""Holds N open event streams of a tournament (as N open round pages would)
and reports how long a change took to reach them.

    sse-hold.py HOST PORT TOURNAMENT N MARK

Prints "connected N" once every stream has its first event, then waits for
the file MARK to hold the time (seconds since the epoch) a result was saved,
and prints how long the next "changed" event took to reach each stream.
"""
import asyncio
import os
import sys
import time


async def stream(host, port, tid, ready, arrivals, i):
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


async def main():
    host, port, tid, n, mark = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), sys.argv[5]
    ready = asyncio.Semaphore(0)
    arrivals = {}
    tasks = []
    for i in range(n):
        tasks.append(asyncio.create_task(stream(host, port, tid, ready, arrivals, i)))
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
    for t in tasks:
        t.cancel()


asyncio.run(main())

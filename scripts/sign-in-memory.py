#!/usr/bin/env python3
"""Sign-in under a crowd: the server's memory and the time of a sign-in.

    sign-in-memory.py KRAAL_BINARY [CONCURRENT]

Starts `kraal serve` on a new SQLite file with 160 referee accounts, then,
CONCURRENT at a time (default 200): correct passwords (one per account, for
100 accounts), wrong passwords (for 40 other accounts, five guesses each,
the most the throttle checks), names no account has, and 50 correct
passwords for one shared account. Samples the server's
resident memory every 10 ms and prints its peak (VmHWM, the kernel's own
high-water mark) and the memory after the crowd has gone, with the answers
by status and the median time of a sign-in with a known and an unknown name
(which must not tell the two apart).
"""
import http.client
import statistics
import sys
import tempfile
import threading
import time
import urllib.parse

import served

binary = sys.argv[1]
crowd = int(sys.argv[2]) if len(sys.argv) > 2 else 200
tmp = tempfile.mkdtemp()
url = f"sqlite://{tmp}/kraal.db"
served.prepare(binary, url, password="venue-password-2026",
               referees=[f"referee{i}" for i in range(160)])
server, port = served.start(binary, url)


def rss(field):
    with open(f"/proc/{server.pid}/status") as f:
        for line in f:
            if line.startswith(field):
                return int(line.split()[1]) / 1024
    return 0.0


print(f"idle: {rss('VmRSS'):.1f} MiB")


def sign_in(name, password, out):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    c.request("GET", "/login")
    r = c.getresponse()
    page = r.read().decode()
    cookie = "; ".join(v.split(";")[0] for k, v in r.getheaders() if k.lower() == "set-cookie")
    csrf = page.split('name="csrf" value="', 1)[1].split('"', 1)[0] if 'name="csrf"' in page else ""
    body = urllib.parse.urlencode({"name": name, "password": password, "csrf": csrf})
    start = time.monotonic()
    c.request("POST", "/login", body, {"Content-Type": "application/x-www-form-urlencoded",
                                       "Cookie": cookie})
    r = c.getresponse()
    r.read()
    out.append((r.status, time.monotonic() - start))


peak = [0.0]
stop = threading.Event()


def sample():
    while not stop.is_set():
        peak[0] = max(peak[0], rss("VmRSS"))
        time.sleep(0.01)


threading.Thread(target=sample, daemon=True).start()
for label, count, who in [
    ("correct", 100, lambda i: (f"referee{i}", "venue-password-2026")),
    ("wrong", crowd, lambda i: (f"referee{100 + i % 40}", "guess-number-%d" % i)),
    ("unknown name", crowd, lambda i: (f"nobody{i}", "guess-number-%d" % i)),
    # A results desk sharing one account: all must get in.
    ("correct, one shared account,", 50, lambda i: ("referee0", "venue-password-2026")),
]:
    out = []
    threads = [threading.Thread(target=sign_in, args=(*who(i), out)) for i in range(count)]
    start = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    by = {}
    for status, _ in out:
        by[status] = by.get(status, 0) + 1
    times = sorted(t for _, t in out)
    print(f"{count} {label} sign-ins at once: {time.monotonic() - start:.1f} s, "
          f"answers {dict(sorted(by.items()))}, median {statistics.median(times) * 1000:.0f} ms, "
          f"memory now {rss('VmRSS'):.1f} MiB")

# One at a time: a known name and an unknown one must cost the same
# (accounts no one has tried yet, so the throttle does not answer first).
known, unknown = [], []
for i in range(20):
    out = []
    sign_in(f"referee{140 + i}", "not-the-password", out)
    known.append(out[0][1])
    out = []
    sign_in(f"stranger{i}", "not-the-password", out)
    unknown.append(out[0][1])
stop.set()
print(f"one at a time, wrong password: known name {statistics.median(known) * 1000:.0f} ms, "
      f"unknown name {statistics.median(unknown) * 1000:.0f} ms (medians of 20)")
print(f"peak resident memory: {max(peak[0], rss('VmHWM')):.1f} MiB (VmHWM {rss('VmHWM'):.1f} MiB)")
server.terminate()
server.wait()

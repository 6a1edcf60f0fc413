#!/usr/bin/env python3
"""What a player's phone pays for a page: headless Chromium at a 360x800
phone viewport, a fresh profile (empty cache) for each page, the network
at the "slow 3G" of the spec (400 kbit/s each way, 400 ms latency).

For each page it prints every request of the first visit (service
workers' included: every target is auto-attached, paused until its
network is watched) with its status and bytes on the wire (Network.
loadingFinished's encodedDataLength: headers and compressed body), the
total, the navigation timing's DOMContentLoaded and load, then the same
for a reload in the same profile (revalidation: 304s, cache hits). Each
visit waits 3 s after load, and then until nothing is in flight, so that
a service worker's install fetches are counted.

    phone-weight.py                 starts $KRAAL_BIN (target/release/kraal)
                                    on a free port with a fresh seeded
                                    database under /tmp, measures its
                                    personal, round and standings pages
    phone-weight.py URL...          measures these pages
    phone-weight.py --serve         starts and seeds as above, prints the
                                    three URLs and serves until SIGTERM
                                    (scripts/lighthouse.sh uses it)
    phone-weight.py --seed BASE TOKEN
                                    seeds a running Kraal through its API
                                    (TOKEN: a referee's or admin's) and
                                    prints the three page URLs
    FAST=1 phone-weight.py ...      no throttling (bytes only)

Chromium is $CHROME_PATH (/usr/bin/chromium). Standard library only: the
DevTools websocket is spoken by the small client below.
"""

import base64
import json
import os
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

SLOW_3G = {"offline": False, "latency": 400,
           "downloadThroughput": 400 * 1024 / 8, "uploadThroughput": 400 * 1024 / 8}
QUIET_AFTER_LOAD = 3.0
WATCHED = {"page", "iframe", "worker", "shared_worker", "service_worker"}


# --- seeding -----------------------------------------------------------------

def seed(base, token):
    """A Swiss tournament of 8 players with round 1 paired and published;
    returns the personal, round and standings page URLs."""
    base = base.rstrip("/")

    def api(method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(base + path, data=data, method=method)
        req.add_header("Authorization", "Bearer " + token)
        if data is not None:
            req.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(req) as res:
                return json.loads(res.read() or b"null")
        except urllib.error.HTTPError as e:
            sys.exit(f"seeding: {method} {path} answered {e.code}: {e.read().decode()}")

    tid = api("POST", "/api/v1/tournaments", {
        "name": "Phone Weight Open", "system": "swiss", "rules": "gar", "rounds": 5,
        "venue": "Library Gardens"})["id"]
    names = ["Thabo Mokoena", "Naledi Dube", "Sipho Nkosi", "Lerato Khumalo",
             "Bongani Zulu", "Zanele Mthembu", "Ayanda Ndlovu", "Kagiso Molefe"]
    for i, n in enumerate(names):
        api("POST", f"/api/v1/tournaments/{tid}/players",
            {"name": n, "club": "Soweto MSC", "rating": 1500 + 40 * i})
    api("POST", f"/api/v1/tournaments/{tid}/rounds", {})  # pairs and publishes
    links = api("GET", f"/api/v1/tournaments/{tid}/rounds/1/links")["links"]
    key = next(l["url"] for l in links if l["url"] and l["table"]).rsplit("/", 1)[1]
    return [f"{base}/player/{key}", f"{base}/t/{tid}/rounds/1", f"{base}/t/{tid}/standings"]


def serve_seeded(binary):
    """Starts `binary` on a free port with a fresh database under /tmp,
    seeded through its API; returns (server process, work dir, page URLs)."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import served
    work = tempfile.mkdtemp(prefix="kraal-weight.", dir="/tmp")
    url = f"sqlite://{work}/kraal.db"
    token = served.prepare(binary, url, admin="weigher")
    server, port = served.start(binary, url)
    try:
        pages = seed(f"http://127.0.0.1:{port}", token)
    except BaseException:
        server.terminate()
        server.wait()
        raise
    return server, work, pages


# --- a minimal websocket client (RFC 6455, text frames) ----------------------

class WebSocket:
    def __init__(self, url):
        u = urllib.parse.urlparse(url)
        self.sock = socket.create_connection((u.hostname, u.port), timeout=60)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET {u.path} HTTP/1.1\r\nHost: {u.hostname}:{u.port}\r\n"
                           "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                           f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        self.buf = b""
        while b"\r\n\r\n" not in self.buf:
            self._fill()
        head, self.buf = self.buf.split(b"\r\n\r\n", 1)
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise RuntimeError("websocket refused: " + head.decode(errors="replace"))

    def _fill(self):
        chunk = self.sock.recv(1 << 16)
        if not chunk:
            raise EOFError("DevTools closed the connection")
        self.buf += chunk

    def _take(self, n):
        while len(self.buf) < n:
            self._fill()
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def _frame(self, opcode, data):
        n = len(data)
        head = bytes([0x80 | opcode])
        if n < 126:
            head += bytes([0x80 | n])
        elif n < 1 << 16:
            head += bytes([0x80 | 126]) + struct.pack(">H", n)
        else:
            head += bytes([0x80 | 127]) + struct.pack(">Q", n)
        mask = os.urandom(4)
        masked = (int.from_bytes(data, "big") ^ int.from_bytes((mask * (n // 4 + 1))[:n], "big")
                  ).to_bytes(n, "big") if n else b""
        self.sock.sendall(head + mask + masked)

    def send(self, text):
        self._frame(0x1, text.encode())

    def recv(self):
        message = b""
        while True:
            b0, b1 = self._take(2)
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack(">H", self._take(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self._take(8))[0]
            mask = self._take(4) if b1 & 0x80 else None
            data = self._take(n)
            if mask:
                data = bytes(c ^ mask[i % 4] for i, c in enumerate(data))
            opcode = b0 & 0x0F
            if opcode == 0x8:
                raise EOFError("DevTools closed the websocket")
            if opcode == 0x9:
                self._frame(0xA, data)
                continue
            if opcode in (0x0, 0x1, 0x2):
                message += data
                if b0 & 0x80:
                    return message.decode()


# --- the DevTools protocol ---------------------------------------------------

class Browser:
    """One headless Chromium with its own fresh profile."""

    def __init__(self, throttle):
        self.profile = tempfile.mkdtemp(prefix="kraal-weight-profile.", dir="/tmp")
        chrome = os.environ.get("CHROME_PATH", "/usr/bin/chromium")
        self.proc = subprocess.Popen(
            [chrome, "--headless=new", "--no-sandbox", "--remote-debugging-port=0",
             f"--user-data-dir={self.profile}", "--window-size=360,800",
             "--no-first-run", "--no-default-browser-check", "--disable-extensions",
             "--disable-background-networking", "--disable-component-update",
             "--disable-sync", "--metrics-recording-only", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        port_file = os.path.join(self.profile, "DevToolsActivePort")
        for _ in range(300):
            if os.path.exists(port_file) and open(port_file).read().count("\n") >= 1:
                break
            time.sleep(0.05)
        else:
            self.close()
            raise SystemExit("Chromium did not open its DevTools port")
        port, path = open(port_file).read().split("\n")[:2]
        self.ws = WebSocket(f"ws://127.0.0.1:{port}{path}")
        self.throttle = throttle
        self.next_id = 0
        self.results = {}
        self.events = []          # (session, method, params) of the watched sessions
        self.targets = {}         # targetId -> (session, type)
        self.call("Target.setAutoAttach", {"autoAttach": True, "waitForDebuggerOnStart": True,
                                           "flatten": True})

    def close(self):
        try:
            self.proc.terminate()
            self.proc.wait(10)
        except Exception:
            self.proc.kill()
        shutil.rmtree(self.profile, ignore_errors=True)

    def _pump(self, timeout=None):
        self.ws.sock.settimeout(timeout)
        try:
            msg = json.loads(self.ws.recv())
        except socket.timeout:
            return
        finally:
            self.ws.sock.settimeout(60)
        if "id" in msg:
            self.results[msg["id"]] = msg
            return
        session, method, params = msg.get("sessionId"), msg["method"], msg.get("params", {})
        if method == "Target.attachedToTarget":
            self._watch(params)
        self.events.append((session, method, params))

    def _watch(self, params):
        """A new target: a page, frame or worker of the page gets its
        network watched and attaches its own children; the browser's own
        UI (the omnibox's WebUI, ...) is let go. Then it may run."""
        s, info = params["sessionId"], params["targetInfo"]
        if info["type"] in WATCHED:
            self.targets[info["targetId"]] = (s, info["type"])
            for method, args in (("Network.enable", {}),
                                 ("Network.emulateNetworkConditions", self.throttle),
                                 ("Target.setAutoAttach", {"autoAttach": True,
                                                           "waitForDebuggerOnStart": True,
                                                           "flatten": True})):
                if args is not None:
                    self.send(method, args, s)
        if params.get("waitingForDebugger"):
            self.send("Runtime.runIfWaitingForDebugger", {}, s)
        if info["type"] not in WATCHED:
            self.send("Target.detachFromTarget", {"sessionId": s})

    def send(self, method, params=None, session=None):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        self.ws.send(json.dumps(msg))
        return self.next_id

    def call(self, method, params=None, session=None, timeout=60):
        i = self.send(method, params, session)
        end = time.time() + timeout
        while i not in self.results:
            if time.time() > end:
                raise TimeoutError(method)
            self._pump(max(0.01, end - time.time()))
        msg = self.results.pop(i)
        if "error" in msg:
            raise RuntimeError(f"{method}: {msg['error']}")
        return msg.get("result", {})

    def wait_for(self, method, session, timeout=120):
        seen = 0
        end = time.time() + timeout
        while True:
            for s, m, _ in self.events[seen:]:
                if m == method and s == session:
                    return
            seen = len(self.events)
            if time.time() > end:
                raise TimeoutError(method)
            self._pump(max(0.01, end - time.time()))

    def settle(self, quiet=QUIET_AFTER_LOAD, limit=60):
        """Pumps events for `quiet` seconds, then until no request is in
        flight (at most `limit` seconds)."""
        end, hard = time.time() + quiet, time.time() + limit
        while time.time() < hard:
            if time.time() >= end and not self.in_flight():
                return
            self._pump(0.2)

    def in_flight(self):
        open_ = set()
        for s, m, p in self.events:
            # An event stream (the live pages') stays open: not waited for.
            if m == "Network.requestWillBeSent" and p.get("type") != "EventSource":
                open_.add((s, p["requestId"]))
            elif m in ("Network.loadingFinished", "Network.loadingFailed"):
                open_.discard((s, p["requestId"]))
        return open_

    def visit(self, session, navigate):
        """Navigates (or reloads) the page; returns its requests and timing."""
        self.events = []
        navigate()
        self.wait_for("Page.loadEventFired", session)
        self.settle()
        timing = json.loads(self.call("Runtime.evaluate", {
            "expression": "JSON.stringify(performance.getEntriesByType('navigation')[0])",
            "returnByValue": True}, session)["result"]["value"])
        return requests(self.events, self.targets), timing


def requests(events, targets):
    """Every request of a visit: [url, status or how it ended, bytes, target type]."""
    kinds = {s: t for s, t in targets.values()}
    rows, order, wire, sent = {}, [], {}, {}
    for s, m, p in events:
        if s not in kinds or not m.startswith("Network."):
            continue
        k = (s, p.get("requestId"))
        # The status on the wire (a revalidation's 304, which
        # responseReceived shows as the cached 200) and the headers sent.
        if m == "Network.responseReceivedExtraInfo":
            wire[k] = str(p["statusCode"])
        elif m == "Network.requestWillBeSentExtraInfo":
            sent[k] = {h.lower(): v for h, v in p.get("headers", {}).items()}
        if m == "Network.requestWillBeSent" and p["request"]["url"].startswith("data:"):
            continue
        if m == "Network.requestWillBeSent":
            if k not in rows:
                order.append(k)
            rows[k] = {"url": p["request"]["url"], "status": "", "bytes": 0, "streamed": 0,
                       "by": kinds.get(s, "?"), "encoding": "", "done": False, "notes": []}
        elif k not in rows:
            continue
        elif m == "Network.responseReceived":
            r = p["response"]
            rows[k]["status"] = str(r["status"])
            if r.get("fromDiskCache") or r.get("fromPrefetchCache"):
                rows[k]["notes"].append("disk cache")
            if r.get("fromServiceWorker"):
                rows[k]["notes"].append("from service worker")
            headers = {h.lower(): v for h, v in r.get("headers", {}).items()}
            rows[k]["encoding"] = headers.get("content-encoding", "")
        elif m == "Network.requestServedFromCache":
            rows[k]["notes"].append("memory cache")
        elif m == "Network.dataReceived":
            rows[k]["streamed"] += int(p.get("encodedDataLength", 0))
        elif m == "Network.loadingFinished":
            rows[k]["bytes"], rows[k]["done"] = int(p["encodedDataLength"]), True
        elif m == "Network.loadingFailed":
            rows[k]["done"] = True
            rows[k]["notes"].append("failed: " + p.get("errorText", ""))
    for k, r in rows.items():
        r["status"] = wire.get(k, r["status"]) or "-"
        r["accept"] = sent.get(k, {}).get("accept-encoding", "")
        if not r["done"]:  # still open when the visit ended (an event stream): what came so far
            r["bytes"] = r["streamed"]
            r["notes"].append("open")
        elif r["bytes"] == 0 and not r["notes"] and k not in wire:
            r["notes"].append("cache")  # answered without a request on the wire
        if r["notes"]:
            r["status"] += " (" + ", ".join(r["notes"]) + ")"
    return [rows[k] for k in order]


def measure(url, throttle):
    b = Browser(throttle)
    try:
        target = b.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        end = time.time() + 30
        while target not in b.targets and time.time() < end:
            b._pump(0.2)
        s = b.targets[target][0]
        for method, args in (("Page.enable", {}), ("Runtime.enable", {}),
                             ("Emulation.setDeviceMetricsOverride",
                              {"width": 360, "height": 800, "deviceScaleFactor": 2, "mobile": True}),
                             ("Emulation.setTouchEmulationEnabled", {"enabled": True})):
            b.call(method, args, s)
        first = b.visit(s, lambda: b.call("Page.navigate", {"url": url}, s))
        second = b.visit(s, lambda: b.call("Page.reload", {}, s))
        return first, second
    finally:
        b.close()


def report(url, first, second, throttle):
    print(f"== {url}")
    base = urllib.parse.urlparse(url)
    for name, (rows, t) in (("first visit (fresh profile)", first), ("reload (same profile)", second)):
        print(f"  {name}:")
        for r in rows:
            u = urllib.parse.urlparse(r["url"])
            shown = u.path + ("?" + u.query if u.query else "") if u.netloc == base.netloc else r["url"]
            by = "" if r["by"] == "page" else f"  [{r['by']}]"
            enc = f" {r['encoding']}" if r["encoding"] else ""
            print(f"    {r['bytes']:>8} B  {r['status']:<22} {shown}{enc}{by}")
        if rows and rows[0]["accept"]:
            print(f"    (the page's request sent Accept-Encoding: {rows[0]['accept']})")
        total = sum(r["bytes"] for r in rows)
        cond = "slow 3G" if throttle else "unthrottled"
        print(f"    {total:>8} B  total, {len(rows)} requests; {cond}: DOMContentLoaded "
              f"{t['domContentLoadedEventEnd']:.0f} ms, load {t['loadEventEnd']:.0f} ms")
    return sum(r["bytes"] for r in first[0]), sum(r["bytes"] for r in second[0]), first[1], second[1]


def main():
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    args = sys.argv[1:]
    if args[:1] == ["--seed"]:
        if len(args) != 3:
            sys.exit(__doc__)
        print("\n".join(seed(args[1], args[2])))
        return
    if args[:1] in (["-h"], ["--help"]):
        print(__doc__)
        return
    throttle = None if os.environ.get("FAST") else SLOW_3G
    server = work = None
    if args in ([], ["--serve"]):
        here = os.path.dirname(os.path.abspath(__file__))
        binary = os.environ.get("KRAAL_BIN", os.path.join(here, "..", "target", "release", "kraal"))
        server, work, urls = serve_seeded(binary)
    else:
        urls = args
    try:
        if args == ["--serve"]:
            print("\n".join(urls), flush=True)
            server.wait()
            return
        summary = [(u, report(u, *measure(u, throttle), throttle)) for u in urls]
        print("\n== summary (bytes on the wire; ms from navigation start, "
              + ("slow 3G: 400 kbit/s, 400 ms" if throttle else "unthrottled") + ")")
        print(f"  {'page':<34} {'first':>8} {'reload':>8} {'DCL':>7} {'load':>7} {'reload DCL':>10} {'reload load':>11}")
        for u, (b1, b2, t1, t2) in summary:
            path = urllib.parse.urlparse(u).path
            path = path if len(path) <= 34 else path[:31] + "..."
            print(f"  {path:<34} {b1:>8} {b2:>8} {t1['domContentLoadedEventEnd']:>7.0f} "
                  f"{t1['loadEventEnd']:>7.0f} {t2['domContentLoadedEventEnd']:>10.0f} {t2['loadEventEnd']:>11.0f}")
    finally:
        if server:
            server.terminate()
            server.wait()
            print(f"(database kept in {work})", file=sys.stderr)


if __name__ == "__main__":
    main()

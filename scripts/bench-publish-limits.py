#!/usr/bin/env python3
"""Publishing under trouble, measured on release `kraal serve` processes: a
venue on SQLite, the federation's server on PostgreSQL when
KRAAL_TEST_POSTGRES_URL names a server (else SQLite).

1. A silent target: the venue publishes one event to a server that takes
   the connection and never answers, and another event (20 players) to the
   federation's server. N results saved at the venue one by one; for each,
   the time until the federation holds that revision; the same again
   with the silent publication stopped. Also how long the silent target
   takes to be said failing.
2. Large publications: an event file of SIZE MB (a Swiss whose entries and
   audit trail fill it) published to a fresh federation's server once, and
   on another fresh one six at once (each sent again after its
   Retry-After when answered 503): the server's peak resident memory
   (VmHWM), its memory once they are stored, and every answer.

    cargo build --release && scripts/bench-publish-limits.py [N] [SIZE] [PARTS]

PARTS is `silent`, `large` or `silent,large` (the default).
"""
import http.client, json, os, socket, statistics, subprocess, sys, tempfile, threading, time, uuid
sys.path.insert(0, os.path.dirname(__file__))
import served

binary = os.path.join(os.environ.get("CARGO_TARGET_DIR", "target"), "release", "kraal")
n = int(sys.argv[1]) if len(sys.argv) > 1 else 20
size_mb = float(sys.argv[2]) if len(sys.argv) > 2 else 48
parts = sys.argv[3].split(",") if len(sys.argv) > 3 else ["silent", "large"]
# The venue publishes to servers on this machine.
os.environ["KRAAL_PUBLISH_ALLOW_PRIVATE"] = "true"
work = tempfile.mkdtemp(prefix="kraal-publish-limits.")
pg = os.environ.get("KRAAL_TEST_POSTGRES_URL")
made = []


def new_database(label):
    if pg:
        name = f"kraal_{label}_" + uuid.uuid4().hex[:8]
        subprocess.run(["psql", pg, "-qc", f"CREATE DATABASE {name}"], check=True)
        made.append(name)
        return pg.rsplit("/", 1)[0] + "/" + name
    return f"sqlite://{work}/{label}.db"


def call(port, token, method, path, body=None, raw=None, timeout=300):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    h = {"Content-Type": "application/json"}
    if token:
        h["Authorization"] = f"Bearer {token}"
    c.request(method, path, raw if raw is not None else (json.dumps(body) if body is not None else None), h)
    r = c.getresponse()
    data = r.read()
    try:
        decoded = json.loads(data) if data else None
    except ValueError:
        decoded = data
    return r.status, decoded, r.getheader("Retry-After")


def federation():
    """A federation's server with an account allowed to publish: (url, token)."""
    url = new_database("federation")
    served.prepare(binary, url, admin="federation")
    env = dict(os.environ, DATABASE_URL=url)
    subprocess.run([binary, "user", "add", "venue-laptop", "--referee"], env=env, check=True,
                   input=b"venue-laptop-pass-2026\n", stdout=subprocess.DEVNULL)
    subprocess.run([binary, "user", "publisher", "venue-laptop"], env=env, check=True,
                   stdout=subprocess.DEVNULL)
    token = subprocess.run([binary, "token", "create", "venue-laptop"], env=env, check=True,
                           capture_output=True).stdout.decode().split()[-1]
    return url, token


def kb(pid, field):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def silent_server():
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", 0))
    s.listen(64)
    held = []

    def run():
        while True:
            c, _ = s.accept()
            held.append(c)
    threading.Thread(target=run, daemon=True).start()
    return s.getsockname()[1]


procs = []
try:
    # 1. A silent target beside the federation's server.
    venue_url = f"sqlite://{work}/venue.db"
    venue_token = served.prepare(binary, venue_url, admin="palesa")
    fed_url, push_token = federation()
    fed, fport = served.start(binary, fed_url)
    venue, vport = served.start(binary, venue_url)
    procs += [fed, venue]

    def tournament(name, players):
        s, t, _ = call(vport, venue_token, "POST", "/api/v1/tournaments",
                       {"name": name, "rules": "official", "rounds": 5})
        for i in range(players):
            call(vport, venue_token, "POST", f"/api/v1/tournaments/{t['id']}/players",
                 {"name": f"Player {i:03}", "club": f"Club {i % 7}", "rating": 2000 - 5 * i})
        return t["id"]

    quiet = tournament("Silent Open", 2)
    call(vport, venue_token, "PUT", f"/api/v1/tournaments/{quiet}/publication",
         {"to": f"http://127.0.0.1:{silent_server()}", "token": "any"})
    said_at = time.monotonic()
    tid = tournament("National Open", 20)
    s, p, _ = call(vport, venue_token, "PUT", f"/api/v1/tournaments/{tid}/publication",
                   {"to": f"http://127.0.0.1:{fport}", "token": push_token})
    origin = p["origin"]

    def revision_at_target():
        s, body, _ = call(fport, None, "GET", "/api/v1/tournaments")
        for t in body["tournaments"]:
            if t["origin"] and t["origin"]["id"] == origin:
                return t["origin"]["revision"]
        return 0

    def venue_revision():
        return call(vport, venue_token, "GET", f"/api/v1/tournaments/{tid}/publication")[1]["revision"]

    def held_by_target(games, count):
        lat = []
        for g in games[count:]:
            call(vport, venue_token, "PUT", f"/api/v1/games/{g['id']}", {"result": "0-1"})
        for g in games[:count]:
            t0 = time.monotonic()
            call(vport, venue_token, "PUT", f"/api/v1/games/{g['id']}", {"result": "1-0"})
            rev = venue_revision()
            while revision_at_target() < rev:
                if time.monotonic() - t0 > 300:
                    raise SystemExit("the federation did not get the change")
                time.sleep(0.005)
            lat.append((time.monotonic() - t0) * 1000)
        return sorted(lat)

    s, r, _ = call(vport, venue_token, "POST", f"/api/v1/tournaments/{tid}/rounds", {})
    games = [g for p in r["pairings"] for g in p["games"]]
    while revision_at_target() < venue_revision():
        time.sleep(0.01)
    if "silent" not in parts:
        n = 0
    beside = held_by_target(games, n // 2)
    while True:
        st = call(vport, venue_token, "GET", f"/api/v1/tournaments/{quiet}/publication")[1]
        if st["state"] == "failing":
            break
        time.sleep(0.1)
    failing_after = time.monotonic() - said_at
    s, r, _ = call(vport, venue_token, "POST", f"/api/v1/tournaments/{tid}/rounds", {})
    games = [g for p in r["pairings"] for g in p["games"]]
    beside += held_by_target(games, n - n // 2)
    beside.sort()
    call(vport, venue_token, "DELETE", f"/api/v1/tournaments/{quiet}/publication")
    s, r, _ = call(vport, venue_token, "POST", f"/api/v1/tournaments/{tid}/rounds", {})
    games = [g for p in r["pairings"] for g in p["games"]]
    alone = held_by_target(games, n // 2)
    s, r, _ = call(vport, venue_token, "POST", f"/api/v1/tournaments/{tid}/rounds", {})
    games = [g for p in r["pairings"] for g in p["games"]]
    alone = sorted(alone + held_by_target(games, n - n // 2))
    if "silent" in parts:
        print(f"silent target: said failing {failing_after:.1f} s after it was set; "
              f"saying {st['last_error']!r}")
        print(f"another target, a result saved -> held there ({n} results): beside the silent "
              f"one median {statistics.median(beside):.0f} ms, max {beside[-1]:.0f} ms; "
              f"alone median {statistics.median(alone):.0f} ms, max {alone[-1]:.0f} ms")
    for p in (venue, fed):
        p.terminate()
        p.wait()
    procs.clear()

    # 2. Large publications.
    env = dict(os.environ, DATABASE_URL=venue_url)
    template = json.loads(subprocess.run([binary, "export", "event", str(tid)], env=env, check=True,
                                         capture_output=True).stdout)
    player = template["players"][0]
    entry = template["audit"][-1]
    next_player = max(p["id"] for p in template["players"]) + 1
    next_entry = max(a["id"] for a in template["audit"]) + 1
    target = int(size_mb * 1024 * 1024)
    # Entries and audit entries, one of each at a time, until the file is SIZE MB.
    row = len(json.dumps(player)) + len(json.dumps(entry)) + 4
    count = max(0, (target - len(json.dumps(template))) // row)
    for k in range(count):
        template["players"].append(dict(player, id=next_player + k, name=f"Entry {k:06}",
                                         federation_id=""))
        template["audit"].append(dict(entry, id=next_entry + k))
    event = template

    def body(revision):
        return json.dumps({"revision": revision, "server": "Bloemfontein City Hall",
                           "link": "", "event": event}).encode()

    sample = body(1)
    print(f"large event: {len(sample) / 1024 / 1024:.1f} MB, {len(event['players'])} entries, "
          f"{len(event['audit'])} audit entries")

    def large_run(label, senders):
        url, token = federation()
        server, port = served.start(binary, url)
        procs.append(server)
        time.sleep(1)
        before = kb(server.pid, "VmRSS")
        answers = [[] for _ in range(senders)]
        took = [0.0] * senders

        def send(i):
            t0 = time.monotonic()
            while True:
                s, b, retry = call(port, token, "PUT", f"/api/v1/published/large-{label}-{i:02}",
                                   raw=sample)
                answers[i].append(s)
                if s != 503:
                    break
                time.sleep(int(retry or 1))
            took[i] = time.monotonic() - t0

        ts = [threading.Thread(target=send, args=(i,)) for i in range(senders)]
        t0 = time.monotonic()
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        wall = time.monotonic() - t0
        time.sleep(2)
        peak, after = kb(server.pid, "VmHWM"), kb(server.pid, "VmRSS")
        print(f"{senders} x {len(sample) / 1024 / 1024:.1f} MB: before {before // 1024} MB, "
              f"peak {peak // 1024} MB ({peak * 1024 / len(sample):.1f}x one body), "
              f"after {after // 1024} MB; all stored in {wall:.1f} s "
              f"(each {min(took):.1f}-{max(took):.1f} s); answers {answers}")
        server.terminate()
        server.wait()
        procs.remove(server)

    if "large" in parts:
        large_run("one", 1)
        large_run("six", 6)
finally:
    for p in procs:
        p.terminate()
    if pg:
        time.sleep(0.5)
        for name in made:
            subprocess.run(["psql", pg, "-qc", f"DROP DATABASE IF EXISTS {name}"])

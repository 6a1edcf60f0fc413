#!/usr/bin/env python3
"""Publishing measured as a venue and a federation run it: two release
`kraal serve` processes, the venue on SQLite, the target on PostgreSQL when
KRAAL_TEST_POSTGRES_URL names a server (else SQLite), a 200-player Swiss
published from the venue.

1. With the target up: N results saved at the venue one by one; for each,
   the time until the target holds that revision of the event (its pages
   read it from there). Median and p99.
2. The target down for OFFLINE seconds (default 180: past the sender's
   longest wait, a minute, which is where an hour offline leaves it) while
   the venue pairs and scores ROUNDS rounds; then the target back, and the
   time until it holds the venue's last revision.

    cargo build --release && scripts/bench-publish.py [N] [OFFLINE] [ROUNDS]
"""
import http.client, json, os, statistics, subprocess, sys, tempfile, time, uuid
sys.path.insert(0, os.path.dirname(__file__))
import served

binary = os.path.join(os.environ.get("CARGO_TARGET_DIR", "target"), "release", "kraal")
n = int(sys.argv[1]) if len(sys.argv) > 1 else 50
offline = int(sys.argv[2]) if len(sys.argv) > 2 else 180
rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 3
# The venue publishes to a server on this machine.
os.environ["KRAAL_PUBLISH_ALLOW_PRIVATE"] = "true"
work = tempfile.mkdtemp(prefix="kraal-publish.")
pg = os.environ.get("KRAAL_TEST_POSTGRES_URL")
if pg:
    name = "kraal_publish_" + uuid.uuid4().hex[:8]
    subprocess.run(["psql", pg, "-qc", f"CREATE DATABASE {name}"], check=True)
    target_url = pg.rsplit("/", 1)[0] + "/" + name
else:
    target_url = f"sqlite://{work}/target.db"
venue_url = f"sqlite://{work}/venue.db"
venue_token = served.prepare(binary, venue_url, admin="palesa")
target_admin = served.prepare(binary, target_url, admin="federation")
env = dict(os.environ, DATABASE_URL=target_url)
subprocess.run([binary, "user", "add", "venue-laptop", "--referee"], env=env, check=True,
               input=b"venue-laptop-pass-2026\n", stdout=subprocess.DEVNULL)
subprocess.run([binary, "user", "publisher", "venue-laptop"], env=env, check=True, stdout=subprocess.DEVNULL)
push_token = subprocess.run([binary, "token", "create", "venue-laptop"], env=env, check=True,
                            capture_output=True).stdout.decode().split()[-1]
target, tport = served.start(binary, target_url)
venue, vport = served.start(binary, venue_url)

def call(port, token, method, path, body=None):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    h = {"Content-Type": "application/json"}
    if token:
        h["Authorization"] = f"Bearer {token}"
    c.request(method, path, json.dumps(body) if body is not None else None, h)
    r = c.getresponse()
    data = r.read()
    return r.status, (json.loads(data) if data else None)

try:
    s, t = call(vport, venue_token, "POST", "/api/v1/tournaments",
                {"name": "National Open", "rules": "official", "rounds": 3 + rounds})
    tid = t["id"]
    for i in range(200):
        call(vport, venue_token, "POST", f"/api/v1/tournaments/{tid}/players",
             {"name": f"Player {i:03}", "club": f"Club {i % 40:02}", "rating": 2200 - 5 * i})
    s, p = call(vport, venue_token, "PUT", f"/api/v1/tournaments/{tid}/publication",
                {"to": f"http://127.0.0.1:{tport}", "token": push_token})
    origin = p["origin"]

    def revision_at_target():
        s, body = call(tport, None, "GET", "/api/v1/tournaments")
        for t in body["tournaments"]:
            if t["origin"] and t["origin"]["id"] == origin:
                return t["origin"]["revision"]
        return 0

    def venue_revision():
        return call(vport, venue_token, "GET", f"/api/v1/tournaments/{tid}/publication")[1]["revision"]

    def wait_for(rev, limit=600):
        start = time.monotonic()
        while revision_at_target() < rev:
            if time.monotonic() - start > limit:
                raise SystemExit(f"the target did not reach revision {rev}")
            time.sleep(0.005)
        return time.monotonic() - start

    s, r = call(vport, venue_token, "POST", f"/api/v1/tournaments/{tid}/rounds", {})
    games = [g for p in r["pairings"] for g in p["games"]]
    wait_for(venue_revision())
    lat = []
    for g in games[:n]:
        t0 = time.monotonic()
        s, _ = call(vport, venue_token, "PUT", f"/api/v1/games/{g['id']}", {"result": "1-0"})
        rev = venue_revision()
        while revision_at_target() < rev:
            time.sleep(0.005)
        lat.append((time.monotonic() - t0) * 1000)
    lat.sort()
    print(f"result saved at the venue -> held by the target ({n} results, 200 players): "
          f"median {statistics.median(lat):.0f} ms, p99 {lat[min(len(lat) - 1, int(len(lat) * 0.99))]:.0f} ms, "
          f"max {lat[-1]:.0f} ms")
    for g in games[n:]:
        call(vport, venue_token, "PUT", f"/api/v1/games/{g['id']}", {"result": "0-1"})

    target.terminate(); target.wait()
    down = time.monotonic()
    for _ in range(rounds):
        s, r = call(vport, venue_token, "POST", f"/api/v1/tournaments/{tid}/rounds", {})
        for p in r["pairings"]:
            for g in p["games"]:
                call(vport, venue_token, "PUT", f"/api/v1/games/{g['id']}", {"result": "1/2-1/2"})
    made = time.monotonic() - down
    st = call(vport, venue_token, "GET", f"/api/v1/tournaments/{tid}/publication")[1]
    print(f"target down: {rounds} rounds paired and scored at the venue in {made:.1f} s; "
          f"venue says {st['state']}: {st['last_error']}")
    time.sleep(max(0, offline - made))
    target, _ = served.start(binary, target_url, port=tport)
    back = time.monotonic()
    rev = venue_revision()
    took = wait_for(rev)
    st = call(vport, venue_token, "GET", f"/api/v1/tournaments/{tid}/publication")[1]
    print(f"after {offline} s offline: the target held revision {rev} {took:.1f} s after it came back; "
          f"venue says {st['state']}")
finally:
    for p in (target, venue):
        p.terminate()
    if pg:
        time.sleep(0.5)
        subprocess.run(["psql", pg, "-qc", f"DROP DATABASE IF EXISTS {name}"])

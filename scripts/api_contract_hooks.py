"""What scripts/api-contract.sh teaches Schemathesis beyond docs/openapi.json.

OpenAPI 3.0 cannot say that one field must not come before another, nor
which ids exist on the server; the server refuses such requests with 422,
and Schemathesis would count each as valid data refused. Here the valid
requests it generates are made to follow those rules (and to name the
seeded tournament's players, games and people), so that a 422 left is a
rule the description does not state. Invalid requests are left as they
are: they must be refused whatever they name.

The seeded ids come from the file KRAAL_CONTRACT_IDS names
(scripts/api-contract-seed.py writes it). Where a valid request changes
what it names for good (a merge, its undoing, a pair kept apart), the
hook makes fresh records for it first, through the API
(KRAAL_CONTRACT_BASE, KRAAL_CONTRACT_TOKEN).
"""

import datetime
import itertools
import json
import os
import urllib.request

import schemathesis

IDS = json.load(open(os.environ["KRAAL_CONTRACT_IDS"]))
EVENT = json.load(open(IDS["event_file"]))
FRESH = itertools.count(1)


def api(method, path, body=None):
    """A call to the server under test, for the records a case needs."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(os.environ["KRAAL_CONTRACT_BASE"] + path, data=data, method=method)
    req.add_header("Authorization", "Bearer " + os.environ["KRAAL_CONTRACT_TOKEN"])
    req.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(req) as res:
        return json.loads(res.read().decode() or "null")


def fresh_person():
    return api("POST", "/api/v1/people", {"name": f"Fresh Person {next(FRESH)}"})["id"]


def fresh_player(tid=None):
    tid = IDS["tournament"] if tid is None else tid
    return api("POST", f"/api/v1/tournaments/{tid}/players", {"name": f"Fresh Player {next(FRESH)}"})["id"]


def fresh_players(case, n):
    """`n` new players of the case's tournament, or the seeded ones where it has none."""
    try:
        tid = int(case.path_parameters["tid"])
        return [fresh_player(tid) for _ in range(n)]
    except Exception:
        return IDS["players"][:n]


def positive(case):
    meta = getattr(case, "meta", None)
    return meta is None or meta.generation.mode.is_positive


def this_year():
    return datetime.date.today().year


def stored_tournament(case):
    """The tournament of the case's path as GET answers it, or None."""
    try:
        return api("GET", f"/api/v1/tournaments/{int(case.path_parameters['tid'])}")
    except Exception:
        return None


TEAM_TIEBREAKS = {"match_points", "game_points", "board_1", "board_2", "board_3", "board_4"}


def over_stored(case, body):
    """A change of a tournament's settings checked over the stored ones, as the server checks it:
    the rules between fields then hold for the settings it leads to, and the days of the rounds
    played stay within the tournament's."""
    # The id a GET answered is the tournament's own.
    if body.get("id") is not None:
        body["id"] = int(case.path_parameters["tid"])
    stored = stored_tournament(case)
    if stored is None:
        return
    system = body.get("system")
    system = stored["system"] if system is None else (system or "swiss")
    if body.get("cycles") == 2 and system not in ("round_robin", "team_league"):
        body["cycles"] = 1
    if body.get("tiebreaks") and system not in ("team_league", "team_swiss"):
        body["tiebreaks"] = [t for t in body["tiebreaks"] if t not in TEAM_TIEBREAKS]
    rounds = body["rounds"] if "rounds" in body else stored["rounds"]
    if system in ("swiss", "team_swiss") and rounds is None:
        body["rounds"] = stored["rounds"] or 5
    elif rounds is not None and stored["rounds"] is not None and rounds < stored["rounds"]:
        body["rounds"] = stored["rounds"]
    for key in ("starts_on", "ends_on"):
        if key in body and body[key]:
            # Days the rounds played may lie outside: the stored ones, or none.
            if stored[key]:
                body[key] = stored[key]
            else:
                del body[key]
    start = body["starts_on"] if "starts_on" in body else stored["starts_on"]
    end = body["ends_on"] if "ends_on" in body else stored["ends_on"]
    if start and end and end < start:
        body.pop("starts_on", None)
        body.pop("ends_on", None)


def this_month():
    return datetime.date.today().strftime("%Y-%m")


@schemathesis.hook
def map_case(context, case):
    if not positive(case):
        return case
    path = case.operation.path
    headers = case.headers if isinstance(case.headers, dict) else None
    if headers and "Idempotency-Key" in headers:
        # A key names one write: each request gets its own (the same key
        # with another body is refused 422, by design).
        headers["Idempotency-Key"] = f"contract-{next(FRESH)}"
    query = case.query if isinstance(case.query, dict) else None
    if path == "/api/v1/ratings" and query and query.get("period", "") > this_month():
        # A month that has come.
        query["period"] = this_month()
    if path == "/api/v1/merges/{id}":
        # A merge not undone yet.
        merged = api("POST", f"/api/v1/people/{fresh_person()}/merge", {"into": fresh_person()})
        case.path_parameters["id"] = merged["id"]
    body = case.body if isinstance(case.body, dict) else None
    if body is None:
        return case
    if path == "/api/v1/tournaments":
        # ends_on is not before starts_on.
        start, end = body.get("starts_on"), body.get("ends_on")
        if start and end and end < start:
            body["starts_on"], body["ends_on"] = end, start
    elif path == "/api/v1/tournaments/{tid}":
        over_stored(case, body)
    elif path == "/api/v1/tournaments/{tid}/rounds/{n}" and body.get("date"):
        # A day within the tournament's days.
        stored = stored_tournament(case)
        if stored and stored["starts_on"]:
            body["date"] = stored["starts_on"]
    elif path == "/api/v1/tournaments/{tid}/players" and body.get("person") is not None:
        # A person of the registry, not entered yet.
        body["person"] = fresh_person()
    elif path == "/api/v1/tournaments/{tid}/relations":
        # Two different players of the tournament.
        body["a"], body["b"] = fresh_players(case, 2)
    elif path == "/api/v1/tournaments/{tid}/teams" and "members" in body:
        # Players of the tournament in no team yet.
        body["members"] = fresh_players(case, 4)
        body["substitutes"] = fresh_players(case, len(body.get("substitutes") or []))
    elif path == "/api/v1/tournaments/{tid}/rounds/{n}/lineups/{team}" and "boards" in body:
        # The team's own players.
        teams = {team: IDS["league_players"][4 * k:4 * k + 4] for k, team in enumerate(IDS["teams"])}
        members = teams.get(int(case.path_parameters["team"]))
        if members:
            body["boards"] = members
    elif path == "/api/v1/tournaments/{tid}/forbidden":
        # Two players of the tournament not kept apart yet, in its rounds.
        body["a"], body["b"] = fresh_players(case, 2)
        for key in ("from_round", "to_round"):
            if body.get(key) is not None:
                body[key] = min(body[key], 5)
        if (body.get("from_round") or 0) > (body.get("to_round") or 99):
            body["from_round"], body["to_round"] = body["to_round"], body["from_round"]
    elif path == "/api/v1/people" and body.get("born") is not None:
        # Born in a year that has come.
        body["born"] = min(body["born"], this_year())
    elif path == "/api/v1/people/{id}/merge":
        # Two people of the registry, neither merged yet.
        case.path_parameters["id"] = fresh_person()
        body["into"] = fresh_person()
    elif path in ("/api/v1/seasons", "/api/v1/seasons/{id}") and body.get("events"):
        # The seeded tournaments, each once.
        events = body["events"][:2]
        for event, tid in zip(events, (IDS["tournament"], IDS["cup"])):
            event["tournament"] = tid
        body["events"] = events
    elif path == "/api/v1/tournaments/{tid}/publication" and "to" in body:
        # A target on this machine, which the server refuses to send to
        # (no --publish-allow-private): nothing leaves it.
        body["to"] = "http://127.0.0.1:9/kraal"
    elif path == "/api/v1/published/{origin}" and "event" in body:
        # A whole event file, as `kraal export event` writes it.
        body["event"] = EVENT
    elif path == "/api/v1/published/{origin}/games/{round}/{table}/{game}":
        # Records a player could write: one ply an item.
        for side in ("dark", "light"):
            if isinstance(body.get(side), list):
                body[side] = ["D2", "D6", "F4", "B4"][: len(body[side])]
    return case


def body_of(response):
    try:
        return json.loads(response.content)
    except ValueError:
        return None


@schemathesis.hook
def filter_failure(context, failure, case, response):
    """Keeps every failure but one kind, a rule docs/openapi.json states and the run cannot:

    - A PATCH of a tournament whose body's `id` is another tournament's: the id must be the
      tournament's own (422 on `id`), a rule between the path and the body that OpenAPI 3.0
      cannot state; the stateful phase fills `id` from another tournament it made.
    """
    body = body_of(response)
    if (
        failure.code == "ST202"
        and case.operation.path == "/api/v1/tournaments/{tid}"
        and response.status_code == 422
        and isinstance(body, dict)
        and body.get("field") == "id"
        and isinstance(case.body, dict)
        and str(case.body.get("id")) != str(case.path_parameters.get("tid"))
    ):
        return False
    return True

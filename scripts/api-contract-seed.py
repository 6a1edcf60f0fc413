#!/usr/bin/env python3
"""Seeds a running Kraal over its API for scripts/api-contract.sh: a Swiss
tournament with players, relatives, a kept-apart pair and a published
round with a result, a round robin, a team league with a published round,
two people of the registry and a season; writes the Swiss tournament's
event file to EVENT_FILE. Prints the ids it made as JSON, for the hooks
(scripts/api_contract_hooks.py).

    api-contract-seed.py BASE_URL TOKEN EVENT_FILE > ids.json
"""

import json
import sys
import urllib.error
import urllib.request


def call(base, token, method, path, body=None, raw=False):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method)
    req.add_header("Authorization", "Bearer " + token)
    if data is not None:
        req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req) as res:
            text = res.read().decode()
    except urllib.error.HTTPError as e:
        sys.exit(f"seeding: {method} {path} answered {e.code}: {e.read().decode()}")
    if raw:
        return text
    return json.loads(text) if text else None


def main():
    base, token, event_file = sys.argv[1].rstrip("/"), sys.argv[2], sys.argv[3]

    def api(method, path, body=None):
        return call(base, token, method, path, body)

    t = api("POST", "/api/v1/tournaments", {
        "name": "Contract Open", "system": "swiss", "rules": "gar", "rounds": 5,
        "venue": "Library Gardens", "starts_on": "2026-01-10", "ends_on": "2026-01-11",
    })
    tid = t["id"]
    names = ["Thabo Mokoena", "Naledi Dube", "Sipho Nkosi", "Lerato Khumalo",
             "Bongani Zulu", "Zanele Mthembu", "Ayanda Ndlovu", "Kagiso Molefe"]
    players = [api("POST", f"/api/v1/tournaments/{tid}/players",
                   {"name": n, "club": "Soweto MSC", "rating": 1500 + 40 * i})["id"]
               for i, n in enumerate(names)]
    api("POST", f"/api/v1/tournaments/{tid}/relations", {"a": players[0], "b": players[1]})
    kept = api("POST", f"/api/v1/tournaments/{tid}/forbidden",
               {"a": players[2], "b": players[3], "from_round": 2, "to_round": 5})
    round1 = api("POST", f"/api/v1/tournaments/{tid}/rounds", {"date": "2026-01-10"})
    games = [g["id"] for p in round1["pairings"] for g in p["games"]]
    api("PUT", f"/api/v1/games/{games[0]}", {"result": "1-0"})
    link = api("POST", f"/api/v1/tournaments/{tid}/players/{players[4]}/link")
    key = link["url"].rsplit("/", 1)[1]

    cup = api("POST", "/api/v1/tournaments", {"name": "Contract Cup", "system": "round_robin"})["id"]
    for n in names[:4]:
        api("POST", f"/api/v1/tournaments/{cup}/players", {"name": n})

    league = api("POST", "/api/v1/tournaments", {
        "name": "Contract League", "system": "team_league", "rules": "official",
    })
    lid = league["id"]
    members = [api("POST", f"/api/v1/tournaments/{lid}/players", {"name": f"Board {i + 1}"})["id"]
               for i in range(8)]
    teams = [api("POST", f"/api/v1/tournaments/{lid}/teams",
                 {"name": f"Team {k + 1}", "members": members[4 * k:4 * k + 4]})["id"]
             for k in range(2)]
    api("POST", f"/api/v1/tournaments/{lid}/rounds", {})

    people = [api("POST", "/api/v1/people", {"name": n, "federation_id": f"ZA-{1001 + i}", "born": 1990 + i})["id"]
              for i, n in enumerate(["Thandi Sithole", "Mpho Radebe"])]
    season = api("POST", "/api/v1/seasons", {"name": "Contract Season", "events": [{"tournament": tid}]})

    with open(event_file, "w") as f:
        f.write(call(base, token, "GET", f"/t/{tid}/event.json", raw=True))

    json.dump({
        "tournament": tid, "players": players, "kept_apart": kept["id"], "round": 1, "games": games,
        "key": key, "cup": cup, "league": lid, "event_file": event_file, "league_players": members, "teams": teams,
        "people": people, "season": season["id"],
    }, sys.stdout)
    print()


if __name__ == "__main__":
    main()

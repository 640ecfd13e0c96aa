#!/usr/bin/env python3
"""A soak of the API with generic random clients: many games with random seat counts
and random sets of expansions, played to the end using only what `…/actions` lists.

Fails (exit 1) when a listed action is refused, when a read of a finished game fails,
or when any answer is a 5xx. Start a server first (release build recommended), e.g.

    DATABASE_URL=sqlite:///tmp/soak.db TILEPOST_BIND=127.0.0.1:18282 \\
        TILEPOST_ARGON2_MEMORY_KIB=256 TILEPOST_ARGON2_ITERATIONS=1 \\
        target/release/tilepost serve &
    scripts/api-soak.py --url http://127.0.0.1:18282 --games 400 --seed 2

Only addresses on this machine are meant as targets; every loop is bounded.
"""
import argparse
import concurrent.futures as cf
import http.client
import json
import random
import sys
import time
import urllib.parse
import uuid

EXPANSIONS = ["river", "abbot", "inns_cathedrals", "traders_builders", "abbey_mayor",
              "flying_machines", "messages", "ferries", "gold_mines", "mage_witch",
              "robbers", "crop_circles"]


class Api:
    def __init__(self, url):
        u = urllib.parse.urlparse(url)
        self.conn = http.client.HTTPConnection(u.hostname, u.port, timeout=60)

    def call(self, method, path, body=None, token=None):
        h = {"Content-Type": "application/json"}
        if token:
            h["Authorization"] = "Bearer " + token
        self.conn.request(method, path, json.dumps(body) if body is not None else None, h)
        r = self.conn.getresponse()
        data = r.read()
        if r.status >= 500:
            raise RuntimeError("%s %s answered %s: %r" % (method, path, r.status, data[:300]))
        ctype = r.getheader("Content-Type") or ""
        return r.status, (json.loads(data) if data and "json" in ctype else data)


def play(url, seed, index, resign_rate):
    rng = random.Random(seed * 1_000_003 + index)
    api = Api(url)
    seats = rng.randint(2, 6)
    expansions = [e for e in EXPANSIONS if rng.random() < 0.5]
    if seats == 6 and "inns_cathedrals" not in expansions:
        expansions.append("inns_cathedrals")
    tokens = {}
    for k in range(seats):
        name = "soak%s%d" % (uuid.uuid4().hex[:8], k)
        api.call("POST", "/v1/users", {"username": name, "email": name + "@example.com",
                                       "password": "correct horse"})
        _, t = api.call("POST", "/v1/auth/token", {"username": name, "password": "correct horse"})
        tokens[name] = t["access_token"]
    names = list(tokens)
    s, g = api.call("POST", "/v1/games", {"seats": seats, "expansions": expansions}, tokens[names[0]])
    if s != 201:
        return ("create refused", s, g)
    gid = g["id"]
    for name in names[1:]:
        s, r = api.call("POST", "/v1/games/%s/join" % gid, {}, tokens[name])
        if s != 200:
            return ("join refused", s, r)
    moves, kinds = 0, set()
    while moves <= 5000:
        s, a = api.call("GET", "/v1/games/%s/actions" % gid)
        if s != 200:
            return ("actions failed", gid, s, a)
        if a["pending"] is None:
            break
        if rng.random() < resign_rate:
            s, r = api.call("POST", "/v1/games/%s/resign" % gid, None, tokens[rng.choice(names)])
            if s not in (200, 409):
                return ("resign failed", gid, s, r)
            continue
        act = rng.choice(a["actions"])
        kinds.add(act["type"])
        s, r = api.call("POST", "/v1/games/%s/moves" % gid,
                        {"expected_version": a["version"], "actions": [act]},
                        tokens[a["pending"]["username"]])
        if s != 200:
            return ("listed action refused", gid, expansions, seats, act, s, r)
        moves += 1
    else:
        return ("no end after 5000 moves", gid)
    for path in ["", "/events?limit=200", "/board.svg", "/export"]:
        s, r = api.call("GET", "/v1/games/%s%s" % (gid, path))
        if s != 200:
            return ("read failed", gid, path, s, r)
    return ("ok", moves, kinds)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--url", default="http://127.0.0.1:18282")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--clients", type=int, default=4)
    ap.add_argument("--resign-rate", type=float, default=0.003,
                    help="chance that a random player resigns before a decision")
    o = ap.parse_args()
    start, bad, moves, kinds = time.time(), 0, 0, set()
    with cf.ThreadPoolExecutor(o.clients) as ex:
        for r in ex.map(lambda i: play(o.url, o.seed, i, o.resign_rate), range(o.games)):
            if r[0] == "ok":
                moves += r[1]
                kinds |= r[2]
            else:
                bad += 1
                print(r, flush=True)
    print("%d games, %d failed, %d moves in %.0f s; action kinds played: %s"
          % (o.games, bad, moves, time.time() - start, ", ".join(sorted(kinds))))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""GET latency of a game while computer opponents think in many games.

Starts nothing: point it at a running server (release build, with its bot worker on).
It creates `--games` games of one person and `--bots` bot seats each, keeps every game
moving by playing the person's turns at once (so the bots always have turns to think
about), and meanwhile measures `GET /v1/games/{id}` of one of them with `wrk` (1 and 16
connections). Reports the decisions the bots made during the measurement.

Usage: scripts/bots-load.py --url http://127.0.0.1:18181 [--games 20] [--bots greedy,mcts]
Only addresses on this machine are meant as targets; every loop is bounded.
"""
import argparse, json, random, shutil, subprocess, threading, time, urllib.error, urllib.request


def call(url, method, path, body=None, token=None):
    req = urllib.request.Request(url + path, data=json.dumps(body).encode() if body is not None else None, method=method)
    req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("Authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read() or b"null")
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"null")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--url", default="http://127.0.0.1:18181")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--bots", default="greedy,mcts")
    ap.add_argument("--seconds", type=int, default=10)
    a = ap.parse_args()
    bots = a.bots.split(",")
    name = "load%d" % random.randrange(10**6)
    call(a.url, "POST", "/v1/users", {"username": name, "email": name + "@example.com", "password": "correct horse"})
    _, t = call(a.url, "POST", "/v1/auth/token", {"username": name, "password": "correct horse"})
    tok = t["access_token"]
    games = []
    for _ in range(a.games):
        s, g = call(a.url, "POST", "/v1/games", {"seats": 1 + len(bots), "bots": bots}, tok)
        assert s == 201, (s, g)
        games.append(g["id"])
    stop = threading.Event()
    moves = [0]

    def person():
        rng = random.Random(1)
        while not stop.is_set():
            for gid in games:
                s, acts = call(a.url, "GET", "/v1/games/%s/actions" % gid, token=tok)
                p = acts.get("pending") if s == 200 else None
                if p and p["username"] == name:
                    call(a.url, "POST", "/v1/games/%s/moves" % gid,
                         {"expected_version": acts["version"], "actions": [rng.choice(acts["actions"])]}, tok)
                    moves[0] += 1
            time.sleep(0.05)

    th = threading.Thread(target=person, daemon=True)
    th.start()
    time.sleep(3)

    def bot_events():
        n = 0
        for gid in games:
            s, v = call(a.url, "GET", "/v1/games/%s" % gid)
            n += v.get("version", 0) if s == 200 else 0
        return n

    before = bot_events()
    target = a.url + "/v1/games/" + games[0]
    for conns in (1, 16):
        if shutil.which("wrk"):
            out = subprocess.run(["wrk", "-t", str(min(conns, 2)), "-c", str(conns), "-d", "%ds" % a.seconds, "--latency", target],
                                 capture_output=True, text=True).stdout
            print("== GET a game, %d connection(s), %d bot games moving" % (conns, a.games))
            print("\n".join(l for l in out.splitlines() if "%" in l or "Requests/sec" in l))
    after = bot_events()
    stop.set()
    print("events recorded meanwhile: %d (person moves: %d)" % (after - before, moves[0]))


if __name__ == "__main__":
    main()

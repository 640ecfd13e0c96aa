#!/usr/bin/env python3
"""Load figures for a running tilepost server (release build recommended).

Plays a complete base game through the API, then measures:
- GET of the finished game: with `wrk` when installed (1 and 16 connections), else with
  this script's own sequential client;
- POST of a move: sequential turns of a second game, one keep-alive connection;
- the server's RSS (pass --pid);
- with --analysis N [--positions P]: N sequential GETs of the analysis of each of P
  mid-game positions (2 players, Inns & Cathedrals and Traders & Builders, random legal
  moves up to 55 tiles placed, `assistance: full`).

Usage: scripts/load.py --url http://127.0.0.1:18181 [--pid PID] [--seconds 10] [--analysis N]
Only addresses on this machine are meant as targets; every loop is bounded.
"""
import argparse, http.client, json, random, shutil, statistics, subprocess, threading, time, urllib.parse, uuid


class Api:
    def __init__(self, url):
        self.u = urllib.parse.urlparse(url)
        self.conn = http.client.HTTPConnection(self.u.hostname, self.u.port, timeout=30)

    def call(self, method, path, body=None, token=None):
        h = {"Content-Type": "application/json"}
        if token:
            h["Authorization"] = "Bearer " + token
        data = json.dumps(body) if body is not None else None
        try:
            self.conn.request(method, path, data, h)
            r = self.conn.getresponse()
        except (BrokenPipeError, ConnectionResetError, http.client.RemoteDisconnected):
            # the server closed the idle keep-alive connection (during a wrk run): reconnect
            self.conn.close()
            self.conn = http.client.HTTPConnection(self.u.hostname, self.u.port, timeout=30)
            self.conn.request(method, path, data, h)
            r = self.conn.getresponse()
        data = r.read()
        return r.status, (json.loads(data) if data else None)


def user(api, name):
    api.call("POST", "/v1/users", {"username": name, "email": name + "@example.com", "password": "correct horse"})
    _, t = api.call("POST", "/v1/auth/token", {"username": name, "password": "correct horse"})
    return t["access_token"]


def game(api, a, b):
    _, g = api.call("POST", "/v1/games", {"seats": 2}, a)
    api.call("POST", "/v1/games/%s/join" % g["id"], {}, b)
    return g["id"]


def play(api, gid, tokens, timings=None, max_moves=400):
    for _ in range(max_moves):
        _, a = api.call("GET", "/v1/games/%s/actions" % gid)
        if a["pending"] is None:
            return
        tok = tokens[a["pending"]["username"]]
        t = time.perf_counter()
        s, _ = api.call("POST", "/v1/games/%s/moves" % gid,
                        {"expected_version": a["version"], "actions": [a["actions"][0]]}, tok)
        if timings is not None:
            timings.append((time.perf_counter() - t) * 1000)
        assert s == 200, s


def analysis(api, a, b, tokens, runs, seed):
    """Times `runs` GETs of the analysis of a mid-game position, reached by random legal
    moves (`seed`)."""
    rng = random.Random(seed)
    _, g = api.call("POST", "/v1/games", {"seats": 2, "assistance": "full",
                                          "expansions": ["inns_cathedrals", "traders_builders"]}, a)
    gid = g["id"]
    api.call("POST", "/v1/games/%s/join" % gid, {}, b)
    for _ in range(400):
        _, acts = api.call("GET", "/v1/games/%s/actions" % gid)
        _, v = api.call("GET", "/v1/games/" + gid)
        if acts["pending"] is None or (len(v["board"]) >= 55 and acts["pending"]["kind"] == "place_tile"):
            break
        s, _ = api.call("POST", "/v1/games/%s/moves" % gid,
                        {"expected_version": acts["version"], "actions": [rng.choice(acts["actions"])]},
                        tokens[acts["pending"]["username"]])
        assert s == 200, s
    lat = []
    for _ in range(runs):
        t = time.perf_counter()
        s, r = api.call("GET", "/v1/games/%s/analysis" % gid, token=b)
        lat.append((time.perf_counter() - t) * 1000)
        assert s == 200, (s, r)
    print("GET analysis (%d tiles placed, %d open features, %d futures; %d runs, 1 connection): "
          "p50 %.1f ms, p95 %.1f ms, max %.1f ms" % (len(v["board"]), len(r["features"]), r["chances"]["futures"],
                                                     runs, pct(lat, .5), pct(lat, .95), max(lat)))


def pct(v, p):
    v = sorted(v)
    return v[min(len(v) - 1, int(len(v) * p))]


def rss(pid):
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmRSS"):
                    return int(line.split()[1]) / 1024
    except OSError:
        return None


class PeakRss:
    """Samples the server's RSS every 50 ms while a load runs; keeps the peak."""

    def __init__(self, pid):
        self.pid, self.peak, self.stop = pid, 0.0, threading.Event()
        self.t = threading.Thread(target=self.run, daemon=True)

    def run(self):
        while not self.stop.is_set():
            self.peak = max(self.peak, rss(self.pid) or 0.0)
            self.stop.wait(0.05)

    def __enter__(self):
        if self.pid:
            self.t.start()
        return self

    def __exit__(self, *_):
        self.stop.set()
        if self.pid:
            self.t.join()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--url", default="http://127.0.0.1:18181")
    ap.add_argument("--pid", type=int)
    ap.add_argument("--seconds", type=int, default=10)
    ap.add_argument("--analysis", type=int, default=0, help="GETs of a mid-game analysis to time")
    ap.add_argument("--positions", type=int, default=1, help="positions to time with --analysis")
    o = ap.parse_args()
    api = Api(o.url)
    if o.pid:
        print("RSS idle: %.1f MiB" % rss(o.pid))
    sfx = uuid.uuid4().hex[:6]
    a, b = user(api, "la" + sfx), user(api, "lb" + sfx)
    tokens = {"la" + sfx: a, "lb" + sfx: b}
    if o.analysis:
        for seed in range(o.positions):
            analysis(api, a, b, tokens, o.analysis, seed)
        return
    finished = game(api, a, b)
    play(api, finished, tokens)
    _, v = api.call("GET", "/v1/games/" + finished)
    print("finished game %s: version %s, %s tiles" % (finished, v["version"], len(v["board"])))
    url = o.url + "/v1/games/" + finished
    peak = PeakRss(o.pid)
    peak.__enter__()
    if shutil.which("wrk"):
        for c in (1, 16):
            out = subprocess.run(["wrk", "-t", "1" if c == 1 else "2", "-c", str(c), "-d", "%ds" % o.seconds,
                                  "--latency", url], capture_output=True, text=True).stdout
            print("== wrk GET finished game, %d connection(s)\n%s" % (c, out))
    else:
        lat = []
        end = time.time() + o.seconds
        while time.time() < end:
            t = time.perf_counter()
            api.call("GET", "/v1/games/" + finished)
            lat.append((time.perf_counter() - t) * 1000)
        print("GET finished game, 1 connection: p50 %.2f ms, p99 %.2f ms, %d req/s" %
              (pct(lat, .5), pct(lat, .99), len(lat) / o.seconds))
    peak.__exit__()
    if o.pid:
        print("RSS after GET load: %.1f MiB, peak during it: %.1f MiB" % (rss(o.pid), peak.peak))
    timings = []
    second = game(api, a, b)
    with PeakRss(o.pid) as peak:
        play(api, second, tokens, timings)
    print("POST move (%d moves, 1 connection): p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, mean %.2f ms" %
          (len(timings), pct(timings, .5), pct(timings, .9), pct(timings, .99), statistics.mean(timings)))
    if o.pid:
        print("RSS after load: %.1f MiB, peak during the POSTs: %.1f MiB" % (rss(o.pid), peak.peak))


if __name__ == "__main__":
    main()

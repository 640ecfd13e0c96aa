#!/usr/bin/env python3
"""How costs grow with the data: seeds Postgres databases of N games (`tilepost seed`),
runs the server on each, and measures at one connection the p50 and p99 of

  - the my-turn list of a busy player (`busy`, in up to 200 running games),
  - GET of a random game with a cold replay cache (every request a different game),
  - a page of a random game's events,
  - POST of a move in a random running game (the pending player's first listed option;
    never one of busy's games, so that busy's lists are the same at every run),

  - a player's profile (`GET /v1/users/{name}`), a page of their rating history, and
    pages of the leaderboard (the first, and pages far down by following the cursor),
    among as many seeded players as games with ten results each (100,000 players and
    1,000,000 rating-history rows next to 100,000 games), added with SQL,

then the duration of one deadline sweep and of one outbox claim (`tilepost sweep`), and
the bytes per game in the database. With --explain (on by default when the Postgres log
is readable) it also turns on `auto_explain` for the database and reports the plans of
the queries the server really ran: any sequential scan of `games` or `game_events` is
listed.

    scripts/scale.py --sizes 10000,100000            # release build (PROFILE=debug: debug)
    scripts/scale.py --sizes 1000 --requests 50      # what CI runs

Postgres: DATABASE_URL's server (default postgres://postgres@127.0.0.1:5432/test); the
databases are named tilepost_scale_<N> and kept (--reuse seeds only when missing).
Prints a Markdown table (the README carries one).
"""

import argparse
import http.client
import json
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import time
import urllib.parse

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PASSWORD = "seeded password"
PG_LOG = "/var/log/postgresql/postgresql-15-main.log"


def pg_base():
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        url = "postgres://postgres@127.0.0.1:5432/test"
    return url


def with_db(url, db):
    p = urllib.parse.urlsplit(url)
    return urllib.parse.urlunsplit((p.scheme, p.netloc, "/" + db, p.query, p.fragment))


def psql(url, sql):
    out = subprocess.run(["psql", url, "-tA", "-v", "ON_ERROR_STOP=1", "-c", sql],
                         check=True, capture_output=True, text=True)
    return out.stdout.strip()


def binary(profile):
    args = ["cargo", "build", "-q", "--bin", "tilepost"] + (["--release"] if profile == "release" else [])
    subprocess.run(args, check=True, cwd=ROOT)
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
    return os.path.join(target, profile, "tilepost")


def env_for(url, **extra):
    env = dict(os.environ)
    env.update({
        "DATABASE_URL": url,
        "RUST_LOG": "warn",
        "TILEPOST_ARGON2_MEMORY_KIB": "256",
        "TILEPOST_ARGON2_ITERATIONS": "1",
        "TILEPOST_JWT_SECRET": "scale-secret-0123456789abcdef0123456789abcdef",
    })
    env.update({k: str(v) for k, v in extra.items()})
    return env


def seed(exe, url, games, reuse):
    if reuse:
        try:
            n = int(psql(url, "SELECT count(*) FROM games") or 0)
            if n >= games:
                return None
        except subprocess.CalledProcessError:
            pass
    base = pg_base()
    db = urllib.parse.urlsplit(url).path.lstrip("/")
    psql(base, f"DROP DATABASE IF EXISTS {db}")
    psql(base, f"CREATE DATABASE {db}")
    t = time.monotonic()
    out = subprocess.run([exe, "seed", "--games", str(games)], env=env_for(url),
                         check=True, capture_output=True, text=True)
    took = time.monotonic() - t
    print(out.stdout.strip(), file=sys.stderr)
    return took


def seed_players(url, players, results):
    """Players with ratings in both pools, figures and `results` results (rated, in
    finished games of the database), written by SQL in a few statements."""
    have = int(psql(url, "SELECT count(*) FROM users WHERE id LIKE 'seedp-%'") or 0)
    if have >= players:
        return None
    t = time.monotonic()
    now = int(time.time() * 1000)
    h = psql(url, "SELECT password_hash FROM users WHERE username = 'busy'")
    psql(url, f"""
        INSERT INTO users (id, username, email, password_hash, notify_turn, notify_finished,
                           created_at, locale, time_zone)
        SELECT 'seedp-' || i, 'p' || i, 'p' || i || '@example.com', '{h}', 0, 0,
               {now} - i::bigint * 1000, 'en', 'UTC'
        FROM generate_series(0, {players - 1}) i;
        INSERT INTO ratings (user_id, pool, rating, deviation, volatility, games, updated_at)
        SELECT 'seedp-' || i, pool, 1500 + 400 * sin(i * 0.37 + length(pool)),
               45 + (i * 13) % 250, 0.06, 10, {now}
        FROM generate_series(0, {players - 1}) i
        CROSS JOIN (VALUES ('base'), ('expansions')) p(pool);
        INSERT INTO user_stats (user_id, played, finished, won, resigned, timed_out, moves, move_ms)
        SELECT 'seedp-' || i, 10, 9, 3, 1, 0, 300, 300 * 3600000
        FROM generate_series(0, {players - 1}) i;
        CREATE TEMP TABLE fg AS
            SELECT (row_number() OVER (ORDER BY id)) - 1 AS n, id FROM games WHERE status = 'finished';
        CREATE INDEX ON fg (n);
        INSERT INTO game_results (user_id, game_id, ended_at, seats, rank, score, outcome, public,
                                  pool, rating_before, rating_after, deviation_after)
        SELECT 'seedp-' || (i % {players}), fg.id, {now} - i::bigint * 60000, 4, 1 + i % 4, (i * 7) % 150,
               'completed', 1, CASE WHEN i % 2 = 0 THEN 'base' ELSE 'expansions' END,
               1500 + (i % 300), 1500 + ((i + 7) % 300), 80
        FROM generate_series(0, {results - 1}) i
        JOIN fg ON fg.n = (i + (i / {players}) * 7919) % (SELECT count(*) FROM fg)
        ON CONFLICT DO NOTHING;
        ANALYZE;
    """)
    return time.monotonic() - t


class Server:
    def __init__(self, exe, url):
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        self.port = s.getsockname()[1]
        s.close()
        env = env_for(url, TILEPOST_BIND=f"127.0.0.1:{self.port}", TILEPOST_DEADLINE_SWEEP_MS=0,
                      TILEPOST_BOT_POLL_MS=0, TILEPOST_NOTIFY_WORKER="false",
                      TILEPOST_MOVES_PER_MINUTE=1000000, TILEPOST_LOGIN_FAILURES_PER_ADDRESS=1000000,
                      TILEPOST_LOGIN_FAILURES_PER_ACCOUNT=1000000)
        self.proc = subprocess.Popen([exe, "serve"], env=env, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        for _ in range(200):
            try:
                self.call("GET", "/healthz")
                break
            except OSError:
                time.sleep(0.05)
        self.conn = http.client.HTTPConnection("127.0.0.1", self.port)

    def raw(self, method, path, body=None, token=None, conn=None):
        c = conn or http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = "Bearer " + token
        payload = None if body is None else json.dumps(body)
        t = time.perf_counter()
        c.request(method, path, body=payload, headers=headers)
        r = c.getresponse()
        data = r.read()
        took = (time.perf_counter() - t) * 1000.0
        if conn is None:
            c.close()
        return took, r.status, (json.loads(data) if data[:1] in (b"{", b"[") else None)

    def call(self, method, path, body=None, token=None, conn=None):
        _, status, data = self.raw(method, path, body, token, conn)
        return status, data

    def timed(self, method, path, body=None, token=None):
        """Milliseconds from sending the request to its last byte (the client's own
        encoding and decoding of JSON are not counted)."""
        return self.raw(method, path, body, token, conn=self.conn)

    def stop(self):
        self.proc.terminate()
        self.proc.wait()


def pct(xs, p):
    xs = sorted(xs)
    if not xs:
        return float("nan")
    k = min(len(xs) - 1, max(0, int(round(p / 100.0 * len(xs) + 0.5)) - 1))
    return xs[k]


def tokens_for(srv, users):
    out = {}
    for u in users:
        st, data = srv.call("POST", "/v1/auth/token", {"username": u, "password": PASSWORD})
        if st != 200:
            raise SystemExit(f"cannot log in as {u}: {st} {data}")
        out[u] = data["access_token"]
    return out


def measure(exe, url, requests, rng):
    srv = Server(exe, url)
    res = {}
    try:
        busy = tokens_for(srv, ["busy"])["busy"]
        # requests first, so that the pool's connections (10) have prepared their
        # statements and Postgres has settled their plans: the measures are of a server
        # that has been running, not of its first minute
        for _ in range(100):
            srv.timed("GET", "/v1/games?player=me&my_turn=true", token=busy)
            srv.timed("GET", "/v1/games?player=me&status=active&limit=50", token=busy)
        # the my-turn list, and the whole list of the busy player's running games
        res["my-turn list"] = [srv.timed("GET", "/v1/games?player=me&my_turn=true", token=busy)[0]
                               for _ in range(requests)]
        res["my running games (page of 50)"] = [
            srv.timed("GET", "/v1/games?player=me&status=active&limit=50", token=busy)[0]
            for _ in range(requests)]
        finished = psql(url, f"SELECT id FROM games WHERE status = 'finished' ORDER BY random() LIMIT {requests}").split()
        res["GET game (cold)"] = [srv.timed("GET", f"/v1/games/{g}")[0] for g in finished]
        others = psql(url, f"SELECT id FROM games WHERE status = 'finished' ORDER BY random() LIMIT {requests}").split()
        res["page of events"] = [srv.timed("GET", f"/v1/games/{g}/events?limit=50")[0] for g in others]
        active = psql(url, "SELECT g.id, u.username FROM games g JOIN users u ON u.id = g.current_user_id "
                           "WHERE g.status = 'active' AND NOT EXISTS (SELECT 1 FROM game_seats s "
                           "JOIN users b ON b.id = s.user_id WHERE s.game_id = g.id AND b.username = 'busy') "
                           f"ORDER BY random() LIMIT {requests}").splitlines()
        pairs = [line.split("|") for line in active if "|" in line]
        toks = tokens_for(srv, sorted({u for _, u in pairs}))
        posts = []
        for gid, user in pairs:
            st, a = srv.call("GET", f"/v1/games/{gid}/actions", token=toks[user])
            if st != 200 or not a.get("actions") or not a.get("pending"):
                continue
            if a["pending"].get("username") != user:
                continue
            ms, st, _ = srv.timed("POST", f"/v1/games/{gid}/moves",
                                  {"expected_version": a["version"], "actions": [a["actions"][0]]},
                                  token=toks[user])
            if st == 200:
                posts.append(ms)
        res["POST move"] = posts
        players = psql(url, "SELECT username FROM users WHERE id LIKE 'seedp-%' "
                            f"ORDER BY random() LIMIT {requests}").split()
        res["profile"] = [srv.timed("GET", f"/v1/users/{p}")[0] for p in players]
        res["rating history page"] = [srv.timed("GET", f"/v1/users/{p}/ratings?limit=20")[0]
                                      for p in players]
        board = []
        for pool in ["base", "expansions"]:
            cursor = None
            for _ in range(requests // 2):
                path = f"/v1/leaderboard?pool={pool}&limit=50" + (f"&cursor={cursor}" if cursor else "")
                ms, st, data = srv.timed("GET", path)
                board.append(ms)
                cursor = (data or {}).get("next_cursor") if st == 200 else None
        res["leaderboard page (first to deep)"] = board
    finally:
        srv.stop()
    sweeps, claims = [], []
    for _ in range(5):
        out = subprocess.run([exe, "sweep"], env=env_for(url), check=True,
                             capture_output=True, text=True).stdout
        # the work a sweep found (reminders and time-outs come due as the seeded clocks
        # age, and the moves posted above leave turn emails in the outbox)
        print(" / ".join(out.strip().splitlines()), file=sys.stderr)
        sweeps.append(float(re.search(r"sweep: .* in ([0-9.]+) ms", out).group(1)))
        claims.append(float(re.search(r"outbox claim: .* in ([0-9.]+) ms", out).group(1)))
    res["deadline sweep"] = sweeps
    res["outbox claim"] = claims
    return res


def sizes(url):
    games = int(psql(url, "SELECT count(*) FROM games"))
    finished_base = int(psql(url, "SELECT count(*) FROM games WHERE status = 'finished' AND expansions = '[]'"))
    total = int(psql(url, "SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class c "
                          "JOIN pg_namespace n ON n.oid = c.relnamespace "
                          "WHERE n.nspname = 'public' AND c.relkind = 'r'"))
    ev = int(psql(url, "SELECT pg_total_relation_size('game_events')"))
    events = int(psql(url, "SELECT count(*) FROM game_events"))
    base_events = int(psql(url, "SELECT count(*) FROM game_events e JOIN games g ON g.id = e.game_id "
                                "WHERE g.status = 'finished' AND g.expansions = '[]'"))
    payload = int(psql(url, "SELECT coalesce(sum(octet_length(e.payload)), 0) FROM game_events e "
                            "JOIN games g ON g.id = e.game_id WHERE g.status = 'finished' AND g.expansions = '[]'"))
    per_event = ev / max(events, 1)
    return {
        "games": games,
        "bytes per game (all tables and indexes)": total / max(games, 1),
        "events per finished base game": base_events / max(finished_base, 1),
        "event bytes per finished base game (table and indexes)": per_event * base_events / max(finished_base, 1),
        "payload bytes per finished base game": payload / max(finished_base, 1),
    }


def explain(exe, url, db, rng):
    """Plans of the queries the server runs, from auto_explain in the Postgres log."""
    if not os.access(PG_LOG, os.R_OK):
        return None
    base = pg_base()
    for s in ["session_preload_libraries = 'auto_explain'", "auto_explain.log_min_duration = 0",
              "auto_explain.log_analyze = on", "auto_explain.log_nested_statements = on"]:
        psql(base, f"ALTER DATABASE {db} SET {s}")
    start = os.path.getsize(PG_LOG)
    try:
        measure(exe, url, 5, rng)
    finally:
        for s in ["session_preload_libraries", "auto_explain.log_min_duration",
                  "auto_explain.log_analyze", "auto_explain.log_nested_statements"]:
            psql(base, f"ALTER DATABASE {db} RESET {s}")
    with open(PG_LOG, "r", errors="replace") as f:
        f.seek(start)
        log = f.read()
    # one block per plan; this script's own queries (picking random games, sizes) are
    # not the server's
    blocks = [b for b in re.split(r"LOG:  duration: [0-9.]+ ms\s+plan:", log)[1:]
              if not re.search(r"random\(\)|pg_total_relation_size|count\(\*\)|octet_length", b)]
    scans = sorted({s for b in blocks for s in re.findall(r"Seq Scan on (\w+)", b)})
    big = ("games", "game_events", "game_seats", "outbox", "stream_events", "chat_messages",
           "users", "ratings", "game_results", "user_stats")
    hot = {}
    for b in blocks:
        for s in re.findall(r"Seq Scan on (\w+)", b):
            if s in big:
                q = re.search(r"Query Text: (.*)", b)
                hot.setdefault(s, (q.group(1)[:160] if q else "?"))
    return {"plans": len(blocks), "seq scans": scans, "seq scans of big tables": hot}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="10000,100000")
    ap.add_argument("--requests", type=int, default=1000)
    ap.add_argument("--reuse", action="store_true", help="seed only databases that are missing or smaller")
    ap.add_argument("--no-explain", action="store_true")
    args = ap.parse_args()
    profile = os.environ.get("PROFILE", "release")
    exe = binary(profile)
    rng = random.Random(1)
    rows = []
    for n in [int(s) for s in args.sizes.split(",") if s]:
        db = f"tilepost_scale_{n}"
        url = with_db(pg_base(), db)
        took = seed(exe, url, n, args.reuse)
        if took is not None:
            print(f"seeded {n} games in {took:.1f} s", file=sys.stderr)
        seeded = seed_players(url, n, 10 * n)
        if seeded is not None:
            print(f"seeded {n} players with {10 * n} results in {seeded:.1f} s", file=sys.stderr)
        if took is not None or seeded is not None:
            # what autovacuum does to a database that has been running a while (the
            # visibility map that index-only scans rely on, fresh statistics), done now
            # rather than in the middle of the measurements
            psql(url, "VACUUM (ANALYZE)")
        res = measure(exe, url, args.requests, rng)
        size = sizes(url)
        plans = None if args.no_explain else explain(exe, url, db, rng)
        rows.append((n, took, res, size, plans))
    names = list(rows[0][2].keys())
    print(f"| measure ({profile} build, one connection) | " + " | ".join(f"{n:,} games p50 / p99 (ms)" for n, *_ in rows) + " |")
    print("|---|" + "---|" * len(rows))
    for name in names:
        cells = []
        for _, _, res, _, _ in rows:
            xs = res[name]
            cells.append(f"{pct(xs, 50):.2f} / {pct(xs, 99):.2f} ({len(xs)})" if xs else "n/a")
        print(f"| {name} | " + " | ".join(cells) + " |")
    print("|  |" + "|".join(" " for _ in rows) + "|")
    print("| seeding (s) | " + " | ".join("reused" if t is None else f"{t:.0f}" for _, t, *_ in rows) + " |")
    for key in rows[0][3]:
        print(f"| {key} | " + " | ".join(f"{r[3][key]:,.0f}" for r in rows) + " |")
    for n, _, _, _, plans in rows:
        if plans is None:
            print(f"\n{n:,} games: plans not read (the Postgres log {PG_LOG} is not readable, or --no-explain)")
        else:
            print(f"\n{n:,} games: {plans['plans']} plans of the server's queries; sequential scans: "
                  f"{', '.join(plans['seq scans']) or 'none'}; of the tables that grow: "
                  f"{', '.join(plans['seq scans of big tables']) or 'none'}")
            for table, query in plans["seq scans of big tables"].items():
                print(f"  - {table}: {query}")
    if len(rows) >= 2:
        a, b = rows[0], rows[-1]
        print(f"\np99 growth from {a[0]:,} to {b[0]:,} games:")
        for name in names:
            pa, pb = pct(a[2][name], 99), pct(b[2][name], 99)
            if a[2][name] and b[2][name]:
                print(f"- {name}: {pa:.2f} -> {pb:.2f} ms ({(pb / pa - 1) * 100:+.0f} %)")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""A small tilepost bot that uses only the public API: the example for bot authors.

It holds a personal access token (scopes `game:read game:play`; make one with
`POST /v1/users/me/tokens`), asks which of its games wait for it, and answers each pending
decision with one of the options `GET /v1/games/{id}/actions` lists. Every listed option
is a complete action that can be posted as it is, so the bot needs no rules of its own;
its only judgement is to prefer placing a follower, and it otherwise picks at random.

    scripts/example-bot.py --url http://127.0.0.1:8080 --token tpp_... [--once]

`--url` is the server's root or the API's root (`http://127.0.0.1:8080/v1`): both work.

Good manners: it polls at most every `--every` seconds (default 30; webhooks of type
`game.turn_started` can wake it instead), sends `expected_version` with every move (a
`409 stale-version` just means someone else moved first), and stops on `401`. Only the
Python standard library is used.
"""
import argparse
import json
import random
import sys
import time
import urllib.error
import urllib.request


class Api:
    def __init__(self, url, token):
        # the server's root (http://host:8080) or the API's (http://host:8080/v1)
        self.url = url.rstrip("/")
        if self.url.endswith("/v1"):
            self.url = self.url[: -len("/v1")]
        self.token = token

    def call(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.url + path, data=data, method=method)
        req.add_header("Authorization", "Bearer " + self.token)
        if data is not None:
            req.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                text = r.read()
                return r.status, (json.loads(text) if text else None)
        except urllib.error.HTTPError as e:
            text = e.read()
            try:
                return e.code, json.loads(text)
            except ValueError:
                return e.code, None


def choose(options, rng):
    """One listed option: a follower when one may be placed, else any."""
    followers = [o for o in options if o.get("type") == "place_figure" and o.get("figure") == "follower"]
    return rng.choice(followers or options)


def waiting_games(api):
    """The ids of the games where the bot's decision is pending, page by page."""
    path = "/v1/games?player=me&status=active&my_turn=true&limit=50"
    while path:
        status, page = api.call("GET", path)
        if status == 401:
            sys.exit("the token was refused (401): make a new one")
        if status != 200:
            print("listing games failed:", status, page, file=sys.stderr)
            return
        for g in page["games"]:
            yield g["id"]
        cursor = page.get("next_cursor")
        path = ("/v1/games?player=me&status=active&my_turn=true&limit=50&cursor=" + cursor) if cursor else None


def play(api, game_id, rng):
    """Answers the decisions pending for the bot in one game (listed as its turn, so the
    first pending decision read is the bot's own); returns how many."""
    moves = 0
    me = None
    for _ in range(50):  # the decisions of one turn are few; never loop forever
        status, a = api.call("GET", "/v1/games/%s/actions" % game_id)
        if status != 200 or a["pending"] is None:
            return moves
        me = me or a["pending"]["user_id"]
        if a["pending"]["user_id"] != me:
            return moves
        action = choose(a["actions"], rng)
        status, r = api.call(
            "POST", "/v1/games/%s/moves" % game_id,
            {"expected_version": a["version"], "actions": [action]},
        )
        if status == 409:
            continue  # someone moved first: read again
        if status != 200:
            print("move refused:", status, r, file=sys.stderr)
            return moves
        moves += 1
    return moves


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--url", default="http://127.0.0.1:8080", help="the server (or its /v1)")
    ap.add_argument("--token", required=True, help="a personal access token (tpp_...)")
    ap.add_argument("--every", type=float, default=30.0, help="seconds between polls")
    ap.add_argument("--once", action="store_true", help="play what waits now, then stop")
    ap.add_argument("--seed", type=int, default=None)
    args = ap.parse_args()
    api = Api(args.url, args.token)
    rng = random.Random(args.seed)
    while True:
        played = sum(play(api, gid, rng) for gid in list(waiting_games(api)))
        if played:
            print("played %d decisions" % played, flush=True)
        if args.once:
            return
        time.sleep(max(args.every, 1.0))


if __name__ == "__main__":
    main()

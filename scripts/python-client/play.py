#!/usr/bin/env python3
"""Plays a complete game with the client generated from openapi/openapi.json.

Registers two users, creates a 2-seat game, joins it, and plays it to the end using only
what `GET /v1/games/{id}/actions` lists (a random option each time, seeded). Exits
non-zero on any refusal or unexpected answer.

Usage: PYTHONPATH=<dir with tilepost_client> play.py --url http://127.0.0.1:8080 [--seed N]
"""
import argparse
import random
import sys
import uuid

from tilepost_client import AuthenticatedClient, Client
from tilepost_client.api.games import create_game, get_game, join_game, list_actions, submit_move
from tilepost_client.api.users import create_token, create_user
from tilepost_client.models import (
    ActionsView,
    CreateGameRequest,
    GameView,
    MoveRequest,
    MoveResult,
    RegisterRequest,
    TokenRequest,
    TokenResponse,
    UserView,
)
from tilepost_client.types import Unset


def fail(what, answer):
    print("refused: %s: %r" % (what, answer), file=sys.stderr)
    sys.exit(1)


def register(url, name):
    anon = Client(base_url=url, raise_on_unexpected_status=True)
    body = RegisterRequest(username=name, email=name + "@example.com", password="correct horse")
    u = create_user.sync(client=anon, body=body)
    if not isinstance(u, UserView):
        fail("register " + name, u)
    t = create_token.sync(client=anon, body=TokenRequest(username=name, password="correct horse"))
    if not isinstance(t, TokenResponse):
        fail("token " + name, t)
    return AuthenticatedClient(base_url=url, token=t.access_token, raise_on_unexpected_status=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--url", required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-moves", type=int, default=2000)
    o = ap.parse_args()
    rnd = random.Random(o.seed)
    sfx = uuid.uuid4().hex[:6]
    names = ["ann" + sfx, "ben" + sfx]
    clients = {n: register(o.url, n) for n in names}
    ann, ben = clients[names[0]], clients[names[1]]

    g = create_game.sync(client=ann, body=CreateGameRequest(seats=2, expansions=[]))
    if not isinstance(g, GameView):
        fail("create game", g)
    j = join_game.sync(g.id, client=ben)
    if not isinstance(j, GameView):
        fail("join game", j)
    print("game %s: %s" % (g.id, j.status))

    moves = 0
    while True:
        a = list_actions.sync(g.id, client=ann)
        if not isinstance(a, ActionsView):
            fail("list actions", a)
        if a.pending is None or isinstance(a.pending, Unset):
            break
        if not a.actions:
            fail("a pending decision without options", a.to_dict())
        if moves >= o.max_moves:
            fail("the game did not end after %d moves" % moves, a.to_dict())
        action = rnd.choice(a.actions)
        r = submit_move.sync(
            g.id,
            client=clients[a.pending.username],
            body=MoveRequest(actions=[action], expected_version=a.version),
            idempotency_key=str(uuid.uuid4()),
        )
        if not isinstance(r, MoveResult):
            fail("move %s at version %d" % (action.to_dict(), a.version), r)
        moves += 1

    v = get_game.sync(g.id, client=ann)
    if not isinstance(v, GameView):
        fail("get game", v)
    if str(v.status.value if hasattr(v.status, "value") else v.status) != "finished":
        fail("the game is not finished", v.to_dict())
    ranking = v.to_dict().get("ranking")
    print("finished after %d moves, version %d; ranking: %s" % (moves, v.version, ranking))


if __name__ == "__main__":
    main()

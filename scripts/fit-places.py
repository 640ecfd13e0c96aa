#!/usr/bin/env python3
"""Fits the odds that one player finishes ahead of another (`bots/src/eval.rs`, `PLACES`).

Input: CSV files written by `arena --features FILE` (one row per player at every tile
placement: the stage, the score now, the features, the final score), all of one table
size. The model gives, at a position, the odds that player i ends ahead of player j as

    P(i ahead of j) = 1 / (1 + exp(-(v_i - v_j))),
    v = sum_k x_k (w_k0 + w_k1 s + w_k2 s^2 + w_k3 / sqrt(36 s + 1))

with `s` the stage (each player's turns left over 36; the last term lets the weights grow
as the turns left run out, where a point decides more) and `x` the score now and the
features of `arena --features` (but the constant, which the difference cancels). The
weights are fitted by logistic regression (Newton's method, a ridge of 0.001 a pair on
columns scaled to at most 1, which holds the weights back late in the game) on every pair
of players at every position, a tie counting a half. Half of the games (by number) are
held out to report how well the fit predicts which of two players ends ahead, beside the
hand-set evaluation's logistic of the margin (10 points of margin making 0.73, the
expert's reward) at the same positions.

    scripts/fit-places.py f-base4.csv ...   # prints the Rust constant
    scripts/fit-places.py --ridge 0.0001 --kept f.csv   # another ridge; the kept weights too
    scripts/fit-places.py --kept --held-out e.csv f.csv  # fitted on all of f, judged on e

`--ridge R` sets the ridge (0.001 by default). `--kept` reports, on the same held-out
pairs, the weights `bots/src/eval.rs` holds now (its `PLACES`), so that a fit on other
games can be told from the kept one. `--held-out FILE` (repeatable) fits on every game of
the other files and holds out every game of these instead, e.g. games of other players.
The held-out log loss is also printed by bands of turns left each.

The weights are printed times 10 (`PLACES_SCALE`): `eval::places_worth` is then in
points of the expert's reward, whose logistic of the difference between two players
(10 points making 0.73) is the fitted odds. The kept fit (docs/bots.md):

    arena --bots greedy,greedy,greedy,greedy --games 4000 --players 4 --expansions none --seed 401 --features f-base4.csv
    scripts/fit-places.py f-base4.csv
"""
import argparse
import csv
import os
import re
import sys

import numpy as np

FEATURES = ["roads", "cities", "monasteries", "fields", "other", "city_gain",
            "cloister_gain", "field_open", "supply"]
NAMES = FEATURES + ["score"]
SCALE = 10.0
BASIS = 4


def basis(s):
    return [1.0, s, s * s, 1.0 / (36.0 * s + 1.0) ** 0.5]


def load(paths):
    """Every position's players: {(file, game, stage): [(player, x, hand, final)]}."""
    positions = {}
    for n, path in enumerate(paths):
        with open(path) as f:
            for r in csv.DictReader(f):
                s = float(r["stage"])
                feats = [float(r[k]) for k in FEATURES]
                x = [v * b for v in feats + [float(r["score"])] for b in basis(s)]
                # eval::worth, rebuilt from the same features
                hand = (float(r["score"]) + sum(feats[:7])
                        + 2.0 * min(s * 36 / 12, 1.0) * min(feats[8], 6))
                positions.setdefault((n, int(r["game"]), s), []).append(
                    (int(r["player"]), x, hand, float(r["final"])))
    return positions


def pairs(positions, held_out):
    """Every pair of players at the positions of the even-numbered games (held_out 0),
    the odd-numbered ones (1) or all (None): the features' differences, the result (a tie
    a half), the hand-set margin and the stage."""
    xs, ys, hs, ss = [], [], [], []
    for (_, game, s), players in positions.items():
        if held_out is not None and game % 2 != held_out:
            continue
        for a in range(len(players)):
            for b in range(a + 1, len(players)):
                _, xa, ha, fa = players[a]
                _, xb, hb, fb = players[b]
                xs.append([u - v for u, v in zip(xa, xb)])
                ys.append(1.0 if fa > fb else 0.0 if fa < fb else 0.5)
                hs.append(ha - hb)
                ss.append(s)
    return np.array(xs), np.array(ys), np.array(hs), np.array(ss)


def logistic(z):
    return 1 / (1 + np.exp(-z))


def fit(x, y, ridge=1e-3, steps=30):
    w = np.zeros(x.shape[1])
    for _ in range(steps):
        p = logistic(x @ w)
        g = x.T @ (p - y) + ridge * len(y) * w
        h = (x * (p * (1 - p))[:, None]).T @ x + ridge * len(y) * np.eye(len(w))
        step = np.linalg.solve(h, g)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    return w


def log_loss(p, y):
    p = np.clip(p, 1e-12, 1 - 1e-12)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def report(name, p, y):
    decided = y != 0.5
    right = np.mean((p[decided] > 0.5) == (y[decided] > 0.5))
    return f"{name}: log loss {log_loss(p, y):.4f}, right {right:.3f}"


def kept_weights():
    """The weights of `PLACES` in `bots/src/eval.rs`, divided by `SCALE` as `fit` gives them."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bots", "src", "eval.rs")
    with open(path) as f:
        text = f.read()
    body = re.search(r"const PLACES: \[\[f64; 4\]; PLACES_FEATURES\] = \[(.*?)\n\];", text, re.S)
    if body is None:
        sys.exit(f"{path}: no PLACES constant")
    rows = re.findall(r"\[([^\]]*)\]", body.group(1))
    w = [float(v) / SCALE for row in rows for v in row.split(",")]
    if len(w) != BASIS * len(NAMES):
        sys.exit(f"{path}: PLACES has {len(w)} weights, not {BASIS * len(NAMES)}")
    return np.array(w)


def parse(args):
    """The files, the ridge, whether to report the kept weights, and the held-out files."""
    parser = argparse.ArgumentParser(prog="fit-places.py")
    parser.add_argument("files", nargs="+", metavar="FILE")
    parser.add_argument("--ridge", type=float, default=1e-3, metavar="R")
    parser.add_argument("--kept", action="store_true")
    parser.add_argument("--held-out", action="append", default=[], metavar="FILE")
    a = parser.parse_args(args)
    if not a.ridge >= 0:
        parser.error("--ridge: give a number of at least 0")
    return a.files, a.ridge, a.kept, a.held_out


# bands of turns left each (36 s), late to early, for the held-out log loss by stage
BANDS = [(0.0, 1.8), (1.8, 3.6), (3.6, 7.2), (7.2, 10.8), (10.8, 14.4), (14.4, 18.0)]


def main():
    paths, ridge, kept, held = parse(sys.argv[1:])
    positions = load(paths)
    if held:
        # every game of these files fitted, every game of the others (other players, say) held out
        x, y, _, _ = pairs(positions, None)
        xt, yt, ht, st = pairs(load(held), None)
    else:
        x, y, _, _ = pairs(positions, 0)
        xt, yt, ht, st = pairs(positions, 1)
    # every column on a like scale for the solver, the weights scaled back after
    norm = np.abs(x).max(axis=0)
    norm[norm == 0] = 1
    w = fit(x / norm, y, ridge) / norm
    hand = logistic(ht / SCALE)
    fitted = logistic(xt @ w)
    # the hand-set margin with its best scale, to tell the fit from the scale
    k = fit(ht[:, None] / 10.0, yt)[0] / 10.0
    print(f"// {len(y)} pairs fitted, {len(yt)} held out "
          f"({len(positions)} positions of {len(paths)} file(s)"
          + (f"; held out: every pair of {len(held)} other file(s))" if held else ")"))
    print(f"// held out: {report('fitted', fitted, yt)}; "
          f"{report('hand-set, 10 points', hand, yt)}; "
          f"hand-set at its best scale ({1 / k:.1f} points): "
          f"log loss {log_loss(logistic(ht * k), yt):.4f}")
    odds = [("fitted", fitted), ("hand-set", hand)]
    if kept:
        odds.append(("kept", logistic(xt @ kept_weights())))
        print(f"// held out: {report('the kept weights (eval.rs)', odds[-1][1], yt)}")
    turns = st * 36
    for lo, hi in BANDS:
        top = hi + 1e-9 if hi == BANDS[-1][1] else hi - 1e-9
        band = (turns >= lo - 1e-9) & (turns < top)
        if band.any():
            losses = ", ".join(f"{n} {log_loss(p[band], yt[band]):.4f}" for n, p in odds)
            print(f"//   {lo:4.1f} to {hi:4.1f} turns left each, {band.sum()} pairs: log loss {losses}")
    print("const PLACES: [[f64; 4]; PLACES_FEATURES] = [")
    for i, name in enumerate(NAMES):
        terms = ", ".join(f"{v:.4f}" for v in SCALE * w[BASIS * i:BASIS * i + BASIS])
        print(f"    [{terms}], // {name}")
    print("];")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Fits the bots' evaluation (`bots/src/eval.rs`, `FITTED`) on self-play positions.

Input: CSV files written by `arena --features FILE` (one row per player at every tile
placement: the stage, the score now, the features, the final score). The model predicts
what a player's score will still gain by the end of the game,

    final - score = sum_k x_k * (w_k0 + w_k1 * s + w_k2 * s^2)

with `s` the stage (each player's turns left over 36), by least squares. Half of the games
(by number) are held out to report how well the fit predicts a player's final margin over
the best other player, beside the hand-set evaluation's margin at the same positions.

    scripts/fit-eval.py [--pairwise] [--drop=NAME]... f-base2.csv ...   # prints the Rust constant

With --pairwise the weights are fitted on the differences between players at the same
position (the gain on each other, which decides games), the level of the gains after;
--drop=NAME leaves a feature out (its weights 0).

The kept fit (docs/bots.md, "The fitted evaluation"):

    arena --bots greedy,greedy --games 4000 --players 2 --seed 101 --features f-base2.csv
    scripts/fit-eval.py --drop=field_open f-base2.csv
"""
import csv
import sys

import numpy as np

FEATURES = ["roads", "cities", "monasteries", "fields", "other", "city_gain",
            "cloister_gain", "field_open", "supply", "one"]


def load(paths):
    rows = []
    for n, path in enumerate(paths):
        with open(path) as f:
            for r in csv.DictReader(f):
                rows.append((n, int(r["game"]), int(r["players"]), int(r["player"]),
                             float(r["stage"]), float(r["score"]),
                             [float(r[k]) for k in FEATURES], float(r["final"])))
    return rows


def design(rows):
    x = np.array([[v * s ** d for v in feats for d in range(3)]
                  for (_, _, _, _, s, _, feats, _) in rows])
    y = np.array([fin - score for (_, _, _, _, _, score, _, fin) in rows])
    return x, y


def margins(rows, predicted):
    """Each position's (predicted margin, final margin) of every player."""
    groups = {}
    for r, p in zip(rows, predicted):
        key = (r[0], r[1], r[4])
        groups.setdefault(key, []).append((r[3], r[5] + p, r[7]))
    pred, real = [], []
    for players in groups.values():
        for q, w, fin in players:
            others = [(w2, f2) for q2, w2, f2 in players if q2 != q]
            if not others:
                continue
            pred.append(w - max(o[0] for o in others))
            real.append(fin - max(o[1] for o in others))
    return np.array(pred), np.array(real)


def pairwise(rows, x, y):
    """The differences between each player and each other player at the same position:
    what decides a game is the gain on the others, not the gain itself."""
    groups = {}
    for i, r in enumerate(rows):
        groups.setdefault((r[0], r[1], r[4]), []).append(i)
    a, b = [], []
    for idx in groups.values():
        for i in idx:
            for j in idx:
                if i != j:
                    a.append(i)
                    b.append(j)
    a, b = np.array(a), np.array(b)
    return x[a] - x[b], y[a] - y[b]


def main():
    args = sys.argv[1:]
    by_pairs = "--pairwise" in args
    dropped = {a.split("=", 1)[1] for a in args if a.startswith("--drop=")}
    rows = load([a for a in args if not a.startswith("--")])
    for r in rows:
        for k, name in enumerate(FEATURES):
            if name in dropped:
                r[6][k] = 0.0
    train = [r for r in rows if r[1] % 2 == 0]
    test = [r for r in rows if r[1] % 2 == 1]
    x, y = design(train)
    if by_pairs:
        px, py = pairwise(train, x, y)
        w, *_ = np.linalg.lstsq(px, py, rcond=None)
        # the level (the one feature) from the gains themselves, the rest kept
        rest = x @ w
        k = FEATURES.index("one")
        level, *_ = np.linalg.lstsq(x[:, 3 * k:3 * k + 3], y - rest, rcond=None)
        w[3 * k:3 * k + 3] += level
    else:
        w, *_ = np.linalg.lstsq(x, y, rcond=None)
    xt, yt = design(test)
    pt = xt @ w
    r2 = 1 - ((yt - pt) ** 2).sum() / ((yt - yt.mean()) ** 2).sum()
    pm, rm = margins(test, pt)
    # the same positions with the plain score if the game ended now (no fitted part)
    plain = np.array([sum(f[:5]) for (*_, f, _) in test])
    qm, _ = margins(test, plain)
    # and with the hand-set evaluation (eval::worth), rebuilt from the same features
    hand = np.array([sum(f[:7]) + 2.0 * min(s * 36 / 12, 1.0) * min(f[8], 6)
                     for (_, _, _, _, s, _, f, _) in test])
    hm, _ = margins(test, hand)
    print(f"// {len(train)} training rows, {len(test)} held out; gain R^2 {r2:.3f}")
    print(f"// held out: final margin vs predicted: corr {np.corrcoef(pm, rm)[0, 1]:.3f}, "
          f"sign agreement {np.mean(np.sign(pm) == np.sign(rm)):.3f}; "
          f"score if ended now: corr {np.corrcoef(qm, rm)[0, 1]:.3f}, "
          f"sign agreement {np.mean(np.sign(qm) == np.sign(rm)):.3f}; "
          f"hand-set: corr {np.corrcoef(hm, rm)[0, 1]:.3f}, "
          f"sign agreement {np.mean(np.sign(hm) == np.sign(rm)):.3f}")
    print("const FITTED: [[f64; 3]; FEATURES] = [")
    for k, name in enumerate(FEATURES):
        a, b, c = w[3 * k:3 * k + 3]
        print(f"    [{a:.4f}, {b:.4f}, {c:.4f}], // {name}")
    print("];")


if __name__ == "__main__":
    main()

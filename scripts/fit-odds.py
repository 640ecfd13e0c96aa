#!/usr/bin/env python3
"""Fits the odds of open features in the bots' evaluation (`bots/src/eval.rs`,
`CALIBRATED`) on self-play, one set of odds per table size.

Input: CSV files written by `arena --odds FILE` (one row for every open city and cloister
with followers at every tile placement: the tiles left, the kind, the open sides of a
city or the missing neighbours of a cloister, and what became of it by the end: 1 for a
city completed, else 0; the neighbours a cloister gained). The models, with `L` the tiles
left and `o` the open sides or missing neighbours:

    P(city completed)     = L / (L + c * o^a)        fitted by likelihood (log loss)
    E(neighbours gained)  = o * L / (L + k * o^b)    fitted by least squares

The hand-set evaluation has c = 10, a = 1, k = 4, b = 1. Half of the games (by number)
are held out to report the fit's log loss and squared error beside the hand-set odds'.

    scripts/fit-odds.py odds-2.csv odds-3.csv ...   # prints the Rust constant

The kept fit (docs/bots.md, "The odds of open features"):

    arena --bots greedy --games 1000 --players P --expansions none --seed 301 --odds odds-P.csv   # P = 2 to 5
    scripts/fit-odds.py odds-2.csv odds-3.csv odds-4.csv odds-5.csv
"""
import csv
import sys

import numpy as np

HAND = (10.0, 1.0, 4.0, 1.0)


def load(paths):
    rows = []
    for path in paths:
        with open(path) as f:
            for r in csv.DictReader(f):
                rows.append((int(r["players"]), int(r["game"]), float(r["tiles_left"]),
                             r["kind"] == "cloister", float(r["open"]),
                             float(r["outcome"])))
    return rows


def nelder_mead(f, x0, step=0.3, iterations=400):
    """A plain Nelder-Mead minimisation from x0 (deterministic)."""
    n = len(x0)
    simplex = [np.array(x0, dtype=float)]
    for i in range(n):
        x = np.array(x0, dtype=float)
        x[i] += step
        simplex.append(x)
    values = [f(x) for x in simplex]
    for _ in range(iterations):
        order = np.argsort(values)
        simplex = [simplex[i] for i in order]
        values = [values[i] for i in order]
        centre = np.mean(simplex[:-1], axis=0)
        worst = simplex[-1]
        reflected = centre + (centre - worst)
        fr = f(reflected)
        if fr < values[0]:
            expanded = centre + 2.0 * (centre - worst)
            fe = f(expanded)
            simplex[-1], values[-1] = (expanded, fe) if fe < fr else (reflected, fr)
        elif fr < values[-2]:
            simplex[-1], values[-1] = reflected, fr
        else:
            contracted = centre + 0.5 * (worst - centre)
            fc = f(contracted)
            if fc < values[-1]:
                simplex[-1], values[-1] = contracted, fc
            else:
                best = simplex[0]
                simplex = [best] + [best + 0.5 * (x - best) for x in simplex[1:]]
                values = [values[0]] + [f(x) for x in simplex[1:]]
    i = int(np.argmin(values))
    return simplex[i], values[i]


def city_loss(c, a, left, o, y):
    p = np.clip(left / (left + c * o ** a), 1e-6, 1 - 1e-6)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def cloister_loss(k, b, left, o, y):
    return float(np.mean((y - o * left / (left + k * o ** b)) ** 2))


def main():
    rows = load(sys.argv[1:])
    if not rows:
        sys.exit(__doc__)
    fits = []
    for players in sorted({r[0] for r in rows}):
        part = np.array([(g, left, cl, o, y) for (p, g, left, cl, o, y) in rows
                         if p == players])
        train = part[part[:, 0] % 2 == 0]
        test = part[part[:, 0] % 2 == 1]

        def cols(d, cloister):
            d = d[d[:, 2] == float(cloister)]
            return d[:, 1], d[:, 3], d[:, 4]

        city, cl = cols(train, False), cols(train, True)
        (lc, a), _ = nelder_mead(lambda t: city_loss(np.exp(t[0]), t[1], *city),
                                 [np.log(10.0), 1.0])
        (lk, b), _ = nelder_mead(lambda t: cloister_loss(np.exp(t[0]), t[1], *cl),
                                 [np.log(4.0), 1.0])
        c, k = float(np.exp(lc)), float(np.exp(lk))
        tc, tk = cols(test, False), cols(test, True)
        print(f"// {players} players: {len(city[0])} + {len(cl[0])} training rows, "
              f"{len(tc[0])} + {len(tk[0])} held out; city log loss "
              f"{city_loss(c, a, *tc):.4f} (hand-set {city_loss(HAND[0], HAND[1], *tc):.4f}), "
              f"cloister squared error {cloister_loss(k, b, *tk):.3f} "
              f"(hand-set {cloister_loss(HAND[2], HAND[3], *tk):.3f})")
        fits.append((c, a, k, b))
    print("pub const CALIBRATED: [Odds; %d] = [" % len(fits))
    for c, a, k, b in fits:
        print(f"    Odds {{ city: {c:.2f}, city_power: {a:.3f}, "
              f"cloister: {k:.2f}, cloister_power: {b:.3f} }},")
    print("];")


if __name__ == "__main__":
    main()

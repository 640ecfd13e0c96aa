#!/usr/bin/env python3
"""Compares one bot's places in two arena runs of the same games.

Input: two CSV files written by `arena --results FILE` with the same seed and games (for
example the defaults and a changed setting), and the bot's name as the report prints it
(`expert:300`). For each game both runs played, the bot's mean place over its seats is
taken, and the difference B - A is reported with its 95% interval, game by game (paired)
and as if the runs were apart (unpaired): the same seed deals the same tiles and seats, so
the paired interval is the narrower one when the games' luck carries over the change.

    scripts/arena-compare.py a.csv b.csv expert:300 [expert:300/pairwise]

A second name is the bot's in the second file, when it differs (a changed entrant).

Prints each run's mean place and shares of each place, and the difference.
"""
import csv
import math
import statistics
import sys
from collections import defaultdict

Z = 1.959964


def places(path, bot):
    """The bot's seats in each game as (place, players tied there), and the number of
    players."""
    by_game = defaultdict(list)
    seats = set()
    with open(path) as f:
        for r in csv.DictReader(f):
            seats.add(int(r["seat"]))
            if r["bot"] == bot:
                by_game[int(r["game"])].append((float(r["rank"]), int(r["tied"])))
    return dict(by_game), len(seats)


def mean_place(seats):
    return sum(rank for rank, _ in seats) / len(seats)


def mean_and_half_width(xs):
    """The mean and the half-width of its 95% interval (two values at least)."""
    return statistics.mean(xs), Z * statistics.stdev(xs) / math.sqrt(len(xs))


def shares(games, players):
    """Each place's share of the seats, a tie sharing the places it covers."""
    counts = [0.0] * players
    seats = 0
    for game in games:
        for rank, tied in game:
            first = round(rank - (tied - 1) / 2)
            for p in range(first, min(first + tied, players + 1)):
                counts[p - 1] += 1 / tied
            seats += 1
    return ", ".join(f"{i + 1}: {100 * c / seats:.1f}%" for i, c in enumerate(counts))


def main(argv):
    if len(argv) not in (4, 5):
        sys.exit(__doc__)
    a, players = places(argv[1], argv[3])
    b, _ = places(argv[2], argv[-1])
    games = sorted(set(a) & set(b))
    if len(games) < 2:
        sys.exit(f"fewer than two games with {' and '.join(argv[3:])} in both files")
    xa = [mean_place(a[g]) for g in games]
    xb = [mean_place(b[g]) for g in games]
    for name, xs, run in (("A", xa, a), ("B", xb, b)):
        m, h = mean_and_half_width(xs)
        print(f"{name}: {m:.3f} ± {h:.3f} over {len(xs)} games "
              f"({shares([run[g] for g in games], players)})")
    d, hd = mean_and_half_width([y - x for x, y in zip(xa, xb)])
    _, ha = mean_and_half_width(xa)
    _, hb = mean_and_half_width(xb)
    try:
        corr = statistics.correlation(xa, xb)
    except statistics.StatisticsError:  # one run's places never vary
        corr = 0.0
    print(f"B - A: {d:+.3f} ± {hd:.3f} paired, ± {math.hypot(ha, hb):.3f} unpaired "
          f"(the games' places correlate {corr:.2f})")


if __name__ == "__main__":
    main(sys.argv)

#!/usr/bin/env python3
"""Blocked N-Queens boards as CSPLib problem 80 describes their generator, seeded.

Shuffle all N x N squares; walk through them and block a square while its row and its column
both keep more than `mininfile` free squares, until `m` squares are blocked (or the walk ends).
Near the phase transition (N = 60, mininfile = 1: about 3150-3200 blocked) half the boards have
a completion and the rest are hard to prove impossible (Gent, Jefferson and Nightingale, JAIR
2017).

    python3 bench/blocked_gen.py 60 3180 --seed 7            # one board, list form, to stdout
    python3 bench/blocked_gen.py 60 3180 --seed 7 --out DIR --count 12

The list form is what `nqueens complete` reads: `N`, then one `x row col` line per blocked
square, 1-based. The same (N, m, mininfile, seed) always gives the same board.
"""

import argparse
import os
import random


def blocked_board(n, m, rng, mininfile=1):
    """The blocked squares (0-based, in the order blocked) of one board."""
    squares = [(r, c) for r in range(n) for c in range(n)]
    rng.shuffle(squares)
    row_free, col_free = [n] * n, [n] * n
    blocked = []
    for r, c in squares:
        if len(blocked) == m:
            break
        if row_free[r] > mininfile and col_free[c] > mininfile:
            blocked.append((r, c))
            row_free[r] -= 1
            col_free[c] -= 1
    return blocked


def list_form(n, blocked):
    return f"{n}\n" + "".join(f"x {r + 1} {c + 1}\n" for r, c in sorted(blocked))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("n", type=int)
    ap.add_argument("m", type=int, help="squares to block")
    ap.add_argument("--mininfile", type=int, default=1)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--count", type=int, default=1, help="boards, seeds seed..seed+count-1")
    ap.add_argument("--out", help="folder for files named N-m-seed.txt (stdout if absent)")
    args = ap.parse_args()
    for seed in range(args.seed, args.seed + args.count):
        rng = random.Random(f"blocked {args.n} {args.m} {args.mininfile} {seed}")
        text = list_form(args.n, blocked_board(args.n, args.m, rng, args.mininfile))
        if args.out:
            os.makedirs(args.out, exist_ok=True)
            path = os.path.join(args.out, f"{args.n}-{args.m}-{seed}.txt")
            with open(path, "w") as f:
                f.write(text)
        else:
            print(text, end="")


if __name__ == "__main__":
    main()

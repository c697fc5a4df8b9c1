#!/usr/bin/env python3
"""Writes the regression set tests/fixtures/blocked/: hard blocked boards near the phase
transition, each with its answer recorded from OR-Tools CP-SAT (not from our solver).

    pip install ortools
    python3 bench/blocked_fixtures.py            # rewrites tests/fixtures/blocked/

Boards come from bench/blocked_gen.py (mininfile 1). Each file is a board drawing (`x`
blocked, `.` free) with two comment lines on top that `nqueens complete` skips: the generator's arguments, and
`# answer: completion` or `# answer: none`. The sizes are chosen so that the whole set runs in
a few seconds in `cargo test`.
"""

import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from blocked_gen import blocked_board  # noqa: E402
from ortools_compare import cpsat  # noqa: E402

# (N, blocked squares, seeds): around the transition, where half the boards have a completion.
SETS = [(30, 690, range(3)), (30, 705, range(3)), (40, 1310, range(3)), (40, 1330, range(3)),
        (50, 2110, range(3)), (50, 2150, range(3))]


def drawing(n, blocked):
    blocked = set(blocked)
    return "".join("".join("x" if (r, c) in blocked else "." for c in range(n)) + "\n"
                   for r in range(n))


def main():
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fixtures",
                       "blocked")
    os.makedirs(out, exist_ok=True)
    for n, m, seeds in SETS:
        for seed in seeds:
            blocked = blocked_board(n, m, random.Random(f"blocked {n} {m} 1 {seed}"), 1)
            answer, secs = cpsat(n, blocked, limit_s=600)
            if answer is None:
                sys.exit(f"CP-SAT gave up on N={n} m={m} seed={seed}")
            word = "completion" if answer else "none"
            path = os.path.join(out, f"{n}-{m}-{seed}.txt")
            with open(path, "w") as f:
                f.write(f"# bench/blocked_gen.py {n} {m} --mininfile 1 --seed {seed}\n")
                f.write(f"# answer: {word}\n")
                f.write(drawing(n, blocked))
            print(f"{path}: {word} (CP-SAT {secs:.2f} s)", file=sys.stderr)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Queens with regions: `nqueens region` against Google OR-Tools CP-SAT, on the same puzzles.

Run from the repository root after `cargo build --release`:

    pip install ortools
    python3 bench/region_compare.py                 # N = 9, 11, 15, 20 (about a minute)
    python3 bench/region_compare.py --sizes 9 11 --count 20 --bin target/debug/nqueens

For each N the puzzles are made by `nqueens region generate N --count K --seed S -j1 --format
json` (unique by construction). Both solvers then solve each puzzle and prove it unique:

- ours: `nqueens region count --limit 2 FILE`, one process for the K puzzles repeated to at
  least 2,000, and one for the first alone; the difference of their wall-clock times (the
  fastest of five runs each) divided by the difference in puzzles, so that process start is
  left out;
- CP-SAT, on one worker: one Boolean per cell; exactly one per row, column and region; at
  most one in every 2 x 2 block (no two queens touch); solved, then solved again with that
  solution forbidden, which must be infeasible. Its time is the two solves' CPU time as
  CP-SAT reports it (`user_time`), model building left out.

Both must agree: CP-SAT's solution is the generated one, and ours counts exactly 1. The table
gives the mean time per puzzle on each side, the worst puzzle's on CP-SAT's, and the ratio of
the means.
"""

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time

from ortools.sat.python import cp_model


def cpu_name():
    """The CPU's model name, as /proc/cpuinfo gives it."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def cpsat_prove(regions):
    """Solves a region puzzle with CP-SAT and proves it unique: (solution, seconds), the
    solution as the column of each row; raises if there is none or more than one."""
    n = len(regions)
    m = cp_model.CpModel()
    x = [[m.NewBoolVar(f"x{r}_{c}") for c in range(n)] for r in range(n)]
    for r in range(n):
        m.AddExactlyOne(x[r])
    for c in range(n):
        m.AddExactlyOne(x[r][c] for r in range(n))
    cells = {}
    for r, row in enumerate(regions):
        for c, label in enumerate(row):
            cells.setdefault(label, []).append(x[r][c])
    for members in cells.values():
        m.AddExactlyOne(members)
    for r in range(n - 1):
        for c in range(n - 1):
            m.AddAtMostOne(x[r][c], x[r][c + 1], x[r + 1][c], x[r + 1][c + 1])
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    status = solver.Solve(m)
    seconds = solver.UserTime()
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        raise SystemExit(f"CP-SAT finds no solution to\n{chr(10).join(regions)}")
    solution = [next(c for c in range(n) if solver.Value(x[r][c])) for r in range(n)]
    m.AddBoolOr([x[r][solution[r]].Not() for r in range(n)])
    status = solver.Solve(m)
    seconds += solver.UserTime()
    if status != cp_model.INFEASIBLE:
        raise SystemExit(f"CP-SAT finds a second solution to\n{chr(10).join(regions)}")
    return solution, seconds


def ours_wall(binary, path, count):
    """Seconds of `nqueens region count --limit 2 FILE`, the fastest of five runs."""
    best = None
    for _ in range(5):
        start = time.perf_counter()
        out = subprocess.run(
            [binary, "region", "count", "--limit", "2", path],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        seconds = time.perf_counter() - start
        if out.split() != ["1"] * count:
            raise SystemExit(f"nqueens counts {out!r}, not {count} ones")
        best = seconds if best is None else min(best, seconds)
    return best


def ours_prove(binary, lines, tmp):
    """Seconds per puzzle of our proofs, process start left out."""
    lines = lines * -(-2000 // len(lines))
    whole = os.path.join(tmp, "all.jsonl")
    first = os.path.join(tmp, "first.jsonl")
    with open(whole, "w") as f:
        f.write("\n".join(lines) + "\n")
    with open(first, "w") as f:
        f.write(lines[0] + "\n")
    spent = ours_wall(binary, whole, len(lines)) - ours_wall(binary, first, 1)
    return spent / (len(lines) - 1)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", default="target/release/nqueens")
    parser.add_argument("--sizes", type=int, nargs="+", default=[9, 11, 15, 20])
    parser.add_argument("--count", type=int, default=50, help="puzzles per size")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if not os.path.exists(args.bin):
        raise SystemExit(f"{args.bin}: build it first (cargo build --release), or give --bin")

    print(f"CPU: {cpu_name()}; {args.count} puzzles per size, seed {args.seed}, one thread each")
    print()
    print("| N | puzzles | nqueens, mean | CP-SAT, mean | CP-SAT, worst | CP-SAT / nqueens |")
    print("|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.sizes:
            made = subprocess.run(
                [args.bin, "region", "generate", str(n), "--count", str(args.count),
                 "--seed", str(args.seed), "-j1", "--format", "json"],
                check=True, capture_output=True, text=True,
            ).stdout
            lines = [line for line in made.splitlines() if line.strip()]
            puzzles = [json.loads(line) for line in lines]
            ours = ours_prove(args.bin, lines, tmp)
            theirs = []
            for p in puzzles:
                solution, seconds = cpsat_prove(p["regions"])
                if [c + 1 for c in solution] != p["solution"]:
                    raise SystemExit(f"CP-SAT's solution differs from the generated one (N={n})")
                theirs.append(seconds)
            mean = statistics.mean(theirs)
            print(f"| {n} | {len(puzzles)} | {ours * 1e3:.3f} ms | {mean * 1e3:.2f} ms "
                  f"| {max(theirs) * 1e3:.2f} ms | {mean / ours:.0f}x |", flush=True)


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""The Python module `nqueens` against what Python users have today, in one run.

    pip install ./python ortools
    python3 bench/python_compare.py            # about two minutes on 2 cores
    python3 bench/python_compare.py --seed 7   # other random completion instances

Four tables, Markdown, on stdout:

1. Counting, N = 8..13: `nqueens.count(n)` (all cores; small N on the calling thread) against
   a plain Python bitboard counter (written below: the textbook recursion on three bit masks,
   as in the reference documents, on one core).
2. Counting, N = 8..12: against OR-Tools CP-SAT enumerating every solution (the reference
   document's model: one variable per row, AllDifferent on q[i], q[i]+i, q[i]-i; CP-SAT
   enumerates with one worker, as it requires).
3. Completion, N = 20..60: `nqueens.complete(...)` against CP-SAT (one worker, like ours) on
   the same random instances: half keep a third of the rows of a random solution (solvable),
   half drop up to N/2 queens on random squares that attack no earlier one (often not
   solvable). Both must agree on every answer, or the script stops.
4. Call overhead: `count(8)` and other tiny calls, per call, the best of 7 `timeit` runs.

Times are wall-clock seconds of the Python call (model building included for CP-SAT, whose
`Solve` is timed; instance conversion included for ours). Each count is the best of a few
runs when it is short, so that other jobs on a shared machine weigh less.
"""

import argparse
import os
import platform
import random
import statistics
import sys
import time
import timeit

import nqueens

try:
    from ortools.sat.python import cp_model
except ImportError:  # the tables without CP-SAT are still worth having
    cp_model = None


def python_bitboard(n):
    """All solutions for n, by the classic bitboard recursion, in plain Python."""
    full = (1 << n) - 1

    def place(cols, left, right):
        if cols == full:
            return 1
        found = 0
        free = full & ~(cols | left | right)
        while free:
            bit = free & -free
            free ^= bit
            found += place(cols | bit, ((left | bit) << 1) & full, (right | bit) >> 1)
        return found

    return place(0, 0, 0)


def best_time(f, repeat):
    """(result, fastest wall time of `repeat` calls)."""
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        result = f()
        best = min(best, time.perf_counter() - start)
    return result, best


def cpsat_model(n, given=(), blocked=()):
    model = cp_model.CpModel()
    q = [model.NewIntVar(0, n - 1, f"q{i}") for i in range(n)]
    model.AddAllDifferent(q)
    model.AddAllDifferent([q[i] + i for i in range(n)])
    model.AddAllDifferent([q[i] - i for i in range(n)])
    for r, c in given:
        model.Add(q[r] == c)
    for r, c in blocked:
        model.Add(q[r] != c)
    return model, q


def cpsat_count(n):
    """(solutions, seconds) with CP-SAT enumerating all solutions."""
    start = time.perf_counter()
    model, _ = cpsat_model(n)
    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1

    class Counter(cp_model.CpSolverSolutionCallback):
        def __init__(self):
            super().__init__()
            self.found = 0

        def on_solution_callback(self):
            self.found += 1

    counter = Counter()
    status = solver.Solve(model, counter)
    assert status == cp_model.OPTIMAL, solver.StatusName(status)
    return counter.found, time.perf_counter() - start


def cpsat_complete(n, given, limit_s):
    """(columns or None, seconds) with CP-SAT; columns is False if it gave up."""
    start = time.perf_counter()
    model, q = cpsat_model(n, given)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = limit_s
    status = solver.Solve(model)
    elapsed = time.perf_counter() - start
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return tuple(solver.Value(v) for v in q), elapsed
    if status == cp_model.INFEASIBLE:
        return None, elapsed
    return False, elapsed


def instances(rng, n, k):
    """k instances for n: (kind, given queens as (row, col))."""
    out = []
    for i in range(k):
        if i % 2 == 0:
            sol = nqueens.find(n, random=True, seed=rng.getrandbits(64))
            rows = rng.sample(range(n), n // 3)
            out.append(("solution rows", sorted((r, sol[r]) for r in rows)))
        else:
            given = {}
            for _ in range(100 * n):
                if len(given) == n // 2:
                    break
                r, c = rng.randrange(n), rng.randrange(n)
                if r not in given and all(
                    c != c2 and abs(c - c2) != abs(r - r2) for r2, c2 in given.items()
                ):
                    given[r] = c
            out.append(("random queens", sorted(given.items())))
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1, help="seed of the completion instances")
    parser.add_argument("--per-n", type=int, default=6, help="completion instances per N")
    parser.add_argument("--limit", type=float, default=60.0, help="CP-SAT seconds per instance")
    args = parser.parse_args()

    cores = os.cpu_count()
    print(
        f"Python {platform.python_version()}, {cores} cores, "
        f"OR-Tools {'absent' if cp_model is None else __import__('ortools').__version__}\n"
    )

    print("Counting all solutions (total and unique for nqueens, total for the others)\n")
    print("| N | solutions | nqueens.count | Python bitboard | ratio |")
    print("|---:|---:|---:|---:|---:|")
    for n in range(8, 14):
        ours, t_ours = best_time(lambda: nqueens.count(n), 5)
        theirs, t_py = best_time(lambda: python_bitboard(n), 1 if n >= 12 else 3)
        assert ours.total == theirs, (n, ours, theirs)
        print(f"| {n} | {ours.total} | {fmt(t_ours)} | {fmt(t_py)} | {t_py / t_ours:,.0f}x |")

    if cp_model is not None:
        print("\n| N | solutions | nqueens.count | CP-SAT all solutions | ratio |")
        print("|---:|---:|---:|---:|---:|")
        for n in range(8, 13):
            ours, t_ours = best_time(lambda: nqueens.count(n), 5)
            found, t_sat = cpsat_count(n)
            assert ours.total == found, (n, ours, found)
            print(f"| {n} | {found} | {fmt(t_ours)} | {fmt(t_sat)} | {t_sat / t_ours:,.0f}x |")

        rng = random.Random(args.seed)
        print(f"\nCompleting random instances ({args.per_n} per N)\n")
        print("| N | solvable | nqueens.complete median | max | CP-SAT median | max | ratio of medians |")
        print("|---:|---:|---:|---:|---:|---:|---:|")
        for n in (20, 30, 40, 50, 60):
            ours_t, sat_t, solvable = [], [], 0
            for kind, given in instances(rng, n, args.per_n):
                rows = [None] * n
                for r, c in given:
                    rows[r] = c
                found, t = best_time(lambda: nqueens.complete(rows).placement, 3)
                theirs, t_sat = cpsat_complete(n, given, args.limit)
                if theirs is False:
                    sys.exit(f"CP-SAT gave up after {args.limit} s on N={n} ({kind})")
                if (found is None) != (theirs is None):
                    sys.exit(f"disagreement on N={n} ({kind}): {found} vs {theirs}")
                for cols in (found, theirs):
                    if cols is not None:
                        assert nqueens.verify(cols) and all(cols[r] == c for r, c in given)
                solvable += found is not None
                ours_t.append(t)
                sat_t.append(t_sat)
            m_ours, m_sat = statistics.median(ours_t), statistics.median(sat_t)
            print(
                f"| {n} | {solvable}/{len(ours_t)} | {fmt(m_ours)} | {fmt(max(ours_t))} "
                f"| {fmt(m_sat)} | {fmt(max(sat_t))} | {m_sat / m_ours:,.0f}x |"
            )

    print("\nCall overhead (best of 7 timeit runs, per call)\n")
    print("| call | time |")
    print("|---|---:|")
    calls = [
        ("nqueens.count(8)", lambda: nqueens.count(8)),
        ("nqueens.count(4)", lambda: nqueens.count(4)),
        ("next(nqueens.solutions(8))", lambda: next(nqueens.solutions(8))),
        ("nqueens.verify([1, 3, 0, 2])", lambda: nqueens.verify([1, 3, 0, 2])),
        ("nqueens.find(8)", lambda: nqueens.find(8)),
        ("nqueens.complete([0] + [None] * 7)", lambda: nqueens.complete([0] + [None] * 7)),
    ]
    for name, f in calls:
        timer = timeit.Timer(f)
        number, _ = timer.autorange()
        best = min(timer.repeat(7, number)) / number
        print(f"| `{name}` | {best * 1e6:.1f} us |")


def fmt(seconds):
    if seconds < 1e-3:
        return f"{seconds * 1e6:.0f} us"
    if seconds < 1:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds:.2f} s"


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Our `nqueens complete` against Google OR-Tools' CP solver, on the same instances.

Run from the repository root after `cargo build --release`:

    pip install ortools
    python3 bench/ortools_compare.py            # about a minute
    python3 bench/ortools_compare.py --quick    # smaller sets, no N=10000 (3 to 5 minutes)
    python3 bench/ortools_compare.py --blocked-only   # only the CP-SAT table of hard blocked boards

Every instance is written as a list-form file (`N`, then `q row col` / `x row col`), solved by
`target/release/nqueens complete FILE --stats`, and built as the OR-Tools model of the reference
document: one variable per row, AllDifferent on q[i], q[i]+i, q[i]-i, given queens as
`q[r] == c`, blocked squares removed from the domains. Times are search times as each solver
reports them (ours: the `time` of --stats; OR-Tools: from NewSearch to the answer), so process
start and model building are left out on both sides; each is the smaller of wall-clock and CPU
time, so that other jobs on a shared machine count against neither. Both must agree on every
answer.
"""

import argparse
import json
import os
import random
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time

from ortools.constraint_solver import pywrapcp
from ortools.sat.python import cp_model

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from blocked_gen import blocked_board  # noqa: E402


def ortools(n, given=(), blocked=(), count=False, first_fail=True, limit_s=None):
    """Solves with OR-Tools CP; returns (answer, seconds): answer is a count, or True/False."""
    s = pywrapcp.Solver("nqueens")
    q = [s.IntVar(0, n - 1, f"q{i}") for i in range(n)]
    s.Add(s.AllDifferent(q))
    s.Add(s.AllDifferent([q[i] + i for i in range(n)]))
    s.Add(s.AllDifferent([q[i] - i for i in range(n)]))
    for r, c in given:
        s.Add(q[r] == c)
    for r, c in blocked:
        q[r].RemoveValue(c)
    var = s.CHOOSE_MIN_SIZE_LOWEST_MIN if first_fail else s.CHOOSE_FIRST_UNBOUND
    db = s.Phase(q, var, s.ASSIGN_MIN_VALUE)
    monitors = [s.TimeLimit(int(limit_s * 1000))] if limit_s else []
    start, start_cpu = time.perf_counter(), time.process_time()
    s.NewSearch(db, monitors)
    found = 0
    while s.NextSolution():
        found += 1
        if not count:
            break
    s.EndSearch()
    wall = time.perf_counter() - start
    elapsed = min(wall, time.process_time() - start_cpu)
    if limit_s and wall >= limit_s:
        return None, elapsed
    return (found if count else found > 0), elapsed


def cpsat(n, blocked=(), limit_s=120):
    """Decides with OR-Tools CP-SAT on one worker; returns (answer, seconds), answer None when it
    gave up. The model: one integer variable per row over its unblocked columns, AllDifferent on
    q[i], q[i]+i and q[i]-i."""
    blocked = set(blocked)
    m = cp_model.CpModel()
    q = [m.NewIntVarFromDomain(
        cp_model.Domain.FromValues([c for c in range(n) if (r, c) not in blocked]), f"q{r}")
        for r in range(n)]
    m.AddAllDifferent(q)
    m.AddAllDifferent([q[i] + i for i in range(n)])
    m.AddAllDifferent([q[i] - i for i in range(n)])
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = limit_s
    start, start_cpu = time.perf_counter(), time.process_time()
    status = solver.Solve(m)
    elapsed = min(time.perf_counter() - start, time.process_time() - start_cpu)
    answer = {cp_model.OPTIMAL: True, cp_model.FEASIBLE: True,
              cp_model.INFEASIBLE: False}.get(status)
    return answer, elapsed


def blocked_table(binary, tmp, n, ms_blocked, seeds, limit_s, cache_path=None):
    """Hard blocked boards (bench/blocked_gen.py, mininfile 1): ours against CP-SAT, one row
    per board, then totals. Returns the Markdown lines. CP-SAT's answers and times can be kept
    in a JSON cache, so that rerunning ours after a change does not cost minutes of CP-SAT."""
    cache = {}
    if cache_path and os.path.exists(cache_path):
        with open(cache_path) as f:
            cache = json.load(f)
    lines = ["| N | blocked | seed | answer | nqueens | CP-SAT (1 worker) | CP-SAT / nqueens |",
             "|---|---|---|---|---|---|---|"]
    tot = {True: [0.0, 0.0, 0], False: [0.0, 0.0, 0]}
    gave_up = 0
    for m in ms_blocked:
        for seed in seeds:
            rng = random.Random(f"blocked {n} {m} 1 {seed}")
            blocked = blocked_board(n, m, rng, 1)
            a, ta = ours(binary, tmp, n, blocked=blocked)
            # A kept answer serves any limit; a kept "gave up" only as long a limit or shorter.
            key = f"{n} {m} {seed}"
            kept = cache.get(key)
            if kept is None or (kept[0] is None and kept[2] < limit_s):
                cache[key] = [*cpsat(n, blocked, limit_s), limit_s]
                if cache_path:
                    with open(cache_path, "w") as f:
                        json.dump(cache, f, indent=1)
            b, tb, _ = cache[key]
            if b is None:
                gave_up += 1
            elif a != b:
                sys.exit(f"N={n} m={m} seed={seed}: the solvers disagree ({a} vs {b})")
            tot[a][0] += ta
            tot[a][1] += tb
            tot[a][2] += b is None
            theirs = ms(tb) if b is not None else f">= {ms(tb)} (gave up)"
            answer = "completion" if a else "none"
            lines.append(f"| {n} | {len(blocked)} | {seed} | {answer} | {ms(ta)} | {theirs} "
                         f"| {'>= ' if b is None else ''}{tb / ta:.0f}x |")
            print(lines[-1], file=sys.stderr, flush=True)
    for answer, name in ((True, "with a completion"), (False, "with none"), (None, "all")):
        ta, tb, stopped = (tot[answer] if answer is not None
                           else [x + y for x, y in zip(tot[True], tot[False])])
        at_least = ">= " if stopped else ""
        if ta > 0:
            lines.append(f"| total | | | {name} | {ms(ta)} | {at_least}{ms(tb)} "
                         f"| {at_least}{tb / ta:.1f}x |")
    if gave_up:
        lines.append(f"\n{gave_up} CP-SAT run(s) stopped at {limit_s:.0f} s: ratios are lower "
                     "bounds there.")
    return lines


def ours(binary, tmp, n, given=(), blocked=(), count=False):
    """Solves with `nqueens complete`; returns (answer, seconds) as `ortools` does."""
    path = os.path.join(tmp, "instance.txt")
    with open(path, "w") as f:
        f.write(f"{n}\n")
        f.writelines(f"q {r + 1} {c + 1}\n" for r, c in given)
        f.writelines(f"x {r + 1} {c + 1}\n" for r, c in blocked)
    args = [binary, "complete", path, "--stats", "--format", "perm"]
    if count:
        args.append("--count")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    run = subprocess.run(args, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if run.returncode not in (0, 1):
        sys.exit(f"nqueens failed: {run.stderr}")
    wall = float(re.search(r"time ([\d.]+) ms", run.stderr).group(1)) / 1e3
    # The whole process's CPU time (start, parsing included) bounds the search's from above.
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    elapsed = min(wall, cpu)
    if count:
        return int(run.stdout), elapsed
    return run.returncode == 0, elapsed


def random_solution(n, rng):
    """A random solution by min-conflicts from a random permutation."""
    while True:
        cols = list(range(n))
        rng.shuffle(cols)
        cnt_d, cnt_a = [0] * (2 * n), [0] * (2 * n)
        for r, c in enumerate(cols):
            cnt_d[r - c + n] += 1
            cnt_a[r + c] += 1

        def conflicts(r, c):
            return cnt_d[r - c + n] + cnt_a[r + c]

        for _ in range(50 * n):
            bad = [r for r in range(n) if conflicts(r, cols[r]) > 2]
            if not bad:
                return cols
            # Swap a conflicted row's column with the row that lowers conflicts most.
            r = rng.choice(bad)
            best, best_s = None, None
            for s in rng.sample(range(n), min(n, 32)):
                if s == r:
                    continue
                before = conflicts(r, cols[r]) + conflicts(s, cols[s])
                for a, b in ((r, cols[r]), (s, cols[s])):
                    cnt_d[a - b + n] -= 1
                    cnt_a[a + b] -= 1
                after = (cnt_d[r - cols[s] + n] + cnt_a[r + cols[s]]
                         + cnt_d[s - cols[r] + n] + cnt_a[s + cols[r]])
                for a, b in ((r, cols[r]), (s, cols[s])):
                    cnt_d[a - b + n] += 1
                    cnt_a[a + b] += 1
                if best_s is None or after - before < best_s:
                    best, best_s = s, after - before
            for a, b in ((r, cols[r]), (best, cols[best])):
                cnt_d[a - b + n] -= 1
                cnt_a[a + b] -= 1
            cols[r], cols[best] = cols[best], cols[r]
            for a, b in ((r, cols[r]), (best, cols[best])):
                cnt_d[a - b + n] += 1
                cnt_a[a + b] += 1


def completion_instances(n, k, rng, solvable, draws=25):
    """`k` instances of size n, each with a third to a half of the queens given: half keep
    random rows of a random solution (always solvable); half are queens dropped on random
    squares that no earlier one attacks, drawn again until `solvable` says no (at most `draws`
    times: for N >= 50 almost every such instance still has a completion)."""
    out = []
    for i in range(k):
        want = rng.randint(n // 3, n // 2)
        if i % 2 == 0:
            sol = random_solution(n, rng)
            out.append([(r, sol[r]) for r in rng.sample(range(n), want)])
            continue
        for _ in range(draws):
            given, rows, cols, diags, antis = [], set(), set(), set(), set()
            squares = [(r, c) for r in range(n) for c in range(n)]
            rng.shuffle(squares)
            for r, c in squares:
                if len(given) == want:
                    break
                if r in rows or c in cols or r - c in diags or r + c in antis:
                    continue
                given.append((r, c))
                rows.add(r)
                cols.add(c)
                diags.add(r - c)
                antis.add(r + c)
            if not solvable(given):
                break
        out.append(given)
    return out


def blocked_instances(n, m, k, rng):
    """`k` boards of size n with m random blocked squares, every row and column keeping one."""
    return [blocked_board(n, m, rng, mininfile=1) for _ in range(k)]


def best(solve):
    """Runs `solve` (returning (answer, seconds)) once, or three times keeping the fastest when
    it is quick: the machine may be shared, and the minimum is the least disturbed run."""
    answer, t = solve()
    if t < 0.5:
        t = min([t] + [solve()[1] for _ in range(2)])
    return answer, t


def ms(seconds):
    return f"{seconds * 1e3:.2f} ms" if seconds < 1 else f"{seconds:.2f} s"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nqueens", default="target/release/nqueens")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--blocked-only", action="store_true",
                    help="only the table of hard blocked boards against CP-SAT")
    ap.add_argument("--blocked-n", type=int, default=60)
    ap.add_argument("--blocked-m", default="3150,3165,3180",
                    help="numbers of blocked squares, comma-separated")
    ap.add_argument("--blocked-seeds", type=int, default=5, help="boards per number")
    ap.add_argument("--cpsat-limit", type=float, default=120.0, help="seconds per CP-SAT run")
    ap.add_argument("--cpsat-cache", help="JSON file keeping CP-SAT's answers and times")
    args = ap.parse_args()
    if args.blocked_only:
        with tempfile.TemporaryDirectory() as tmp:
            lines = blocked_table(args.nqueens, tmp, args.blocked_n,
                                  [int(m) for m in args.blocked_m.split(",")],
                                  range(args.blocked_seeds), args.cpsat_limit,
                                  args.cpsat_cache)
        print("\n".join(lines))
        return
    rng = random.Random(args.seed)
    rows = []

    def row(name, a, ta, b, tb):
        if a != b and b is not None:
            sys.exit(f"{name}: the solvers disagree ({a} vs {b})")
        ratio = f"{tb / ta:.0f}x" if ta > 0 and b is not None else "-"
        rows.append((name, str(a), ms(ta), ms(tb) if b is not None else "gave up", ratio))
        print(f"{name}: ours {ms(ta)}, OR-Tools {ms(tb)}", file=sys.stderr)

    with tempfile.TemporaryDirectory() as tmp:
        a, ta = ours(args.nqueens, tmp, 13, count=True)
        b, tb = ortools(13, count=True, first_fail=False)
        row("all solutions, N=13", a, ta, b, tb)
        for n in [1000, 2000] + ([] if args.quick else [10000]):
            a, ta = best(lambda: ours(args.nqueens, tmp, n))
            b, tb = best(lambda: ortools(n, limit_s=120))
            row(f"one solution, N={n}", a, ta, b, tb)

        k = 10 if args.quick else 40
        for n in (20, 30, 50, 100):
            insts = completion_instances(
                n, k, rng, lambda g: ours(args.nqueens, tmp, n, given=g)[0])
            ta_all, tb_all, sat = [], [], 0
            for given in insts:
                a, ta = best(lambda: ours(args.nqueens, tmp, n, given=given))
                b, tb = best(lambda: ortools(n, given=given))
                if a != b:
                    sys.exit(f"disagree on {n} {given}")
                sat += a
                ta_all.append(ta)
                tb_all.append(tb)
            name = f"{k} completions, N={n}, 1/3-1/2 given (mean / max)"
            rows.append((name, f"{sat} of {k} solvable",
                         f"{ms(statistics.mean(ta_all))} / {ms(max(ta_all))}",
                         f"{ms(statistics.mean(tb_all))} / {ms(max(tb_all))}",
                         f"{sum(tb_all) / sum(ta_all):.0f}x"))
            print(rows[-1], file=sys.stderr)

        # Near the phase transition (about half solvable), found with `--quick` runs of this
        # script and a sweep of m: 77% of the squares for N=30, 82% for N=40.
        for n, pct, limit in ((30, 77, None), (40, 82, 10.0)):
            m = n * n * pct // 100
            count = k if limit is None else k // 4
            insts = blocked_instances(n, m, count, rng)
            ta_all, tb_all, sat, gave_up = [], [], 0, 0
            for blocked in insts:
                a, ta = best(lambda: ours(args.nqueens, tmp, n, blocked=blocked))
                b, tb = best(lambda: ortools(n, blocked=blocked, limit_s=limit))
                if b is None:
                    gave_up += 1
                elif a != b:
                    sys.exit(f"disagree on {n} blocked")
                sat += a
                ta_all.append(ta)
                tb_all.append(tb)
            name = f"{count} boards N={n}, {m} blocked ({pct}%) (mean / max)"
            theirs = f"{ms(statistics.mean(tb_all))} / {ms(max(tb_all))}"
            if gave_up:
                theirs = f">= {theirs} ({gave_up} stopped at {limit:.0f} s)"
            rows.append((name, f"{sat} of {count} solvable",
                         f"{ms(statistics.mean(ta_all))} / {ms(max(ta_all))}",
                         theirs,
                         f"{'>= ' if gave_up else ''}{sum(tb_all) / sum(ta_all):.0f}x"))
            print(rows[-1], file=sys.stderr)

        blocked_lines = blocked_table(args.nqueens, tmp, args.blocked_n,
                                      [int(m) for m in args.blocked_m.split(",")],
                                      range(2 if args.quick else args.blocked_seeds),
                                      args.cpsat_limit, args.cpsat_cache)

    print("| instance | answer | nqueens | OR-Tools CP | OR-Tools / nqueens |")
    print("|---|---|---|---|---|")
    for r in rows:
        print("| " + " | ".join(r) + " |")
    print()
    print("\n".join(blocked_lines))


if __name__ == "__main__":
    main()

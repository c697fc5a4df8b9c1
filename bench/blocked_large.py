#!/usr/bin/env python3
"""Blocked boards of N = 80 to 128 (CSPLib problem 80): find each size's phase transition, and
decide boards near it with `nqueens complete` beside OR-Tools CP-SAT on one worker.

Run from the repository root after `cargo build --release`, with OR-Tools installed
(`python3 -m venv /tmp/ort && /tmp/ort/bin/pip install ortools`):

    # the transition: how many boards of each m have a completion (ours, 5 s per board)
    python3 bench/blocked_large.py sweep 80 5500,5600,5700,5800,5900 --seeds 6 --limit 5
    # the table of docs/completion.md: ours (30 s) against CP-SAT (120 s), one board at a time
    python3 bench/blocked_large.py compare 80:5700,5800 100:9200,9300 --seeds 4 \\
        --cpsat-cache /tmp/cpsat-large.json
    # which search to make the default at one width: ours with and without learning
    python3 bench/blocked_large.py learning 100:8900,9400 --seeds 4 --limit 20
    # a clause-learning SAT solver on the same boards (CaDiCaL 1.9.5 through PySAT:
    # `pip install python-sat`), up to 2 million conflicts a board: how hard the boards are
    python3 bench/blocked_large.py sat 80:5750,5850 --seeds 4 --conflicts 2000000

Boards come from `blocked_gen.py` (mininfile 1, seeds 0, 1, ...), so `N m seed` names a board
everywhere. Times are the smaller of wall-clock and CPU time of the search, as in
`ortools_compare.py`: ours the `time` of `--stats` bounded by the process's CPU time, CP-SAT
its wall time bounded by the CPU time of `Solve`. Every completion ours prints is checked
here against the board; every answer of ours must agree with CP-SAT's where both decide, or
the script stops.
"""

import argparse
import json
import os
import random
import re
import resource
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from blocked_gen import blocked_board, list_form  # noqa: E402


def board(n, m, seed):
    return blocked_board(n, m, random.Random(f"blocked {n} {m} 1 {seed}"), 1)


def boards(args):
    """(n, m, seed, blocked squares) for each `N:m,m,...` of `args.boards` and each seed."""
    for spec in args.boards:
        n, ms = spec.split(":")
        n = int(n)
        for m in [int(x) for x in ms.split(",")]:
            for seed in range(args.seeds):
                yield n, m, seed, board(n, m, seed)


def ours(binary, tmp, n, blocked, limit_s, extra=()):
    """`nqueens complete` with a time limit: (answer, seconds, stats), answer True, False or
    None (gave up). A completion is checked against the board before it counts."""
    path = os.path.join(tmp, "board.txt")
    with open(path, "w") as f:
        f.write(list_form(n, blocked))
    args = [binary, "complete", path, "--stats", "--format", "perm", "--time-limit",
            str(limit_s), *extra]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    run = subprocess.run(args, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if run.returncode not in (0, 1):
        sys.exit(f"nqueens failed: {run.stderr}")
    stats = dict(re.findall(r"(nodes|failures|restarts|nogoods) (\d+)", run.stderr))
    wall = float(re.search(r"time ([\d.]+) ms", run.stderr).group(1)) / 1e3
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    elapsed = min(wall, cpu)
    if "gave up" in run.stdout + run.stderr:
        return None, elapsed, stats
    if run.returncode == 1:
        return False, elapsed, stats
    cols = [int(x) - 1 for x in run.stdout.split()]
    if not valid(n, blocked, cols):
        sys.exit(f"N={n}: the completion printed is not one: {run.stdout}")
    return True, elapsed, stats


def cpsat(n, blocked, limit_s):
    """CP-SAT on one worker: (answer, seconds, stats), answer None when it gave up."""
    from ortools.sat.python import cp_model
    bad = set(blocked)
    m = cp_model.CpModel()
    q = [m.NewIntVarFromDomain(
        cp_model.Domain.FromValues([c for c in range(n) if (r, c) not in bad]), f"q{r}")
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
    # Every conflict of CP-SAT's SAT core learns one clause, so conflicts count its no-goods.
    stats = {"branches": solver.NumBranches(), "conflicts": solver.NumConflicts(),
             "restarts": solver.ResponseProto().num_restarts}
    return answer, elapsed, stats


def cadical(n, blocked, conflicts):
    """CaDiCaL 1.9.5 (PySAT) on the direct encoding: a Boolean per free square, exactly one
    queen in each row and each column, at most one on each diagonal (sequential counters past
    six squares, pairs below), up to `conflicts` conflicts (PySAT cannot stop CaDiCaL on a
    clock). (answer, CPU seconds, conflicts), answer None when it gave up."""
    from pysat.card import CardEnc, EncType
    from pysat.solvers import Solver
    bad = set(blocked)
    var = {}
    for r in range(n):
        for c in range(n):
            if (r, c) not in bad:
                var[r, c] = len(var) + 1
    top, clauses = len(var), []

    def at_most_one(lits):
        nonlocal top
        if len(lits) > 1:
            kind = EncType.seqcounter if len(lits) > 6 else EncType.pairwise
            enc = CardEnc.atmost(lits, 1, top_id=top, encoding=kind)
            top = max(top, enc.nv)
            clauses.extend(enc.clauses)

    lines = [[(r, c) for c in range(n)] for r in range(n)]
    lines += [[(r, c) for r in range(n)] for c in range(n)]
    for line in lines:
        lits = [var[sq] for sq in line if sq in var]
        clauses.append(lits)
        at_most_one(lits)
    for d in range(-n, n):
        at_most_one([var[r, r - d] for r in range(n) if (r, r - d) in var])
        at_most_one([var[r, d + n - r] for r in range(n) if (r, d + n - r) in var])
    with Solver(name="cadical195", bootstrap_with=clauses) as solver:
        solver.conf_budget(conflicts)
        start = time.process_time()
        answer = solver.solve_limited()
        elapsed = time.process_time() - start
        if answer:
            model = {lit for lit in solver.get_model() if lit > 0}
            cols = [next(c for c in range(n) if var.get((r, c)) in model) for r in range(n)]
            if not valid(n, blocked, cols):
                sys.exit(f"N={n}: CaDiCaL's completion is not one")
        return answer, elapsed, solver.accum_stats()["conflicts"]


def valid(n, blocked, cols):
    """Whether `cols` (a column per row) is a completion of the board."""
    bad = set(blocked)
    return (len(cols) == n and len(set(cols)) == n
            and len({r + c for r, c in enumerate(cols)}) == n
            and len({r - c for r, c in enumerate(cols)}) == n
            and not any((r, c) in bad for r, c in enumerate(cols)))


def secs(t):
    return f"{t * 1e3:.0f} ms" if t < 1 else f"{t:.2f} s"


def word(answer):
    return {True: "completion", False: "none", None: "-"}[answer]


def sweep(args):
    with tempfile.TemporaryDirectory() as tmp:
        print("| N | blocked | share | completion | none | not decided | slowest decided |")
        print("|---:|---:|---:|---:|---:|---:|---:|")
        for m in [int(x) for x in args.m.split(",")]:
            got = {True: 0, False: 0, None: 0}
            slowest = 0.0
            for seed in range(args.seeds):
                a, t, _ = ours(args.nqueens, tmp, args.n, board(args.n, m, seed), args.limit)
                got[a] += 1
                if a is not None:
                    slowest = max(slowest, t)
            print(f"| {args.n} | {m} | {m / args.n ** 2:.1%} | {got[True]} | {got[False]} "
                  f"| {got[None]} | {secs(slowest)} |", flush=True)


def learning(args):
    """Each board with `--learning` and with `--no-learning`, one row each: which search to
    make the default at a width."""
    print("| N | blocked | seed | answer | learning | failures | plain | failures |")
    print("|---:|---:|---:|---|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        for n, m, seed, blocked in boards(args):
            runs = [ours(args.nqueens, tmp, n, blocked, args.limit, [flag])
                    for flag in ("--learning", "--no-learning")]
            decided = {a for a, _, _ in runs if a is not None}
            if len(decided) > 1:
                sys.exit(f"{n} {m} {seed}: learning and the plain search disagree")
            answer = word(decided.pop()) if decided else "-"
            cells = []
            for a, t, stats in runs:
                cells += [secs(t) if a is not None else f"not decided ({t:.1f} s)",
                          stats.get("failures", "")]
            print(f"| {n} | {m} | {seed} | {answer} | " + " | ".join(cells) + " |",
                  flush=True)


def sat(args):
    """CaDiCaL on each board, one row each."""
    print("| N | blocked | seed | answer | CaDiCaL | conflicts |")
    print("|---:|---:|---:|---|---:|---:|")
    for n, m, seed, blocked in boards(args):
        a, t, conflicts = cadical(n, blocked, args.conflicts)
        shown = secs(t) if a is not None else f"not decided ({secs(t)} CPU)"
        print(f"| {n} | {m} | {seed} | {word(a)} | {shown} | {conflicts} |", flush=True)


def compare(args):
    cache = {}
    if args.cpsat_cache and os.path.exists(args.cpsat_cache):
        with open(args.cpsat_cache) as f:
            cache = json.load(f)
    rows = []
    print("| N | blocked | seed | answer | nqueens | nodes | failures | no-goods | restarts "
          "| CP-SAT (1 worker) | branches | conflicts | restarts | CP-SAT / nqueens |")
    print("|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        for n, m, seed, blocked in boards(args):
            key = f"{n} {m} {seed}"
            kept = cache.get(key)
            if kept is None or (kept[0] is None and kept[3] < args.cpsat_limit):
                if args.ours_only:
                    kept = [None, float("nan"), {}, 0]
                else:
                    cache[key] = [*cpsat(n, blocked, args.cpsat_limit), args.cpsat_limit]
                    kept = cache[key]
                    if args.cpsat_cache:
                        with open(args.cpsat_cache, "w") as f:
                            json.dump(cache, f, indent=1)
            b, tb, sb, limit_b = kept
            a, ta, sa = ours(args.nqueens, tmp, n, blocked, args.limit,
                             args.ours_args.split())
            if a is not None and b is not None and a != b:
                sys.exit(f"{key}: the solvers disagree ({a} vs {b})")
            rows.append((n, m, seed, a, ta, b, tb))
            answer = word(a if a is not None else b)
            # A run that gave up shows the CPU time it had within its wall-clock limit:
            # on a loaded machine that is much less than the limit.
            mine = (secs(ta) if a is not None
                    else f"not decided ({secs(ta)} CPU in {args.limit:.0f} s)")
            theirs = (secs(tb) if b is not None
                      else f"not decided ({secs(tb)} CPU in {limit_b:.0f} s)" if limit_b
                      else "-")
            ratio = f"{tb / ta:.1f}x" if a is not None and b is not None else "-"
            print(f"| {n} | {m} | {seed} | {answer} | {mine} | {sa.get('nodes', '')} "
                  f"| {sa.get('failures', '')} | {sa.get('nogoods', '')} "
                  f"| {sa.get('restarts', '')} | {theirs} | {sb.get('branches', '')} "
                  f"| {sb.get('conflicts', '')} | {sb.get('restarts', '')} | {ratio} |",
                  flush=True)
    both = [r for r in rows if r[3] is not None and r[5] is not None]
    print()
    print(f"{len(rows)} boards: CP-SAT decides {sum(r[5] is not None for r in rows)}, nqueens "
          f"{sum(r[3] is not None for r in rows)}, neither "
          f"{sum(r[3] is None and r[5] is None for r in rows)}; CP-SAT only "
          f"{sum(r[3] is None and r[5] is not None for r in rows)}, nqueens only "
          f"{sum(r[3] is not None and r[5] is None for r in rows)}.")
    for name, pick in (("with a completion", True), ("with none", False)):
        sel = [r for r in both if r[3] == pick]
        if sel:
            ta, tb = sum(r[4] for r in sel), sum(r[6] for r in sel)
            print(f"Both decide, {name}: {len(sel)} boards, nqueens {secs(ta)}, CP-SAT "
                  f"{secs(tb)}, ratio {tb / ta:.1f}x.")
    if both:
        ta, tb = sum(r[4] for r in both), sum(r[6] for r in both)
        print(f"Both decide, all: {len(both)} boards, nqueens {secs(ta)}, CP-SAT {secs(tb)}, "
              f"ratio {tb / ta:.1f}x.")
    over = [r for r in both if r[6] > 1]
    if over:
        tenth = sum(r[4] * 10 <= r[6] for r in over)
        print(f"Where CP-SAT needs over 1 s ({len(over)} boards), nqueens takes a tenth of its "
              f"time or less on {tenth}.")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nqueens", default="target/release/nqueens")
    sub = ap.add_subparsers(dest="what", required=True)
    s = sub.add_parser("sweep", help="answers of ours across m for one N")
    s.add_argument("n", type=int)
    s.add_argument("m", help="numbers of blocked squares, comma-separated")
    s.add_argument("--seeds", type=int, default=6)
    s.add_argument("--limit", type=float, default=5.0, help="seconds per board for ours")
    c = sub.add_parser("compare", help="ours beside CP-SAT, one row per board")
    c.add_argument("boards", nargs="+", help="N:m1,m2,... board sets")
    c.add_argument("--seeds", type=int, default=4, help="boards per (N, m), seeds 0, 1, ...")
    c.add_argument("--limit", type=float, default=30.0, help="seconds per board for ours")
    c.add_argument("--cpsat-limit", type=float, default=120.0, help="seconds per CP-SAT run")
    c.add_argument("--cpsat-cache", help="JSON file keeping CP-SAT's answers, times, stats")
    c.add_argument("--ours-args", default="",
                   help="more arguments of `nqueens complete`, e.g. --learning")
    c.add_argument("--ours-only", action="store_true",
                   help="run CP-SAT on no board missing from the cache")
    d = sub.add_parser("learning", help="ours with and without learning, one row per board")
    d.add_argument("boards", nargs="+", help="N:m1,m2,... board sets")
    d.add_argument("--seeds", type=int, default=4, help="boards per (N, m), seeds 0, 1, ...")
    d.add_argument("--limit", type=float, default=20.0, help="seconds per run")
    e = sub.add_parser("sat", help="CaDiCaL (PySAT) alone, one row per board")
    e.add_argument("boards", nargs="+", help="N:m1,m2,... board sets")
    e.add_argument("--seeds", type=int, default=4, help="boards per (N, m), seeds 0, 1, ...")
    e.add_argument("--conflicts", type=int, default=2_000_000, help="conflicts per board")
    args = ap.parse_args()
    {"sweep": sweep, "compare": compare, "learning": learning, "sat": sat}[args.what](args)


if __name__ == "__main__":
    main()

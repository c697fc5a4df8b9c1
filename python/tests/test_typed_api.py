"""The documented API as a user's typed script uses it: `python/ci.sh` runs mypy --strict and
pyright on this file (and the examples), pytest runs it to check that the annotations are the
types the calls return."""

from __future__ import annotations

import array
from typing import TYPE_CHECKING, Iterator, List, Optional, Tuple, get_args

import numpy as np
import numpy.typing as npt

import nqueens

if TYPE_CHECKING:
    from typing_extensions import Unpack, assert_type
else:

    def assert_type(value: object, _: object) -> object:
        return value


def count_of(n: int, **options: Unpack[nqueens.CountOptions]) -> nqueens.CountResult:
    """A user's function that passes count's options on, typed by their one definition."""
    return nqueens.count(n, **options)


def test_every_call_returns_its_annotated_type() -> None:
    r: nqueens.CountResult = nqueens.count(np.int64(8), threads=2, progress=False)
    many: nqueens.CountResults = nqueens.count(range(4, 9))
    per_board: List[nqueens.CountResult] = nqueens.count(np.arange(4, 9), unique=False)
    shards: List[nqueens.ShardResult] = [nqueens.count(10, shard=(i, 2)) for i in range(2)]
    merged: nqueens.CountResult = nqueens.merge(shards)
    passed: nqueens.CountResult = count_of(8, threads=1, unique=False, progress=None)
    first: nqueens.Placement = next(nqueens.solutions(8))
    cols: Tuple[int, ...] = tuple(first)
    blocks: Iterator[npt.NDArray[np.uint32]] = nqueens.solutions(8, batch=np.int32(10))
    found: Optional[nqueens.Placement] = nqueens.find(100, random=True, seed=1)
    ok: bool = nqueens.verify(np.array([1, 3, 0, 2], dtype=np.int64))
    why: Optional[str] = nqueens.defect(array.array("b", [1, 3, 0, 2]))
    picture: str = nqueens.svg([0, None, 4, None, None], size=100, blocked=[(1, 1)])
    c: nqueens.Completion = nqueens.complete([0, None, None, None, None], time_limit=None)
    limited: nqueens.Completion = nqueens.complete(["Q....", "....."] + ["....."] * 3, count=True)
    steps: nqueens.Trace = nqueens.trace(5, algo="flags")
    step: nqueens.Step = steps[0]
    puzzle: nqueens.Puzzle = next(nqueens.puzzles(np.int64(6), seed=2))
    table: str = nqueens.table(many, time=False)

    assert (passed.total, passed.unique) == (92, None)
    assert (r.total, merged.total, [x.total for x in per_board]) == (92, 724, [2, 10, 4, 40, 92])
    assert isinstance(first, nqueens.Placement) and cols == tuple(first)
    assert sum(b.shape[0] for b in blocks) == 92
    assert found is not None and found.verify() and ok and why is None
    assert picture.count("<use") == 2
    assert c.status == "solved" and c.placement is not None and c.placement.verify()
    assert limited.count == 2 and limited.placement is None
    assert step["event"] == "place" and steps.complete
    assert puzzle.solution.verify() and table.startswith("| N |")
    assert isinstance(nqueens.__version__, str)


def test_the_names_and_steps_are_typed() -> None:
    # The names as Literal types: what a checker accepts is what the library takes.
    algo: nqueens.Algo = "bitboard"
    strategy: nqueens.Strategy = "join"
    device: nqueens.Device = "cpu"
    level: nqueens.Difficulty = "easy"
    r: nqueens.CountResult = nqueens.count(10, algo=algo, device=device)
    s: nqueens.CountResult = nqueens.count(10, strategy=strategy)
    every: List[nqueens.Algo] = list(nqueens.ALGORITHMS)
    p: nqueens.Puzzle = next(nqueens.puzzles(6, difficulty=level))
    hard: nqueens.Difficulty = p.difficulty
    # A step narrowed by its event: its row is an int there.
    rows: List[int] = []
    for step in nqueens.trace(6, algo="flags"):
        if step["event"] == "place":
            rows.append(step["row"] + 1)
        elif step["event"] == "solution":
            assert len(step["cols"]) == 6
    first: nqueens.Placement = next(nqueens.solutions(8))
    view = assert_type(np.asarray(first), npt.NDArray[np.uint32])
    block_ok = nqueens.verify(next(nqueens.solutions(8, batch=10)))
    it: nqueens.Completions = nqueens.complete([0, None, None, None, None], all=True)
    completions: List[nqueens.Placement] = list(it)
    status: Optional[nqueens.Status] = it.status
    try:
        nqueens.count(20, time_limit=0.05)
    except nqueens.CountTimeout as e:
        done: int = e.tasks_done

    assert r.total == s.total == 724 and every == list(nqueens.ALGORITHMS)
    assert hard == level and rows and view.dtype == np.uint32
    assert bool(block_ok.all()) and len(completions) == 2 and status == "solved"
    assert set(get_args(nqueens.Algo)) == set(nqueens.ALGORITHMS)
    assert set(get_args(nqueens.Strategy)) == set(nqueens.STRATEGIES)

"""N-Queens at Rust speed: count, list, find, complete and verify placements.

Place ``n`` queens on an ``n`` x ``n`` board so that no two attack. This package is the
Python face of the ``nqueens`` Rust library: every function calls the library itself, with
the GIL released, so Python threads keep running while it works.

A placement is given and returned as its **columns**, 0-based: ``cols[row]`` is the column
of the queen in that row. (Error messages name rows and columns 1-based, as the command line
does.)

>>> import nqueens
>>> r = nqueens.count(8)
>>> (r.total, r.unique)
(92, 12)
>>> first = next(nqueens.solutions(8))
>>> nqueens.verify(first)
True
>>> nqueens.complete(["Q.......", "..x....."] + ["........"] * 6)   # Q given, x blocked
(0, 4, 7, 5, 2, 6, 1, 3)
"""

from __future__ import annotations

import array
import os
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator, Optional, Sequence, Tuple, Union, overload

from . import _nqueens

__all__ = [
    "ALGORITHMS",
    "STRATEGIES",
    "CountResult",
    "Puzzle",
    "SolverStats",
    "board",
    "complete",
    "count",
    "defect",
    "find",
    "puzzles",
    "solutions",
    "svg",
    "table",
    "verify",
]

#: The ladder's algorithms, slowest first, as ``count(n, algo=...)`` takes them.
ALGORITHMS: Tuple[str, ...] = tuple(_nqueens.ALGORITHMS)
#: The engine's strategies, as ``count(n, strategy=...)`` takes them.
STRATEGIES: Tuple[str, ...] = tuple(_nqueens.STRATEGIES)

Progress = Union[Callable[[int, int], Any], Any]
PathLike = Union[str, "os.PathLike[str]"]


@dataclass(frozen=True)
class CountResult:
    """What a count found.

    >>> nqueens.count(10)                                   # doctest: +SKIP
    CountResult(n=10, total=724, unique=92, seconds=0.0004, method='engine/backtrack')

    Attributes:
        n: board size.
        total: all solutions.
        unique: solutions up to the 8 rotations and reflections; ``None`` when not asked
            for (``unique=False``) or when the algorithm does not compute it (every ladder
            algorithm but ``"symmetry"``).
        seconds: wall-clock time of the count.
        method: what counted: ``"engine/<strategy>"``, ``"gpu/<strategy>"`` or
            ``"algo/<name>"``.
    """

    n: int
    total: int
    unique: Optional[int]
    seconds: float
    method: str


@dataclass(frozen=True)
class SolverStats:
    """The effort of a ``complete`` search, in the terms CP solvers report.

    Attributes:
        nodes: decisions tried (a queen put on a square by choice).
        failures: decisions whose propagation left some row or column without a square.
        propagations: queens placed because propagation forced them.
        solutions: completions found.
        restarts: times the search started over with new random tie-breaking.
        seconds: time spent searching.
    """

    nodes: int
    failures: int
    propagations: int
    solutions: int
    restarts: int
    seconds: float


def _progress_hook(progress: Optional[Progress]) -> Optional[Callable[[int, int], Any]]:
    """A ``(done, total)`` callable from a callable, or from a tqdm-like bar."""
    if progress is None:
        return None
    if hasattr(progress, "update") and hasattr(progress, "n"):
        bar = progress

        def hook(done: int, total: int) -> None:
            if bar.total != total:
                bar.total = total
            bar.update(done - bar.n)

        return hook
    if callable(progress):
        return progress
    raise TypeError(
        "progress must be a callable taking (done, total) or a tqdm-like bar, "
        f"not {type(progress).__name__}"
    )


def _is_size(n: object) -> bool:
    return isinstance(n, int) and not isinstance(n, bool)


@overload
def count(
    n: int,
    *,
    threads: Optional[int] = ...,
    strategy: Optional[str] = ...,
    algo: Optional[str] = ...,
    unique: bool = ...,
    progress: Optional[Progress] = ...,
    max_memory: Optional[int] = ...,
    checkpoint: Optional[PathLike] = ...,
    device: str = ...,
) -> CountResult: ...


@overload
def count(
    n: Iterable[int],
    *,
    threads: Optional[int] = ...,
    strategy: Optional[str] = ...,
    algo: Optional[str] = ...,
    unique: bool = ...,
    progress: Optional[Progress] = ...,
    max_memory: Optional[int] = ...,
    checkpoint: Optional[PathLike] = ...,
    device: str = ...,
) -> "list[CountResult]": ...


def count(
    n: Union[int, Iterable[int]],
    *,
    threads: Optional[int] = None,
    strategy: Optional[str] = None,
    algo: Optional[str] = None,
    unique: bool = True,
    progress: Optional[Progress] = None,
    max_memory: Optional[int] = None,
    checkpoint: Optional[PathLike] = None,
    device: str = "cpu",
) -> Union[CountResult, "list[CountResult]"]:
    """Counts all solutions for ``n`` queens, and the unique ones (up to symmetry).

    ``n`` is a board size, or an iterable of sizes (``range(4, 15)``): then every size is
    checked before any is counted, and a list of results comes back, one per size.

    Args:
        threads: threads to count on (at most one per core is used); default all cores.
        strategy: how the engine splits the search, one of :data:`STRATEGIES`
            (``"backtrack"``, ``"join"``); default the fastest for ``n``.
        algo: count with this algorithm of the ladder instead of the engine, one of
            :data:`ALGORITHMS` (``"permutations"`` ... ``"cp"``): for comparing them.
        unique: report the unique count; with ``False`` the result's ``unique`` is ``None``.
            The engine computes it at no extra cost; the ladder only with ``"symmetry"``.
        progress: called as ``progress(done, total)`` (engine tasks) from the calling
            thread, at most every 50 ms while tasks finish and once at the end; or a tqdm
            bar, whose total and position are set.
        max_memory: refuse to start if the engine would need more bytes than this;
            default the memory available now.
        checkpoint: a file in which finished tasks are recorded; a count started again with
            the same file resumes where the last one stopped (engine only).
        device: ``"cpu"``, or ``"gpu"`` to count the backtrack strategy's tasks on the first
            NVIDIA GPU (a module built with the ``cuda`` feature, the NVIDIA driver and NVRTC;
            otherwise ``ValueError`` says which is missing). Checkpoints mix with CPU counts.

    Returns:
        A :class:`CountResult` (a list of them for an iterable of sizes).

    Raises:
        ValueError: ``n`` or an option out of range, with the library's message (for
            example ``count(40)``, ``count(13, algo="permutations")``).
        TypeError: an argument of the wrong type.
        KeyboardInterrupt: Ctrl-C during the count; the engine's tasks stop within
            milliseconds (a ladder algorithm runs to its end first).

    Long counts run without the GIL on other threads; the calling thread wakes every 50 ms
    for signals and progress.

    >>> nqueens.count(12)                                   # doctest: +SKIP
    CountResult(n=12, total=14200, unique=1787, seconds=0.002, method='engine/backtrack')
    >>> [r.total for r in nqueens.count(range(4, 9))]
    [2, 10, 4, 40, 92]
    >>> nqueens.count(10, algo="flags").total
    724
    """
    hook = _progress_hook(progress)
    options = dict(
        threads=threads,
        strategy=strategy,
        algo=algo,
        max_memory=max_memory,
        checkpoint=checkpoint,
        device=device,
    )
    if _is_size(n):
        return _result(_nqueens.count(n, progress=hook, **options), unique)
    try:
        sizes = list(n)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(
            f"n must be an int or an iterable of ints, not {type(n).__name__}"
        ) from None
    for size in sizes:
        _nqueens.check_count(size, **options)
    return [_result(_nqueens.count(size, progress=hook, **options), unique) for size in sizes]


def _result(raw: Tuple[int, int, Optional[int], float, str], unique: bool) -> CountResult:
    n, total, uniq, seconds, method = raw
    return CountResult(n, total, uniq if unique else None, seconds, method)


def table(results: Iterable[CountResult], *, time: bool = True) -> str:
    """The reference documents' table, in Markdown: ``N | total | unique | time``.

    >>> print(nqueens.table(nqueens.count(range(4, 7)), time=False))
    | N | total | unique |
    |---:|---:|---:|
    | 4 | 2 | 1 |
    | 5 | 10 | 2 |
    | 6 | 4 | 1 |
    """
    head = "| N | total | unique | time |" if time else "| N | total | unique |"
    rule = "|---:|---:|---:|---:|" if time else "|---:|---:|---:|"
    lines = [head, rule]
    for r in results:
        cells = [str(r.n), str(r.total), "-" if r.unique is None else str(r.unique)]
        if time:
            cells.append(_duration(r.seconds))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _duration(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} us"
    if seconds < 1:
        return f"{seconds * 1e3:.2f} ms"
    if seconds < 60:
        return f"{seconds:.2f} s"
    minutes, secs = divmod(seconds, 60)
    return f"{int(minutes)} min {secs:.0f} s"


def solutions(n: int, *, unique: bool = False) -> Iterator[Tuple[int, ...]]:
    """Every solution for ``n`` (1 to 64), lazily, as tuples of 0-based columns.

    Each ``next()`` advances the library's search to the next solution and no further, so
    ``itertools.islice(solutions(60), 5)`` costs only the search up to the fifth. Solutions
    come in the order the search meets them (most constrained row first), not sorted. With
    ``unique=True``, one solution per class of the 8 symmetries: the canonical one (the
    smallest of its images, comparing columns row by row).

    >>> next(nqueens.solutions(4))
    (1, 3, 0, 2)
    >>> sum(1 for _ in nqueens.solutions(8))
    92
    >>> len(list(nqueens.solutions(8, unique=True)))
    12

    Raises:
        ValueError: ``n`` outside 1..64 (one bit per column in a 64-bit mask).
    """
    return _nqueens.SolutionIter(n, unique=unique)


def find(
    n: int, *, random: bool = False, seed: Optional[int] = None, max_memory: Optional[int] = None
) -> Optional["array.array[int]"]:
    """One solution for ``n`` queens, for any ``n`` up to 4,294,967,295 memory permitting.

    By default an explicit construction (no search: the same solution every time, linear
    time). With ``random=True`` min-conflicts local search gives a different solution for
    each ``seed`` (the same ``n`` and ``seed`` give the same solution on every machine;
    without a seed one is drawn from the operating system).

    Returns the columns as an ``array.array('I')`` (0-based), or ``None`` for ``n`` = 2 and
    3, which have no solution. An array because a solution of 10^7 queens is then 40 MB in
    one block instead of a list of 10^7 int objects (about 360 MB); it indexes, iterates and
    compares like a list, ``list(a)`` makes one, and it exposes the buffer protocol
    (``numpy.frombuffer(a, dtype=numpy.uint32)`` views it without a copy). The library's
    columns are copied into it once.

    >>> a = nqueens.find(1000)
    >>> len(a), a.typecode, nqueens.verify(a)
    (1000, 'I', True)
    >>> nqueens.find(100, random=True, seed=7) == nqueens.find(100, random=True, seed=7)
    True
    >>> nqueens.find(3) is None
    True

    Raises:
        ValueError: ``n`` = 0 or too large, or the memory needed (about 8 bytes a queen, 13
            with ``random``) more than ``max_memory`` (default: the memory available now).
        MemoryError: the search's memory could not be allocated after all.
        KeyboardInterrupt: Ctrl-C stops a ``random`` search within milliseconds.
    """
    if seed is None and random:
        seed = int.from_bytes(os.urandom(8), "little")
    return _nqueens.find(n, random=random, seed=seed, max_memory=max_memory)


def verify(columns: Sequence[int]) -> bool:
    """``True`` if ``columns`` (0-based, one per row) is a solution.

    Takes any sequence of ints, or a buffer of unsigned 32-bit ints (``array('I')``,
    ``numpy.uint32``) without converting each element.

    >>> nqueens.verify([1, 3, 0, 2])
    True
    >>> nqueens.verify([0, 1, 2, 3])
    False
    """
    return _nqueens.defect(columns) is None


def defect(columns: Sequence[int]) -> Optional[str]:
    """``None`` if ``columns`` is a solution, else what is wrong, as ``nqueens verify`` says.

    Rows and columns in the message are 1-based.

    >>> print(nqueens.defect([1, 3, 0, 2]))
    None
    >>> nqueens.defect([2, 0, 1])
    'queens at (row 2, col 1) and (row 3, col 2) attack along a diagonal'
    >>> nqueens.defect([0, 5])
    'row 2: column 6 is outside a 2x2 board'
    """
    return _nqueens.defect(columns)


def svg(columns: Sequence[int]) -> str:
    """The placement as an SVG picture of the chessboard (N up to 800).

    In a notebook, ``IPython.display.SVG(nqueens.svg(cols))`` shows it.

    >>> nqueens.svg([1, 3, 0, 2]).startswith("<svg")
    True
    """
    return _nqueens.svg(columns)


def board(columns: Sequence[int]) -> str:
    """The placement drawn with ``Q`` and ``.``, one row per line (N up to 1000).

    >>> print(nqueens.board([1, 3, 0, 2]), end="")
    . Q . .
    . . . Q
    Q . . .
    . . Q .
    """
    return _nqueens.board(columns)


Instance = Union[str, Sequence[str], Sequence[Optional[int]]]


def complete(
    instance: Instance,
    *,
    blocked: Optional[Iterable[Tuple[int, int]]] = None,
    count: bool = False,
    stats: bool = False,
    seed: Optional[int] = None,
    restarts: bool = True,
    node_limit: Optional[int] = None,
    time_limit: Optional[float] = None,
) -> Any:
    """Extends given queens to a solution, avoiding blocked squares (a CP solver).

    ``instance`` is one of:

    - a ``str`` in any form ``nqueens complete`` reads: a board drawing (``Q`` a given queen,
      ``x`` a blocked square, ``.`` free; one row per line); a list (first line ``N``, then
      ``q ROW COL`` / ``x ROW COL`` lines, 1-based); or a placement;
    - a list of row strings of a drawing: ``["Q...", "..x.", "....", "...."]``;
    - a list with the given queen's 0-based column in each row, or ``None`` for a free row:
      ``[0, None, None, None, None, None, None, None]``.

    ``blocked`` adds blocked squares as 0-based ``(row, col)`` pairs.

    Returns:
        One completion as a tuple of 0-based columns, or ``None`` if there is none; with
        ``count=True`` the number of completions. With ``stats=True`` a pair
        ``(answer, SolverStats)``.

    Raises:
        ValueError: a malformed instance (the message names the line), queens that attack
            each other, a queen on a blocked square, a square off the board.
        TimeoutError: ``node_limit`` or ``time_limit`` (seconds) reached first.
        MemoryError: the board cannot be allocated (blocked squares take a bit per square).
        KeyboardInterrupt: Ctrl-C stops the search within milliseconds.

    The search runs without the GIL.

    >>> nqueens.complete([0, None, None, None, None, None, None, None], count=True)
    4
    >>> nqueens.complete("4\\nq 1 1\\n") is None      # a queen in a corner of 4x4
    True
    >>> answer, st = nqueens.complete(["Q.......", "..x....."] + ["........"] * 6, stats=True)
    >>> nqueens.verify(answer), st.solutions
    (True, 1)
    """
    answer, raw = _nqueens.complete(
        instance,
        blocked=blocked,
        count=count,
        seed=seed,
        restarts=restarts,
        node_limit=node_limit,
        time_limit=time_limit,
    )
    if stats:
        return answer, SolverStats(*raw)
    return answer


@dataclass(frozen=True)
class Puzzle:
    """A board with exactly one completion, from ``puzzles``. Squares and columns are 0-based.

    Attributes:
        n: the board size.
        givens: the given queens as ``(row, col)``.
        blocked: the blocked squares as ``(row, col)``.
        solution: the one completion, as columns.
        difficulty: ``"easy"`` (propagation alone solves it), ``"medium"`` (guesses, each
            settled by propagation alone) or ``"hard"`` (nested guesses).
        guesses: the completion solver's decisions to solve it and prove it unique.
        depth: the most decisions on the board at once.
        failures: decisions refuted by propagation.
        propagations: queens forced by propagation.
    """

    n: int
    givens: Tuple[Tuple[int, int], ...]
    blocked: Tuple[Tuple[int, int], ...]
    solution: Tuple[int, ...]
    difficulty: str
    guesses: int
    depth: int
    failures: int
    propagations: int

    def drawing(self) -> str:
        """The board: ``Q`` a given queen, ``x`` a blocked square, ``.`` free; ``complete``
        reads it back."""
        rows = [["."] * self.n for _ in range(self.n)]
        for r, c in self.givens:
            rows[r][c] = "Q"
        for r, c in self.blocked:
            rows[r][c] = "x"
        return "".join(" ".join(row) + "\n" for row in rows)

    def _repr_html_(self) -> str:
        # A notebook shows the board, not the dataclass's fields.
        return f"<pre>{self.drawing()}</pre>"

    def to_dict(self) -> dict:
        """Plain lists and numbers, for ``pandas.DataFrame`` or ``datasets.Dataset.from_list``."""
        return {
            "n": self.n,
            "givens": [list(sq) for sq in self.givens],
            "blocked": [list(sq) for sq in self.blocked],
            "solution": list(self.solution),
            "number_of_givens": len(self.givens),
            "difficulty": self.difficulty,
            "guesses": self.guesses,
            "depth": self.depth,
            "failures": self.failures,
            "propagations": self.propagations,
        }


def puzzles(
    n: int,
    *,
    count: int = 1,
    seed: int = 0,
    blocked: bool = False,
    minimal: bool = False,
    difficulty: Optional[str] = None,
    threads: Optional[int] = None,
) -> Iterator[Puzzle]:
    """Puzzles with exactly one completion, lazily, in order (``nqueens puzzle``).

    Each puzzle's uniqueness is proved by the completion solver (its completions counted with
    a limit of 2). ``blocked``: clues may be blocked squares too; ``minimal``: taking away any
    clue leaves more than one completion; ``difficulty``: ``"easy"``, ``"medium"`` or
    ``"hard"`` only. The same ``seed`` gives the same puzzles for any ``threads`` (all cores
    by default). N from 4 to 64.

    >>> p = next(nqueens.puzzles(8, seed=1))
    >>> nqueens.complete(p.drawing(), count=True)
    1
    >>> import pandas                                                  # doctest: +SKIP
    >>> pandas.DataFrame(p.to_dict() for p in nqueens.puzzles(12, count=100, minimal=True))  # doctest: +SKIP

    Raises:
        ValueError: ``n`` outside 4..64, an unknown difficulty, ``threads`` 0.
        RuntimeError: no puzzle of the difficulty asked for in 1000 tries (N = 4 has no
            medium or hard puzzle).
    """
    made = _nqueens.PuzzleIter(
        n,
        count=count,
        seed=seed,
        blocked=blocked,
        minimal=minimal,
        difficulty=difficulty,
        threads=threads,
    )
    for n_, givens, blocked_, solution, level, measures in made:
        yield Puzzle(
            n_,
            tuple(givens),
            tuple(blocked_),
            tuple(solution),
            level,
            *measures,
        )

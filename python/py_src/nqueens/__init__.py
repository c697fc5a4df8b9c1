"""N-Queens at Rust speed: count, list, find, complete and verify placements.

Place ``n`` queens on an ``n`` x ``n`` board so that no two attack. This package is the
Python face of the ``nqueens`` Rust library: every function calls the library itself, with
the GIL released, so Python threads keep running while it works.

A placement is a :class:`Placement`: the **columns**, 0-based, ``p[row]`` the column of
the queen in that row; it compares equal to the tuple or list of its columns and numpy views
it without a copy. Arguments take any ints (numpy's too) and any sequence or array of them.
(Error messages name rows and columns 1-based, as the command line does.)

>>> import nqueens
>>> r = nqueens.count(8)
>>> (r.total, r.unique)
(92, 12)
>>> first = next(nqueens.solutions(8))
>>> first.verify(), first == (0, 4, 7, 5, 2, 6, 1, 3)
(True, True)
>>> c = nqueens.complete(["Q.......", "..x....."] + ["........"] * 6)   # Q given, x blocked
>>> c.status, c.placement
('solved', Placement([0, 4, 7, 5, 2, 6, 1, 3]))
"""

from __future__ import annotations

import array
import html as _html
import importlib
import json
import numbers
import operator
import os
from dataclasses import dataclass, field
from typing import (
    TYPE_CHECKING,
    Any,
    Callable,
    Dict,
    Iterable,
    Iterator,
    List,
    Literal,
    Optional,
    Protocol,
    Sequence,
    SupportsIndex,
    Tuple,
    Union,
    cast,
    overload,
)

from . import _nqueens
from ._placement import Placement

if TYPE_CHECKING:
    import numpy
    import numpy.typing


class ProgressBar(Protocol):
    """What ``progress=`` takes besides ``True`` and a callable: a tqdm bar, or one like it."""

    def update(self, n: float = ...) -> Optional[bool]: ...

    def reset(self, total: Optional[float] = ...) -> None: ...


#: The outcome of ``complete``.
Status = Literal["solved", "none", "unknown"]

__version__: str = _nqueens.__version__

__all__ = [
    "ALGORITHMS",
    "STRATEGIES",
    "Completion",
    "CountResult",
    "CountResults",
    "Placement",
    "Puzzle",
    "ShardResult",
    "SolverStats",
    "Trace",
    "__version__",
    "board",
    "complete",
    "count",
    "defect",
    "find",
    "merge",
    "puzzles",
    "solutions",
    "svg",
    "table",
    "trace",
    "verify",
]

#: The ladder's algorithms, slowest first, as ``count(n, algo=...)`` takes them.
ALGORITHMS: Tuple[str, ...] = tuple(_nqueens.ALGORITHMS)
#: The engine's strategies, as ``count(n, strategy=...)`` takes them.
STRATEGIES: Tuple[str, ...] = tuple(_nqueens.STRATEGIES)

#: Columns as arguments take them: any iterable of ints, numpy's included; a numpy array or an
#: ``array.array`` of any integer type is read from one copy of its memory.
Columns = Iterable[SupportsIndex]
Progress = Union[bool, Callable[[int, int], object], ProgressBar]
PathLike = Union[str, "os.PathLike[str]"]


@dataclass(frozen=True)
class CountResult:
    """What a count found. Two results are equal when everything but the time is.

    >>> import nqueens
    >>> nqueens.count(10)                                   # doctest: +SKIP
    CountResult(n=10, total=724, unique=92, seconds=0.0004, method='engine/backtrack')
    >>> nqueens.count(8) == nqueens.count(8)
    True

    Attributes:
        n: board size.
        total: all solutions.
        unique: solutions up to the 8 rotations and reflections; ``None`` when not asked
            for (``unique=False``) or when the algorithm does not compute it (every ladder
            algorithm but ``"symmetry"``).
        seconds: wall-clock time of the count (not compared).
        method: what counted: ``"engine/<strategy>"``, ``"gpu/<strategy>"`` or
            ``"algo/<name>"``.
    """

    n: int
    total: int
    unique: Optional[int]
    seconds: float = field(compare=False)
    method: str

    def _repr_html_(self) -> str:
        return _html_table([self])


class CountResults(List[CountResult]):
    """The results of a count over several sizes: a list, shown as a table in a notebook.

    >>> import nqueens
    >>> print(nqueens.count(range(4, 7)).table(time=False))
    | N | total | unique |
    |---:|---:|---:|
    | 4 | 2 | 1 |
    | 5 | 10 | 2 |
    | 6 | 4 | 1 |
    """

    def table(self, *, time: bool = True) -> str:
        """The Markdown table of :func:`table`."""
        return table(self, time=time)

    def _repr_html_(self) -> str:
        return _html_table(self)


def _html_table(results: Iterable[CountResult]) -> str:
    rows = "".join(
        f"<tr><td>{r.n}</td><td>{r.total:,}</td>"
        f"<td>{'-' if r.unique is None else f'{r.unique:,}'}</td>"
        f"<td>{_duration(r.seconds)}</td><td>{_html.escape(r.method)}</td></tr>"
        for r in results
    )
    return (
        "<table><thead><tr><th>N</th><th>total</th><th>unique</th><th>time</th>"
        f"<th>method</th></tr></thead><tbody>{rows}</tbody></table>"
    )


@dataclass(frozen=True)
class ShardResult:
    """The count of one shard of a count: ``count(n, shard=(i, k))`` counts the tasks ``t``
    of the engine's task list with ``t % k == i``; :func:`merge` adds up all ``k`` of them.

    It pickles (so Dask, Ray or ``multiprocessing`` can return it from a worker) and its
    :attr:`text` is the result file ``nqueens count N --shard I/K --out FILE`` writes, so
    shards counted from Python and from the command line merge together. Equal when all but
    the time and the machine are.

    Attributes:
        n: board size.
        strategy: the engine's strategy whose task list was split.
        shard: which shard, 0-based (the file says ``shard`` + 1, as the command line does).
        shards: how many shards.
        tasks: tasks in the whole list.
        tasks_counted: tasks in this shard.
        total: solutions in this shard.
        unique8: eight times this shard's share of the unique count.
        seconds: wall-clock time of the shard's count.
        hostname: the machine that counted it.
        text: the result file's text (JSON with a checksum).
    """

    n: int
    strategy: str
    shard: int
    shards: int
    tasks: int
    tasks_counted: int
    total: int
    unique8: int
    seconds: float = field(compare=False)
    hostname: str = field(compare=False)
    text: str = field(compare=False, repr=False)

    @classmethod
    def from_json(cls, text: str) -> "ShardResult":
        """A result from a result file's text; :func:`merge` checks it."""
        d = json.loads(text)
        if not isinstance(d, dict) or d.get("format") != "nqueens-shard":
            raise ValueError("not a shard result: no \"format\": \"nqueens-shard\"")
        try:
            return cls(
                int(d["n"]),
                str(d["strategy"]),
                int(d["shard"]) - 1,
                int(d["shards"]),
                int(d["tasks"]),
                int(d["tasks_counted"]),
                int(d["total"]),
                int(d["unique8"]),
                float(d["seconds"]),
                str(d["hostname"]),
                text,
            )
        except (KeyError, TypeError, ValueError) as e:
            raise ValueError(f"not a shard result: {e!r}") from None

    @classmethod
    def load(cls, path: PathLike) -> "ShardResult":
        """Reads a result file (the command line's or :meth:`save`'s)."""
        with open(path, encoding="utf-8-sig") as f:
            return cls.from_json(f.read())

    def save(self, path: PathLike) -> None:
        """Writes the result file, which ``nqueens merge`` reads too."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.text)


@dataclass(frozen=True)
class SolverStats:
    """The effort of a ``complete`` search, in the terms CP solvers report.

    Attributes:
        nodes: decisions tried (a queen put on a square by choice).
        failures: decisions whose propagation left some row or column without a square.
        propagations: queens placed because propagation forced them.
        solutions: completions found.
        restarts: times the search started over with new random tie-breaking.
        seconds: time spent searching (not compared).
    """

    nodes: int
    failures: int
    propagations: int
    solutions: int
    restarts: int
    seconds: float = field(compare=False)


@dataclass(frozen=True)
class Completion:
    """What ``complete`` found.

    Attributes:
        status: ``"solved"`` (a completion found; with ``count=True``, the count is exact and
            above 0), ``"none"`` (proved: no completion) or ``"unknown"`` (the node or time
            limit came first).
        placement: the completion, or ``None`` (always ``None`` with ``count=True``).
        count: the completions counted with ``count=True`` (a lower bound when the status is
            ``"unknown"``), else ``None``.
        stats: the search's effort.
    """

    status: Status
    placement: Optional[Placement]
    count: Optional[int]
    stats: SolverStats

    def _repr_html_(self) -> str:
        what = f"{self.count:,} completions" if self.count is not None else self.status
        board = "" if self.placement is None else (self.placement._repr_svg_() or "")
        return f"<div><p>{_html.escape(what)} ({self.stats.nodes:,} nodes)</p>{board}</div>"


def _progress_hooks(
    progress: Optional[Progress],
) -> Tuple[Optional[Callable[[int], Optional[Callable[[int, int], object]]]], Callable[[], None]]:
    """For each board a ``(done, total)`` callable (or ``None``), and a closer for the end.

    ``True`` makes a tqdm bar per board; a bar given is reset for each board; a callable is
    called as it is.
    """
    if progress is None or progress is False:
        return None, lambda: None
    if progress is True:
        try:
            tqdm = importlib.import_module("tqdm.auto").tqdm
        except ImportError:
            raise ImportError("progress=True shows a tqdm bar: pip install tqdm") from None
        bars: List[object] = []

        def per_board(n: int) -> Callable[[int, int], object]:
            bar = tqdm(desc=f"N={n}", unit="task")
            bars.append(bar)
            return _bar_hook(bar)

        def close() -> None:
            for b in bars:
                b.close()  # type: ignore[attr-defined]

        return per_board, close
    if hasattr(progress, "update") and hasattr(progress, "reset"):
        bar = cast(ProgressBar, progress)
        return lambda n: _bar_hook(bar), lambda: None
    if callable(progress):
        f = progress
        return lambda n: f, lambda: None
    raise TypeError(
        "progress must be True, a callable taking (done, total) or a tqdm-like bar, "
        f"not {type(progress).__name__}"
    )


def _bar_hook(bar: "ProgressBar") -> Callable[[int, int], object]:
    seen = [-1, 0]  # total, position

    def hook(done: int, total: int) -> None:
        if seen[0] != total:
            bar.reset(total=total)
            seen[:] = [total, 0]
        bar.update(done - seen[1])
        seen[1] = done

    return hook


def _is_size(n: object) -> bool:
    # numpy's ints are Integral; an array has __index__ too, but is a list of sizes.
    return isinstance(n, numbers.Integral) or (
        hasattr(n, "__index__") and not hasattr(n, "__iter__")
    )


# An array of sizes has __index__ too (numpy's arrays do): the iterable comes first.
@overload
def count(
    n: Iterable[SupportsIndex],
    *,
    threads: Optional[SupportsIndex] = ...,
    strategy: Optional[str] = ...,
    algo: Optional[str] = ...,
    unique: bool = ...,
    progress: Optional[Progress] = ...,
    max_memory: Optional[SupportsIndex] = ...,
    checkpoint: Optional[PathLike] = ...,
    device: str = ...,
    shard: None = ...,
    long: bool = ...,
) -> CountResults: ...


@overload
def count(
    n: SupportsIndex,
    *,
    threads: Optional[SupportsIndex] = ...,
    strategy: Optional[str] = ...,
    algo: Optional[str] = ...,
    unique: bool = ...,
    progress: Optional[Progress] = ...,
    max_memory: Optional[SupportsIndex] = ...,
    checkpoint: Optional[PathLike] = ...,
    device: str = ...,
    shard: None = ...,
    long: bool = ...,
) -> CountResult: ...


@overload
def count(
    n: SupportsIndex,
    *,
    threads: Optional[SupportsIndex] = ...,
    strategy: Optional[str] = ...,
    algo: Optional[str] = ...,
    unique: bool = ...,
    progress: Optional[Progress] = ...,
    max_memory: Optional[SupportsIndex] = ...,
    checkpoint: Optional[PathLike] = ...,
    device: str = ...,
    shard: Tuple[SupportsIndex, SupportsIndex],
    long: bool = ...,
) -> ShardResult: ...


def count(
    n: Union[SupportsIndex, Iterable[SupportsIndex]],
    *,
    threads: Optional[SupportsIndex] = None,
    strategy: Optional[str] = None,
    algo: Optional[str] = None,
    unique: bool = True,
    progress: Optional[Progress] = None,
    max_memory: Optional[SupportsIndex] = None,
    checkpoint: Optional[PathLike] = None,
    device: str = "cpu",
    shard: Optional[Tuple[SupportsIndex, SupportsIndex]] = None,
    long: bool = False,
) -> Union[CountResult, ShardResult, CountResults]:
    """Counts all solutions for ``n`` queens, and the unique ones (up to symmetry).

    ``n`` is a board size (an int, numpy's too), or an iterable of sizes (``range(4, 15)``,
    a numpy array): then every size is checked before any is counted, and a
    :class:`CountResults` list comes back, one result per size.

    Args:
        threads: threads to count on (at most one per core is used); default all cores.
        strategy: how the engine splits the search, one of :data:`STRATEGIES`
            (``"backtrack"``, ``"join"``); default the fastest for ``n``.
        algo: count with this algorithm of the ladder instead of the engine, one of
            :data:`ALGORITHMS` (``"permutations"`` ... ``"cp"``): for comparing them.
        unique: report the unique count; with ``False`` the result's ``unique`` is ``None``.
            The engine computes it at no extra cost; the ladder only with ``"symmetry"``.
        progress: ``True`` for a tqdm bar per board (tqdm must be installed); a tqdm bar,
            reset for each board; or a callable, called as ``progress(done, total)`` (engine
            tasks). Updated from the calling thread at most every 50 ms while tasks finish
            and once at the end.
        max_memory: refuse to start if the engine would need more bytes than this;
            default the memory available now.
        checkpoint: a file in which finished tasks are recorded; a count started again with
            the same file resumes where the last one stopped (engine only).
        device: ``"cpu"``, or ``"gpu"`` to count the engine's tasks (the join strategy's from
            N = 18, the backtrack strategy's below) on the first NVIDIA GPU (a module built with the ``cuda`` feature, the NVIDIA driver and NVRTC;
            otherwise ``ValueError`` says which is missing). Checkpoints mix with CPU counts.
        shard: ``(i, k)``, 0-based: count only shard ``i`` of ``k`` (the tasks ``t`` with
            ``t % k == i``) and return a :class:`ShardResult` for :func:`merge` (engine only).
        long: start a count estimated to take more than a week (``count(25)`` and up on a few
            cores); otherwise such a count raises ``ValueError`` with the estimate.

    Returns:
        A :class:`CountResult`; a :class:`ShardResult` with ``shard``; a
        :class:`CountResults` for an iterable of sizes.

    Raises:
        ValueError: ``n`` or an option out of range, with the library's message (for
            example ``count(40)``, ``count(13, algo="permutations")``).
        TypeError: an argument of the wrong type.
        KeyboardInterrupt: Ctrl-C during the count: the engine's tasks and the ladder's
            searches stop within milliseconds; the message says how far the count got.

    Long counts run without the GIL on other threads; the calling thread wakes every 50 ms
    for signals and progress.

    >>> import nqueens
    >>> nqueens.count(12)                                   # doctest: +SKIP
    CountResult(n=12, total=14200, unique=1787, seconds=0.002, method='engine/backtrack')
    >>> [r.total for r in nqueens.count(range(4, 9))]
    [2, 10, 4, 40, 92]
    >>> nqueens.count(10, algo="flags").total
    724
    >>> nqueens.merge([nqueens.count(10, shard=(i, 3)) for i in range(3)]).total
    724
    """
    per_board, close = _progress_hooks(progress)
    try:
        if _is_size(n):
            size: SupportsIndex = n  # type: ignore[assignment]
            return _count_one(
                size,
                threads,
                strategy,
                algo,
                unique,
                None if per_board is None else per_board(int(size)),
                max_memory,
                checkpoint,
                device,
                shard,
                long,
            )
        try:
            sizes = list(n)  # type: ignore[arg-type]
        except TypeError:
            raise TypeError(
                f"n must be an int or an iterable of ints, not {type(n).__name__}"
            ) from None
        if shard is not None:
            raise ValueError("shard takes a single N, not several")
        for size in sizes:
            _nqueens.check_count(
                size,
                threads=threads,
                strategy=strategy,
                algo=algo,
                max_memory=max_memory,
                checkpoint=checkpoint,
                device=device,
                long=long,
            )
        results = CountResults()
        for size in sizes:
            hook = None if per_board is None else per_board(int(size))
            r = _count_one(
                size, threads, strategy, algo, unique, hook, max_memory, checkpoint, device, None,
                long,
            )
            assert isinstance(r, CountResult)
            results.append(r)
        return results
    finally:
        close()


def _count_one(
    n: SupportsIndex,
    threads: Optional[SupportsIndex],
    strategy: Optional[str],
    algo: Optional[str],
    unique: bool,
    hook: Optional[Callable[[int, int], object]],
    max_memory: Optional[SupportsIndex],
    checkpoint: Optional[PathLike],
    device: str,
    shard: Optional[Tuple[SupportsIndex, SupportsIndex]],
    long: bool,
) -> Union[CountResult, ShardResult]:
    size, total, uniq, seconds, method, text = _nqueens.count(
        n,
        threads=threads,
        strategy=strategy,
        algo=algo,
        max_memory=max_memory,
        checkpoint=checkpoint,
        progress=hook,
        device=device,
        shard=shard,
        long=long,
    )
    if text is not None:
        return ShardResult.from_json(text)
    return CountResult(size, total, uniq if unique else None, seconds, method)


def merge(results: Iterable[Union[ShardResult, PathLike]]) -> CountResult:
    """Adds up the shards of one count: :class:`ShardResult` objects, or result files (from
    :meth:`ShardResult.save` or ``nqueens count N --shard I/K --out FILE``).

    The library's checks, as ``nqueens merge`` makes them: every shard exactly once, all of
    the same count (N, strategy, task list, number of shards), none damaged (a checksum) and
    the sum possible for N; otherwise ``ValueError`` says which. ``seconds`` is the sum of the
    shards' wall-clock times.

    >>> import nqueens
    >>> shards = [nqueens.count(12, shard=(i, 4)) for i in range(4)]
    >>> r = nqueens.merge(shards)
    >>> (r.n, r.total, r.unique)
    (12, 14200, 1787)
    >>> nqueens.merge(shards[:3])
    Traceback (most recent call last):
    ...
    ValueError: 1 of 4 shards missing: 4 (a Slurm job array reruns them with `sbatch --array=4`)
    """
    named: List[Tuple[str, str]] = []
    for i, r in enumerate(results):
        if isinstance(r, ShardResult):
            named.append((f"results[{i}]", r.text))
        else:
            with open(r, encoding="utf-8-sig") as f:
                named.append((os.fspath(r), f.read()))
    n, total, uniq, seconds, method = _nqueens.merge(named)
    return CountResult(n, total, uniq, seconds, method)


def table(results: Iterable[CountResult], *, time: bool = True) -> str:
    """The reference documents' table, in Markdown: ``N | total | unique | time``.

    >>> import nqueens
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


@overload
def solutions(
    n: SupportsIndex, *, unique: bool = ..., batch: None = ...
) -> Iterator[Placement]: ...


@overload
def solutions(
    n: SupportsIndex, *, unique: bool = ..., batch: SupportsIndex
) -> Iterator["numpy.typing.NDArray[numpy.uint32]"]: ...


def solutions(
    n: SupportsIndex, *, unique: bool = False, batch: Optional[SupportsIndex] = None
) -> Union[Iterator[Placement], Iterator["numpy.typing.NDArray[numpy.uint32]"]]:
    """Every solution for ``n`` (1 to 64), lazily, as :class:`Placement` objects.

    Each ``next()`` advances the library's search to the next solution and no further, so
    ``itertools.islice(solutions(60), 5)`` costs only the search up to the fifth. Solutions
    come in the order the search meets them (most constrained row first), not sorted. With
    ``unique=True``, one solution per class of the 8 symmetries: the canonical one (the
    smallest of its images, comparing columns row by row).

    With ``batch=K`` (numpy needed) the solutions come as read-only numpy ``uint32`` arrays
    of shape ``(K, n)`` (the last one shorter), one row a solution: the library fills each
    block without the GIL and numpy takes it without a copy, so listing goes at the search's
    speed instead of a Python object per solution.

    >>> import nqueens
    >>> next(nqueens.solutions(4))
    Placement([1, 3, 0, 2])
    >>> sum(1 for _ in nqueens.solutions(8))
    92
    >>> len(list(nqueens.solutions(8, unique=True)))
    12
    >>> [block.shape for block in nqueens.solutions(8, batch=50)]   # doctest: +SKIP
    [(50, 8), (42, 8)]

    Raises:
        ValueError: ``n`` outside 1..64 (one bit per column in a 64-bit mask), ``batch`` 0.
        ImportError: ``batch`` without numpy.
    """
    it = _nqueens.SolutionIter(n, unique=unique)
    if batch is None:
        return _placements(it)
    try:
        import numpy
    except ImportError:
        raise ImportError("solutions(n, batch=K) gives numpy arrays: pip install numpy") from None
    k = operator.index(batch)
    if k < 1:
        raise ValueError(f"batch must be at least 1, not {k}")
    return _blocks(it, k, operator.index(n), numpy)
def _placements(it: _nqueens.SolutionIter) -> Iterator[Placement]:
    # The library's columns need no checking: array's own constructor, without
    # Placement.__new__'s (0.4 us a solution instead of 2.6).
    new = array.array.__new__
    for cols in it:
        yield cast(Placement, new(Placement, "I", cols))


def _blocks(
    it: _nqueens.SolutionIter, k: int, n: int, numpy: object
) -> Iterator["numpy.typing.NDArray[numpy.uint32]"]:
    import numpy as np

    while True:
        data, rows = it.batch(k)
        if rows == 0:
            return
        yield np.frombuffer(data, dtype=np.uint32).reshape(rows, n)


def find(
    n: SupportsIndex,
    *,
    random: bool = False,
    seed: Optional[SupportsIndex] = None,
    max_memory: Optional[SupportsIndex] = None,
) -> Optional[Placement]:
    """One solution for ``n`` queens, for any ``n`` up to 4,294,967,295 memory permitting.

    By default an explicit construction (no search: the same solution every time, linear
    time). With ``random=True`` min-conflicts local search gives a different solution for
    each ``seed`` (the same ``n`` and ``seed`` give the same solution on every machine;
    without a seed one is drawn from the operating system).

    Returns a :class:`Placement`, or ``None`` for ``n`` = 2 and 3, which have no solution.
    Its columns are one block of 4 bytes a queen (40 MB for 10^7 queens, where a list would
    hold 10^7 int objects, about 360 MB); ``numpy.asarray(p)`` views them without a copy.

    >>> import nqueens
    >>> p = nqueens.find(1000)
    >>> len(p), p.verify()
    (1000, True)
    >>> nqueens.find(100, random=True, seed=7) == nqueens.find(100, random=True, seed=7)
    True
    >>> nqueens.find(3) is None
    True

    Raises:
        ValueError: ``n`` = 0 or too large, the memory needed (about 8 bytes a queen, 13
            with ``random``) more than ``max_memory`` (default: the memory available now),
            or a ``seed`` without ``random=True`` (the construction takes none).
        MemoryError: the search's memory could not be allocated after all.
        KeyboardInterrupt: Ctrl-C stops a ``random`` search within milliseconds.
    """
    if seed is not None and not random:
        raise ValueError(
            "seed is for random=True (min-conflicts); the construction gives one solution"
        )
    if seed is None and random:
        seed = int.from_bytes(os.urandom(8), "little")
    data = _nqueens.find(n, random=random, seed=seed, max_memory=max_memory)
    return None if data is None else Placement._from_bytes(data)


def verify(columns: Columns) -> bool:
    """``True`` if ``columns`` (0-based, one per row) is a solution.

    Takes any sequence of ints (numpy's too), or an array of ints of any width and sign
    (``array.array``, a numpy array), read from one copy of its memory.

    >>> import nqueens
    >>> nqueens.verify([1, 3, 0, 2])
    True
    >>> nqueens.verify([0, 1, 2, 3])
    False
    """
    return _nqueens.defect(columns) is None


def defect(columns: Columns) -> Optional[str]:
    """``None`` if ``columns`` is a solution, else what is wrong, as ``nqueens verify`` says.

    Rows and columns in the message are 1-based.

    >>> import nqueens
    >>> print(nqueens.defect([1, 3, 0, 2]))
    None
    >>> nqueens.defect([2, 0, 1])
    'queens at (row 2, col 1) and (row 3, col 2) attack along a diagonal'
    >>> nqueens.defect([0, 5])
    'row 2: column 6 is outside a 2x2 board'
    """
    return _nqueens.defect(columns)


def svg(
    columns: Iterable[Optional[SupportsIndex]],
    *,
    size: Optional[SupportsIndex] = None,
    blocked: Optional[Iterable[Tuple[SupportsIndex, SupportsIndex]]] = None,
) -> str:
    """The placement as an SVG picture of the chessboard (N up to 800).

    ``columns`` may hold ``None`` for a row without a queen (a partial board); ``size`` is
    the picture's side in pixels (default 40 a square, at most 800); ``blocked`` squares,
    0-based ``(row, col)``, get a red cross. A :class:`Placement` draws itself in a notebook;
    ``IPython.display.SVG(nqueens.svg(...))`` draws any.

    >>> import nqueens
    >>> nqueens.svg([1, 3, 0, 2]).startswith("<svg")
    True
    >>> picture = nqueens.svg([0, None, None, None], size=100, blocked=[(1, 2)])
    >>> picture.count('href="#queen"'), 'width="100"' in picture, "#c00" in picture
    (1, True, True)
    """
    return _nqueens.svg(columns, size=size, blocked=blocked)


def board(columns: Columns) -> str:
    """The placement drawn with ``Q`` and ``.``, one row per line (N up to 1000).

    >>> import nqueens
    >>> print(nqueens.board([1, 3, 0, 2]), end="")
    . Q . .
    . . . Q
    Q . . .
    . . Q .
    """
    return _nqueens.board(columns)


Instance = Union[str, Sequence[str], Sequence[Optional[SupportsIndex]]]


def complete(
    instance: Instance,
    *,
    blocked: Optional[Iterable[Tuple[SupportsIndex, SupportsIndex]]] = None,
    count: bool = False,
    seed: Optional[SupportsIndex] = None,
    restarts: bool = True,
    node_limit: Optional[SupportsIndex] = None,
    time_limit: Optional[float] = None,
) -> Completion:
    """Extends given queens to a solution, avoiding blocked squares (a CP solver).

    ``instance`` is one of:

    - a list with the given queen's 0-based column in each row, or ``None`` for a free row:
      ``[0, None, None, None, None, None, None, None]`` (a :class:`Placement` too);
    - a list of row strings of a drawing: ``["Q...", "..x.", "....", "...."]`` (``Q`` a
      given queen, ``x`` a blocked square, ``.`` free);
    - a ``str`` holding a file that ``nqueens complete`` reads, in the file's own terms: a
      board drawing; a list (first line ``N``, then ``q ROW COL`` / ``x ROW COL`` lines); or
      a placement line. Rows and columns written in a file are 1-based, as the command line
      writes them; only Python's lists are 0-based.

    ``blocked`` adds blocked squares as 0-based ``(row, col)`` pairs. ``seed`` and
    ``restarts`` steer the search's random tie-breaking.

    Returns:
        A :class:`Completion`: ``status`` ``"solved"``, ``"none"`` or ``"unknown"`` (a
        ``node_limit`` or ``time_limit``, in seconds, reached first; ``None`` for no limit),
        the ``placement`` found, or with ``count=True`` the ``count`` of completions (the
        partial count when ``"unknown"``), and the search's ``stats``.

    Raises:
        ValueError: a malformed instance (the message names the line), queens that attack
            each other, a queen on a blocked square, a square off the board.
        MemoryError: the board cannot be allocated (blocked squares take a bit per square).
        KeyboardInterrupt: Ctrl-C stops the search within milliseconds; the message says how
            far it got.

    The search runs without the GIL.

    >>> import nqueens
    >>> nqueens.complete([0, None, None, None, None, None, None, None], count=True).count
    4
    >>> nqueens.complete("4\\nq 1 1\\n").status      # a queen in a corner of 4x4 (1-based)
    'none'
    >>> c = nqueens.complete([None] * 200, node_limit=0)
    >>> c.status, c.placement
    ('unknown', None)
    """
    status, placement, found, raw = _nqueens.complete(
        instance,
        blocked=blocked,
        count=count,
        seed=seed,
        restarts=restarts,
        node_limit=node_limit,
        time_limit=time_limit,
    )
    return Completion(
        status,  # type: ignore[arg-type]
        None if placement is None else Placement(placement),
        found,
        SolverStats(*raw),
    )


#: One step of a trace, as the command line's JSON trace writes it: ``step`` (from 1),
#: ``event`` (``place``, ``reject``, ``remove``, ``dead_end``, ``solution``, ...) and its
#: fields (``row``, ``col``, ``reason``, ``forced``, ``cols``, ``image``).
Step = Dict[str, object]


def _from_zero(step: Dict[str, Any]) -> Step:
    """A step of the command line's JSON trace (rows and columns from 1) counted from 0."""
    for key in ("row", "col"):
        if step.get(key) is not None:
            step[key] -= 1
    if "cols" in step:
        step["cols"] = [c - 1 for c in step["cols"]]
    return step


class Trace(Sequence[Step]):
    """The steps of a ladder algorithm's search, from :func:`trace`: a sequence of
    :data:`Step` dicts, the lines of ``nqueens trace N --algo A --format json`` between its
    header and summary, with rows and columns counted from 0 like every placement of this
    package (the command line counts them from 1, as its header's ``numbering`` says). In a
    notebook it shows the library's player (the page of ``nqueens trace --format html``, with
    its controls and search tree).

    Attributes:
        n: board size.
        algo: the algorithm.
        limit: the step limit asked for, or ``None``.
        numbering: ``"from 0"``: how the steps count rows and columns.
        summary: the command line's last line: ``end`` (``"complete"`` or ``"limit"``),
            ``steps``, ``nodes``, ``checks``, ``solutions``.
    """

    def __init__(self, n: int, algo: str, limit: Optional[int], lines: List[str]) -> None:
        self.n = n
        self.algo = algo
        self.limit = limit
        self.numbering = "from 0"
        self._steps: List[Step] = [_from_zero(json.loads(line)) for line in lines[1:-1]]
        self.summary: Dict[str, object] = json.loads(lines[-1])

    @overload
    def __getitem__(self, i: int) -> Step: ...

    @overload
    def __getitem__(self, i: slice) -> Sequence[Step]: ...

    def __getitem__(self, i: Union[int, slice]) -> Union[Step, Sequence[Step]]:
        return self._steps[i]

    def __len__(self) -> int:
        return len(self._steps)

    @property
    def complete(self) -> bool:
        """``True`` if the search ended within the steps recorded."""
        return self.summary.get("end") == "complete"

    def html(self) -> str:
        """The library's self-contained player page (at most 1,000,000 steps)."""
        return _nqueens.trace(self.n, algo=self.algo, limit=self.limit, html=True)

    def _repr_html_(self) -> str:
        # The page in an iframe of its own, so its script and styles stay out of the notebook's.
        page = _html.escape(self.html(), quote=True)
        return (
            f'<iframe srcdoc="{page}" style="width: 100%; height: 640px; border: 0" '
            f'title="trace of {_html.escape(self.algo)} for N = {self.n}"></iframe>'
        )

    def __repr__(self) -> str:
        return f"<Trace of {self.algo} for N = {self.n}: {len(self)} steps>"


def trace(n: SupportsIndex, *, algo: str = "backtracking", limit: Optional[SupportsIndex] = None) -> Trace:
    """The steps of ``algo``'s search for ``n`` (an algorithm of :data:`ALGORITHMS`), as
    ``nqueens trace`` records them: every queen placed, every square rejected and why, every
    dead end and back-up, every solution.

    A search longer than 300,000 steps is refused unless ``limit`` asks for its first steps
    (the notebook player holds 1,000,000). Rows and columns count from 0.

    >>> import nqueens
    >>> t = nqueens.trace(4, algo="backtracking")
    >>> t[0]
    {'step': 1, 'event': 'place', 'row': 0, 'col': 0, 'checks': 0}
    >>> t.summary["solutions"], t.complete
    (2, True)
    >>> len(nqueens.trace(8, algo="flags", limit=100))
    100
    """
    lim = None if limit is None else operator.index(limit)
    text = _nqueens.trace(n, algo=algo, limit=lim)
    return Trace(operator.index(n), algo, lim, text.splitlines())


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
    solution: Placement
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

    def to_dict(self) -> Dict[str, object]:
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
    n: SupportsIndex,
    *,
    count: SupportsIndex = 1,
    seed: SupportsIndex = 0,
    blocked: bool = False,
    minimal: bool = False,
    difficulty: Optional[str] = None,
    threads: Optional[SupportsIndex] = None,
) -> Iterator[Puzzle]:
    """Puzzles with exactly one completion, lazily, in order (``nqueens puzzle``).

    Each puzzle's uniqueness is proved by the completion solver (its completions counted with
    a limit of 2). ``blocked``: clues may be blocked squares too; ``minimal``: taking away any
    clue leaves more than one completion; ``difficulty``: ``"easy"``, ``"medium"`` or
    ``"hard"`` only. The same ``seed`` gives the same puzzles for any ``threads`` (all cores
    by default). N from 4 to 64.

    >>> import nqueens
    >>> p = next(nqueens.puzzles(8, seed=1))
    >>> nqueens.complete(p.drawing(), count=True).count
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
            Placement(solution),
            level,
            *measures,
        )

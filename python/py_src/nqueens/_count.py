"""Counting: :func:`count` and its options, results and shards, :func:`merge`, :func:`table`."""

from __future__ import annotations

import html as _html
import importlib
import json
import numbers
import operator
import os
from dataclasses import dataclass, field
from typing import (
    TYPE_CHECKING,
    Callable,
    Iterable,
    List,
    Optional,
    Protocol,
    SupportsIndex,
    Tuple,
    NoReturn,
    TypedDict,
    Union,
    cast,
    overload,
)

from . import _nqueens
from ._names import Algo, Device, Strategy

if TYPE_CHECKING:
    import pandas
    from typing_extensions import Unpack, deprecated
else:

    def deprecated(message: str) -> Callable[[object], object]:
        return lambda f: f


class ProgressBar(Protocol):
    """What ``progress=`` takes besides ``True`` and a callable: a tqdm bar, or one like it."""

    def update(self, n: float = ...) -> Optional[bool]: ...

    def reset(self, total: Optional[float] = ...) -> None: ...


Progress = Union[bool, Callable[[int, int], object], ProgressBar]
PathLike = Union[str, "os.PathLike[str]"]


class EngineOptions(TypedDict, total=False):
    """The options of a count that the library applies (the native ``CountOptions``): the
    keyword arguments of :func:`count` but ``unique``, ``progress`` and ``shard``."""

    threads: Optional[SupportsIndex]
    strategy: Optional[Strategy]
    algo: Optional[Algo]
    max_memory: Optional[SupportsIndex]
    checkpoint: Optional[PathLike]
    device: Device
    long: bool


class CountOptions(EngineOptions, total=False):
    """The keyword arguments of :func:`count` but ``shard``, each optional, defined here once:
    a caller that passes them on types its own as ``**options: Unpack[nqueens.CountOptions]``.
    :func:`count` says what each does."""

    unique: bool
    progress: Optional[Progress]
    time_limit: Optional[float]


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

    def to_pandas(self) -> "pandas.DataFrame":
        """A ``pandas.DataFrame``, one row a result, with the same dtypes whatever the
        results: ``n`` ``int64``; ``total`` ``uint64`` (every count of N up to 27 fits; a
        larger one is ``object``); ``unique`` the nullable ``UInt64`` (``<NA>`` where not
        counted); ``seconds`` ``float64``; ``method`` ``string``.

        >>> import nqueens
        >>> df = nqueens.count(range(4, 9), unique=False).to_pandas()  # doctest: +SKIP
        >>> df.dtypes.tolist()                                          # doctest: +SKIP
        [dtype('int64'), dtype('uint64'), UInt64Dtype(), dtype('float64'), string[python]]
        """
        import pandas as pd

        totals = [r.total for r in self]
        fits = all(t < 2**64 for t in totals)
        return pd.DataFrame(
            {
                "n": pd.Series([r.n for r in self], dtype="int64"),
                "total": pd.Series(totals, dtype="uint64" if fits else "object"),
                "unique": pd.Series([r.unique for r in self], dtype="UInt64"),
                "seconds": pd.Series([r.seconds for r in self], dtype="float64"),
                "method": pd.Series([r.method for r in self], dtype="string"),
            }
        )

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
        """Reads a result file (the command line's or :meth:`save`'s), as ``nqueens merge``
        does: ``ValueError`` past the library's size bound (64 KiB) without reading further,
        ``TypeError`` for what is not a path (an int is not a file descriptor here)."""
        return cls.from_json(_nqueens.read_shard(path))

    def save(self, path: PathLike) -> None:
        """Writes the result file, which ``nqueens merge`` reads too."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.text)


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


def _flag(value: object, name: str) -> bool:
    """``value`` if it is a bool (numpy's too), else ``TypeError``: ``"no"`` is truthy."""
    kind = type(value)
    if kind is bool or (kind.__module__ == "numpy" and kind.__name__ in ("bool_", "bool")):
        return bool(value)
    raise TypeError(f"{name} must be a bool, not {type(value).__name__}")


class CountTimeout(TimeoutError):
    """A count stopped by its ``time_limit``: a ``TimeoutError``, as ``asyncio.wait_for`` and
    ``concurrent.futures`` raise one, with how far the count got. There is no partial total to
    return: the engine's tasks are shares of the search, and the solutions of some of them
    are no count of anything. With a ``checkpoint`` the finished tasks are kept, and the same
    call carries on where this one stopped (so a loop of short calls finishes a long count).

    Attributes:
        n: board size.
        time_limit: the limit, in seconds.
        tasks_done: the tasks finished (for the engine; 0 for a ladder algorithm's search).
        tasks: the tasks of the whole count.
        checkpoint: the file that keeps the finished tasks, or ``None``.
    """

    def __init__(
        self,
        message: str,
        n: int,
        time_limit: float,
        tasks_done: int,
        tasks: int,
        checkpoint: Optional[PathLike],
    ) -> None:
        super().__init__(message)
        self.n = n
        self.time_limit = time_limit
        self.tasks_done = tasks_done
        self.tasks = tasks
        self.checkpoint = checkpoint


def _is_size(n: object) -> bool:
    # numpy's ints are Integral; an array has __index__ too, but is a list of sizes unless
    # it has no dimension (numpy.array(8)).
    return isinstance(n, numbers.Integral) or (
        hasattr(n, "__index__") and (not hasattr(n, "__iter__") or getattr(n, "ndim", 1) == 0)
    )


# A bool is an int to Python, never a board size: refused at run time, and flagged as
# deprecated by type checkers (mypy's note, pyright's reportDeprecated, an editor's
# strike-through), the one way a type can set it apart from an int.
@overload
@deprecated("a bool is not a board size: count(True) raises TypeError")
def count(n: bool, *, shard: None = ..., **options: Unpack[CountOptions]) -> NoReturn: ...


# An array of sizes has __index__ too (numpy's arrays do): the iterable comes first.
@overload
def count(
    n: Iterable[SupportsIndex], *, shard: None = ..., **options: Unpack[CountOptions]
) -> CountResults: ...


@overload
def count(
    n: SupportsIndex, *, shard: None = ..., **options: Unpack[CountOptions]
) -> CountResult: ...


@overload
def count(
    n: SupportsIndex,
    *,
    shard: Tuple[SupportsIndex, SupportsIndex],
    **options: Unpack[CountOptions],
) -> ShardResult: ...


def count(
    n: Union[SupportsIndex, Iterable[SupportsIndex]],
    *,
    shard: Optional[Tuple[SupportsIndex, SupportsIndex]] = None,
    **options: Unpack[CountOptions],
) -> Union[CountResult, ShardResult, CountResults]:
    """Counts all solutions for ``n`` queens, and the unique ones (up to symmetry).

    ``n`` is a board size (an int, numpy's too), or an iterable of sizes (``range(4, 15)``,
    a numpy array): then every size is checked before any is counted (sizes without end
    are refused at the first that cannot be counted), and a
    :class:`CountResults` list comes back, one result per size.

    Every keyword argument but ``shard`` is a key of :class:`CountOptions`, with which a
    function that passes them on types its own ``**options``.

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
            N = 18, the backtrack strategy's below) on the first NVIDIA GPU (a module built
            with the ``cuda`` feature, the NVIDIA driver and NVRTC; otherwise ``ValueError``
            says which is missing). Checkpoints mix with CPU counts of the same strategy.
        shard: ``(i, k)``, 0-based: count only shard ``i`` of ``k`` (the tasks ``t`` with
            ``t % k == i``) and return a :class:`ShardResult` for :func:`merge` (engine only).
        long: start a count estimated to take more than a week (``count(25)`` and up on a few
            cores); otherwise such a count raises ``ValueError`` with the estimate.
        time_limit: seconds after which the count stops (as Ctrl-C stops it: within
            milliseconds) and raises :class:`CountTimeout`, a ``TimeoutError`` that says how
            many tasks were finished (kept in the ``checkpoint``, if any); ``None`` or
            ``inf`` for no limit (a ``bool`` is no number of seconds: ``TypeError``).
            Counts the library runs on the calling thread (N up to 12 by the engine:
            milliseconds) always finish.

    Returns:
        A :class:`CountResult`; a :class:`ShardResult` with ``shard``; a
        :class:`CountResults` for an iterable of sizes.

    Raises:
        ValueError: ``n`` or an option out of range, with the library's message (for
            example ``count(40)``, ``count(13, algo="permutations")``).
        TypeError: an argument of the wrong type (a ``bool`` is not a size).
        CountTimeout: the ``time_limit`` came first.
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
    unknown = options.keys() - CountOptions.__optional_keys__
    if unknown:
        raise TypeError(f"count() got an unexpected keyword argument {min(unknown)!r}")
    unique = _flag(options.pop("unique", True), "unique")
    limit = options.pop("time_limit", None)
    per_board, close = _progress_hooks(options.pop("progress", None))
    engine: EngineOptions = options
    try:
        if _is_size(n):
            size: SupportsIndex = n  # type: ignore[assignment]
            hook = None if per_board is None else per_board(int(size))
            checked_one = _nqueens.CountOptions(shard=shard, **engine)
            return _count_one(size, checked_one, unique, hook, limit, engine)
        if isinstance(n, (str, bytes, bytearray, memoryview)):
            # Iterating b"8" gives 56: text and bytes are neither a size nor sizes.
            raise TypeError(f"N must be an int, not {type(n).__name__}")
        try:
            items = iter(n)  # type: ignore[arg-type]
        except TypeError:
            raise TypeError(
                f"N must be an int or an iterable of ints, not {type(n).__name__}"
            ) from None
        if shard is not None:
            raise ValueError("shard takes a single N, not several")
        checked = _nqueens.CountOptions(**engine)
        sizes = []
        for size in items:
            # Each size checked as it is read: sizes without end (range(4, 2**64)) are
            # refused at the first that cannot be counted, not listed first.
            _nqueens.check_count(size, checked)
            sizes.append(size)
        results = CountResults()
        for size in sizes:
            hook = None if per_board is None else per_board(int(size))
            r = _count_one(size, checked, unique, hook, limit, engine)
            assert isinstance(r, CountResult)
            results.append(r)
        return results
    finally:
        close()


def _count_one(
    n: SupportsIndex,
    options: _nqueens.CountOptions,
    unique: bool,
    hook: Optional[Callable[[int, int], object]],
    time_limit: Optional[float],
    engine: EngineOptions,
) -> Union[CountResult, ShardResult]:
    try:
        size, total, uniq, seconds, method, text = _nqueens.count(
            n, options, progress=hook, time_limit=time_limit
        )
    except _nqueens.TimeUp as e:
        message, done, of = e.args
        raise CountTimeout(
            message,
            operator.index(n),
            cast(float, time_limit),
            done,
            of,
            engine.get("checkpoint"),
        ) from None
    if text is not None:
        return ShardResult.from_json(text)
    return CountResult(size, total, uniq if unique else None, seconds, method)


def merge(results: Iterable[Union[ShardResult, PathLike]]) -> CountResult:
    """Adds up the shards of one count: :class:`ShardResult` objects, or result files (from
    :meth:`ShardResult.save` or ``nqueens count N --shard I/K --out FILE``).

    The library's checks, as ``nqueens merge`` makes them: every shard exactly once, all of
    the same count (N, strategy, task list, number of shards), none damaged (a checksum) and
    the sum possible for N; otherwise ``ValueError`` says which. ``seconds`` is the sum of the
    shards' wall-clock times. Files are read as :meth:`ShardResult.load` reads them.

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
    if isinstance(results, (str, bytes, os.PathLike, ShardResult)):
        # One path given alone would be read a character at a time, as paths.
        raise TypeError(
            "merge takes a list of shard results or paths, not a single "
            f"{type(results).__name__}: merge([...])"
        )
    named: List[Tuple[str, str]] = []
    for i, r in enumerate(results):
        if isinstance(r, ShardResult):
            named.append((f"results[{i}]", r.text))
        else:
            name = os.fspath(r) if isinstance(r, os.PathLike) else str(r)
            named.append((name, _nqueens.read_shard(r)))
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

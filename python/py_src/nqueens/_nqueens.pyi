"""Type stubs of the native module ``nqueens._nqueens`` (see ``python/src/``, a module per job).

The public API is the package ``nqueens``; these are the functions it calls. Every integer
argument takes anything with ``__index__`` (numpy's ints); columns take any iterable of such
ints, or a one-dimensional buffer of ints of any width.
"""

import os
from typing import (
    Callable,
    Iterable,
    Iterator,
    List,
    Optional,
    Sequence,
    SupportsIndex,
    Tuple,
    Union,
)

from typing_extensions import Unpack

from ._count import EngineOptions

__version__: str
ALGORITHMS: List[str]
STRATEGIES: List[str]
MAX_LISTED: int

class TimeUp(Exception):
    """A count's time limit passed: ``args`` are ``(message, tasks done, tasks)``."""

_Shard = Tuple[SupportsIndex, SupportsIndex]
_Square = Sequence[SupportsIndex]

class CountOptions:
    """The options of a count, converted and checked once for any number of sizes."""

    def __init__(
        self, *, shard: Optional[_Shard] = None, **options: Unpack[EngineOptions]
    ) -> None: ...

def check_count(n: SupportsIndex, options: CountOptions) -> None:
    """Raises what ``count`` would raise before counting; counts nothing."""

def count(
    n: SupportsIndex,
    options: CountOptions,
    *,
    progress: Optional[Callable[[int, int], object]] = None,
    time_limit: Optional[float] = None,
) -> Tuple[int, int, Optional[int], float, str, Optional[str]]:
    """``(n, total, unique, seconds, method, shard)``; ``shard`` the result file's text;
    ``TimeUp(message, done, of)`` once ``time_limit`` has passed."""

def merge(results: List[Tuple[str, str]]) -> Tuple[int, int, int, float, str]:
    """Adds up ``(name, result file text)`` pairs: ``(n, total, unique, seconds, method)``."""

class SolutionIter(Iterator[bytes]):
    """The lazy iterator of ``nqueens.solutions``: each solution's native uint32 bytes."""

    def __init__(self, n: SupportsIndex, *, unique: bool = False) -> None: ...
    def __iter__(self) -> "SolutionIter": ...
    def __next__(self) -> bytes: ...
    def check_batch(self, k: SupportsIndex) -> int:
        """``k`` if a block of ``k`` solutions fits in memory, else ``MemoryError``."""
    def batch(self, k: SupportsIndex) -> Tuple[bytes, int]:
        """Up to ``k`` solutions: the bytes of ``rows`` x ``n`` native uint32s, and ``rows``."""

def read_shard(path: Union[str, "os.PathLike[str]"]) -> str:
    """A result file's text, read with the library's size bound (ints are refused)."""

def find(
    n: SupportsIndex,
    *,
    random: bool = False,
    seed: Optional[SupportsIndex] = None,
    max_memory: Optional[SupportsIndex] = None,
) -> Optional[bytes]:
    """One solution's columns as native uint32 bytes, or ``None`` for N = 2, 3."""

def defect(columns: object) -> Optional[str]:
    """``None`` for a solution, else what is wrong."""

def svg(
    columns: object,
    *,
    size: Optional[SupportsIndex] = None,
    blocked: Optional[Iterable[_Square]] = None,
    given: Optional[Iterable[SupportsIndex]] = None,
    title: Optional[str] = None,
) -> str:
    """An SVG picture of the (partial) placement."""

def board(columns: object) -> str:
    """The placement drawn with ``Q`` and ``.``."""

_Stats = Tuple[int, int, int, int, int, float]
_Instance = Tuple[int, List[Tuple[int, int]], List[Tuple[int, int]]]

def complete(
    instance: object,
    *,
    blocked: Optional[Iterable[_Square]] = None,
    count: bool = False,
    seed: Optional[SupportsIndex] = None,
    restarts: bool = True,
    node_limit: Optional[SupportsIndex] = None,
    time_limit: Optional[float] = None,
) -> Tuple[str, Optional[bytes], Optional[int], _Stats, _Instance, Optional[str]]:
    """``(status, placement, count, (nodes, failures, propagations, solutions, restarts,
    seconds), (n, givens, blocked), conflict)``."""

class CompletionIter(Iterator[bytes]):
    """The lazy iterator of ``complete(..., all=True)``: each completion's uint32 bytes."""

    def __init__(
        self,
        instance: object,
        *,
        blocked: Optional[Iterable[_Square]] = None,
        seed: Optional[SupportsIndex] = None,
        restarts: bool = True,
        node_limit: Optional[SupportsIndex] = None,
        time_limit: Optional[float] = None,
    ) -> None: ...
    def __iter__(self) -> "CompletionIter": ...
    def __next__(self) -> bytes: ...
    def batch(self, k: SupportsIndex) -> Tuple[bytes, int]:
        """Up to ``k`` completions: the bytes of ``rows`` x ``n`` uint32s, and ``rows``."""
    def end(self) -> Optional[Tuple[str, _Stats]]:
        """``(status, stats)`` once the search has ended."""
    def instance(self) -> Tuple[_Instance, Optional[str]]:
        """``(n, givens, blocked)`` and the conflict."""

def trace(
    n: SupportsIndex, *, algo: str, limit: Optional[SupportsIndex] = None, html: bool = False
) -> str:
    """The trace as JSON Lines, or the library's HTML player with ``html``."""

def trace_columns(
    n: SupportsIndex, *, algo: str, limit: Optional[SupportsIndex] = None
) -> Tuple[
    bytes,
    bytes,
    bytes,
    bytes,
    bytes,
    bytes,
    List[Tuple[int, List[int]]],
    Tuple[bool, int, int, int, int],
]:
    """``(events, rows, cols, reasons, flags, checks, boards, summary)``: see python/src/trace.rs."""

def trace_names() -> Tuple[List[str], List[str]]:
    """The names of the event and reason codes of ``trace_columns``."""

class PuzzleIter(
    Iterator[
        Tuple[
            int,
            List[Tuple[int, int]],
            List[Tuple[int, int]],
            List[int],
            str,
            Tuple[int, int, int, int],
        ]
    ]
):
    """The iterator of ``nqueens.puzzles``: ``(n, givens, blocked, solution, difficulty,
    (guesses, depth, failures, propagations))``, 0-based."""

    def __init__(
        self,
        n: SupportsIndex,
        *,
        count: Optional[SupportsIndex] = None,
        seed: Optional[SupportsIndex] = None,
        blocked: bool = False,
        minimal: bool = False,
        difficulty: Optional[str] = None,
        threads: Optional[SupportsIndex] = None,
    ) -> None: ...
    def __iter__(self) -> "PuzzleIter": ...
    def __next__(
        self,
    ) -> Tuple[
        int,
        List[Tuple[int, int]],
        List[Tuple[int, int]],
        List[int],
        str,
        Tuple[int, int, int, int],
    ]: ...

# nqueens.regions (python/src/regions.rs): cells (row, col) from 0, solutions as columns.
_Cell = Tuple[int, int]
_RegionStep = Tuple[str, List[_Cell], List[_Cell], str]
_RegionRating = Tuple[str, List[_RegionStep], List[_Cell], Optional[str]]

class RegionBoard:
    """A region board: regions, queens and crosses."""

    def __init__(
        self,
        source: Union[str, Iterable[str]],
        *,
        queens: Optional[Iterable[Sequence[SupportsIndex]]] = None,
        crosses: Optional[Iterable[Sequence[SupportsIndex]]] = None,
    ) -> None: ...
    @property
    def n(self) -> int: ...
    def regions(self) -> List[int]: ...
    def labels(self) -> str: ...
    def queens(self) -> List[_Cell]: ...
    def crosses(self) -> List[_Cell]: ...
    def text(self) -> str: ...
    def json(self) -> str: ...
    def svg(self) -> str: ...
    def terminal(self) -> str: ...
    def page(self) -> str: ...
    def first(self) -> Optional[List[int]]: ...
    def count(self, limit: Optional[SupportsIndex] = None) -> Tuple[int, bool]: ...
    def defect(self, queens: Iterable[_Square]) -> Optional[Tuple[str, str]]: ...
    def rate(self) -> _RegionRating: ...
    def hint(self) -> Tuple[Optional[_RegionStep], Optional[str]]: ...

class RegionSolutionIter(Iterator[List[int]]):
    """The solutions of a board, one at a time, made on a thread of their own."""

    def __init__(self, board: RegionBoard, *, limit: Optional[SupportsIndex] = None) -> None: ...
    def __iter__(self) -> "RegionSolutionIter": ...
    def __next__(self) -> List[int]: ...

class RegionPuzzleIter(Iterator[Tuple[RegionBoard, List[int], _RegionRating]]):
    """Generated region puzzles: ``(board, solution, rating)``, in order."""

    def __init__(
        self,
        n: SupportsIndex,
        *,
        count: Optional[SupportsIndex] = None,
        seed: Optional[SupportsIndex] = None,
        difficulty: Optional[str] = None,
        threads: Optional[SupportsIndex] = None,
    ) -> None: ...
    def __iter__(self) -> "RegionPuzzleIter": ...
    def __next__(self) -> Tuple[RegionBoard, List[int], _RegionRating]: ...

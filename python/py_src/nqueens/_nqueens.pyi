"""Type stubs of the native module ``nqueens._nqueens`` (see ``python/src/lib.rs``).

The public API is the package ``nqueens``; these are the functions it calls.
"""

import array
import os
from typing import Any, Callable, Iterable, Iterator, List, Optional, Tuple, Union

ALGORITHMS: List[str]
STRATEGIES: List[str]
MAX_LISTED: int

_Path = Union[str, "os.PathLike[str]"]

def check_count(
    n: int,
    *,
    threads: Optional[int] = None,
    strategy: Optional[str] = None,
    algo: Optional[str] = None,
    max_memory: Optional[int] = None,
    checkpoint: Optional[_Path] = None,
    device: Optional[str] = None,
) -> None:
    """Raises what ``count`` would raise before counting; counts nothing."""

def count(
    n: int,
    *,
    threads: Optional[int] = None,
    strategy: Optional[str] = None,
    algo: Optional[str] = None,
    max_memory: Optional[int] = None,
    checkpoint: Optional[_Path] = None,
    progress: Optional[Callable[[int, int], Any]] = None,
    device: Optional[str] = None,
) -> Tuple[int, int, Optional[int], float, str]:
    """Counts; returns ``(n, total, unique, seconds, method)``."""

class SolutionIter(Iterator[Tuple[int, ...]]):
    """The lazy iterator of ``nqueens.solutions``."""

    def __init__(self, n: int, *, unique: bool = False) -> None: ...
    def __iter__(self) -> "SolutionIter": ...
    def __next__(self) -> Tuple[int, ...]: ...

def find(
    n: int,
    *,
    random: bool = False,
    seed: Optional[int] = None,
    max_memory: Optional[int] = None,
) -> Optional["array.array[int]"]:
    """One solution as ``array('I')``, or ``None`` for N = 2, 3."""

def defect(columns: Iterable[int]) -> Optional[str]:
    """``None`` for a solution, else what is wrong."""

def svg(columns: Iterable[int]) -> str:
    """An SVG picture of the placement."""

def board(columns: Iterable[int]) -> str:
    """The placement drawn with ``Q`` and ``.``."""

def complete(
    instance: Any,
    *,
    blocked: Optional[Iterable[Tuple[int, int]]] = None,
    count: bool = False,
    seed: Optional[int] = None,
    restarts: bool = True,
    node_limit: Optional[int] = None,
    time_limit: Optional[float] = None,
) -> Tuple[Any, Tuple[int, int, int, int, int, float]]:
    """``(answer, (nodes, failures, propagations, solutions, restarts, seconds))``."""

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
        n: int,
        *,
        count: Optional[int] = None,
        seed: Optional[int] = None,
        blocked: bool = False,
        minimal: bool = False,
        difficulty: Optional[str] = None,
        threads: Optional[int] = None,
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

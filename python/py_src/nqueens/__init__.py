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

import operator
import os
import sys
from typing import (
    TYPE_CHECKING,
    Any,
    Iterable,
    Iterator,
    Optional,
    SupportsIndex,
    Tuple,
    Union,
    cast,
    overload,
)

from . import _nqueens
from ._complete import Completion, Completions, SolverStats, complete
from ._complete import Instance as Instance
from ._complete import Status as Status
from ._count import (
    CountOptions,
    CountResult,
    CountResults,
    CountTimeout,
    ShardResult,
    count,
    merge,
    table,
)
from ._count import PathLike as PathLike
from ._count import Progress as Progress
from ._count import ProgressBar as ProgressBar
from ._count import _flag
from ._placement import Placement, _native
from ._placement import Squares as Squares
from ._puzzle import Puzzle, puzzles
from . import regions
from ._names import Algo as Algo
from ._names import Device as Device
from ._names import Difficulty as Difficulty
from ._names import Strategy as Strategy
from ._trace import DeadEndStep as DeadEndStep
from ._trace import PlaceStep as PlaceStep
from ._trace import Reason as Reason
from ._trace import RejectStep as RejectStep
from ._trace import RemoveStep as RemoveStep
from ._trace import SolutionStep as SolutionStep
from ._trace import Step as Step
from ._trace import Trace, trace

if TYPE_CHECKING:
    import numpy
    import numpy.typing

__version__: str = _nqueens.__version__

__all__ = [
    "ALGORITHMS",
    "STRATEGIES",
    "Completion",
    "Completions",
    "CountOptions",
    "CountResult",
    "CountResults",
    "CountTimeout",
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
    "regions",
    "solutions",
    "svg",
    "table",
    "trace",
    "verify",
]

#: The ladder's algorithms, slowest first, as ``count(n, algo=...)`` takes them.
ALGORITHMS: Tuple[Algo, ...] = cast(Tuple[Algo, ...], tuple(_nqueens.ALGORITHMS))
#: The engine's strategies, as ``count(n, strategy=...)`` takes them.
STRATEGIES: Tuple[Strategy, ...] = cast(Tuple[Strategy, ...], tuple(_nqueens.STRATEGIES))

#: Columns as arguments take them: any iterable of ints, numpy's included; a numpy array or an
#: ``array.array`` of any integer type is read from one copy of its memory.
Columns = Iterable[SupportsIndex]


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
        MemoryError: a block of ``batch`` solutions (of those there are, where they are
            published) larger than the memory available.
        ImportError: ``batch`` without numpy.
        KeyboardInterrupt: Ctrl-C while a block fills (within milliseconds); the solutions
            already taken start the next block.
    """
    it = _nqueens.SolutionIter(n, unique=_flag(unique, "unique"))
    if batch is None:
        return _placements(it)
    try:
        import numpy
    except ImportError:
        raise ImportError("solutions(n, batch=K) gives numpy arrays: pip install numpy") from None
    return _blocks(it, it.check_batch(batch), operator.index(n), numpy)
def _placements(it: Iterator[bytes]) -> Iterator[Placement]:
    # The library's columns need no checking: the bytes kept as they come, without
    # Placement.__new__'s checks.
    new = Placement._from_bytes
    for cols in it:
        yield new(cols)


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

    ``random`` takes a ``bool`` (numpy's too), not ``"yes"``.

    By default an explicit construction (no search: the same solution every time, linear
    time). With ``random=True`` min-conflicts local search gives a different solution for
    each ``seed`` (the same ``n`` and ``seed`` give the same solution on every machine;
    without a seed one is drawn from the operating system).

    Returns a :class:`Placement`, or ``None`` for ``n`` = 2 and 3, which have no solution.
    Its columns are one block of 4 bytes a queen (40 MB for 10^7 queens, where a list would
    hold 10^7 int objects, about 360 MB), written once by the construction: the call needs
    those 4 bytes a queen and no more, which is what the memory check counts;
    ``numpy.asarray(p)`` views them without a copy.

    >>> import nqueens
    >>> p = nqueens.find(1000)
    >>> len(p), p.verify()
    (1000, True)
    >>> nqueens.find(100, random=True, seed=7) == nqueens.find(100, random=True, seed=7)
    True
    >>> nqueens.find(3) is None
    True

    Raises:
        ValueError: ``n`` = 0 or too large, the memory needed (4 bytes a queen, 13 with
            ``random``) more than ``max_memory`` (default: the memory available now), or a
            ``seed`` without ``random=True`` (the construction takes none).
        MemoryError: the search's memory could not be allocated after all.
        KeyboardInterrupt: Ctrl-C stops the construction and the ``random`` search within
            milliseconds.
    """
    random = _flag(random, "random")
    if seed is not None and not random:
        raise ValueError(
            "seed is for random=True (min-conflicts); the construction gives one solution"
        )
    if seed is None and random:
        seed = int.from_bytes(os.urandom(8), "little")
    data = _nqueens.find(n, random=random, seed=seed, max_memory=max_memory)
    return None if data is None else Placement._from_bytes(data)


# A numpy array gives a bool for one dimension and an array of bools for two: its type says
# neither (numpy's arrays are typed without their number of dimensions), so the answer's is
# what numpy's own functions give in that case.
@overload
def verify(columns: "numpy.ndarray[Any, Any]") -> Any: ...


@overload
def verify(columns: Columns) -> bool: ...


def verify(columns: Union[Columns, "numpy.ndarray[Any, Any]"]) -> Any:
    """``True`` if ``columns`` (0-based, one per row) is a solution.

    Takes any sequence of ints (numpy's too), or an array of ints of any width and sign
    (``array.array``, a numpy array), read from one copy of its memory. A numpy masked array
    with a masked row is refused (a row without a queen is no solution, and a mask is never
    ignored). A two-dimensional ``(K, N)`` numpy array, such as a block of
    ``solutions(n, batch=K)``, gives a ``(K,)`` numpy array of bools, one a row, as numpy's
    own comparisons do.

    >>> import nqueens
    >>> nqueens.verify([1, 3, 0, 2])
    True
    >>> nqueens.verify([0, 1, 2, 3])
    False
    >>> import numpy
    >>> nqueens.verify(numpy.array([[1, 3, 0, 2], [0, 1, 2, 3]]))
    array([ True, False])
    """
    rows = _rows(columns)
    if rows is not None:
        import numpy as np

        return np.fromiter(
            (_nqueens.defect(row) is None for row in rows), dtype=np.bool_, count=len(rows)
        )
    return _nqueens.defect(_native(columns)) is None


def _rows(columns: object) -> "Optional[numpy.typing.NDArray[numpy.integer[Any]]]":
    """The rows of a two-dimensional numpy array (a masked one's data, if nothing is
    masked), else ``None``."""
    np = sys.modules.get("numpy")
    if np is None or not isinstance(columns, np.ndarray) or getattr(columns, "ndim", 1) != 2:
        return None
    data = _native(columns)
    return cast("numpy.typing.NDArray[numpy.integer[Any]]", data)


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
    return _nqueens.defect(_native(columns))


def svg(
    columns: Iterable[Optional[SupportsIndex]],
    *,
    size: Optional[SupportsIndex] = None,
    blocked: Optional[Squares] = None,
    given: Optional[Iterable[SupportsIndex]] = None,
    title: Optional[str] = None,
) -> str:
    """The placement as an SVG picture of the chessboard (N up to 800).

    ``columns`` may hold ``None`` (or ``-1``, numpy's way; a numpy masked array's masked
    rows) for a row without a queen (a partial board); ``size`` is the picture's side in
    pixels (default 40 a square, at most 800); ``blocked`` squares get a red cross: 0-based
    ``(row, col)`` pairs (tuples, lists, a ``(K, 2)`` array such as ``numpy.argwhere(mask)``)
    or an ``N`` x ``N`` mask of bools; the queens of the ``given`` rows stand on a blue square
    (an instance's given queens, beside the ones a solver placed); ``title`` is the picture's
    title (a tooltip), by default how many queens on what board. Every picture has ids of its
    own, so many boards share a page. A :class:`Placement` draws itself in a notebook;
    ``IPython.display.SVG(nqueens.svg(...))`` draws any.

    >>> import nqueens
    >>> nqueens.svg([1, 3, 0, 2]).startswith("<svg")
    True
    >>> picture = nqueens.svg([0, None, None, None], size=100, blocked=[(1, 2)])
    >>> picture.count('href="#queen-'), 'width="100"' in picture, "#c00" in picture
    (1, True, True)
    >>> "<title>1 queen on a 4x4 board</title>" in picture
    True
    """
    return _nqueens.svg(
        _native(columns, free=True), size=size, blocked=blocked, given=given, title=title
    )


def board(columns: Columns) -> str:
    """The placement drawn with ``Q`` and ``.``, one row per line (N up to 1000).

    >>> import nqueens
    >>> print(nqueens.board([1, 3, 0, 2]), end="")
    . Q . .
    . . . Q
    Q . . .
    . . Q .
    """
    return _nqueens.board(_native(columns))

"""Completing: :func:`complete`, the constraint solver on given queens and blocked squares."""

from __future__ import annotations

import html as _html
from dataclasses import dataclass, field
from typing import (
    TYPE_CHECKING,
    Iterator,
    List,
    Literal,
    Optional,
    Sequence,
    SupportsIndex,
    Tuple,
    Union,
    cast,
    overload,
)

from . import _nqueens
from ._count import _flag
from ._placement import _MAX_SVG, Placement, Squares, _native

if TYPE_CHECKING:
    import numpy
    import numpy.typing

#: The outcome of ``complete``.
Status = Literal["solved", "none", "unknown"]


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
    """What ``complete`` found, and the instance it completed.

    Attributes:
        status: ``"solved"`` (a completion found; with ``count=True``, the count is exact and
            above 0), ``"none"`` (proved: no completion) or ``"unknown"`` (the node or time
            limit came first).
        placement: the completion, or ``None`` (always ``None`` with ``count=True``).
        count: the completions counted with ``count=True`` (a lower bound when the status is
            ``"unknown"``), else ``None``.
        stats: the search's effort.
        n: the board size.
        givens: the given queens, 0-based ``(row, col)``.
        blocked: the blocked squares, 0-based ``(row, col)``.
        conflict: why the instance has no completion without a search (given queens that
            attack each other, a given queen on a blocked square), else ``None``.

    In a notebook it draws the board: the given queens on blue squares, the queens the
    solver placed, the blocked squares crossed out (with ``count=True``, or no completion,
    the instance alone), under a line that says what was found.
    """

    status: Status
    placement: Optional[Placement]
    count: Optional[int]
    stats: SolverStats
    n: int = 0
    givens: Tuple[Tuple[int, int], ...] = ()
    blocked: Tuple[Tuple[int, int], ...] = ()
    conflict: Optional[str] = None

    def svg(self, *, size: Optional[SupportsIndex] = None) -> str:
        """The board as an SVG picture (N up to 800): the completion, or the instance."""
        given_rows = [r for r, _ in self.givens]
        if self.placement is not None:
            return self.placement.svg(size=size, blocked=self.blocked, given=given_rows)
        cols: List[Optional[int]] = [None] * self.n
        for r, c in self.givens:
            cols[r] = c
        return _nqueens.svg(cols, size=size, blocked=self.blocked, given=given_rows)

    def _repr_html_(self) -> str:
        if self.count is not None:
            exact = "at least " if self.status == "unknown" else ""
            what = f"{exact}{self.count:,} completions"
        elif self.conflict is not None:
            what = f"no completion: {self.conflict}"
        else:
            what = {"solved": "completed", "none": "no completion", "unknown": "unknown"}[
                self.status
            ]
        board = self.svg() if 0 < self.n <= _MAX_SVG else ""
        found = f" ({self.stats.nodes:,} nodes)" if self.conflict is None else ""
        return (
            f"<div><p>{self.n}x{self.n}, {len(self.givens)} given, {len(self.blocked)} "
            f"blocked: {_html.escape(what)}{found}</p>{board}</div>"
        )


class Completions(Iterator[Placement]):
    """Every completion of an instance, lazily, from ``complete(..., all=True)``: the
    solver's search runs on a thread of its own at most one completion (or one block) ahead
    of the loop, and stops when the iterator is dropped. After the loop, :attr:`status` says
    whether it saw every completion (``"solved"`` or ``"none"``) or a ``node_limit`` or
    ``time_limit`` came first (``"unknown"``), and :attr:`stats` the effort.

    Attributes:
        n, givens, blocked, conflict: the instance, as :class:`Completion` has them.
    """

    def __init__(self, it: _nqueens.CompletionIter) -> None:
        self._it = it
        (self.n, givens, blocked), self.conflict = it.instance()
        self.givens: Tuple[Tuple[int, int], ...] = tuple(givens)
        self.blocked: Tuple[Tuple[int, int], ...] = tuple(blocked)

    def __iter__(self) -> "Completions":
        return self

    def __next__(self) -> Placement:
        data = next(self._it)
        return Placement._from_bytes(data)

    def blocks(self, k: SupportsIndex) -> Iterator["numpy.typing.NDArray[numpy.uint32]"]:
        """The completions still to come as read-only numpy ``uint32`` arrays of shape
        ``(k, n)`` (the last one shorter): the search fills each block without the GIL."""
        import numpy as np

        while True:
            data, rows = self._it.batch(k)
            if rows == 0:
                return
            yield np.frombuffer(data, dtype=np.uint32).reshape(rows, self.n)

    @property
    def status(self) -> Optional[Status]:
        """``None`` until the search has ended; then as :attr:`Completion.status`."""
        end = self._it.end()
        return None if end is None else cast(Status, end[0])

    @property
    def stats(self) -> Optional[SolverStats]:
        """``None`` until the search has ended; then its effort."""
        end = self._it.end()
        return None if end is None else SolverStats(*end[1])


Instance = Union[str, Sequence[str], Sequence[Optional[SupportsIndex]]]


@overload
def complete(
    instance: Instance,
    *,
    blocked: Optional[Squares] = ...,
    count: bool = ...,
    all: Literal[False] = ...,
    seed: Optional[SupportsIndex] = ...,
    restarts: bool = ...,
    node_limit: Optional[SupportsIndex] = ...,
    time_limit: Optional[float] = ...,
) -> Completion: ...


@overload
def complete(
    instance: Instance,
    *,
    blocked: Optional[Squares] = ...,
    count: Literal[False] = ...,
    all: Literal[True],
    seed: Optional[SupportsIndex] = ...,
    restarts: bool = ...,
    node_limit: Optional[SupportsIndex] = ...,
    time_limit: Optional[float] = ...,
) -> Completions: ...


def complete(
    instance: Instance,
    *,
    blocked: Optional[Squares] = None,
    count: bool = False,
    all: bool = False,
    seed: Optional[SupportsIndex] = None,
    restarts: bool = True,
    node_limit: Optional[SupportsIndex] = None,
    time_limit: Optional[float] = None,
) -> Union[Completion, Completions]:
    """Extends given queens to a solution, avoiding blocked squares (a CP solver).

    ``instance`` is one of:

    - a list with the given queen's 0-based column in each row, or ``None`` for a free row:
      ``[0, None, None, None, None, None, None, None]`` (a :class:`Placement` too); a numpy
      integer array with ``-1`` for a free row, or a masked array whose masked rows are free;
    - a list of row strings of a drawing: ``["Q...", "..x.", "....", "...."]`` (``Q`` a
      given queen, ``x`` a blocked square, ``.`` free);
    - a ``str`` holding a file that ``nqueens complete`` reads, in the file's own terms: a
      board drawing; a list (first line ``N``, then ``q ROW COL`` / ``x ROW COL`` lines); or
      a placement line. Rows and columns written in a file are 1-based, as the command line
      writes them; only Python's lists are 0-based.

    ``blocked`` adds blocked squares: 0-based ``(row, col)`` pairs (tuples, lists, as a
    puzzle's ``to_dict()`` gives them, or a ``(K, 2)`` array such as ``numpy.argwhere``), or
    an ``N`` x ``N`` mask of bools. ``seed`` and ``restarts`` steer the search's random
    tie-breaking.

    Given queens (in a list or an array) that attack each other, or one on a blocked square,
    make an instance without completion: ``status`` ``"none"`` and the ``conflict`` in words,
    as a CP solver reports an infeasible model, so a loop over instances needs no ``try``.
    (A text that says so is malformed, as for the command line: ``ValueError``.)

    With ``all=True``, every completion, lazily: a :class:`Completions` iterator of
    :class:`Placement` objects (its ``blocks(k)`` gives numpy blocks), whose ``status`` says
    after the loop whether a limit came first.

    Returns:
        A :class:`Completion`: ``status`` ``"solved"``, ``"none"`` or ``"unknown"`` (a
        ``node_limit`` or ``time_limit``, in seconds, reached first; ``None`` for no limit;
        a ``bool`` is no number of seconds: ``TypeError``),
        the ``placement`` found, or with ``count=True`` the ``count`` of completions (the
        partial count when ``"unknown"``), the search's ``stats``, and the instance.

    Raises:
        ValueError: a malformed instance (the message names the line), a square off the
            board, a mask of the wrong shape.
        MemoryError: the board cannot be allocated (blocked squares take a bit per square).
        KeyboardInterrupt: Ctrl-C stops the search within milliseconds; the message says how
            far it got.
        RuntimeError: a :class:`Completions` iterator called by a thread while another
            thread's call waits on it (each thread needs its own, or a lock).

    The search runs without the GIL.

    >>> import nqueens
    >>> nqueens.complete([0, None, None, None, None, None, None, None], count=True).count
    4
    >>> nqueens.complete("4\\nq 1 1\\n").status      # a queen in a corner of 4x4 (1-based)
    'none'
    >>> c = nqueens.complete([None] * 200, node_limit=0)
    >>> c.status, c.placement
    ('unknown', None)
    >>> nqueens.complete([0, 1, None, None]).conflict
    'the queen at row 2, column 2 attacks the one at row 1, column 1 along a diagonal'
    >>> sum(1 for _ in nqueens.complete([0] + [None] * 7, all=True))
    4
    """
    count = _flag(count, "count")
    native = _native(instance, free=True)
    if _flag(all, "all"):
        if count:
            raise ValueError("count=True counts the completions; all=True lists them: not both")
        return Completions(
            _nqueens.CompletionIter(
                native,
                blocked=blocked,
                seed=seed,
                restarts=_flag(restarts, "restarts"),
                node_limit=node_limit,
                time_limit=time_limit,
            )
        )
    status, placement, found, raw, (n, givens, blocked_), conflict = _nqueens.complete(
        native,
        blocked=blocked,
        count=count,
        seed=seed,
        restarts=_flag(restarts, "restarts"),
        node_limit=node_limit,
        time_limit=time_limit,
    )
    return Completion(
        cast(Status, status),
        None if placement is None else Placement._from_bytes(placement),
        found,
        SolverStats(*raw),
        n,
        tuple(givens),
        tuple(blocked_),
        conflict,
    )

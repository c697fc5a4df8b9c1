"""Completing: :func:`complete`, the constraint solver on given queens and blocked squares."""

from __future__ import annotations

import html as _html
from dataclasses import dataclass, field
from typing import Iterable, Literal, Optional, Sequence, SupportsIndex, Tuple, Union

from . import _nqueens
from ._placement import Placement

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

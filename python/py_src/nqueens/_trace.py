"""Tracing: :func:`trace`, a ladder algorithm's search step by step."""

from __future__ import annotations

import html as _html
import operator
from typing import (
    TYPE_CHECKING,
    Any,
    Dict,
    Iterator,
    List,
    Literal,
    Optional,
    Sequence,
    SupportsIndex,
    TypedDict,
    Union,
    cast,
    overload,
)

from . import _nqueens
from ._names import Algo

if TYPE_CHECKING:
    import pandas

#: Why a square was refused: a queen above in its ``column``, on its ``diagonal`` (``\\``)
#: or ``anti_diagonal`` (``/``); ``propagation`` (``cp``: a row or column left empty);
#: ``symmetry`` (``mirror``, ``symmetry``: its solutions are another square's images).
Reason = Literal["column", "diagonal", "anti_diagonal", "propagation", "symmetry"]


class PlaceStep(TypedDict):
    """A queen put on ``(row, col)``; ``forced`` when ``cp``'s propagation put it there."""

    step: int
    event: Literal["place"]
    row: int
    col: int
    reason: None
    forced: bool
    cols: None
    image: bool
    checks: int


class RejectStep(TypedDict):
    """A square considered for the next queen and refused, and why."""

    step: int
    event: Literal["reject"]
    row: int
    col: int
    reason: Reason
    forced: bool
    cols: None
    image: bool
    checks: int


class RemoveStep(TypedDict):
    """A queen taken off ``(row, col)`` on the way back up."""

    step: int
    event: Literal["remove"]
    row: int
    col: int
    reason: None
    forced: bool
    cols: None
    image: bool
    checks: int


class DeadEndStep(TypedDict):
    """No square of ``row`` can take a queen (``None`` for ``cp``, whose propagation fails on
    a row or a column): the search backs up."""

    step: int
    event: Literal["dead_end"]
    row: Optional[int]
    col: None
    reason: None
    forced: bool
    cols: None
    image: bool
    checks: int


class SolutionStep(TypedDict):
    """A solution's columns; ``image`` when derived by a symmetry instead of searched."""

    step: int
    event: Literal["solution"]
    row: None
    col: None
    reason: None
    forced: bool
    cols: List[int]
    image: bool
    checks: int


class DuplicateStep(TypedDict):
    """``symmetry``: a complete board dropped because a smaller image of it is searched."""

    step: int
    event: Literal["duplicate"]
    row: None
    col: None
    reason: None
    forced: bool
    cols: List[int]
    image: bool
    checks: int


#: One step of a trace: every step has the same nine keys (``None``, or ``False``, where its
#: event has no such field), so steps make a table with fixed columns, and a type checker
#: narrows a step by its ``event``: after ``if s["event"] == "place":`` ``s["row"]`` is an
#: ``int``.
Step = Union[PlaceStep, RejectStep, RemoveStep, DeadEndStep, SolutionStep, DuplicateStep]

#: The names of the native module's codes of events and reasons (reason 0 is none).
_EVENTS, _REASONS = _nqueens.trace_names()
_REASON_NAMES: List[Optional[str]] = [None, *_REASONS]


class Trace(Sequence[Step]):
    """The steps of a ladder algorithm's search, from :func:`trace`: a sequence of
    :data:`Step` dicts, the lines of ``nqueens trace N --algo A --format json`` between its
    header and summary, with rows and columns counted from 0 like every placement of this
    package (the command line and the player count them from 1, as its header's
    ``numbering`` says: ``t[i]`` is the player's step ``i + 1``, its row ``r`` the player's
    row ``r + 1``). Up to 1,000,000 steps, as many as the player holds, kept as columns (about
    20 bytes a step): a step is made a dict when asked for, and :meth:`to_pandas` takes the
    columns whole. In a notebook
    it shows the library's player (the page of ``nqueens trace --format html``, with its
    controls and search tree); :meth:`to_pandas` makes a table of the steps.

    Attributes:
        n: board size.
        algo: the algorithm.
        limit: the step limit asked for, or ``None``.
        numbering: ``"from 0"``: how the steps count rows and columns.
        summary: the command line's last line: ``end`` (``"complete"`` or ``"limit"``),
            ``steps``, ``nodes``, ``checks``, ``solutions``.
    """

    def __init__(self, n: int, algo: str, limit: Optional[int]) -> None:
        self.n = n
        self.algo = algo
        self.limit = limit
        self.numbering = "from 0"
        events, rows, cols, reasons, flags, checks, boards, summary = _nqueens.trace_columns(
            n, algo=algo, limit=limit
        )
        self._events = events
        self._rows = memoryview(rows).cast("i")
        self._cols = memoryview(cols).cast("i")
        self._reasons = reasons
        self._flags = flags
        self._checks = memoryview(checks).cast("Q")
        self._boards: Dict[int, List[int]] = dict(boards)
        complete, steps, nodes, checked, solutions = summary
        self.summary: Dict[str, object] = {
            "end": "complete" if complete else "limit",
            "steps": steps,
            "nodes": nodes,
            "checks": checked,
            "solutions": solutions,
        }

    def _step(self, i: int) -> Step:
        row, col, flags = self._rows[i], self._cols[i], self._flags[i]
        step = {
            "step": i + 1,
            "event": _EVENTS[self._events[i]],
            "row": None if row < 0 else row,
            "col": None if col < 0 else col,
            "reason": _REASON_NAMES[self._reasons[i]],
            "forced": bool(flags & 1),
            "cols": self._boards.get(i),
            "image": bool(flags & 2),
            "checks": self._checks[i],
        }
        return cast(Step, step)

    @overload
    def __getitem__(self, i: int) -> Step: ...

    @overload
    def __getitem__(self, i: slice) -> List[Step]: ...

    def __getitem__(self, i: Union[int, slice]) -> Union[Step, List[Step]]:
        indices = range(len(self._events))
        if isinstance(i, slice):
            return [self._step(j) for j in indices[i]]
        # A bool is an int to Python, never a step's index (numpy's bools neither).
        kind = type(i)
        is_bool = kind is bool or (
            kind.__module__ == "numpy" and kind.__name__ in ("bool_", "bool")
        )
        try:
            if is_bool:
                raise TypeError
            k = operator.index(i)
        except TypeError:
            raise TypeError(
                f"a trace's steps are indexed by ints or slices, not {kind.__name__}"
            ) from None
        if not -len(indices) <= k < len(indices):
            raise IndexError(f"step index {k} is out of range for a trace of {len(indices)} steps")
        return self._step(indices[k])

    def __len__(self) -> int:
        return len(self._events)

    def __iter__(self) -> Iterator[Step]:
        return map(self._step, range(len(self._events)))

    @property
    def complete(self) -> bool:
        """``True`` if the search ended within the steps recorded."""
        return self.summary.get("end") == "complete"

    def to_pandas(self) -> "pandas.DataFrame":
        """The steps as a ``pandas.DataFrame``, one row a step, with the same columns and
        dtypes for every trace: ``step`` and ``checks`` ``int64``; ``event`` and ``reason``
        ``string`` (``reason`` ``<NA>`` where none); ``row`` and ``col`` the nullable
        ``Int64`` (``<NA>`` where the event has none, never floats); ``forced`` and
        ``image`` ``bool``; ``cols`` a solution's columns (a list) or ``None``.
        """
        import numpy as np
        import pandas as pd

        def ints(data: memoryview) -> "pandas.arrays.IntegerArray":
            values = np.frombuffer(data, dtype=np.int32).astype(np.int64)
            return pd.arrays.IntegerArray(values, values < 0)

        flags = np.frombuffer(self._flags, dtype=np.uint8)
        reasons = np.array(_REASON_NAMES, dtype=object)[np.frombuffer(self._reasons, np.uint8)]
        cols: List[Optional[List[int]]] = [None] * len(self)
        for i, board in self._boards.items():
            cols[i] = board
        return pd.DataFrame(
            {
                "step": pd.Series(np.arange(1, len(self) + 1, dtype=np.int64)),
                "event": pd.Series(
                    np.array(_EVENTS, dtype=object)[np.frombuffer(self._events, np.uint8)],
                    dtype="string",
                ),
                "row": pd.Series(ints(self._rows)),
                "col": pd.Series(ints(self._cols)),
                "reason": pd.Series(reasons, dtype="string"),
                "forced": pd.Series(flags & 1 != 0),
                "cols": pd.Series(cols, dtype="object"),
                "image": pd.Series(flags & 2 != 0),
                "checks": pd.Series(np.frombuffer(self._checks, np.uint64).astype(np.int64)),
            }
        )

    def html(self) -> str:
        """The library's self-contained player page (at most 1,000,000 steps)."""
        return _nqueens.trace(self.n, algo=self.algo, limit=self.limit, html=True)

    def _repr_html_(self) -> str:
        # The page in an iframe of its own, so its script and styles stay out of the
        # notebook's; tall enough for the board, the controls and the search tree below them,
        # and resizable.
        page = _html.escape(self.html(), quote=True)
        algo = _html.escape(self.algo)
        return (
            f"<p>The player numbers steps, rows and columns from 1, as the command line "
            f"does; <code>t[i]</code> is its step i + 1, with rows and columns from 0.</p>"
            f'<iframe srcdoc="{page}" style="width: 100%; height: {_PLAYER_HEIGHT}px; '
            f'border: 0; resize: vertical; overflow: auto" '
            f'title="trace of {algo} for N = {self.n}"></iframe>'
        )

    def __repr__(self) -> str:
        return f"<Trace of {self.algo} for N = {self.n}: {len(self)} steps>"


#: The player's frame in a notebook, in pixels: the page laid out at a notebook's width (800
#: to 1000 pixels) ends 1190 to 1270 pixels down, below its search tree (640 cut the tree
#: off); the frame can be resized.
_PLAYER_HEIGHT = 1320


def trace(
    n: SupportsIndex, *, algo: Algo = "backtracking", limit: Optional[SupportsIndex] = None
) -> Trace:
    """The steps of ``algo``'s search for ``n`` (an algorithm of :data:`ALGORITHMS`), as
    ``nqueens trace`` records them: every queen placed, every square rejected and why, every
    dead end and back-up, every solution.

    Up to 1,000,000 steps, as many as the notebook player holds (the whole search of
    N = 10 by backtracking, 396,462 steps); a longer search is refused unless ``limit`` asks
    for its first steps. Rows and columns count from 0.

    >>> import nqueens
    >>> t = nqueens.trace(4, algo="backtracking")
    >>> t[0]["event"], t[0]["row"], t[0]["col"], t[0]["checks"]
    ('place', 0, 0, 0)
    >>> t.summary["solutions"], t.complete
    (2, True)
    >>> len(nqueens.trace(8, algo="flags", limit=100))
    100
    """
    lim = None if limit is None else operator.index(limit)
    return Trace(operator.index(n), algo, lim)

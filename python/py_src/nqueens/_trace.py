"""Tracing: :func:`trace`, a ladder algorithm's search step by step."""

from __future__ import annotations

import html as _html
import json
import operator
from typing import (
    TYPE_CHECKING,
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


#: One step of a trace: every step has the same nine keys (``None``, or ``False``, where its
#: event has no such field), so steps make a table with fixed columns, and a type checker
#: narrows a step by its ``event``: after ``if s["event"] == "place":`` ``s["row"]`` is an
#: ``int``.
Step = Union[PlaceStep, RejectStep, RemoveStep, DeadEndStep, SolutionStep]

_ABSENT: Dict[str, object] = {"row": None, "col": None, "reason": None, "forced": False, "cols": None, "image": False}


def _step(line: str) -> Step:
    """A line of the command line's JSON trace (rows and columns from 1) as a :data:`Step`
    counted from 0, with every key."""
    raw: Dict[str, object] = json.loads(line)
    step: Dict[str, object] = dict(_ABSENT)
    step.update(raw)
    for key in ("row", "col"):
        v = step[key]
        if isinstance(v, int):
            step[key] = v - 1
    cols = step["cols"]
    if isinstance(cols, list):
        step["cols"] = [c - 1 for c in cols]
    return cast(Step, step)


class Trace(Sequence[Step]):
    """The steps of a ladder algorithm's search, from :func:`trace`: a sequence of
    :data:`Step` dicts, the lines of ``nqueens trace N --algo A --format json`` between its
    header and summary, with rows and columns counted from 0 like every placement of this
    package (the command line and the player count them from 1, as its header's
    ``numbering`` says: ``t[i]`` is the player's step ``i + 1``, its row ``r`` the player's
    row ``r + 1``). Up to 1,000,000 steps, as many as the player holds; a step is read from
    its line when asked for, so a long trace costs its text, not a dict a step. In a notebook
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

    def __init__(self, n: int, algo: str, limit: Optional[int], lines: List[str]) -> None:
        self.n = n
        self.algo = algo
        self.limit = limit
        self.numbering = "from 0"
        self._lines = lines[1:-1]
        self.summary: Dict[str, object] = json.loads(lines[-1])

    @overload
    def __getitem__(self, i: int) -> Step: ...

    @overload
    def __getitem__(self, i: slice) -> List[Step]: ...

    def __getitem__(self, i: Union[int, slice]) -> Union[Step, List[Step]]:
        if isinstance(i, slice):
            return [_step(line) for line in self._lines[i]]
        return _step(self._lines[i])

    def __len__(self) -> int:
        return len(self._lines)

    def __iter__(self) -> Iterator[Step]:
        return map(_step, self._lines)

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
        import pandas as pd

        steps = [cast(Dict[str, object], s) for s in self]

        def column(key: str) -> List[object]:
            return [s[key] for s in steps]

        return pd.DataFrame(
            {
                "step": pd.Series(column("step"), dtype="int64"),
                "event": pd.Series(column("event"), dtype="string"),
                "row": pd.Series(column("row"), dtype="Int64"),
                "col": pd.Series(column("col"), dtype="Int64"),
                "reason": pd.Series(column("reason"), dtype="string"),
                "forced": pd.Series(column("forced"), dtype="bool"),
                "cols": pd.Series(column("cols"), dtype="object"),
                "image": pd.Series(column("image"), dtype="bool"),
                "checks": pd.Series(column("checks"), dtype="int64"),
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
    text = _nqueens.trace(n, algo=algo, limit=lim)
    return Trace(operator.index(n), algo, lim, text.splitlines())

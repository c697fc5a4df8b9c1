"""Tracing: :func:`trace`, a ladder algorithm's search step by step."""

from __future__ import annotations

import html as _html
import json
import operator
from typing import Any, Dict, List, Optional, Sequence, SupportsIndex, Union, overload

from . import _nqueens


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

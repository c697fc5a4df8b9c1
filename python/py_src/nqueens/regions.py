"""Queens with regions, the daily "Queens" game: :class:`Board`, :func:`parse`, :func:`generate`.

An ``n`` x ``n`` grid is split into ``n`` connected regions; ``n`` queens go one per row, one
per column and one per region, and no two touch, diagonally included. A board is read from
the text form (one line per row, one letter or digit per cell naming its region, then
``q ROW COL`` and ``x ROW COL`` lines for the queens and crosses of a game in progress,
counted from 1) or the JSON form (``{"regions": [...], "queens": [[1, 2]], ...}``), the forms
``nqueens region`` reads and writes (docs/regions.md). In Python, cells are ``(row, col)``
from 0 and solutions are columns from 0, one per row.

>>> from nqueens import regions
>>> board = regions.parse("AAAB\\nCABB\\nCCBD\\nCCDD\\n")
>>> board.solve(), board.count(limit=2)
((1, 3, 0, 2), 1)
>>> rating = board.rate()
>>> rating.difficulty, rating.steps[0].rule
('hard', 'pigeonhole')
>>> board.defect([(0, 1), (1, 1)]).rule
'column'
>>> puzzle = next(regions.generate(7, seed=1))
>>> puzzle.board.count(limit=2), puzzle.board.solve() == puzzle.solution
(1, True)
"""

from __future__ import annotations

from dataclasses import dataclass
import operator
from typing import (
    Dict,
    Iterable,
    Iterator,
    List,
    Literal,
    Optional,
    SupportsIndex,
    Tuple,
    Union,
    cast,
    get_args,
)

from . import _nqueens
from ._placement import Squares

#: A cell: ``(row, col)``, from 0.
Cell = Tuple[int, int]
#: How hard a puzzle is for a person: the hardest rule it needed, or ``"needs-guessing"``
#: where the rules run out.
Difficulty = Literal["easy", "medium", "hard", "needs-guessing"]
#: A deduction players use (docs/regions.md, "Rating").
Rule = Literal["around", "last-cell", "confined", "pigeonhole", "would-empty"]
#: The rules a placement can break, in the order they are looked for.
Broken = Literal["off-grid", "row", "column", "region", "touching", "missing"]

#: Every difficulty, easiest first.
DIFFICULTIES: Tuple[Difficulty, ...] = get_args(Difficulty)
#: Every rule, simplest first: the order the rating solver tries them in.
RULES: Tuple[Rule, ...] = get_args(Rule)

__all__ = [
    "DIFFICULTIES",
    "RULES",
    "Board",
    "Broken",
    "Cell",
    "Defect",
    "Difficulty",
    "Hint",
    "Puzzle",
    "Rating",
    "Rule",
    "Step",
    "generate",
    "parse",
]


@dataclass(frozen=True)
class Step:
    """One deduction of the rating solver.

    Attributes:
        rule: the rule used.
        queens: the queens it places.
        crosses: the cells it crosses out, row by row.
        reason: why, in words (rows and columns counted from 1).
    """

    rule: Rule
    queens: Tuple[Cell, ...]
    crosses: Tuple[Cell, ...]
    reason: str


@dataclass(frozen=True)
class Rating:
    """How a person solves a board: the rating solver's steps from its marks.

    Attributes:
        difficulty: the hardest rule needed, or ``"needs-guessing"`` if the rules ran out.
        steps: the deductions, in order.
        queens: every queen on the grid at the end, the board's and the solver's, sorted.
        stuck: why the solver stopped short of a full grid, or ``None`` when it solved it.
    """

    difficulty: Difficulty
    steps: Tuple[Step, ...]
    queens: Tuple[Cell, ...]
    stuck: Optional[str]

    @property
    def uses(self) -> Dict[Rule, int]:
        """How many steps used each rule, simplest first (every rule, 0 for those unused)."""
        return {rule: sum(1 for s in self.steps if s.rule == rule) for rule in RULES}


@dataclass(frozen=True)
class Hint:
    """The next deduction from a board's marks.

    Attributes:
        step: the deduction, or ``None``.
        stuck: why there is none: the marks leave no solution (a wrong queen or cross), or no
            rule applies. Both ``None``: the grid is full.
    """

    step: Optional[Step]
    stuck: Optional[str]

    @property
    def solved(self) -> bool:
        """``True`` when every queen is on the grid."""
        return self.step is None and self.stuck is None


@dataclass(frozen=True)
class Defect:
    """The rule a placement breaks.

    Attributes:
        rule: which rule: ``"off-grid"``, ``"row"``, ``"column"``, ``"region"``,
            ``"touching"`` or ``"missing"`` (fewer queens than rows).
        message: the rule and where, as ``nqueens region verify`` says it.
    """

    rule: Broken
    message: str


def _step(raw: Tuple[str, List[Cell], List[Cell], str]) -> Step:
    rule, queens, crosses, reason = raw
    return Step(cast(Rule, rule), tuple(queens), tuple(crosses), reason)


def _rating(
    raw: Tuple[str, List[Tuple[str, List[Cell], List[Cell], str]], List[Cell], Optional[str]],
) -> Rating:
    difficulty, steps, queens, stuck = raw
    return Rating(
        cast(Difficulty, difficulty), tuple(_step(s) for s in steps), tuple(queens), stuck
    )


class Board:
    """A region grid with the queens and crosses of a game in progress.

    ``Board(source, queens=..., crosses=...)``: ``source`` is the text or JSON form (a
    ``str``) or the rows (``str`` each, one letter or digit a cell); ``queens`` and
    ``crosses`` add marks, ``(row, col)`` from 0, in any form the package takes squares in
    (pairs, a ``(K, 2)`` array, an ``N`` x ``N`` boolean mask). Regions must be connected (cells joined side
    by side), as in the game; a grid that is not square, the wrong number of regions, a region
    in pieces or a mark off the grid or on a marked cell raise ``ValueError`` naming what is
    wrong, as ``nqueens region`` does.

    In a notebook a board draws itself: tinted regions (a colour-blind-safe palette), thick
    lines between regions and each region's letter in every cell, so colour is never the only
    cue.

    >>> from nqueens.regions import Board
    >>> board = Board(["AAB", "ACB", "CCB"])
    >>> board.n, board.rows, board.count()
    (3, ('AAB', 'ACB', 'CCB'), 0)
    >>> Board(["AB", "BA"])
    Traceback (most recent call last):
    ...
    ValueError: region B is in pieces: regions must be connected (cells joined side by side)
    """

    __slots__ = ("_native",)
    _native: _nqueens.RegionBoard

    def __init__(
        self,
        source: Union[str, Iterable[str]],
        *,
        queens: Optional[Squares] = None,
        crosses: Optional[Squares] = None,
    ) -> None:
        self._native = _nqueens.RegionBoard(source, queens=queens, crosses=crosses)

    @classmethod
    def _wrap(cls, native: _nqueens.RegionBoard) -> Board:
        board = cls.__new__(cls)
        board._native = native
        return board

    @property
    def n(self) -> int:
        """The size of the grid."""
        return self._native.n

    @property
    def rows(self) -> Tuple[str, ...]:
        """The grid, a ``str`` a row, one letter or digit a cell naming its region."""
        return tuple(self.to_text().splitlines()[: self.n])

    @property
    def regions(self) -> Tuple[int, ...]:
        """The region of each cell, row by row, numbered from 0 in the order they appear."""
        return tuple(self._native.regions())

    @property
    def labels(self) -> str:
        """The letter of each region, by number."""
        return self._native.labels()

    @property
    def queens(self) -> Tuple[Cell, ...]:
        """The queens placed, in the order given."""
        return tuple(self._native.queens())

    @property
    def crosses(self) -> Tuple[Cell, ...]:
        """The cells crossed out."""
        return tuple(self._native.crosses())

    def region(self, row: SupportsIndex, col: SupportsIndex) -> str:
        """The letter of the region of a cell."""
        if isinstance(row, bool) or isinstance(col, bool):
            raise TypeError("rows and columns must be ints, not bool")
        n = self.n
        r, c = operator.index(row), operator.index(col)
        if not (0 <= r < n and 0 <= c < n):
            raise ValueError(f"row {r + 1}, column {c + 1} is outside the {n}x{n} board")
        return self.labels[self.regions[r * n + c]]

    def solve(self) -> Optional[Tuple[int, ...]]:
        """The first solution that keeps the board's queens and avoids its crosses, as the
        column of each row's queen, or ``None``. Ctrl-C stops it."""
        found = self._native.first()
        return None if found is None else tuple(found)

    def count(self, *, limit: Optional[SupportsIndex] = None) -> int:
        """The number of solutions, at most ``limit``: ``count(limit=2) == 1`` proves a
        puzzle unique at the cost of finding two solutions. Ctrl-C stops it.

        Raises:
            ValueError: ``limit`` below 1.
        """
        return self._native.count(limit)[0]

    def unique(self) -> bool:
        """``True`` if the board has exactly one solution."""
        return self.count(limit=2) == 1

    def solutions(self, *, limit: Optional[SupportsIndex] = None) -> Iterator[Tuple[int, ...]]:
        """Every solution (up to ``limit``), lazily, as columns; the search runs on a thread of
        its own a little ahead of the loop, and stops when the iterator is dropped or on
        Ctrl-C.

        >>> from nqueens.regions import Board
        >>> list(Board(["AAAA", "BBBB", "CCCC", "DDDD"]).solutions())
        [(1, 3, 0, 2), (2, 0, 3, 1)]
        """
        for cols in _nqueens.RegionSolutionIter(self._native, limit=limit):
            yield tuple(cols)

    def defect(
        self, queens: Optional[Iterable[Tuple[SupportsIndex, SupportsIndex]]] = None
    ) -> Optional[Defect]:
        """The first rule ``queens`` break (the board's own queens if ``None``), in the order
        off the grid, row, column, region, touching, too few queens; ``None`` for a solution.
        For columns (a solution from :meth:`solve`), pass ``enumerate(columns)``.

        >>> from nqueens.regions import Board
        >>> b = Board(["AAAA", "BBBB", "CCCC", "DDDD"])
        >>> b.defect([(0, 0), (1, 1)]).message.split(":")[0]
        'the queens at row 1 column 1 and row 2 column 2 touch'
        >>> b.defect(enumerate(b.solve())) is None
        True
        """
        found = self._native.defect(self.queens if queens is None else queens)
        return None if found is None else Defect(cast(Broken, found[0]), found[1])

    def verify(
        self, queens: Optional[Iterable[Tuple[SupportsIndex, SupportsIndex]]] = None
    ) -> bool:
        """``True`` if ``queens`` (the board's own if ``None``) solve the board."""
        return self.defect(queens) is None

    def rate(self) -> Rating:
        """Solves from the board's marks with the rules players use only, simplest first, and
        rates the board by the hardest one needed."""
        return _rating(self._native.rate())

    def hint(self) -> Hint:
        """The next deduction from the board's marks, after the exact solver has checked that
        they still allow a solution (so a wrong cross is reported, not built on)."""
        step, stuck = self._native.hint()
        return Hint(None if step is None else _step(step), stuck)

    def with_marks(
        self,
        *,
        queens: Squares = (),
        crosses: Squares = (),
    ) -> Board:
        """The same board with more queens and crosses."""
        return Board(self.to_text(), queens=queens, crosses=crosses)

    def to_text(self) -> str:
        """The text form: the grid, then ``q ROW COL`` and ``x ROW COL`` lines (from 1)."""
        return self._native.text()

    def to_json(self) -> str:
        """The JSON form, on one line."""
        return self._native.json()

    def svg(self) -> str:
        """An SVG picture: tinted regions, thick borders between them, each region's letter in
        every cell, queens and crosses."""
        return self._native.svg()

    def drawing(self) -> str:
        """The board for a terminal: letters, ``#`` queens, ``.`` crosses, ``|`` and ``-``
        where regions meet."""
        return self._native.terminal()

    def page(self) -> str:
        """A self-contained HTML page to play the board in a browser: queens and crosses by
        mouse or keyboard, undo, check, and hints with their reasons."""
        return self._native.page()

    def _repr_svg_(self) -> str:
        return self.svg()

    def _repr_html_(self) -> str:
        # Notebooks prefer HTML: the picture, and the text form for screen readers and copying.
        text = f"<figcaption><pre>{self.to_text()}</pre></figcaption>"
        return f'<figure style="margin:0">{self.svg()}{text}</figure>'

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        return f"Board({self.to_text()!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return self._native == other._native

    def __hash__(self) -> int:
        return hash(self.to_text())


@dataclass(frozen=True)
class Puzzle:
    """A generated puzzle: its board (no marks), its one solution and its rating.

    Attributes:
        board: the regions.
        solution: the column of each row's queen, from 0.
        rating: how a person solves it.
    """

    board: Board
    solution: Tuple[int, ...]
    rating: Rating

    @property
    def difficulty(self) -> Difficulty:
        """The rating's difficulty."""
        return self.rating.difficulty

    def _repr_svg_(self) -> str:
        return self.board.svg()

    def _repr_html_(self) -> str:
        return self.board._repr_html_()

    def to_dict(self) -> Dict[str, object]:
        """Plain lists and numbers, for ``pandas.DataFrame`` or ``datasets.Dataset.from_list``:
        the fields ``nqueens region generate --format json`` writes, cells from 0."""
        return {
            "n": self.board.n,
            "regions": list(self.board.rows),
            "solution": list(self.solution),
            "difficulty": self.rating.difficulty,
            "steps": len(self.rating.steps),
            "uses": self.rating.uses,
        }


def parse(text: str) -> Board:
    """The board in ``text``: its text form or its JSON form (``{`` first).

    Raises:
        ValueError: what is wrong with it, as ``nqueens region`` says it.
    """
    return Board(text)


def generate(
    n: SupportsIndex,
    *,
    count: SupportsIndex = 1,
    seed: SupportsIndex = 0,
    difficulty: Optional[Difficulty] = None,
    threads: Optional[SupportsIndex] = None,
) -> Iterator[Puzzle]:
    """Puzzles with exactly one solution, rated, lazily and in order (``nqueens region
    generate``). N from 5 to 32; the same ``seed`` gives the same puzzles for any ``threads``
    (all cores by default). Made on a thread of their own a puzzle ahead of the loop; Ctrl-C
    stops them.

    >>> from nqueens import regions
    >>> [(p.board.n, p.board.count(limit=2)) for p in regions.generate(6, count=2, seed=3)]
    [(6, 1), (6, 1)]

    Raises:
        ValueError: ``n`` outside 5..32, an unknown difficulty, ``threads`` 0.
        RuntimeError: no puzzle of the difficulty asked for in 1000 grids.
    """
    made = _nqueens.RegionPuzzleIter(
        n, count=count, seed=seed, difficulty=difficulty, threads=threads
    )
    for native, solution, rating in made:
        yield Puzzle(Board._wrap(native), tuple(solution), _rating(rating))

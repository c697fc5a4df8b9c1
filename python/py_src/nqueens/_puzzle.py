"""Puzzles: :func:`puzzles`, boards with exactly one completion."""

from __future__ import annotations

import array
import html as _html
from dataclasses import dataclass
from typing import Dict, Iterator, List, Optional, SupportsIndex, Tuple, cast

from . import _nqueens
from ._names import Difficulty
from ._placement import Placement


@dataclass(frozen=True)
class Puzzle:
    """A board with exactly one completion, from ``puzzles``. Squares and columns are 0-based.

    Attributes:
        n: the board size.
        givens: the given queens as ``(row, col)``.
        blocked: the blocked squares as ``(row, col)``.
        solution: the one completion, as columns.
        difficulty: ``"easy"`` (propagation alone solves it), ``"medium"`` (guesses, each
            settled by propagation alone) or ``"hard"`` (nested guesses).
        guesses: the completion solver's decisions to solve it and prove it unique.
        depth: the most decisions on the board at once.
        failures: decisions refuted by propagation.
        propagations: queens forced by propagation.
    """

    n: int
    givens: Tuple[Tuple[int, int], ...]
    blocked: Tuple[Tuple[int, int], ...]
    solution: Placement
    difficulty: Difficulty
    guesses: int
    depth: int
    failures: int
    propagations: int

    def drawing(self) -> str:
        """The board: ``Q`` a given queen, ``x`` a blocked square, ``.`` free; ``complete``
        reads it back."""
        rows = [["."] * self.n for _ in range(self.n)]
        for r, c in self.givens:
            rows[r][c] = "Q"
        for r, c in self.blocked:
            rows[r][c] = "x"
        return "".join(" ".join(row) + "\n" for row in rows)

    def svg(self, *, size: Optional[SupportsIndex] = None) -> str:
        """The puzzle as an SVG picture: the given queens on blue squares, the blocked squares
        crossed out, the rest free; its title says the difficulty."""
        cols: List[Optional[int]] = [None] * self.n
        for r, c in self.givens:
            cols[r] = c
        return _nqueens.svg(
            cols,
            size=size,
            blocked=self.blocked,
            given=[r for r, _ in self.givens],
            title=self._caption(),
        )

    def _caption(self) -> str:
        return (
            f"{self.difficulty} puzzle, {self.n}x{self.n}: {len(self.givens)} given, "
            f"{len(self.blocked)} blocked, one completion"
        )

    def _repr_html_(self) -> str:
        # A notebook shows the board and how hard it is, not the dataclass's fields.
        return (
            f"<figure style=\"display: inline-block; margin: 0\">{self.svg()}"
            f"<figcaption>{_html.escape(self._caption())} ({self.guesses} guesses)"
            "</figcaption></figure>"
        )

    def to_dict(self) -> Dict[str, object]:
        """Plain lists and numbers, for ``pandas.DataFrame`` or ``datasets.Dataset.from_list``;
        ``complete(row["solution"]...)`` and ``complete(..., blocked=row["blocked"])`` take
        its lists back."""
        return {
            "n": self.n,
            "givens": [list(sq) for sq in self.givens],
            "blocked": [list(sq) for sq in self.blocked],
            "solution": list(self.solution),
            "number_of_givens": len(self.givens),
            "difficulty": self.difficulty,
            "guesses": self.guesses,
            "depth": self.depth,
            "failures": self.failures,
            "propagations": self.propagations,
        }


def puzzles(
    n: SupportsIndex,
    *,
    count: SupportsIndex = 1,
    seed: SupportsIndex = 0,
    blocked: bool = False,
    minimal: bool = False,
    difficulty: Optional[Difficulty] = None,
    threads: Optional[SupportsIndex] = None,
) -> Iterator[Puzzle]:
    """Puzzles with exactly one completion, lazily, in order (``nqueens puzzle``).

    Each puzzle's uniqueness is proved by the completion solver (its completions counted with
    a limit of 2). ``blocked``: clues may be blocked squares too; ``minimal``: taking away any
    clue leaves more than one completion; ``difficulty``: ``"easy"``, ``"medium"`` or
    ``"hard"`` only. The same ``seed`` gives the same puzzles for any ``threads`` (all cores
    by default). N from 4 to 64.

    >>> import nqueens
    >>> p = next(nqueens.puzzles(8, seed=1))
    >>> nqueens.complete(p.drawing(), count=True).count
    1
    >>> import pandas                                                  # doctest: +SKIP
    >>> pandas.DataFrame(p.to_dict() for p in nqueens.puzzles(12, count=100, minimal=True))  # doctest: +SKIP

    Raises:
        ValueError: ``n`` outside 4..64, an unknown difficulty, ``threads`` 0.
        RuntimeError: no puzzle of the difficulty asked for in 1000 tries (N = 4 has no
            medium or hard puzzle).
        KeyboardInterrupt: Ctrl-C while puzzles are made stops them within milliseconds
            (between two proofs of uniqueness); the puzzles end there.
    """
    made = _nqueens.PuzzleIter(
        n,
        count=count,
        seed=seed,
        blocked=blocked,
        minimal=minimal,
        difficulty=difficulty,
        threads=threads,
    )
    for n_, givens, blocked_, solution, level, measures in made:
        yield Puzzle(
            n_,
            tuple(givens),
            tuple(blocked_),
            Placement._from_bytes(array.array("I", solution).tobytes()),
            cast(Difficulty, level),
            *measures,
        )

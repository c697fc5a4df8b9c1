"""Queens with regions, the daily "Queens" game: the public face of :mod:`nqueens._regions`
(boards read, solved, counted, listed, checked, rated and drawn; puzzles generated)."""

from ._regions import (
    DIFFICULTIES,
    RULES,
    Board,
    Broken,
    Cell,
    Defect,
    Difficulty,
    Hint,
    Puzzle,
    Rating,
    Rule,
    Step,
    generate,
    parse,
)

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

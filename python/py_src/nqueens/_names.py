"""The names arguments take, as ``Literal`` types: a type checker refuses a typo and an
editor offers the names. The tests check them against the library's own lists."""

from typing import Literal

#: An algorithm of the ladder, slowest first (``count(n, algo=...)``, ``trace(n, algo=...)``);
#: :data:`nqueens.ALGORITHMS` at run time.
Algo = Literal[
    "permutations",
    "backtracking",
    "flags",
    "swap",
    "bitboard",
    "mirror",
    "symmetry",
    "parallel",
    "cp",
]

#: A strategy of the engine (``count(n, strategy=...)``); :data:`nqueens.STRATEGIES` at run
#: time.
Strategy = Literal["backtrack", "join"]

#: Where a count runs (``count(n, device=...)``).
Device = Literal["cpu", "gpu"]

#: How hard a puzzle is (``puzzles(n, difficulty=...)``, ``Puzzle.difficulty``).
Difficulty = Literal["easy", "medium", "hard"]

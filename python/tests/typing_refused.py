# pyright: reportDeprecated=error
"""Calls a type checker must refuse (python/ci.sh runs mypy --strict and pyright on this file
and requires an error on each line marked `# refused`, and nowhere else): names that are
not names, a bool for a board size, a step read without asking what event it is. Not a test
module: pytest does not collect it, and nothing runs it."""

import nqueens


def refused() -> None:
    nqueens.count(10, algo="backtrack")  # refused
    nqueens.count(10, strategy="joins")  # refused
    nqueens.count(10, device="GPU")  # refused
    nqueens.puzzles(8, difficulty="extreme")  # refused
    nqueens.trace(6, algo="flag")  # refused
    step = nqueens.trace(4)[0]
    step["row"] + 1  # refused


def a_bool_for_a_size() -> None:
    # Deprecated, the one mark a type can put on a bool where an int goes (its own function:
    # the overload returns NoReturn, and a checker reads no further).
    nqueens.count(True)  # refused

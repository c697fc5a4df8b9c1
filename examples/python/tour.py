# %% [markdown]
# # N-Queens from Python: a tour
#
# A notebook-style script (the `# %%` cells open as cells in Jupyter, VS Code and
# Spyder; `python3 examples/python/tour.py` runs it top to bottom). It needs only the
# module: `pip install ./python` from the repository root.

# %%
import pathlib

import nqueens

# %% [markdown]
# ## One solution, drawn
#
# `solutions(n)` is lazy: taking the first one computes nothing more. Columns are 0-based,
# one per row. `svg()` draws the board; in a notebook `IPython.display.SVG` shows it inline,
# otherwise the picture goes to a file.

# %%
first = next(nqueens.solutions(8))
print("first solution of 8 queens:", first)
print(nqueens.board(first))

picture = nqueens.svg(first)
try:
    from IPython.display import SVG, display

    display(SVG(picture))
except ImportError:
    path = pathlib.Path("eight_queens.svg")
    path.write_text(picture)
    print(f"picture written to {path.resolve()}")

# %% [markdown]
# ## The reference documents' table: N | total | unique | time
#
# `count(range(...))` counts every N (each checked before the first is counted) and
# `table()` prints the results as Markdown.

# %%
results = nqueens.count(range(4, 16))
print(nqueens.table(results))

# %% [markdown]
# ## The ladder, side by side
#
# Every classic algorithm of the ladder counts by name: the slow ones are the lesson.

# %%
for algo in nqueens.ALGORITHMS:
    r = nqueens.count(9, algo=algo)
    print(f"{algo:>13}: {r.total} solutions in {r.seconds * 1e3:8.2f} ms")

# %% [markdown]
# ## Unique solutions, and ten million queens
#
# One canonical solution per class of the 8 board symmetries; then one solution of
# 10^7 queens by construction, as an `array('I')` of 40 MB, checked by `verify`.

# %%
unique = list(nqueens.solutions(8, unique=True))
print(f"{len(unique)} unique solutions of 8, the first three:", unique[:3])
big = nqueens.find(10_000_000)
print(f"{len(big):,} queens, a solution: {nqueens.verify(big)}")

# %% [markdown]
# ## Completing a board
#
# Given queens (`Q`) and blocked squares (`x`): the propagation solver finds a completion,
# counts them, and says how much search it took.

# %%
puzzle = [
    "Q.......",
    "..x.....",
    "........",
    "........",
    "....x...",
    "........",
    "........",
    "........",
]
answer, stats = nqueens.complete(puzzle, stats=True)
print(nqueens.board(answer))
print("completions:", nqueens.complete(puzzle, count=True), "| search:", stats)

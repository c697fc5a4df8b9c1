# %% [markdown]
# # N-Queens from Python: a tour
#
# A notebook-style script (the `# %%` cells open as cells in Jupyter, VS Code and
# Spyder; `python examples/python/tour.py` runs it top to bottom, and CI does). It needs
# the module, numpy, tqdm and Dask:
# `pip install ./python numpy tqdm "dask[distributed]"` from the repository root.
# Outside a notebook, the pictures go to files in the current directory.

# %%
from __future__ import annotations

import importlib
import pathlib
import sys

import numpy as np

import nqueens


def show(name: str, obj: object) -> None:
    """In a notebook, display `obj` (a board, a table, a trace player); otherwise write the
    HTML or SVG it would show to a file."""
    try:
        get_ipython  # type: ignore[name-defined]  # noqa: B018 (defined only in IPython)
    except NameError:
        pass
    else:
        importlib.import_module("IPython.display").display(obj)
        return
    svg = getattr(obj, "_repr_svg_", None)
    html = getattr(obj, "_repr_html_", None)
    if svg is not None and svg() is not None:
        path = pathlib.Path(f"{name}.svg")
        path.write_text(svg())
    elif html is not None:
        path = pathlib.Path(f"{name}.html")
        path.write_text(html())
    else:
        return
    print(f"{name}: written to {path}")


# %% [markdown]
# ## One solution, drawn
#
# Every placement is a `nqueens.Placement`: 0-based columns, equal to the tuple or list of
# them, drawn as a board by a notebook. `svg()` takes a size, blocked squares and partial
# boards (`None` for a row without a queen).

# %%
first = next(nqueens.solutions(8))
print("first solution of 8 queens:", first, "== tuple:", first == tuple(first))
print(first.board())
show("first", first)
partial = nqueens.svg([0, None, None, None, 2, None, None, None], size=240, blocked=[(1, 2)])
pathlib.Path("partial.svg").write_text(partial)

# %% [markdown]
# ## numpy: arrays in, arrays out
#
# Any integer array is a placement (numpy's ints are sizes); a `Placement` is a buffer, so
# `np.asarray` views it without a copy; `solutions(n, batch=K)` gives `(K, n)` blocks.

# %%
board = np.zeros((8, 8), dtype=np.int8)
board[np.arange(8), np.asarray(first)] = 1
assert nqueens.verify(np.argmax(board, axis=1))
print("count(np.int64(10)):", nqueens.count(np.int64(10)).total)
blocks = np.concatenate(list(nqueens.solutions(10, batch=256)))
print("all 724 solutions of 10 as one array:", blocks.shape, blocks.dtype)
print("queens in column 0, by row:", np.bincount(np.argmin(blocks, axis=1), minlength=10))
big = nqueens.find(10_000_000)
assert big is not None
cols = np.asarray(big)
print(f"{len(big):,} queens, a solution: {big.verify()}; numpy sees {cols.dtype}, no copy:",
      not cols.flags.owndata)

# %% [markdown]
# ## The reference documents' table, with a progress bar
#
# `count(range(...))` counts every N (each checked before the first is counted); a notebook
# shows the results as a table. `progress=True` draws a tqdm bar per board.

# %%
results = nqueens.count(range(4, 17), progress=True)
print(results.table())
show("table", results)
assert nqueens.count(8) == nqueens.count(8)  # equality ignores the time

# %% [markdown]
# ## The ladder, side by side, and one search step by step
#
# Every classic algorithm of the ladder counts by name: the slow ones are the lesson.
# `trace` records a search's steps (the same as `nqueens trace --format json`); a notebook
# plays them with the library's player.

# %%
for algo in nqueens.ALGORITHMS:
    r = nqueens.count(9, algo=algo)
    print(f"{algo:>13}: {r.total} solutions in {r.seconds * 1e3:8.2f} ms")
steps = nqueens.trace(6, algo="backtracking")
events = [s["event"] for s in steps]
print(f"backtracking on 6x6: {len(steps)} steps, {events.count('place')} queens placed,",
      f"{steps.summary['solutions']} solutions")
show("trace", steps)

# %% [markdown]
# ## Completing a board
#
# Given queens (`Q`) and blocked squares (`x`): the propagation solver says `solved`,
# `none` or `unknown` (at a limit), with the completion or the count and its statistics.

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
c = nqueens.complete(puzzle)
print(c.status, c.placement, c.stats)
print("completions:", nqueens.complete(puzzle, count=True).count)
print("with a limit:", nqueens.complete([None] * 30, count=True, node_limit=1000).status)

# %% [markdown]
# ## A count on a cluster
#
# `count(n, shard=(i, k))` counts one shard; `merge` adds them up and refuses a missing,
# repeated or foreign one. `dask_count.py` fans the shards out over a Dask cluster: here a
# `distributed.LocalCluster` of two worker processes.

# %%
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from dask_count import count_on_cluster, local_client  # noqa: E402

# Dask's worker processes import this script again: they must not run the cell.
if __name__ == "__main__":
    with local_client(2) as client:
        merged = count_on_cluster(client, 15, shards=8)
    print("N=15 on the cluster:", merged.total, merged.unique)
    assert (merged.total, merged.unique) == (2279184, 285053)

"""numpy: ints through __index__, arrays of every integer dtype, Placement as a buffer,
solutions in (K, n) blocks."""

import array
import copy
import pickle
import re
import sys

import pytest

import nqueens

np = pytest.importorskip("numpy")

INT_DTYPES = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]


def test_numpy_ints_are_sizes_and_options():
    assert nqueens.count(np.int64(8)).total == 92
    assert nqueens.count(np.uint8(14), threads=np.int32(1)).total == 365596
    assert [r.total for r in nqueens.count(np.arange(4, 9))] == [2, 10, 4, 40, 92]
    assert len(list(nqueens.solutions(np.int16(6)))) == 4
    assert nqueens.find(np.int64(1000)).verify()
    assert nqueens.find(np.int32(50), random=True, seed=np.uint64(3)).verify()
    assert nqueens.complete([np.int64(0)] + [None] * 7).status == "solved"
    assert nqueens.svg([1, 3, 0, 2], size=np.int64(80)).count('width="80"') == 1
    with pytest.raises(TypeError, match="bool"):
        nqueens.count(True)
    with pytest.raises(TypeError):
        nqueens.count(np.float64(8))


@pytest.mark.parametrize("dtype", INT_DTYPES + [">i4", ">u8", "<i2"])
def test_arrays_of_every_integer_dtype(dtype):
    good = np.array([1, 3, 0, 2], dtype=dtype)
    assert nqueens.verify(good) and nqueens.board(good) == nqueens.board([1, 3, 0, 2])
    assert nqueens.defect(np.array([1, 1, 0, 2], dtype=dtype)) is not None
    off = np.array([1, 3, 0, 100], dtype=dtype)
    assert nqueens.defect(off) == "row 4: column 101 is outside a 4x4 board"
    if np.dtype(dtype).kind == "i":
        neg = np.array([1, 3, 0, -2], dtype=dtype)
        assert nqueens.defect(neg) == "row 4: column -1 is outside a 4x4 board"


def test_the_documented_numpy_uses():
    # One-hot rows of a board to columns, as a student would.
    board = np.zeros((8, 8), dtype=np.int8)
    for r, c in enumerate([0, 4, 7, 5, 2, 6, 1, 3]):
        board[r, c] = 1
    assert nqueens.verify(np.argmax(board, axis=1))
    # Strided and reversed views are read as they index.
    assert nqueens.verify(np.array([1, 9, 3, 9, 0, 9, 2, 9])[::2])
    assert nqueens.verify(np.array([2, 0, 3, 1])[::-1])
    # Extremes of each width.
    assert nqueens.defect(np.array([2**63 - 1, 0], dtype=np.int64)).startswith("row 1: column 9223372036854775808")
    assert nqueens.defect(np.array([2**64 - 1, 0], dtype=np.uint64)).startswith("row 1: column 18446744073709551616")


def test_what_is_not_columns():
    with pytest.raises(TypeError, match="one-dimensional"):
        nqueens.verify(np.zeros((2, 2, 2), dtype=np.int64))
    with pytest.raises(TypeError, match="ints, not a buffer of format"):
        nqueens.verify(np.zeros(4))
    with pytest.raises(TypeError, match="ints, not a buffer of format"):
        nqueens.verify(np.zeros(4, dtype=bool))
    with pytest.raises(TypeError, match="columns must be ints, not float"):
        nqueens.verify([1.0, 3.0])


def test_a_placement_is_one_type_everywhere():
    p = nqueens.find(8)
    for q in (p, next(nqueens.solutions(8)), nqueens.complete([None] * 8).placement,
              next(nqueens.puzzles(8, seed=1)).solution):
        assert type(q) is nqueens.Placement and q.verify()
    assert nqueens.Placement([1, 3, 0, 2]) == (1, 3, 0, 2)
    assert nqueens.Placement([1, 3, 0, 2]) == [1, 3, 0, 2]
    assert (1, 3, 0, 2) == nqueens.Placement([1, 3, 0, 2]) != [1, 3, 0]
    assert nqueens.Placement([1, 3, 0, 2]) == array.array("I", [1, 3, 0, 2])
    assert nqueens.Placement([1, 3, 0, 2]) != (1, 3, 2, 0)
    assert len({nqueens.Placement([1, 3, 0, 2]), (1, 3, 0, 2)}) == 1
    assert set(nqueens.solutions(6)) == set(map(tuple, nqueens.solutions(6)))


def test_numpy_views_a_placement_without_a_copy():
    p = nqueens.find(1_000_000)
    a = np.asarray(p)
    assert a.dtype == np.uint32 and a.shape == (1_000_000,)
    assert a.ctypes.data == np.asarray(p).ctypes.data and not a.flags.owndata
    if sys.version_info >= (3, 12):
        assert memoryview(p).format == "I" and memoryview(p).nbytes == 4_000_000
    assert (a == np.asarray(list(p[:10]) + list(p[10:]), dtype=np.uint32)).all()


def test_a_placement_is_read_only_and_pickles():
    p = nqueens.Placement([1, 3, 0, 2])
    for change in ("__setitem__", "append", "extend", "pop", "reverse", "frombytes"):
        assert not hasattr(p, change)
    with pytest.raises(AttributeError, match="read-only"):
        p._cols = memoryview(b"\0\0\0\0").cast("I")
    pickled = [pickle.loads(pickle.dumps(p, protocol)) for protocol in range(pickle.HIGHEST_PROTOCOL + 1)]
    for q in (*pickled, copy.copy(p), copy.deepcopy(p)):
        assert type(q) is nqueens.Placement and q == p
    assert repr(p) == "Placement([1, 3, 0, 2])"
    assert repr(nqueens.find(100)).endswith("# 100 queens")
    with pytest.raises(ValueError, match="outside"):
        nqueens.Placement([0, -1])


def test_a_placement_draws_itself():
    p = nqueens.Placement([1, 3, 0, 2])
    assert re.sub(r"-\d+", "", p._repr_svg_()) == re.sub(r"-\d+", "", nqueens.svg(p))
    assert p.svg(size=120).startswith('<svg xmlns="http://www.w3.org/2000/svg" width="120" height="120"')
    assert nqueens.find(801)._repr_svg_() is None
    partial = nqueens.svg([None, 3, None, None], blocked=[(0, 0), (2, 3)])
    assert partial.count('<use href="#queen-') == 1 and 'x="3" y="1"' in partial
    assert partial.count('stroke="#c00"') == 2
    with pytest.raises(ValueError, match="outside"):
        nqueens.svg([0, None], blocked=[(2, 0)])
    with pytest.raises(ValueError, match="size must be at least 1"):
        nqueens.svg([0], size=0)
    with pytest.raises(TypeError, match="ints or None"):
        nqueens.svg([0, "x"])


@pytest.mark.parametrize("unique", [False, True])
@pytest.mark.parametrize("k", [1, 7, 92, 1000])
def test_solutions_in_blocks(k, unique):
    one_by_one = [tuple(p) for p in nqueens.solutions(8, unique=unique)]
    blocks = list(nqueens.solutions(8, unique=unique, batch=k))
    assert all(b.dtype == np.uint32 and b.shape[1] == 8 and 0 < b.shape[0] <= k for b in blocks)
    assert all(b.shape[0] == k for b in blocks[:-1])
    assert [tuple(row) for row in np.concatenate(blocks)] == one_by_one


def test_blocks_refuse_a_bad_size():
    with pytest.raises(ValueError, match="batch must be at least 1"):
        nqueens.solutions(8, batch=0)
    with pytest.raises(ValueError):
        nqueens.solutions(65, batch=10)


def test_a_seed_without_random_is_refused():
    with pytest.raises(ValueError, match="seed is for random=True"):
        nqueens.find(100, seed=3)
    assert nqueens.find(100, seed=None) == nqueens.find(100)

"""Placements and instances in numpy's and pandas' forms (issue 50): a placement no array can
change, squares as pairs, arrays and masks, free rows as -1 or a mask, blocks verified a row
at a time, sizes as 0-d arrays, and tables with fixed dtypes."""

import sys

import pytest

import nqueens

np = pytest.importorskip("numpy")


def test_numpy_cannot_change_a_placement():
    p = nqueens.find(8)
    held = {p}
    a = np.asarray(p)
    assert a.dtype == np.uint32 and not a.flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        a.sort()
    with pytest.raises(ValueError, match="read-only"):
        a += 1
    with pytest.raises(ValueError, match="read-only"):
        a[0] = 5
    assert p.verify() and p in held and hash(p) == hash(tuple(p))
    # A copy is the way to change one, as the message says.
    b = np.array(p)
    b[0] = 7
    assert b.flags.writeable and p[0] != 7


@pytest.mark.skipif(sys.version_info < (3, 12), reason="a class gives its buffer from 3.12 (PEP 688)")
def test_a_placements_memoryview_is_read_only():
    p = nqueens.Placement([1, 3, 0, 2])
    m = memoryview(p)
    assert m.readonly and m.format == "I" and m.tolist() == [1, 3, 0, 2]
    with pytest.raises(TypeError, match="read-only"):
        m[0] = 2
    assert p == (1, 3, 0, 2)


def test_a_placement_is_an_immutable_sequence():
    p = nqueens.Placement([1, 3, 0, 2])
    assert p[1:3] == (3, 0) and p[-1] == 2 and list(reversed(p)) == [2, 0, 3, 1]
    assert p.index(0) == 2 and p.count(3) == 1 and 3 in p and 9 not in p
    with pytest.raises(TypeError):
        p[0] = 1  # type: ignore[index]
    with pytest.raises(AttributeError, match="read-only"):
        p.extra = 1  # type: ignore[attr-defined]
    assert np.asarray(p, dtype=np.int64).dtype == np.int64
    assert (np.asarray(p) == [1, 3, 0, 2]).all()


def test_blocked_squares_in_every_form():
    n = 8
    rng = np.random.default_rng(5)
    mask = rng.random((n, n)) < 0.25
    mask[0, 0] = False
    want = nqueens.complete([0] + [None] * 7, blocked=[tuple(sq) for sq in np.argwhere(mask).tolist()], count=True)
    forms = [
        np.argwhere(mask),                       # (K, 2) array
        np.argwhere(mask).tolist(),              # list of lists, as Puzzle.to_dict() has them
        [list(map(int, sq)) for sq in np.argwhere(mask)],
        mask,                                    # N x N boolean mask
        mask.tolist(),                           # nested lists of bools
        (tuple(sq) for sq in np.argwhere(mask)),  # numpy ints in tuples, lazily
    ]
    for blocked in forms:
        c = nqueens.complete([0] + [None] * 7, blocked=blocked, count=True)
        assert c.count == want.count and set(c.blocked) == {tuple(map(int, sq)) for sq in np.argwhere(mask)}
    assert nqueens.complete([None] * 4, blocked=np.zeros((0, 2), dtype=np.int64)).status == "solved"


def test_a_puzzles_dict_goes_back_to_complete():
    for p in nqueens.puzzles(10, count=3, blocked=True, seed=4):
        row = p.to_dict()
        cols = [None] * row["n"]
        for r, c in row["givens"]:
            cols[r] = c
        c = nqueens.complete(cols, blocked=row["blocked"], count=True)
        assert c.count == 1


@pytest.mark.parametrize(
    "blocked, error, message",
    [
        (np.zeros((7, 8), dtype=bool), ValueError, "mask must be 8 x 8 for this board, not 7 rows"),
        (np.zeros((8, 9), dtype=bool), ValueError, "row 1 has 9 squares"),
        ([[True] * 8] * 7 + [[True] * 7 + [1]], TypeError, "mask holds bools, not int"),
        (np.array([[0, 1, 2]]), TypeError, "pairs"),
        ("ab", TypeError, "pairs"),
        ([[8, 0]], ValueError, "outside the 8x8 board"),
        ([[True, 0]], TypeError, "rows and columns must be ints, not bool"),
    ],
)
def test_squares_that_are_not(blocked, error, message):
    with pytest.raises(error, match=message):
        nqueens.complete([None] * 8, blocked=blocked)


def test_free_rows_in_numpy():
    # -1 marks a free row, as None does in a list; a masked array's masked rows are free.
    as_list = nqueens.complete([0, None, None, None, None, None, None, None], count=True).count
    assert nqueens.complete(np.array([0, -1, -1, -1, -1, -1, -1, -1]), count=True).count == as_list == 4
    masked = np.ma.masked_array([0, 9, 9, 9, 9, 9, 9, 9], mask=[False] + [True] * 7)
    assert nqueens.complete(masked, count=True).count == 4
    assert nqueens.complete([0, -1, None, -1, None, -1, None, -1], count=True).count == 4
    picture = nqueens.svg(np.array([1, -1, -1, 2], dtype=np.int8))
    assert picture.count('<use href="#queen-') == 2
    assert nqueens.svg(masked).count('<use href="#queen-') == 1
    # A placement has no free rows: -1 is off the board there, and a mask is never ignored.
    assert nqueens.defect(np.array([1, 3, 0, -1])) == "row 4: column 0 is outside a 4x4 board"
    with pytest.raises(ValueError, match="row 2 is masked"):
        nqueens.verify(np.ma.masked_array([1, 3, 0, 2], mask=[False, True, False, False]))
    assert nqueens.verify(np.ma.masked_array([1, 3, 0, 2], mask=False))


def test_verify_a_block_a_row_at_a_time():
    block = next(nqueens.solutions(8, batch=50))
    assert nqueens.verify(block).tolist() == [True] * 50
    bad = block.astype(np.int64)
    bad[3, 0] = bad[3, 1]
    got = nqueens.verify(bad)
    assert got.dtype == np.bool_ and got.shape == (50,)
    assert got.tolist() == [i != 3 for i in range(50)]
    assert nqueens.verify(np.zeros((0, 8), dtype=np.uint32)).shape == (0,)


def test_a_0d_array_is_a_size():
    assert nqueens.count(np.array(8)).total == 92
    assert nqueens.count(np.int64(8)).total == 92
    assert len(nqueens.find(np.array(10))) == 10
    assert [r.total for r in nqueens.count(np.array([4, 5]))] == [2, 10]
    for bad in (True, np.bool_(True), np.array(True)):
        with pytest.raises(TypeError, match="N must be an int.*not (bool|ndarray)"):
            nqueens.count(bad)


def test_results_and_traces_as_pandas():
    pd = pytest.importorskip("pandas")
    df = nqueens.count(range(4, 9)).to_pandas()
    assert list(df.columns) == ["n", "total", "unique", "seconds", "method"]
    assert df["total"].tolist() == [2, 10, 4, 40, 92] and df["unique"].tolist() == [1, 2, 1, 6, 12]
    without = nqueens.count(range(4, 6), unique=False).to_pandas()
    assert without.dtypes.tolist() == df.dtypes.tolist()
    assert str(df["unique"].dtype) == "UInt64" and without["unique"].isna().all()
    assert str(df["total"].dtype) == "uint64" and str(df["n"].dtype) == "int64"

    t = nqueens.trace(6, algo="cp")
    steps = t.to_pandas()
    assert len(steps) == len(t)
    assert list(steps.columns) == ["step", "event", "row", "col", "reason", "forced", "cols", "image", "checks"]
    # Rows stay ints where a step has none (a solution), never floats.
    assert str(steps["row"].dtype) == "Int64" and str(steps["col"].dtype) == "Int64"
    solutions = steps[steps["event"] == "solution"]
    assert solutions["row"].isna().all() and len(solutions) == 4
    assert sorted(map(tuple, solutions["cols"])) == sorted(map(tuple, nqueens.solutions(6)))
    placed = steps[steps["event"] == "place"]
    assert placed["row"].tolist() == [s["row"] for s in t if s["event"] == "place"]
    # The same dtypes for every algorithm, whatever steps it has.
    for algo in ("backtracking", "symmetry"):
        assert nqueens.trace(5, algo=algo).to_pandas().dtypes.tolist() == steps.dtypes.tolist()
    assert isinstance(steps, pd.DataFrame)

"""solutions(), find(), verify(), svg(), board(), complete(): against verify and a slow oracle."""

import array
import itertools
import random
import subprocess
import sys
import time

import pytest

import nqueens

TOTAL = {1: 1, 2: 0, 3: 0, 4: 2, 5: 10, 6: 4, 7: 40, 8: 92, 9: 352, 10: 724}
UNIQUE = {1: 1, 2: 0, 3: 0, 4: 1, 5: 2, 6: 1, 7: 6, 8: 12, 9: 46, 10: 92}


def attacks(cols):
    """The obvious check: some two queens share a column or a diagonal."""
    return any(
        a == b or abs(a - b) == j - i
        for (i, a), (j, b) in itertools.combinations(enumerate(cols), 2)
    )


def canonical(cols):
    """The smallest of the 8 images of a solution, comparing columns row by row."""
    n = len(cols)
    squares = [(r, c) for r, c in enumerate(cols)]
    maps = [
        lambda r, c: (r, c),
        lambda r, c: (r, n - 1 - c),
        lambda r, c: (n - 1 - r, c),
        lambda r, c: (n - 1 - r, n - 1 - c),
        lambda r, c: (c, r),
        lambda r, c: (c, n - 1 - r),
        lambda r, c: (n - 1 - c, r),
        lambda r, c: (n - 1 - c, n - 1 - r),
    ]
    images = []
    for f in maps:
        image = [0] * n
        for r, c in squares:
            r2, c2 = f(r, c)
            image[r2] = c2
        images.append(tuple(image))
    return min(images)


@pytest.mark.parametrize("n", range(1, 11))
def test_all_solutions(n):
    found = list(nqueens.solutions(n))
    assert len(found) == len(set(found)) == TOTAL[n]
    for cols in found:
        assert isinstance(cols, nqueens.Placement) and len(cols) == n
        assert nqueens.verify(cols) and not attacks(cols)


@pytest.mark.parametrize("n", range(1, 11))
def test_unique_solutions_are_the_canonical_ones(n):
    found = list(nqueens.solutions(n, unique=True))
    assert len(found) == UNIQUE[n]
    assert set(found) == {canonical(c) for c in nqueens.solutions(n)}


def test_solutions_are_lazy():
    # Listing every solution of 64 queens would never end: five come at once.
    first = list(itertools.islice(nqueens.solutions(64), 5))
    assert len(set(first)) == 5 and all(map(nqueens.verify, first))
    it = nqueens.solutions(40, unique=True)
    assert iter(it) is it
    assert nqueens.verify(next(it))


@pytest.mark.parametrize("n", [0, 65, -1])
def test_solutions_out_of_range(n):
    with pytest.raises(ValueError):
        nqueens.solutions(n)


@pytest.mark.parametrize("n", [1, 4, 5, 8, 9, 10, 14, 15, 20, 21, 26, 27, 1000, 100_003])
def test_find(n):
    cols = nqueens.find(n)
    assert isinstance(cols, nqueens.Placement) and len(cols) == n
    assert cols.tobytes() == array.array("I", cols).tobytes()
    assert nqueens.verify(cols)
    if n <= 30:
        assert not attacks(list(cols))
    randomized = nqueens.find(n, random=True, seed=n)
    assert nqueens.verify(randomized)
    assert randomized == nqueens.find(n, random=True, seed=n)


def test_find_random_seeds_differ():
    assert nqueens.find(1000, random=True, seed=1) != nqueens.find(1000, random=True, seed=2)
    assert nqueens.verify(nqueens.find(1000, random=True))


@pytest.mark.parametrize("n", [2, 3])
def test_find_none(n):
    assert nqueens.find(n) is None and nqueens.find(n, random=True, seed=1) is None


def test_find_refuses():
    with pytest.raises(ValueError, match="at least 1"):
        nqueens.find(0)
    with pytest.raises(ValueError, match="too large"):
        nqueens.find(2**32)
    with pytest.raises(ValueError, match="max_memory"):
        nqueens.find(10**6, max_memory=1000)
    with pytest.raises(TypeError):
        nqueens.find("8")
    with pytest.raises(ValueError):
        nqueens.find(8, random=True, seed=-1)


def test_verify_and_defect():
    assert nqueens.verify([1, 3, 0, 2]) and nqueens.verify((0,))
    assert nqueens.verify(array.array("I", [1, 3, 0, 2]))
    assert not nqueens.verify([0, 1, 2, 3])
    assert nqueens.defect([0, 2, 4, 1, 3, 0]) == (
        "queens at (row 1, col 1) and (row 6, col 1) attack along a column"
    )
    assert nqueens.defect([2, 0, 1]) == (
        "queens at (row 2, col 1) and (row 3, col 2) attack along a diagonal"
    )
    assert nqueens.defect([0, 3]) == "row 2: column 4 is outside a 2x2 board"
    assert nqueens.defect([-1, 1]) == "row 1: column 0 is outside a 2x2 board"
    assert nqueens.defect(array.array("I", [0, 7])) == "row 2: column 8 is outside a 2x2 board"
    assert nqueens.defect([2**200]) == f"row 1: column {2**200 + 1} is outside a 1x1 board"
    assert nqueens.defect([]) == "the placement is empty"
    assert not nqueens.verify([])


@pytest.mark.parametrize("bad", ["1302", 3, [1.0, 2.0], [None], [True, False], None])
def test_verify_wrong_types(bad):
    with pytest.raises(TypeError):
        nqueens.verify(bad)


def test_drawings():
    assert nqueens.board([1, 3, 0, 2]) == ". Q . .\n. . . Q\nQ . . .\n. . Q .\n"
    picture = nqueens.svg([1, 3, 0, 2])
    assert picture.startswith("<svg") and picture.count('<use href="#queen-') == 4
    with pytest.raises(ValueError, match="800"):
        nqueens.svg(nqueens.find(801))
    # The library's limits (format::Format::check), in the command line's words.
    assert nqueens.svg(nqueens.find(800)).startswith("<svg")
    assert nqueens.board(nqueens.find(1000)).count("\n") == 1000
    with pytest.raises(ValueError, match=r"^svg is limited to N <= 800 \(the picture is at most 800 pixels wide\), not 801$"):
        nqueens.svg(nqueens.find(801))
    with pytest.raises(ValueError, match=r"^board is limited to N <= 1000 \(a board has N x N cells\), not 1001$"):
        nqueens.board(nqueens.find(1001))
    with pytest.raises(ValueError, match="outside"):
        nqueens.board([0, 9])
    with pytest.raises(ValueError, match="empty"):
        nqueens.svg([])


def oracle(n, given, blocked):
    """Completions by filtering every solution."""
    return [
        cols
        for cols in nqueens.solutions(n)
        if all(cols[r] == c for r, c in given.items())
        and all(cols[r] != c for r, c in blocked)
    ]


def random_instance(rng, n):
    """Queens on random squares that attack no earlier one, and random blocked squares."""
    given = {}
    for _ in range(rng.randrange(0, 3)):
        r, c = rng.randrange(n), rng.randrange(n)
        if r not in given and not any(
            c == c2 or abs(c - c2) == abs(r - r2) for r2, c2 in given.items()
        ):
            given[r] = c
    blocked = {
        (rng.randrange(n), rng.randrange(n)) for _ in range(rng.randrange(0, 2 * n))
    }
    blocked = sorted((r, c) for r, c in blocked if given.get(r) != c)
    return given, blocked


@pytest.mark.parametrize("seed", range(40))
def test_complete_against_the_oracle(seed):
    rng = random.Random(seed)
    n = rng.randrange(4, 9)
    given, blocked = random_instance(rng, n)
    want = oracle(n, given, blocked)
    rows = [given.get(r) for r in range(n)]
    counted = nqueens.complete(rows, blocked=blocked, count=True)
    assert counted.count == len(want)
    assert counted.status == ("solved" if want else "none") and counted.placement is None
    c = nqueens.complete(rows, blocked=blocked, seed=seed)
    assert c.count is None
    if want:
        assert c.status == "solved"
        assert c.placement in want and isinstance(c.placement, nqueens.Placement)
        assert c.stats.solutions == 1
    else:
        assert c.status == "none" and c.placement is None
    # The same instance as a drawing, as rows of a drawing, and as the list form.
    drawing = [["."] * n for _ in range(n)]
    for r, c in blocked:
        drawing[r][c] = "x"
    for r, c in given.items():
        drawing[r][c] = "Q"
    lines = ["".join(row) for row in drawing]
    listed = f"{n}\n" + "".join(f"q {r + 1} {c + 1}\n" for r, c in given.items())
    listed += "".join(f"x {r + 1} {c + 1}\n" for r, c in blocked)
    for form in ("\n".join(lines), lines, listed):
        assert nqueens.complete(form, count=True).count == len(want)


def test_complete_stats_and_limits():
    c = nqueens.complete([None] * 10, count=True)
    assert (c.status, c.count, c.placement) == ("solved", 724, None)
    assert c.stats.solutions == 724 and c.stats.nodes >= 724 and c.stats.seconds >= 0
    # A limit gives "unknown" with the partial count, not an exception.
    partial = nqueens.complete([None] * 12, count=True, node_limit=10)
    assert partial.status == "unknown" and partial.count is not None
    assert 0 <= partial.count < 14200 and partial.stats.nodes <= 11
    started = time.perf_counter()
    timed = nqueens.complete([None] * 28, count=True, time_limit=0.05)
    assert timed.status == "unknown" and time.perf_counter() - started < 5
    assert nqueens.complete([None] * 200).placement.verify()
    # No limit: None, or infinity.
    for limit in (None, float("inf")):
        assert nqueens.complete([None] * 10, count=True, time_limit=limit).count == 724
    assert nqueens.complete([None] * 8, node_limit=0).status == "unknown"
    assert nqueens.complete("3\n").status == "none"


def test_a_completion_is_a_record_that_ignores_time():
    a, b = nqueens.complete([0] + [None] * 7), nqueens.complete([0] + [None] * 7)
    assert a == b and a.placement[0] == 0 and a.placement.verify()
    assert "nodes" in a._repr_html_() and "<svg" in a._repr_html_()


def test_text_placements_are_the_files_1_based_lists_0_based():
    # A placement line, as `nqueens solve --format perm` writes it, is 1-based; lists are 0-based.
    assert nqueens.complete("2 4 1 3\n").placement == [1, 3, 0, 2]
    assert nqueens.complete([1, 3, 0, 2]).placement == [1, 3, 0, 2]
    assert nqueens.complete(nqueens.Placement([1, 3, 0, 2])).status == "solved"


@pytest.mark.parametrize(
    "instance, kwargs, error, message",
    [
        ("4\nq 1 1\nq 2 2\n", {}, ValueError, "line 3: the queen at row 2, column 2 attacks"),
        ("Q...\n..x.\n", {}, ValueError, "line 2: the drawing ends after 2 rows, expected 4"),
        ("", {}, ValueError, "no instance"),
        ([], {}, ValueError, "board size must be from 1"),
        ([0, 5], {}, ValueError, "row 2, column 6 is outside the 2x2 board"),
        ([None, -2**200], {}, ValueError, f"row 2, column {1 - 2**200} is outside"),
        ([None, None], {"blocked": [(2, 0)]}, ValueError, "outside"),
        ([None, None], {"blocked": [(-1, 0)]}, ValueError, "outside"),
        ([None, None], {"blocked": [0]}, TypeError, "pairs"),
        ([None, "x"], {}, TypeError, "int"),
        (8, {}, TypeError, "instance must be"),
        ([None] * 4, {"time_limit": -1.0}, ValueError, "time_limit"),
        ([None] * 4, {"node_limit": -1}, ValueError, "node_limit"),
    ],
)
def test_complete_errors(instance, kwargs, error, message):
    with pytest.raises(error, match=message):
        nqueens.complete(instance, **kwargs)


@pytest.mark.parametrize("kwargs", [{}, {"all": True}])
def test_complete_refuses_a_copy_of_the_loops_that_is_not_there(monkeypatch, kwargs):
    monkeypatch.setenv("NQUEENS_ISA", "sse9")
    with pytest.raises(ValueError, match='unknown instruction set "sse9" in NQUEENS_ISA'):
        nqueens.complete([None] * 8, **kwargs)
    monkeypatch.setenv("NQUEENS_ISA", "portable")
    assert nqueens.complete([None] * 8).status == "solved"


def test_complete_too_large():
    with pytest.raises(ValueError, match="board size must be from 1 to 32768"):
        nqueens.complete("40000\n")


def test_memory_that_is_not_there_raises_memory_error():
    """An allocation that fails raises MemoryError instead of killing the interpreter."""
    # In a child process, under a data-segment limit that the memory estimate does not read
    # (max_memory waives it anyway): the allocations themselves must fail softly.
    code = """
import resource, nqueens
resource.setrlimit(resource.RLIMIT_DATA, (100 << 20, resource.RLIM_INFINITY))
for call in (
    lambda: nqueens.find(100_000_000, random=True, seed=1, max_memory=2**40),
    lambda: nqueens.complete([None] * 32768, blocked=[(0, 0)]),
):
    try:
        call()
    except MemoryError as e:
        print("MemoryError:", e)
"""
    child = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert child.returncode == 0, child.stderr
    lines = child.stdout.splitlines()
    assert len(lines) == 2, child.stdout
    assert "finding 100000000 queens: out of memory" in lines[0]
    assert "a board of 32768 rows: out of memory" in lines[1]

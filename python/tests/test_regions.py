"""nqueens.regions: queens with regions, checked against brute force and against the command
line (`nqueens region`), which calls the same library."""

from __future__ import annotations

import itertools
import json
import random
import subprocess

import numpy as np
import pytest

from nqueens import regions
from nqueens.regions import Board

from conftest import stopped_within

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


def random_grid(n, rng):
    """n connected regions grown at random from n random seeds (each cell joins a region
    beside it), as rows of letters."""
    cells = rng.sample(range(n * n), n)
    region = [-1] * (n * n)
    for g, c in enumerate(cells):
        region[c] = g
    while -1 in region:
        i = rng.randrange(n * n)
        if region[i] != -1:
            continue
        r, c = divmod(i, n)
        beside = [
            region[rr * n + cc]
            for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
            if 0 <= rr < n and 0 <= cc < n and region[rr * n + cc] != -1
        ]
        if beside:
            region[i] = rng.choice(beside)
    return ["".join(LETTERS[region[r * n + c]] for c in range(n)) for r in range(n)]


def brute_force(rows):
    """Every solution, by trying every permutation of the columns."""
    n = len(rows)
    found = []
    for cols in itertools.permutations(range(n)):
        if any(abs(cols[r] - cols[r + 1]) <= 1 for r in range(n - 1)):
            continue
        if len({rows[r][cols[r]] for r in range(n)}) == n:
            found.append(cols)
    return found


def run(cli, args, text):
    """The command line's output for `text` on stdin (its status is not looked at)."""
    return subprocess.run(
        [cli, "region", *args], input=text, capture_output=True, text=True, check=False
    ).stdout


@pytest.mark.parametrize("n", [4, 5, 6, 7])
def test_solve_count_and_list_against_brute_force(n):
    rng = random.Random(n)
    for _ in range(30 if n < 7 else 8):
        rows = random_grid(n, rng)
        board = Board(rows)
        every = sorted(brute_force(rows))
        assert board.count() == len(every), rows
        assert sorted(board.solutions()) == every
        assert board.count(limit=2) == min(len(every), 2)
        first = board.solve()
        assert list(board.solutions(limit=1)) == ([first] if every else [])
        assert (first is None) == (not every)
        if first is not None:
            assert first in every
            assert board.verify(enumerate(first))
            assert board.unique() == (len(every) == 1)
        # Marks: a queen of some solution kept, a cross on another cell avoided.
        if every:
            sol = every[-1]
            marked = board.with_marks(queens=[(0, sol[0])], crosses=[(n - 1, (sol[n - 1] + 1) % n)])
            expected = [s for s in every if s[0] == sol[0] and s[n - 1] != (sol[n - 1] + 1) % n]
            assert sorted(marked.solutions()) == expected


def test_the_forms_read_and_write():
    text = "AAAB\nCABB\nCCBD\nCCDD\nq 1 2\nx 3 3\n"
    board = regions.parse(text)
    assert board.n == 4
    assert board.rows == ("AAAB", "CABB", "CCBD", "CCDD")
    assert board.labels == "ABCD"
    assert board.regions[:4] == (0, 0, 0, 1)
    assert board.region(2, 3) == "D"
    with pytest.raises(ValueError, match="row 5, column 1 is outside the 4x4 board"):
        board.region(4, 0)
    with pytest.raises(TypeError, match="not bool"):
        board.region(True, 0)
    assert board.queens == ((0, 1),) and board.crosses == ((2, 2),)
    assert board.to_text() == text and str(board) == text
    assert regions.parse(board.to_json()) == board
    assert json.loads(board.to_json()) == {
        "regions": ["AAAB", "CABB", "CCBD", "CCDD"],
        "queens": [[1, 2]],
        "crosses": [[3, 3]],
    }
    assert Board(["AAAB", "CABB", "CCBD", "CCDD"], queens=[(0, 1)], crosses=[(2, 2)]) == board
    assert Board(("AAAB", "CABB", "CCBD", "CCDD"), queens=[(np.int64(0), 1)]) != board
    assert hash(Board(text)) == hash(board)
    assert "Board(" in repr(board)


@pytest.mark.parametrize(
    "source, kwargs, error, message",
    [
        ("AB\nA\n", {}, ValueError, "row 2 has 1 cells, but row 1 has 2: a grid must be square"),
        ("AB\nBA\n", {}, ValueError, "region B is in pieces"),
        ("AAB\nAAB\nAAB\n", {}, ValueError, "the grid has 2 regions, but a 3 x 3 grid needs 3"),
        ("A?\nBB\n", {}, ValueError, "'?' is not a region letter or digit"),
        ("", {}, ValueError, "no grid"),
        ('{"regions": 3}', {}, ValueError, "bad JSON"),
        (["AB", "AB"], {"queens": [(0, 0), (0, 0)]}, ValueError, "row 1 column 1 is marked twice"),
        (
            ["AB", "AB"],
            {"crosses": [(2, 0)]},
            ValueError,
            "row 3, column 1 is outside the 2x2 board",
        ),
        (["AB", "AB"], {"queens": [(-1, 0)]}, ValueError, "outside"),
        (
            ["AB", "AB"],
            {"queens": [(True, 0)]},
            TypeError,
            "rows and columns must be ints, not bool",
        ),
        (
            ["AB", "AB"],
            {"queens": [0, 1]},
            TypeError,
            "queens must be .row, column. pairs or an N x N mask of bools, not int",
        ),
        (["AB", "AB"], {"queens": 5}, TypeError, "queens must be .row, column. pairs or an N x N mask of bools, not int"),
        ([b"AB", b"AB"], {}, TypeError, "not bytes"),
        (7, {}, TypeError, "not int"),
    ],
)
def test_bad_boards(source, kwargs, error, message):
    with pytest.raises(error, match=message):
        Board(source, **kwargs)


def test_marks_come_as_pairs_arrays_or_masks_as_elsewhere_in_the_package():
    grid = ["AAB", "ACB", "CCB"]
    pairs = Board(grid, queens=[(0, 0)], crosses=[(1, 1), (2, 2)])
    mask = [[False] * 3 for _ in range(3)]
    mask[1][1] = mask[2][2] = True
    as_mask = Board(grid, queens=np.array([[0, 0]]), crosses=np.array(mask))
    assert as_mask == pairs

    def endless():
        while True:
            yield (0, 0)

    with pytest.raises(ValueError, match="more than 9 crosses for a 3 x 3 board"):
        Board(grid, crosses=endless())


def test_the_same_as_the_command_line(cli):
    lines = run(
        cli, ["generate", "7", "--count", "6", "--seed", "5", "-j", "1", "--format", "json"], ""
    )
    made = list(regions.generate(7, count=6, seed=5, threads=1))
    assert [p.to_dict()["regions"] for p in made] == [
        json.loads(l)["regions"] for l in lines.splitlines()
    ]
    for puzzle, line in zip(made, lines.splitlines()):
        expected = json.loads(line)
        assert [c + 1 for c in puzzle.solution] == expected["solution"]
        assert puzzle.difficulty == expected["difficulty"]
        assert len(puzzle.rating.steps) == expected["steps"]
        assert puzzle.rating.uses == expected["uses"]
        assert puzzle.board.count(limit=2) == 1
        # The rating, step by step, as `rate --json` gives it.
        rated = json.loads(run(cli, ["rate", "--json"], line))
        got = puzzle.board.rate()
        assert got == puzzle.rating
        assert [
            (s.rule, [list(c) for c in s.queens], [list(c) for c in s.crosses], s.reason)
            for s in got.steps
        ] == [(s["rule"], s["queens"], s["crosses"], s["reason"]) for s in rated["steps"]]
        assert got.stuck == rated["stuck"] and got.difficulty == rated["difficulty"]
        assert got.queens == tuple(tuple(q) for q in rated["queens"])
        # A hint from a game in progress: two of the solution's queens and a cross.
        game = puzzle.board.with_marks(
            queens=[(3, puzzle.solution[3]), (0, puzzle.solution[0])],
            crosses=[(6, (puzzle.solution[6] + 3) % 7)],
        )
        hinted = json.loads(run(cli, ["rate", "--hint", "--json"], game.to_text()))
        hint = game.hint()
        if "step" in hinted and hinted["step"] is not None:
            s = hinted["step"]
            assert hint.step is not None and hint.stuck is None
            assert (hint.step.rule, hint.step.reason) == (s["rule"], s["reason"])
            assert [list(c) for c in hint.step.crosses] == s["crosses"]
        else:
            assert hint.step is None and hint.stuck == hinted.get("stuck")


def test_defect_names_the_rule_as_verify_does(cli):
    board = Board(["AAAB", "CABB", "CCBD", "CCDD"])
    cases = {
        "off-grid": [(0, 4)],
        "row": [(0, 0), (0, 3)],
        "column": [(0, 1), (2, 1)],
        "region": [(0, 0), (2, 2), (1, 1)],
        "touching": [(0, 1), (1, 2)],
        "missing": [(0, 1)],
    }
    # Off the grid: no text form holds such a queen, so only the words are checked.
    for rule, queens in cases.items():
        defect = board.defect(queens)
        assert defect is not None and defect.rule == rule, (rule, defect)
        assert not board.verify(queens)
        if rule != "off-grid":
            text = "".join(r + "\n" for r in board.rows) + "".join(
                f"q {r + 1} {c + 1}\n" for r, c in queens
            )
            assert run(cli, ["verify"], text) == f"invalid: {defect.message}\n"
    assert (
        board.defect(cases["off-grid"]).message
        == "the queen at row 1 column 5 is off the 4 x 4 grid"
    )
    assert board.defect(enumerate(board.solve())) is None
    assert Board(board.to_text(), queens=enumerate(board.solve())).verify()
    with pytest.raises(ValueError, match="a row must be at least 0, not -1"):
        board.defect([(-1, 0)])
    with pytest.raises(TypeError, match="queens must be"):
        board.defect([3])
    # Endless iterators are refused, not followed.
    with pytest.raises(ValueError, match="more than 16 queens for a 4 x 4 grid"):
        board.defect(itertools.repeat((0, 0)))
    with pytest.raises(ValueError, match="the grid has 63 rows; at most 62 are read"):
        Board(itertools.repeat("A"))
    with pytest.raises(ValueError, match="more than 16 crosses for a 4 x 4 board"):
        Board(board.rows, crosses=itertools.repeat((1, 1)))


def test_rate_and_hint_on_the_worked_example():
    board = regions.parse("AAAB\nCABB\nCCBD\nCCDD\n")
    rating = board.rate()
    assert rating.difficulty == "hard" and rating.stuck is None
    assert rating.uses == {
        "around": 3,
        "last-cell": 4,
        "confined": 0,
        "pigeonhole": 2,
        "would-empty": 3,
    }
    assert rating.queens == tuple(enumerate(board.solve()))
    hint = board.hint()
    assert hint.step == rating.steps[0] and not hint.solved
    # Applying the steps one by one, the hint is always the next step; at the end, solved.
    game = board
    for step in rating.steps:
        assert game.hint().step == step
        game = game.with_marks(queens=step.queens, crosses=step.crosses)
    assert game.hint().solved and game.verify()
    # A wrong cross is caught before the rules build on it.
    wrong = board.with_marks(crosses=[(0, 1)])
    assert wrong.hint() == regions.Hint(
        None, "the queens and crosses on the board leave no solution"
    )


def test_generate_is_seeded_for_any_threads_and_checks_its_arguments():
    one = [p.board for p in regions.generate(9, count=5, seed=2, threads=1)]
    three = [p.board for p in regions.generate(np.int64(9), count=5, seed=2, threads=3)]
    assert one == three and len(set(one)) == 5
    hard = list(regions.generate(6, count=2, seed=1, difficulty="hard"))
    assert [p.difficulty for p in hard] == ["hard", "hard"]
    assert regions.DIFFICULTIES == ("easy", "medium", "hard", "needs-guessing")
    assert regions.RULES[0] == "around"
    for kwargs, error, message in [
        ({"n": 4}, ValueError, "region puzzles are made for N from 5 to 32, not 4"),
        ({"n": 33}, ValueError, "not 33"),
        (
            {"n": 6, "difficulty": "tricky"},
            ValueError,
            "difficulty must be easy, medium, hard or needs-guessing",
        ),
        ({"n": 6, "threads": 0}, ValueError, "threads must be at least 1"),
        ({"n": 6, "seed": -1}, ValueError, "seed must be at least 0"),
        ({"n": 6.0}, TypeError, "N must be an int, not float"),
        ({"n": 6, "count": "2"}, TypeError, "count must be an int"),
    ]:
        with pytest.raises(error, match=message):
            next(regions.generate(**kwargs))


def test_limits_are_checked():
    board = Board(["AAAA", "BBBB", "CCCC", "DDDD"])
    with pytest.raises(ValueError, match="limit must be at least 1, not 0"):
        board.count(limit=0)
    with pytest.raises(ValueError, match="limit must be at least 1"):
        next(board.solutions(limit=0))
    with pytest.raises(TypeError, match="limit must be an int"):
        board.count(limit=1.5)


def test_solutions_are_lazy():
    # One region per row of a 40 x 40 grid: more solutions than could ever be listed.
    board = Board([LETTERS[i] * 40 for i in range(40)])
    first = list(itertools.islice(board.solutions(), 3))
    assert len(first) == 3 and len(set(first)) == 3
    assert all(board.verify(enumerate(s)) for s in first)


def test_notebook_view_and_page():
    board = Board(["AAAB", "CABB", "CCBD", "CCDD"], queens=[(0, 1)], crosses=[(3, 0)])
    svg = board._repr_svg_()
    assert svg.startswith("<svg") and "region D" in svg and 'aria-label="queen"' in svg
    html = board._repr_html_()
    assert "<svg" in html and "q 1 2" in html
    puzzle = next(regions.generate(6, seed=3))
    assert puzzle._repr_svg_() == puzzle.board.svg()
    assert board.drawing().startswith("+-+-+-+-+\n|A # A|B|")
    page = board.page()
    assert page.startswith("<!DOCTYPE html>") and "src=" not in page


#: Calls that would run for hours: a count of more solutions than can be counted, and a
#: million 32 x 32 puzzles.
LONG_CALLS = {
    "count": lambda: Board([LETTERS[i] * 40 for i in range(40)]).count(),
    "generate": lambda: list(regions.generate(32, count=10**6, seed=1, threads=1)),
}


@pytest.mark.parametrize("name", LONG_CALLS)
def test_ctrl_c_stops_a_long_call(name):
    """KeyboardInterrupt comes within a second of Ctrl-C (pressed every 0.5 s until the call
    returns; the first press seen raises), and the module is still usable."""
    stopped_within(LONG_CALLS[name], 1.0)
    assert Board(["AAAA", "BBBB", "CCCC", "DDDD"]).count() == 2

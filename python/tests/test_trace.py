"""trace(): the steps of the ladder's searches, as the command line's JSON trace has them, and
the library's player for notebooks."""

import json
import re
import subprocess

import pytest

import nqueens

@pytest.mark.parametrize("algo", nqueens.ALGORITHMS)
def test_the_same_steps_as_the_command_line(cli, algo):
    t = nqueens.trace(6, algo=algo, limit=5000)
    lines = subprocess.run(
        [cli, "trace", "6", "--algo", algo, "--format", "json", "--limit", "5000"],
        check=True, capture_output=True, text=True,
    ).stdout.splitlines()
    assert json.loads(lines[0]) == {
        "trace": "nqueens", "n": 6, "algo": algo, "numbering": "from 1",
    }
    # The same steps, counted from 0 as every placement in Python is.
    assert t.numbering == "from 0"
    steps = [json.loads(line) for line in lines[1:-1]]
    absent = {"row": None, "col": None, "reason": None, "forced": False, "cols": None, "image": False}
    steps = [{**absent, **step} for step in steps]
    for step in steps:
        for key in ("row", "col"):
            if step.get(key) is not None:
                step[key] -= 1
        if step["cols"] is not None:
            step["cols"] = [c - 1 for c in step["cols"]]
    assert list(t) == steps
    assert t.summary == json.loads(lines[-1])


@pytest.mark.parametrize("algo", ["backtracking", "flags", "bitboard"])
def test_replaying_the_steps_gives_every_solution(algo):
    t = nqueens.trace(6, algo=algo)
    assert t.complete and t.n == 6 and t.algo == algo
    board = {}
    found = []
    for step in t:
        if step["event"] == "place":
            board[step["row"]] = step["col"]
        elif step["event"] == "remove":
            assert board.pop(step["row"]) == step["col"]
        elif step["event"] == "solution" and not step.get("image"):
            assert [board[r] for r in range(6)] == step["cols"]
            found.append(tuple(step["cols"]))
    assert sorted(found) == sorted(map(tuple, nqueens.solutions(6)))
    assert t.summary["solutions"] == 4 == len(found)


def test_limits_and_errors():
    t = nqueens.trace(10, algo="backtracking", limit=50)
    assert len(t) == 50 and not t.complete and t.summary["end"] == "limit"
    with pytest.raises(ValueError, match="more than 1000000 steps.*limit=K"):
        nqueens.trace(14, algo="backtracking")
    with pytest.raises(ValueError, match="limit must be at least 1"):
        nqueens.trace(8, limit=0)
    with pytest.raises(ValueError, match="unknown algorithm|not an algorithm|permutations"):
        nqueens.trace(8, algo="quantum")
    with pytest.raises(ValueError):
        nqueens.trace(0)


def test_the_notebook_player_is_the_librarys_page(cli):
    t = nqueens.trace(5, algo="flags")
    page = t.html()
    expected = subprocess.run(
        [cli, "trace", "5", "--algo", "flags", "--format", "html"],
        check=True, capture_output=True, text=True,
    ).stdout
    assert page == expected and page.startswith("<!DOCTYPE html>")
    shown = t._repr_html_()
    frame = shown[shown.index("<iframe"):]
    assert frame.startswith("<iframe srcdoc=\"&lt;!DOCTYPE html&gt;")
    assert '"' not in frame[len('<iframe srcdoc="'):frame.index('" style=')]
    # A trace holds as many steps as the player: 1,000,000.
    with pytest.raises(ValueError, match="more than a trace holds"):
        nqueens.trace(10, algo="backtracking", limit=1_000_001)


def test_the_player_says_how_it_counts_and_shows_its_tree():
    shown = nqueens.trace(5, algo="flags")._repr_html_()
    note = shown[:shown.index("<iframe")]
    assert "numbers steps, rows and columns from 1" in note and "t[i]</code> is its step i + 1" in note
    # Tall enough for the page's search tree at a notebook's width (it ends 1190 to 1270 pixels
    # down at 800 to 1000 pixels wide; 640 cut it off), and resizable.
    height = int(re.search(r"style=\"width: 100%; height: (\d+)px", shown).group(1))
    assert height >= 1280 and "resize: vertical" in shown

"""Instances drawn (issue 50): a completion shows its given queens apart from the ones the
solver placed and its blocked squares, a count shows its instance, a puzzle is a picture that
says how hard it is, and boards on one page never share an id."""

import re

import nqueens


def ids(picture):
    return re.findall(r'id="([^"]+)"', picture)


def test_every_picture_has_ids_of_its_own():
    a, b = nqueens.find(8).svg(), nqueens.find(8).svg()
    assert len(ids(a)) == 2 and not set(ids(a)) & set(ids(b))
    # Every reference points at the picture's own ids, so hiding one board (display: none)
    # takes nothing from another.
    for picture in (a, b):
        refs = set(re.findall(r'(?:href="#|url\(#)([^")]+)', picture))
        assert refs == set(ids(picture))
    page = "".join([nqueens.Placement([1, 3, 0, 2])._repr_svg_(), next(nqueens.puzzles(8)).svg(),
                    nqueens.complete([0] + [None] * 7)._repr_html_()])
    assert len(ids(page)) == len(set(ids(page))) == 6


def test_titles_count_the_queens_drawn():
    assert "<title>4 queens</title>" in nqueens.svg([1, 3, 0, 2])
    assert "<title>2 queens on a 4x4 board</title>" in nqueens.svg([1, None, None, 2])
    assert "<title>1 queen on a 4x4 board</title>" in nqueens.svg([None, None, None, 2])
    assert "<title>a &lt;b&gt; board</title>" in nqueens.svg([0], title="a <b> board")


def given_squares(picture):
    return re.findall(r'<rect x="(\d+)" y="(\d+)" width="1" height="1" fill="#6d9eeb"/>', picture)


def crosses(picture):
    return re.findall(r'<path d="M(\d+)\.2 (\d+)\.2 ', picture)


def test_a_completion_draws_givens_apart_and_its_blocked_squares():
    c = nqueens.complete([None, None, 4, None, None, None, None, None], blocked=[(0, 0), (7, 7)])
    assert c.status == "solved" and c.givens == ((2, 4),) and c.blocked == ((0, 0), (7, 7))
    shown = c._repr_html_()
    assert "8x8, 1 given, 2 blocked: completed" in shown
    assert shown.count('<use href="#queen-') == 8
    assert given_squares(shown) == [("4", "2")]
    assert sorted(crosses(shown)) == [("0", "0"), ("7", "7")]


def test_a_count_and_a_failure_draw_the_instance():
    c = nqueens.complete([0, None, None, None, None, None, None, None], blocked=[(1, 2)], count=True)
    shown = c._repr_html_()
    assert f"{c.count:,} completions" in shown
    assert shown.count('<use href="#queen-') == 1 and given_squares(shown) == [("0", "0")]
    assert crosses(shown) == [("2", "1")]
    conflict = nqueens.complete([0, 1, None, None])
    shown = conflict._repr_html_()
    assert "no completion: the queen at row 2, column 2 attacks" in shown
    assert shown.count('<use href="#queen-') == 1


def test_a_puzzle_is_a_picture_with_its_difficulty():
    p = next(nqueens.puzzles(10, seed=3, blocked=True, difficulty="medium"))
    picture = p.svg()
    assert f"<title>medium puzzle, 10x10: {len(p.givens)} given, {len(p.blocked)} blocked" in picture
    assert sorted(given_squares(picture)) == sorted((str(c), str(r)) for r, c in p.givens)
    assert sorted(crosses(picture)) == sorted((str(c), str(r)) for r, c in p.blocked)
    assert picture.count('<use href="#queen-') == len(p.givens)
    shown = p._repr_html_()
    assert "<svg" in shown and "<figcaption>medium puzzle" in shown and "<pre>" not in shown

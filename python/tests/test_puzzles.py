"""puzzles(): each puzzle has one completion (brute force for small N), minimal ones lose it
without any clue, the same seed gives the same puzzles, bad arguments are ValueError."""

import itertools

import pytest

import nqueens


def completions(p, all_solutions):
    """The solutions of the board that keep the givens and avoid the blocked squares."""
    return [
        s
        for s in all_solutions
        if all(s[r] == c for r, c in p.givens) and all(s[r] != c for r, c in p.blocked)
    ]


@pytest.mark.parametrize("n", [5, 6, 8])
@pytest.mark.parametrize("blocked", [False, True])
def test_one_completion_and_minimal(n, blocked):
    all_solutions = list(nqueens.solutions(n))
    for p in nqueens.puzzles(n, count=5, seed=3, blocked=blocked, minimal=True):
        assert completions(p, all_solutions) == [p.solution]
        assert nqueens.complete(p.drawing(), count=True).count == 1
        for drop in range(len(p.givens)):
            less = nqueens.Puzzle(
                **{**p.__dict__, "givens": p.givens[:drop] + p.givens[drop + 1 :]}
            )
            assert len(completions(less, all_solutions)) >= 2
        for drop in range(len(p.blocked)):
            less = nqueens.Puzzle(
                **{**p.__dict__, "blocked": p.blocked[:drop] + p.blocked[drop + 1 :]}
            )
            assert len(completions(less, all_solutions)) >= 2
        d = p.to_dict()
        assert d["number_of_givens"] == len(p.givens) and d["solution"] == list(p.solution)


def test_same_seed_same_puzzles_any_threads():
    one = list(nqueens.puzzles(16, count=10, seed=5, threads=1))
    assert one == list(nqueens.puzzles(16, count=10, seed=5, threads=2))
    assert one != list(nqueens.puzzles(16, count=10, seed=6))


def test_difficulty():
    for level in ["easy", "medium", "hard"]:
        for p in itertools.islice(nqueens.puzzles(10, count=3, difficulty=level), 3):
            assert p.difficulty == level
            assert (p.guesses == 0) == (level == "easy")


@pytest.mark.parametrize(
    "kwargs",
    [{"n": 3}, {"n": 65}, {"n": 8, "difficulty": "tricky"}, {"n": 8, "threads": 0}, {"n": 8, "count": -1}],
)
def test_bad_arguments(kwargs):
    with pytest.raises(ValueError):
        next(nqueens.puzzles(**kwargs))


def test_impossible_difficulty():
    with pytest.raises(RuntimeError, match="no hard puzzle for N=4"):
        next(nqueens.puzzles(4, difficulty="hard"))

"""count(): against the published counts, every method, progress, Ctrl-C, the GIL."""

import doctest
import sys
import threading
import time

import pytest

import nqueens
from conftest import published, stopped_within

PUBLISHED = published()


@pytest.mark.parametrize("n", range(1, 17))
def test_default_count_is_the_published_one(n):
    r = nqueens.count(n)
    assert (r.n, r.total, r.unique) == (n, *PUBLISHED[n])
    assert r.seconds >= 0
    assert r.method.startswith(("engine/", "algo/symmetry"))


@pytest.mark.parametrize("strategy", nqueens.STRATEGIES)
@pytest.mark.parametrize("n", [5, 8, 12, 13, 15])
def test_each_strategy(n, strategy):
    r = nqueens.count(n, strategy=strategy, threads=1)
    assert (r.total, r.unique) == PUBLISHED[n]
    assert r.method == f"engine/{strategy}"


@pytest.mark.parametrize("algo", nqueens.ALGORITHMS)
def test_each_algorithm_of_the_ladder(algo):
    for n in range(1, 9):
        r = nqueens.count(n, algo=algo)
        assert r.total == PUBLISHED[n][0]
        assert r.method == f"algo/{algo}"
        assert r.unique == (PUBLISHED[n][1] if algo == "symmetry" else None)


def test_unique_false_leaves_it_out():
    assert nqueens.count(10, unique=False).unique is None
    assert nqueens.count(14, unique=False).total == PUBLISHED[14][0]


def test_a_range_gives_the_table():
    results = nqueens.count(range(4, 15))
    assert [(r.n, r.total, r.unique) for r in results] == [
        (n, *PUBLISHED[n]) for n in range(4, 15)
    ]
    text = nqueens.table(results, time=False)
    assert text.splitlines()[0] == "| N | total | unique |"
    assert "| 14 | 365596 | 45752 |" in text.splitlines()
    assert len(nqueens.table(results).splitlines()) == 2 + 11


def test_a_range_is_checked_before_anything_is_counted():
    seen = []
    with pytest.raises(ValueError, match="not 40"):
        nqueens.count([15, 40], progress=lambda done, total: seen.append(done))
    assert seen == []


def test_the_result_is_a_frozen_record():
    r = nqueens.count(6)
    assert r == nqueens.CountResult(6, 4, 1, r.seconds, r.method)
    assert repr(r).startswith("CountResult(n=6, total=4, unique=1, seconds=")
    with pytest.raises(AttributeError):
        r.total = 5


def test_progress_is_called_with_done_and_total():
    calls = []
    r = nqueens.count(16, threads=2, progress=lambda done, total: calls.append((done, total)))
    assert r.total == PUBLISHED[16][0]
    assert calls, "progress was never called"
    done = [d for d, _ in calls]
    assert done == sorted(done)
    assert len({t for _, t in calls}) == 1
    assert calls[-1][0] == calls[-1][1] > 0


class FakeBar:
    """What count() uses of a tqdm bar: reset(total=...) and update(k)."""

    def __init__(self):
        self.n, self.total, self.updates, self.resets = 0, None, 0, 0
        self.history = []

    def reset(self, total=None):
        self.n, self.total = 0, total
        self.resets += 1

    def update(self, k):
        assert k >= 0, "the bar went backwards"
        self.n += k
        self.updates += 1
        self.history.append((self.n, self.total))


def test_progress_takes_a_tqdm_like_bar():
    bar = FakeBar()
    nqueens.count(15, progress=bar)
    assert bar.total is not None and bar.n == bar.total and bar.updates >= 1


def test_a_bar_over_a_range_starts_again_for_each_board():
    bar = FakeBar()
    nqueens.count(range(13, 16), progress=bar)
    assert bar.resets == 3 and bar.n == bar.total
    assert all(done <= total for done, total in bar.history)


def test_progress_true_shows_one_tqdm_bar_per_board(capsys):
    pytest.importorskip("tqdm")
    results = nqueens.count(range(13, 15), progress=True)
    assert [r.total for r in results] == [PUBLISHED[13][0], PUBLISHED[14][0]]
    err = capsys.readouterr().err
    assert "N=13" in err and "N=14" in err


def test_progress_true_without_tqdm_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "tqdm.auto", None)  # import raises ImportError
    with pytest.raises(ImportError, match="pip install tqdm"):
        nqueens.count(13, progress=True)
    with pytest.raises(TypeError, match="progress must be"):
        nqueens.count(13, progress=3)


def test_results_compare_without_their_time():
    assert nqueens.count(8) == nqueens.count(8)
    assert nqueens.count(14, threads=1) == nqueens.count(14, threads=2)
    assert nqueens.count(10) != nqueens.count(10, unique=False)
    results = nqueens.count(range(4, 7))
    assert isinstance(results, list) and "<table>" in results._repr_html_()
    assert "<td>92</td>" in nqueens.count(8)._repr_html_()


def test_an_exception_in_progress_stops_the_count():
    class Stop(Exception):
        pass

    def progress(done, total):
        raise Stop

    started = time.perf_counter()
    with pytest.raises(Stop):
        nqueens.count(19, strategy="backtrack", progress=progress)
    # count(19) takes minutes on 2 cores: it was stopped, not finished.
    assert time.perf_counter() - started < 30


# Each takes seconds to minutes on 2 cores, so an answer within the bound below means the
# call was stopped. The memory limit lets `find` run on any machine.
LONG_CALLS = {
    "count": lambda: nqueens.count(19, strategy="backtrack"),
    "count_algo": lambda: nqueens.count(18, algo="bitboard"),
    "count_parallel": lambda: nqueens.count(19, algo="parallel"),
    "count_cp": lambda: nqueens.count(17, algo="cp"),
    "complete": lambda: nqueens.complete([None] * 3000, count=True),
    "complete_32768": lambda: nqueens.complete([None] * 32768),
    "find_random": lambda: nqueens.find(60_000_000, random=True, seed=1, max_memory=2**40),
}

#: Seconds from Ctrl-C to the exception. One for the searches; more where the library first
#: sets up memory that no stop flag interrupts (the 32768 x 32768 board's bitsets, find's
#: arrays of 60 million rows), which takes seconds on a busy 2-core machine.
BOUND = {"complete_32768": 5.0, "find_random": 3.0}

#: What the KeyboardInterrupt of each says of how far the call got.
STOPPED = {
    "count": r"interrupted: nothing was saved .*; \d+ of \d+ tasks had been counted",
    "count_algo": r"interrupted: .*bitboard",
    "count_parallel": r"interrupted: .*parallel",
    "count_cp": r"interrupted: .*cp",
    "complete": r"complete stopped by Ctrl-C with \d+ completion\(s\) found so far \(nodes \d+",
    "complete_32768": r"complete stopped by Ctrl-C with 0 completion\(s\) found so far \(nodes \d+",
    "find_random": r"finding 60000000 queens: interrupted before a solution was found",
}


@pytest.mark.parametrize("name", LONG_CALLS)
def test_ctrl_c_stops_a_long_call(name):
    """KeyboardInterrupt comes within a second, not at the end of the call, and says how far
    the call got."""
    stopped_within(LONG_CALLS[name], BOUND.get(name, 1.0), match=STOPPED[name])
    # The module is still usable.
    assert nqueens.count(8).total == 92


def test_the_gil_is_released_during_a_count():
    ticks = 0
    stop = threading.Event()

    def spin():
        nonlocal ticks
        while not stop.is_set():
            ticks += 1

    spinner = threading.Thread(target=spin)
    spinner.start()
    try:
        time.sleep(0.05)
        before = ticks
        r = nqueens.count(16)
        during = ticks - before
    finally:
        stop.set()
        spinner.join()
    assert r.total == PUBLISHED[16][0]
    # Holding the GIL for the whole count would leave the spinner at 0.
    assert during > 1000, during


def test_docstring_examples():
    failures, tried = doctest.testmod(nqueens, extraglobs={"nqueens": nqueens})
    assert tried > 20
    assert failures == 0

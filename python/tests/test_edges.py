"""The binding's edges (issue 52, continued): arguments Python lets pass for others (a bool for
seconds or for an index), bounds said the same way wherever they apply, an iterator shared by
threads, Ctrl-C during a puzzle's making, and messages that name the argument at fault
rather than the interpreter's internals."""

import threading
import time
from fractions import Fraction

import pytest

import nqueens
from nqueens import regions
from conftest import stopped_within

# --- time_limit is seconds, never a bool -------------------------------------------------

TIME_LIMITED = {
    "count": lambda t: nqueens.count(8, time_limit=t),
    "count of sizes": lambda t: nqueens.count(range(4, 9), time_limit=t),
    "complete": lambda t: nqueens.complete([None] * 8, time_limit=t),
    "complete count": lambda t: nqueens.complete([None] * 8, count=True, time_limit=t),
    "complete all": lambda t: nqueens.complete([None] * 6, all=True, time_limit=t),
}


@pytest.mark.parametrize("call", TIME_LIMITED.values(), ids=TIME_LIMITED.keys())
@pytest.mark.parametrize("flag", [True, False])
def test_a_time_limit_is_no_bool(call, flag):
    # True was taken for 1 second, False for none at all.
    with pytest.raises(TypeError, match=r"^time_limit must be a number of seconds \(or None for no limit\), not bool$"):
        call(flag)


@pytest.mark.parametrize("call", TIME_LIMITED.values(), ids=TIME_LIMITED.keys())
def test_a_time_limit_is_no_text_or_numpy_bool(call):
    with pytest.raises(TypeError, match="time_limit must be a number of seconds .*, not str$"):
        call("5")
    numpy = pytest.importorskip("numpy")
    with pytest.raises(TypeError, match="time_limit must be a number of seconds .*, not bool_?$"):
        call(numpy.bool_(True))


@pytest.mark.parametrize("call", TIME_LIMITED.values(), ids=TIME_LIMITED.keys())
def test_a_time_limit_is_any_number(call):
    for seconds in (60, 60.0, Fraction(60), None, float("inf")):
        call(seconds)
    numpy = pytest.importorskip("numpy")
    call(numpy.float64(60))
    call(numpy.int64(60))


# --- bounds said as they are ---------------------------------------------------------------


@pytest.mark.parametrize("limit", [0, -1, -(2**100)])
def test_a_region_limit_below_one_says_at_least_one(limit):
    # -1 once said "at least 0", while 0 said "at least 1".
    board = regions.Board(["AAAA", "BBBB", "CCCC", "DDDD"])
    said = f"^limit must be at least 1, not {limit}$"
    with pytest.raises(ValueError, match=said):
        board.count(limit=limit)
    with pytest.raises(ValueError, match=said):
        next(board.solutions(limit=limit))
    with pytest.raises(ValueError, match=f"^threads must be at least 1, not {limit}$"):
        next(regions.generate(6, threads=limit))


# --- one iterator, several threads ---------------------------------------------------------

SHARED = r"^a Completions iterator \(from complete\(\.\.\., all=True\)\) is used by one thread at a time"


def test_completions_shared_by_threads_say_so():
    # A block of 10**6 completions of 16 queens takes seconds; meanwhile another thread's
    # call once raised PyO3's "Already borrowed", which says nothing of threads.
    numpy = pytest.importorskip("numpy")
    completions = nqueens.complete([None] * 16, all=True)
    blocks = completions.blocks(10**6)
    got = []
    taker = threading.Thread(target=lambda: got.append(next(blocks)))
    taker.start()
    try:
        time.sleep(0.5)
        assert taker.is_alive(), "the block came too soon to test two threads at once"
        with pytest.raises(RuntimeError, match=SHARED):
            next(completions)
        with pytest.raises(RuntimeError, match=SHARED):
            next(completions.blocks(10))
        with pytest.raises(RuntimeError, match=SHARED):
            completions.status
    finally:
        taker.join(120)
    # The first thread's call went on undisturbed, and the iterator after it.
    assert got[0].shape == (10**6, 16) and got[0].dtype == numpy.uint32
    assert len(next(completions)) == 16
    assert completions.status is None


# --- Ctrl-C while a puzzle is made ---------------------------------------------------------


@pytest.mark.parametrize("threads", [1, None])
def test_ctrl_c_stops_a_puzzle_in_the_making(threads):
    # A minimal easy puzzle of 64 queens takes seconds of tries (each a few proofs): the
    # generator once ran them all before Python saw Ctrl-C.
    made = nqueens.puzzles(64, minimal=True, difficulty="easy", threads=threads)
    stopped_within(lambda: next(made), 1.0)
    # The run ends there, as a generator does after an exception; a new one starts afresh.
    assert list(made) == []
    assert next(nqueens.puzzles(8, seed=1)).n == 8


# --- messages naming the argument ----------------------------------------------------------


def test_sizes_without_end_are_refused_at_the_first_that_cannot_be_counted():
    # range(4, 2**64) once said "Python int too large to convert to C ssize_t".
    with pytest.raises(ValueError, match=r"^counting N=25 would take about"):
        nqueens.count(range(4, 2**64))
    with pytest.raises(ValueError, match=r"^N = 33 is beyond what can be counted"):
        nqueens.count(range(4, 2**64), long=True, max_memory=2**62)
    with pytest.raises(ValueError, match=r"^N = 9223372036854775808 is beyond what can be counted"):
        nqueens.count(range(2**63, 2**64))


@pytest.mark.parametrize("given, kind", [(5, "int"), ("01", "str"), (1.5, "float")])
def test_svg_given_rows_are_an_iterable_of_ints(given, kind):
    # given=5 once said "'int' object is not iterable"; "01" was read as the rows "0" and "1".
    with pytest.raises(TypeError, match=rf"^given must be rows \(an iterable of ints\), not {kind}$"):
        nqueens.svg([1, 3, 0, 2], given=given)
    assert "<svg" in nqueens.svg([1, 3, 0, 2], given=range(2))


def test_trace_indices_are_ints_within_the_trace():
    t = nqueens.trace(4, algo="backtracking")
    steps = len(t)
    # Once "range object index out of range".
    for i in (steps, -steps - 1, 2**70):
        with pytest.raises(IndexError, match=rf"^step index {i} is out of range for a trace of {steps} steps$"):
            t[i]
    # True was step 1, as t[1].
    for i, kind in ((True, "bool"), (False, "bool"), ("1", "str"), (1.0, "float")):
        with pytest.raises(TypeError, match=rf"^a trace's steps are indexed by ints or slices, not {kind}$"):
            t[i]
    assert t[0]["step"] == 1 and t[-1]["step"] == steps
    assert t[steps - 1] == t[-1] == list(t)[-1]
    assert t[1:3] == list(t)[1:3] and t[steps:] == []
    numpy = pytest.importorskip("numpy")
    assert t[numpy.int64(2)] == t[2]
    with pytest.raises(TypeError, match="not bool_?$"):
        t[numpy.bool_(True)]

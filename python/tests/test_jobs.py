"""Jobs the command line has that Python lacked (issue 50): every completion, lazily or in
numpy blocks; a time limit on a count; a trace as long as the player holds."""

import itertools
import os
import time

import pytest

import nqueens
from conftest import published


def threads_now():
    return len(os.listdir("/proc/self/task"))


def test_every_completion_lazily():
    instance = [None, 2, None, None, None, None, None, None, None, None]
    want = nqueens.complete(instance, count=True).count
    it = nqueens.complete(instance, all=True)
    assert isinstance(it, nqueens.Completions) and it.status is None and it.stats is None
    got = list(it)
    assert len(got) == len(set(got)) == want > 0
    assert all(type(p) is nqueens.Placement and p.verify() and p[1] == 2 for p in got)
    assert it.status == "solved" and it.stats.solutions == want
    assert it.givens == ((1, 2),) and it.n == 10
    # Every solution of N = 8, as the listing has them.
    assert set(nqueens.complete([None] * 8, all=True)) == set(nqueens.solutions(8))
    none = nqueens.complete("3\n", all=True)
    assert list(none) == [] and none.status == "none"


def test_completions_of_a_huge_board_come_at_once():
    # Lazily: the first three of an empty 64 board's (about 3.2e52) completions.
    started = time.perf_counter()
    first = list(itertools.islice(nqueens.complete([None] * 64, all=True), 3))
    assert len(set(first)) == 3 and all(p.verify() for p in first)
    assert time.perf_counter() - started < 5


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="needs Linux's /proc")
def test_a_dropped_iterator_stops_its_search():
    before = threads_now()
    for _ in range(5):
        it = nqueens.complete([None] * 30, all=True)
        next(it)
        del it
    assert threads_now() <= before


def test_completions_in_numpy_blocks():
    np = pytest.importorskip("numpy")
    it = nqueens.complete([None] * 10, all=True)
    blocks = list(it.blocks(100))
    assert [b.shape for b in blocks] == [(100, 10)] * 7 + [(24, 10)]
    assert all(b.dtype == np.uint32 and not b.flags.writeable for b in blocks)
    rows = np.concatenate(blocks)
    assert nqueens.verify(rows).all() and len({tuple(r) for r in rows}) == 724
    assert it.status == "solved"
    # Blocks after some one at a time carry on from there.
    it = nqueens.complete([None] * 8, all=True)
    head = [next(it), next(it)]
    rest = np.concatenate(list(it.blocks(50)))
    assert len(rest) == 90 and {tuple(r) for r in rest}.isdisjoint(map(tuple, head))


def test_completions_under_a_limit_say_so():
    it = nqueens.complete([None] * 12, all=True, node_limit=50)
    got = list(it)
    assert it.status == "unknown" and len(got) < 14200 and all(p.verify() for p in got)
    with pytest.raises(ValueError, match="not both"):
        nqueens.complete([None] * 8, all=True, count=True)
    conflicting = nqueens.complete([0, 1, None, None], all=True)
    assert list(conflicting) == [] and conflicting.status == "none"
    assert "attacks" in conflicting.conflict


def test_a_count_stops_at_its_time_limit():
    started = time.perf_counter()
    with pytest.raises(nqueens.CountTimeout) as stopped:
        nqueens.count(20, time_limit=0.3)
    took = time.perf_counter() - started
    e = stopped.value
    assert isinstance(e, TimeoutError) and e.n == 20 and e.time_limit == 0.3
    assert 0 <= e.tasks_done < e.tasks and e.checkpoint is None
    assert "time_limit=0.3 s" in str(e) and took < 5
    # A ladder algorithm's search too.
    with pytest.raises(TimeoutError):
        nqueens.count(17, algo="bitboard", time_limit=0.2)
    # No limit, and a count the library runs on the calling thread, always finish.
    assert nqueens.count(10, time_limit=float("inf")).total == 724
    assert nqueens.count(10, time_limit=0.0).total == 724
    with pytest.raises(ValueError, match="time_limit must be"):
        nqueens.count(14, time_limit=-1.0)


def test_short_calls_with_a_checkpoint_finish_a_count(tmp_path):
    path = tmp_path / "n17.ckpt"
    stops = 0
    while True:
        try:
            r = nqueens.count(17, checkpoint=path, time_limit=0.2)
            break
        except nqueens.CountTimeout as e:
            assert e.checkpoint == path
            stops += 1
            assert stops < 200
    assert (r.total, r.unique) == published()[17]


def test_the_whole_search_the_readme_plays():
    # N = 10 by backtracking: 396,462 steps, more than the command line's JSON holds, as many
    # as the player.
    t = nqueens.trace(10, algo="backtracking")
    assert t.complete and len(t) == t.summary["steps"] == 396_462
    assert t.summary["solutions"] == 724
    last = t[-1]
    assert last["step"] == 396_462
    assert sum(1 for s in t if s["event"] == "solution") == 724

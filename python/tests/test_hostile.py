"""Hostile input through the package (issue 52): arguments that are not what they look like,
sizes a user must not be able to turn into unbounded threads, memory or reads, and long work
that Ctrl-C must stop."""

import os
import subprocess
import sys

import pytest

import nqueens
from conftest import stopped_within

numpy = pytest.importorskip("numpy")


def printed_by(code):
    """What `code` prints, run by a fresh interpreter that must exit 0: an abort or a crash
    there fails the test that asked, not the whole suite."""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def threads_now():
    return len(os.listdir("/proc/self/task"))


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="needs Linux's /proc")
def test_puzzles_start_no_more_threads_than_cores():
    # Threads of the library's one pool set-up, capped at the cores: a million asked for is
    # the cores, and a batch is made for the threads there are, not the threads asked for.
    cores = len(os.sched_getaffinity(0))
    before = threads_now()
    most = before
    made = nqueens.puzzles(8, count=3 * cores * 4 + 1, threads=10**6)
    got = []
    for p in made:
        most = max(most, threads_now())
        got.append(p)
    assert len(got) == 3 * cores * 4 + 1
    assert most - before <= cores, (most, before, cores)
    # The same seed gives the same puzzles whatever the threads.
    again = list(nqueens.puzzles(8, count=len(got), threads=1))
    assert got == again


def test_a_batch_larger_than_memory_is_refused_before_the_first_block():
    # 2**31 solutions of 20 queens are 320 GiB: refused at the call, with the way out.
    with pytest.raises(MemoryError, match=r"batch=2147483648: .* takes 327680 MiB, more than .*\(ask for a smaller batch\)"):
        nqueens.solutions(20, batch=2**31)
    with pytest.raises(MemoryError, match="ask for a smaller batch"):
        nqueens.solutions(30, batch=10**12)


def test_a_batch_counts_only_the_solutions_there_are():
    # N = 8 has 92 solutions (12 unique): a batch of 10**12 is one block of them all.
    (block,) = list(nqueens.solutions(8, batch=10**12))
    assert block.shape == (92, 8)
    (block,) = list(nqueens.solutions(8, unique=True, batch=10**12))
    assert block.shape == (12, 8)


def test_ctrl_c_stops_a_block_filling():
    # 10**7 unique solutions of 20 queens take tens of seconds on 2 cores; the block fits in
    # memory (1.6 GB at most, taken only as solutions come).
    it = nqueens.solutions(20, unique=True, batch=10**7)
    stopped_within(lambda: next(it), 2.0)


def test_ctrl_c_stops_find_by_construction():
    # 10**9 queens: 4 GB of columns, seconds to write on a busy 2-core machine.
    stopped_within(lambda: nqueens.find(1_000_000_000, max_memory=2**40), 2.0)


def test_ctrl_c_stops_verify_of_many_columns():
    p = nqueens.find(200_000_000)
    cols = numpy.asarray(p)
    stopped_within(lambda: [nqueens.verify(cols) for _ in range(100)], 2.0)
    assert nqueens.verify(cols[:1000]) is False


def test_sizes_are_ints_not_bytes_or_text():
    # Iterating b"8" gives 56: once counted N = 56.
    for n in (b"8", bytearray(b"8"), "8", memoryview(b"8")):
        with pytest.raises(TypeError, match=f"N must be an int, not {type(n).__name__}"):
            nqueens.count(n)


def test_flags_are_bools():
    # "no" is truthy: once counted the unique solutions.
    with pytest.raises(TypeError, match="unique must be a bool, not str"):
        nqueens.count(8, unique="no")
    with pytest.raises(TypeError, match="unique must be a bool, not int"):
        nqueens.count(8, unique=0)
    assert nqueens.count(8, unique=numpy.bool_(False)).unique is None
    assert nqueens.count(8, unique=True).unique == 12
    with pytest.raises(TypeError):
        nqueens.solutions(8, unique="no")
    with pytest.raises(TypeError):
        nqueens.count(8, long="no")


@pytest.mark.parametrize("given", [0, 5, 1.5, b"/dev/null", None])
def test_result_files_are_paths_not_descriptors(given):
    # merge([0]) once read standard input to its end and closed it; merge([5]) opened fd 5.
    with pytest.raises(TypeError, match="must be a ShardResult or a path"):
        nqueens.merge([given])
    with pytest.raises(TypeError, match="must be a ShardResult or a path"):
        nqueens.ShardResult.load(given)
    assert not sys.stdin.closed


READ_ENDLESS = """
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
import nqueens
try:
    {call}
except ValueError as e:
    print("ValueError:", e)
"""


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
@pytest.mark.parametrize(
    "call",
    [
        "nqueens.merge(['/dev/zero'])",
        "nqueens.ShardResult.load('/dev/zero')",
        "nqueens.ShardResult.load('/dev/urandom')",
        "nqueens.merge([__import__('pathlib').Path('/dev/urandom')])",
    ],
)
def test_endless_files_are_refused_at_the_size_bound(call):
    # The library's bound, 64 KiB, as `nqueens merge` has it: not a read to the end of an
    # endless file (within 1 GiB of address space, which such a read soon exhausts).
    out = printed_by(READ_ENDLESS.format(call=call))
    assert "not a shard result: larger than 65536 bytes" in out, out


def test_shard_files_still_load_and_merge(tmp_path):
    shards = [nqueens.count(10, shard=(i, 2)) for i in range(2)]
    paths = []
    for i, s in enumerate(shards):
        path = tmp_path / f"s{i}.json"
        s.save(path)
        paths.append(path)
    assert nqueens.ShardResult.load(paths[0]) == shards[0]
    # With a byte order mark, as an editor may leave it.
    paths[1].write_bytes(b"\xef\xbb\xbf" + paths[1].read_bytes())
    assert nqueens.ShardResult.load(paths[1]) == shards[1]
    r = nqueens.merge([str(paths[0]), paths[1]])
    assert (r.n, r.total, r.unique) == (10, 724, 92)
    (tmp_path / "bad").write_bytes(b"\xff\xfe{}")
    with pytest.raises(ValueError, match="not UTF-8"):
        nqueens.ShardResult.load(tmp_path / "bad")
    with pytest.raises(FileNotFoundError):
        nqueens.merge([tmp_path / "missing"])


def test_find_needs_the_memory_it_counts():
    # The construction's columns are written once, into the bytes the Placement keeps: 4 bytes
    # a queen, as the memory check counts (a copy beside them was 8, and 12 at the peak).
    code = (
        "import resource, nqueens\n"
        "def peak(): return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024\n"
        "nqueens.find(1000)\n"
        "before = peak()\n"
        "p = nqueens.find(50_000_000, max_memory=210_000_000)\n"
        "print(peak() - before, len(p))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    grown, n = map(int, out.split())
    assert n == 50_000_000 and grown < 1.2 * 4 * n, grown
    with pytest.raises(ValueError, match="more than the limit of"):
        nqueens.find(50_000_000, max_memory=190_000_000)


@pytest.mark.parametrize("seconds", [1.8e19, 1e300])
def test_a_time_limit_beyond_the_clock_is_no_limit(seconds):
    # 1.8e19 s fits a Duration but not the clock: once a panic on adding it to now, which the
    # release build's abort made the interpreter's end; 1e300 was refused as negative.
    assert nqueens.count(16, time_limit=seconds).total == 14772512
    assert nqueens.complete([None] * 8, time_limit=seconds).status == "solved"
    assert len(list(nqueens.complete([None] * 6, all=True, time_limit=seconds))) == 4
    with pytest.raises(ValueError, match=r"time_limit must be .* not -1e300$"):
        nqueens.count(16, time_limit=-1e300)


ENDLESS = """
import itertools, resource
resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
import nqueens
try:
    {call}
except (MemoryError, ValueError) as e:
    print(type(e).__name__ + ":", e)
"""


@pytest.mark.parametrize(
    "call, said",
    [
        # Columns have no bound but memory: refused when the rows read would outgrow it (a
        # failed allocation aborted the interpreter).
        ("nqueens.verify(itertools.repeat(0))", "MemoryError: columns: more than"),
        ("nqueens.svg(itertools.repeat(None))", "MemoryError: columns: more than"),
        # An instance has at most 32768 rows, a picture 800, its given rows one a row.
        ("nqueens.complete(itertools.repeat(None))", "ValueError: the board size must be from 1 to 32768, not 32769"),
        ("nqueens.complete(itertools.count())", "ValueError: the board size must be from 1 to 32768, not 32769"),
        ("nqueens.svg([1, 3, 0, 2], given=itertools.repeat(0))", "ValueError: more than 4 given rows for a 4x4 board"),
        ("nqueens.svg([0] * 10**6, blocked=itertools.repeat((0, 0)))", "ValueError: svg is limited to N <= 800"),
    ],
)
def test_endless_iterables_are_refused(call, said):
    out = printed_by(ENDLESS.format(call=call))
    assert out.startswith(said), out


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="needs Linux's /proc")
def test_a_buffer_too_large_to_copy_says_so():
    # Python's own MemoryError says nothing.
    code = (
        "import resource, numpy, nqueens\n"
        "cols = numpy.zeros(100_000_000, dtype=numpy.uint32)\n"
        "mapped = open('/proc/self/status').read().split('VmSize:')[1].split()[0]\n"
        "resource.setrlimit(resource.RLIMIT_AS, ((int(mapped) << 10) + (200 << 20),) * 2)\n"
        "try:\n"
        "    nqueens.verify(cols)\n"
        "except MemoryError as e:\n"
        "    print(e)\n"
    )
    out = printed_by(code)
    assert "columns: a copy of the buffer's 381 MiB could not be allocated" in out, out


@pytest.mark.parametrize("one", ["s0.json", b"s0.json", "pathlib"])
def test_merge_takes_a_list_not_one_path(one):
    # A str is an iterable of one-letter paths: once FileNotFoundError for 's'.
    if one == "pathlib":
        import pathlib

        one = pathlib.Path("s0.json")
    with pytest.raises(TypeError, match=r"merge takes a list of shard results or paths, not a single \w+: merge\(\[\.\.\.\]\)"):
        nqueens.merge(one)
    with pytest.raises(TypeError, match="not a single ShardResult"):
        nqueens.merge(nqueens.count(8, shard=(0, 1)))

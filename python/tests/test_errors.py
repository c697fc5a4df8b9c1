"""Bad input to count(): ValueError or TypeError with the library's message, never a crash."""

import inspect
import re
import subprocess
import sys

import pytest

import nqueens


@pytest.mark.parametrize(
    "args, kwargs, error, message",
    [
        ((0,), {}, ValueError, "counts N from 1 to"),
        ((40,), {}, ValueError, "not 40"),
        ((2**70,), {}, ValueError, "too large"),
        ((-3,), {}, ValueError, "N must be at least 1, not -3"),
        ((8.0,), {}, TypeError, "int or an iterable of ints"),
        (("8",), {}, TypeError, "N must be an int, not str"),
        ((True,), {}, TypeError, "not bool"),
        ((None,), {}, TypeError, "int or an iterable"),
        ((13,), {"algo": "permutations"}, ValueError, "13! is 6.2 billion"),
        ((29,), {"algo": "bitboard"}, ValueError, "overflows the 64-bit counter"),
        ((8,), {"algo": "quantum"}, ValueError, 'unknown algorithm "quantum"; the ladder has: permutations'),
        ((8,), {"strategy": "dfs"}, ValueError, 'unknown strategy "dfs"'),
        ((8,), {"strategy": 1}, TypeError, "strategy"),
        ((27,), {"strategy": "join"}, ValueError, "engine counts N from 1 to"),
        ((8,), {"strategy": "join", "algo": "flags"}, ValueError, "exclude each other"),
        ((8,), {"threads": 0}, ValueError, "threads must be at least 1"),
        ((8,), {"threads": -2}, ValueError, "threads must be at least 1, not -2"),
        ((8,), {"threads": "2"}, TypeError, "threads must be an int"),
        ((18,), {"strategy": "join", "max_memory": 1000}, ValueError, "more than the limit of 1000.*max_memory"),
        ((8,), {"max_memory": -1}, ValueError, "max_memory"),
        ((8,), {"progress": 5}, TypeError, "progress must be"),
        ((8,), {"algo": "flags", "checkpoint": "x.ckpt"}, ValueError, "checkpoint or a shard needs the engine"),
        # The module CI builds has no GPU support; a GPU build without a GPU says what is missing.
        ((12,), {"device": "gpu"}, ValueError, "GPU support|NVIDIA driver|NVRTC|sees no GPU"),
        ((12,), {"device": "tpu"}, ValueError, 'unknown device "tpu"'),
        ((12,), {"device": "gpu", "strategy": "join"}, ValueError, "GPU support|NVIDIA driver|NVRTC|sees no GPU"),
        ((26,), {"device": "gpu", "strategy": "backtrack"}, ValueError, "the GPU counts N from 1 to 25, not 26"),
        ((12,), {"device": "gpu", "algo": "flags"}, ValueError, "not the flags algorithm"),
        ((8,), {"thread": 2}, TypeError, r"count\(\) got an unexpected keyword argument 'thread'"),
        ((range(4, 6),), {"shard": (0, 2)}, ValueError, "shard takes a single N"),
    ],
)
def test_count_errors(args, kwargs, error, message):
    with pytest.raises(error, match=message):
        nqueens.count(*args, **kwargs)


def test_count_documents_each_of_its_options_once():
    """`CountOptions` is the one definition of count's keyword arguments but `shard`: the
    docstring's Args name each of them, and the native options take the library's share."""
    doc = inspect.cleandoc(nqueens.count.__doc__)
    args = doc.split("\nArgs:\n")[1].split("\nReturns:\n")[0]
    documented = set(re.findall(r"^    (\w+):", args, re.M))
    options = set(nqueens.CountOptions.__optional_keys__)
    assert documented == options | {"shard"}
    engine = options - {"unique", "progress", "time_limit"}
    given = {"device": "cpu", "long": False}
    given.update({k: None for k in engine - given.keys()})
    nqueens._nqueens.CountOptions(shard=None, **given)


def test_checkpoint_resumes(tmp_path):
    path = tmp_path / "run.ckpt"
    first = nqueens.count(15, checkpoint=path)
    assert path.exists()
    again = nqueens.count(15, checkpoint=str(path))
    assert (again.total, again.unique) == (first.total, first.unique) == (2279184, 285053)


def test_checkpoint_of_another_count(tmp_path):
    path = tmp_path / "run.ckpt"
    nqueens.count(14, checkpoint=path)
    with pytest.raises(ValueError):
        nqueens.count(15, checkpoint=path)


def test_checkpoint_in_a_missing_directory(tmp_path):
    with pytest.raises(OSError):
        nqueens.count(14, checkpoint=tmp_path / "no" / "such" / "dir" / "run.ckpt")


def test_a_count_of_years_is_refused_unless_asked_for():
    with pytest.raises(ValueError, match="years on 2 threads by the estimate"):
        nqueens.count(27, threads=2)
    # Asked for, it passes every check (and is not started here).
    nqueens._nqueens.check_count(27, nqueens._nqueens.CountOptions(threads=2, long=True))


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: nqueens.find(-5), "N must be at least 1, not -5"),
        (lambda: nqueens.count(-1), "N must be at least 1, not -1"),
        (lambda: nqueens.count(8, threads=-1), "threads must be at least 1, not -1"),
        (lambda: nqueens.count(8, threads=0), "threads must be at least 1, not 0"),
        (lambda: nqueens.trace(8, limit=-1), "limit must be at least 1, not -1"),
        (lambda: nqueens.trace(8, limit=0), "limit must be at least 1, not 0"),
        (lambda: nqueens.svg([0], size=-1), "size must be at least 1, not -1"),
        (lambda: nqueens.solutions(8, batch=-1), "batch must be at least 1, not -1"),
        (lambda: list(nqueens.puzzles(8, threads=-3)), "threads must be at least 1, not -3"),
    ],
)
def test_what_must_be_positive_says_at_least_1(call, message):
    # 0 and a negative number get the same bound: "at least 0" for -5 beside "at least 1"
    # for 0 was two answers to one question.
    with pytest.raises(ValueError, match=message):
        call()


def test_flags_are_bools_everywhere():
    for call in (lambda: nqueens.find(8, random="yes"), lambda: nqueens.count(8, unique="no"),
                 lambda: nqueens.solutions(8, unique=1), lambda: nqueens.complete([None] * 4, count="no"),
                 lambda: nqueens.complete([None] * 4, all=1)):
        with pytest.raises(TypeError, match="must be a bool"):
            call()
    with pytest.raises(TypeError, match="batch must be an int, not bool"):
        nqueens.solutions(8, batch=True)


def test_messages_name_the_board_size_N():
    for call in (lambda: nqueens.count(object()), lambda: nqueens.count("8"), lambda: nqueens.find(-1)):
        with pytest.raises((TypeError, ValueError)) as e:
            call()
        assert str(e.value).startswith("N "), str(e.value)


def test_conflicting_givens_have_no_completion():
    # As CP-SAT says INFEASIBLE: a status, so a loop over instances needs no try.
    c = nqueens.complete([0, 1, None, None])
    assert (c.status, c.placement, c.conflict) == (
        "none", None, "the queen at row 2, column 2 attacks the one at row 1, column 1 along a diagonal")
    assert nqueens.complete([0, None, 0, None], count=True).count == 0
    on_blocked = nqueens.complete([0, None], blocked=[(0, 0)])
    assert on_blocked.status == "none" and "holds a queen and is blocked" in on_blocked.conflict
    assert nqueens.complete([1, 3, 0, 2]).conflict is None
    # A text that says so is malformed, as for the command line.
    with pytest.raises(ValueError, match="line 3"):
        nqueens.complete("4\nq 1 1\nq 2 2\n")


def test_a_memory_error_says_what_it_could_not_allocate():
    # An address-space limit below the columns asked for: Python's own MemoryError is empty.
    code = (
        "import resource, nqueens\n"
        "resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))\n"
        "try:\n"
        "    nqueens.find(400_000_000, max_memory=1 << 40)\n"
        "except MemoryError as e:\n"
        "    print(repr(str(e)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "400000000 columns of 4 bytes" in out and "could not be allocated" in out, out


def test_the_wheel_says_who_and_points_nowhere_it_cannot_reach():
    from importlib.metadata import metadata

    meta = metadata("nqueens")
    assert meta["Author"] == "the nqueens developers" or "the nqueens developers" in (meta["Author-email"] or "")
    assert meta["License-Expression"] == "MIT OR Apache-2.0"
    text = meta.get_payload() or meta["Description"]
    assert "Placement" in text and "to_pandas" in text
    # No path of the source repository, which a wheel's user does not have.
    for path in ("docs/", "./python", "examples/", "](", "python.md"):
        assert path not in text, path

"""Shards and merge: a count spread over processes or machines, checked as the command line
checks it, and the Dask example."""

import json
import pathlib
import pickle
import subprocess
import sys

import pytest

import nqueens
from conftest import REPO, published

PUBLISHED = published()


@pytest.mark.parametrize("n", [1, 4, 8, 12, 13, 15])
@pytest.mark.parametrize("k", [1, 2, 5])
def test_shards_add_up_to_the_published_count(n, k):
    shards = [nqueens.count(n, shard=(i, k)) for i in range(k)]
    assert all(isinstance(s, nqueens.ShardResult) for s in shards)
    assert [s.shard for s in shards] == list(range(k)) and {s.shards for s in shards} == {k}
    assert sum(s.tasks_counted for s in shards) == shards[0].tasks
    r = nqueens.merge(reversed(shards))
    assert (r.n, r.total, r.unique) == (n, *PUBLISHED[n])
    assert r.method == f"engine/{shards[0].strategy}"


def test_each_strategy_shards():
    for strategy in nqueens.STRATEGIES:
        shards = [nqueens.count(13, shard=(i, 3), strategy=strategy) for i in range(3)]
        assert nqueens.merge(shards).total == PUBLISHED[13][0]


def test_merge_refuses_what_the_command_line_refuses():
    three = [nqueens.count(12, shard=(i, 3)) for i in range(3)]
    with pytest.raises(ValueError, match="1 of 3 shards missing: 2"):
        nqueens.merge([three[0], three[2]])
    with pytest.raises(ValueError, match=r"shard 2/3 given twice: results\[1\] and results\[3\]"):
        nqueens.merge(three + [three[1]])
    foreign = nqueens.count(11, shard=(1, 3))
    with pytest.raises(ValueError, match=r"results\[1\] does not belong with results\[0\]"):
        nqueens.merge([three[0], foreign, three[2]])
    other_split = nqueens.count(12, shard=(1, 4))
    with pytest.raises(ValueError, match="does not belong"):
        nqueens.merge([three[0], other_split, three[2]])
    with pytest.raises(ValueError, match="no shard results"):
        nqueens.merge([])
    # A forged total, checksum kept: refused as corrupted.
    d = json.loads(three[1].text)
    d["total"] += 1
    forged = nqueens.ShardResult.from_json(json.dumps(d))
    with pytest.raises(ValueError, match=r"results\[1\]: corrupted"):
        nqueens.merge([three[0], forged, three[2]])
    with pytest.raises(ValueError, match="not a shard result"):
        nqueens.ShardResult.from_json('{"format": "other"}')


def test_shard_arguments():
    with pytest.raises(ValueError, match=r"shard \(3, 3\) does not exist: the index is 0-based"):
        nqueens.count(10, shard=(3, 3))
    with pytest.raises(ValueError, match="shard count must be from 1"):
        nqueens.count(10, shard=(0, 0))
    with pytest.raises(TypeError, match="pair"):
        nqueens.count(10, shard=3)
    with pytest.raises(ValueError, match="engine"):
        nqueens.count(10, shard=(0, 2), algo="flags")
    with pytest.raises(ValueError, match="single N"):
        nqueens.count(range(8, 10), shard=(0, 2))


def test_a_shard_result_pickles_and_compares_without_time_or_host():
    s = nqueens.count(13, shard=(1, 4))
    back = pickle.loads(pickle.dumps(s))
    assert back == s and back.text == s.text
    assert nqueens.count(13, shard=(1, 4)) == s
    assert nqueens.count(13, shard=(2, 4)) != s


def test_files_mix_with_the_command_lines(cli, tmp_path):
    # Shards 1 and 3 counted here, shard 2 by the command line; merged both ways.
    mine = [nqueens.count(12, shard=(i, 3)) for i in (0, 2)]
    for s in mine:
        s.save(tmp_path / f"py{s.shard}.json")
    subprocess.run([cli, "count", "12", "--shard", "2/3", "--out", str(tmp_path / "cli.json")],
                   check=True, capture_output=True)
    files = sorted(tmp_path.glob("*.json"))
    r = nqueens.merge(files)
    assert (r.total, r.unique) == PUBLISHED[12]
    out = subprocess.run([cli, "merge", "--format", "json", "--no-time", *map(str, files)],
                         check=True, capture_output=True, text=True).stdout
    merged = json.loads(out)
    assert (merged["total"], merged["unique"]) == PUBLISHED[12]
    assert nqueens.ShardResult.load(tmp_path / "cli.json").shard == 1


def test_the_dask_example_on_a_local_cluster():
    """examples/python/dask_count.py: a distributed.LocalCluster of worker processes counts the
    shards; the merged counts equal counts.tsv."""
    pytest.importorskip("distributed")
    example = REPO / "examples" / "python" / "dask_count.py"
    done = subprocess.run([sys.executable, str(example), "13", "14", "--shards", "6"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    lines = [line.split() for line in done.stdout.splitlines() if line.startswith("N=")]
    got = {int(w[0][2:]): (int(w[1]), int(w[2])) for w in lines}
    assert got == {13: PUBLISHED[13], 14: PUBLISHED[14]}

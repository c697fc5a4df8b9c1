"""One count spread over a Dask cluster in shards, then merged with the library's checks.

    pip install ./python "dask[distributed]"
    python examples/python/dask_count.py 16 17 --shards 8      # a LocalCluster on this machine
    python examples/python/dask_count.py 20 --scheduler tcp://host:8786   # a real cluster

Each shard ``(i, k)`` counts the engine's tasks ``t`` with ``t % k == i`` on a worker (one
thread each: the workers are the parallelism) and comes back as a picklable
``nqueens.ShardResult``; ``nqueens.merge`` refuses a missing, repeated or foreign shard, so a
lost worker cannot give a wrong total silently. Prints ``N=<n> <total> <unique> <seconds>``
per board. The package's tests run it on a ``distributed.LocalCluster`` of worker processes and
compare the counts with ``data/counts.tsv``.
"""

from __future__ import annotations

import argparse
import contextlib
import time
from typing import TYPE_CHECKING, Iterator, List, cast

import nqueens

if TYPE_CHECKING:
    import distributed


def count_on_cluster(client: "distributed.Client", n: int, shards: int) -> nqueens.CountResult:
    """Counts ``n`` in ``shards`` shards on ``client``'s workers and merges them."""
    futures = [
        client.submit(nqueens.count, n, shard=(i, shards), threads=1, pure=False)
        for i in range(shards)
    ]
    # Dask's own annotations are partial: its calls are marked for mypy --strict and pyright.
    results = cast(List[nqueens.ShardResult], client.gather(futures))  # type: ignore[no-untyped-call]
    return nqueens.merge(results)


@contextlib.contextmanager
def local_client(workers: int) -> Iterator["distributed.Client"]:
    """A client of a new ``distributed.LocalCluster`` of ``workers`` processes on this machine,
    one thread each, both closed at the end of the ``with`` block."""
    import distributed

    with distributed.LocalCluster(  # type: ignore[no-untyped-call]
        n_workers=workers,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,  # pyright: ignore[reportArgumentType]
    ) as cluster, distributed.Client(cluster) as client:  # type: ignore[no-untyped-call]
        yield client


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("n", type=int, nargs="+", help="board sizes")
    parser.add_argument("--shards", type=int, default=8, help="shards per board")
    parser.add_argument("--workers", type=int, default=2, help="local worker processes")
    parser.add_argument("--scheduler", help="a running cluster's scheduler address")
    args = parser.parse_args()

    import distributed

    with contextlib.ExitStack() as stack:
        if args.scheduler:
            client = distributed.Client(args.scheduler)  # type: ignore[no-untyped-call]
            stack.enter_context(client)
        else:
            client = stack.enter_context(local_client(args.workers))
        for n in args.n:
            started = time.perf_counter()
            r = count_on_cluster(client, n, args.shards)
            print(f"N={r.n} {r.total} {r.unique} {time.perf_counter() - started:.3f}")


if __name__ == "__main__":
    main()

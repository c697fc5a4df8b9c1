"""Shared helpers of the Python tests."""

import _thread
import os
import pathlib
import shutil
import signal
import threading
import time

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
COUNTS = REPO / "data" / "counts.tsv"


def published():
    """{n: (total, unique)} from data/counts.tsv (OEIS A000170 and A002562)."""
    rows = {}
    for line in COUNTS.read_text().splitlines():
        if line.startswith("#") or line.startswith("n\t"):
            continue
        n, total, unique = line.split("\t")
        rows[int(n)] = (int(total), int(unique))
    return rows


@pytest.fixture(scope="session")
def cli():
    """The command line `nqueens`, to check the package against: $NQUEENS_BIN (python/ci.sh
    sets it), else the repository's build, else one on PATH."""
    given = os.environ.get("NQUEENS_BIN")
    if given is not None:
        if not os.access(given, os.X_OK):
            pytest.fail(f"NQUEENS_BIN={given} is not a program")
        return given
    candidates = [str(REPO / "target" / p / "nqueens") for p in ("debug", "release")]
    candidates.append(shutil.which("nqueens"))
    for c in candidates:
        if c and os.access(c, os.X_OK):
            return c
    pytest.skip("no nqueens command line built (cargo build)")


def stopped_within(call, bound, match=None):
    """Runs `call` under Ctrl-C, pressed after 0.5 s and every 0.5 s after until it returns
    (one press that came too early or went astray cannot leave a test waiting for the whole
    call); the first press seen raises KeyboardInterrupt, as Python's own handler does, the
    rest are ignored. Asserts that KeyboardInterrupt (matching `match`) came within `bound`
    seconds of the first press: the time of the press, not of the handler's run, since a call
    that does not look at signals runs the handler only when it returns."""
    presses = []
    seen = []

    def on_ctrl_c(signum, frame):
        seen.append(signum)
        if len(seen) == 1:
            raise KeyboardInterrupt

    returned = threading.Event()

    def press():
        while not returned.wait(0.5):
            presses.append(time.perf_counter())
            _thread.interrupt_main()

    previous = signal.signal(signal.SIGINT, on_ctrl_c)
    presser = threading.Thread(target=press)
    presser.start()
    try:
        with pytest.raises(KeyboardInterrupt, match=match):
            call()
        stopped = time.perf_counter()
    finally:
        returned.set()
        presser.join()
        signal.signal(signal.SIGINT, previous)
    assert presses and stopped - presses[0] < bound, stopped - presses[0]

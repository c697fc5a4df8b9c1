"""Shared helpers of the Python tests."""

import os
import pathlib
import shutil

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

#!/usr/bin/env bash
# The Python package as users get it: one abi3 wheel (CPython 3.9 and later) built once with
# maturin for manylinux2014 (glibc 2.17, linked by zig), installed into fresh virtual
# environments of the oldest and the newest Python supported, each running the test suite and
# the doctests (plain `pytest --doctest-modules`), with numpy, pandas and tqdm. The newest also
# runs mypy --strict and pyright on the package and on user scripts (the examples and
# tests/test_typed_api.py), requires both to refuse each line of tests/typing_refused.py marked
# `# refused` and nothing else, and executes the notebook (notebooks/tour.ipynb, with nbclient)
# and the notebook-style tour, with numpy, pandas, tqdm and a Dask LocalCluster.
#
# Usage: python/ci.sh   (from any directory; needs cargo, PyPI, and the two interpreters:
# $NQUEENS_PY_OLD and $NQUEENS_PY_NEW, by default pyenv's 3.9 and 3.13, else python3.9 and
# python3.13 on PATH). Virtual environments and the wheel live in a temporary directory,
# removed at the end; the Rust build goes to the repository's target/ like any cargo build.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
pip_install() { "$1/bin/python" -m pip install --quiet --disable-pip-version-check "${@:2}"; }

# An interpreter of version $1 (3.9, 3.13): pyenv's newest of that series, else pythonX.Y.
interpreter() {
    local found=""
    if command -v pyenv >/dev/null; then
        found="$(ls -d "$(pyenv root)/versions/$1".*/bin/python 2>/dev/null | sort -V | tail -n 1)"
    fi
    if [ -z "$found" ]; then
        found="$(command -v "python$1" || true)"
    fi
    if [ -z "$found" ]; then
        echo "python/ci.sh: no Python $1 (pyenv install $1, or set NQUEENS_PY_OLD / NQUEENS_PY_NEW)" >&2
        exit 1
    fi
    echo "$found"
}
py_old="${NQUEENS_PY_OLD:-$(interpreter 3.9)}"
py_new="${NQUEENS_PY_NEW:-$(interpreter 3.13)}"

# The wheel is built lightly optimised and without link-time optimisation: the same code,
# built in about half the time (CI's time is bounded; the tests here check the bindings,
# `cargo test` the optimised engine; a user's install keeps the release profile).
export CARGO_PROFILE_RELEASE_OPT_LEVEL=1 CARGO_PROFILE_RELEASE_LTO=off
export CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16
python3 -m venv "$tmp/build"
pip_install "$tmp/build" -r "$repo/python/requirements-build.txt"
(cd "$repo/python" && PATH="$tmp/build/bin:$PATH" \
    maturin build --release --zig --compatibility manylinux2014 --out "$tmp/wheel")
wheel="$(ls "$tmp"/wheel/nqueens-*-cp39-abi3-manylinux2014_x86_64*.whl)"

# The command line the tests compare traces and shard files with.
cargo build --quiet --bin nqueens
export NQUEENS_BIN="$repo/target/debug/nqueens"

# From the temporary directory, so that `import nqueens` finds the installed package, not
# python/py_src.
cd "$tmp"
for py in "$py_old" "$py_new"; do
    venv="$tmp/venv-$("$py" -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
    "$py" -m venv "$venv"
    pip_install "$venv" "$wheel" pytest numpy pandas tqdm
    "$venv/bin/python" -m pytest "$repo/python/tests" -q -p no:cacheprovider
    "$venv/bin/python" -m pytest -q -p no:cacheprovider --doctest-modules --pyargs nqueens
done

# The newest: type checkers, and the tour (which writes its pictures to the current directory).
pip_install "$venv" -r "$repo/python/requirements-check.txt"
checked=("$repo/python/py_src/nqueens" "$repo/examples/python" "$repo/python/tests/test_typed_api.py")
"$venv/bin/python" -m mypy --strict --cache-dir "$tmp/mypy" "${checked[@]}"
# From the repository, where pyright finds the tour's import of dask_count beside it.
(cd "$repo" && "$venv/bin/pyright" --pythonpath "$venv/bin/python" "${checked[@]}")
# The lines a checker must refuse: each line marked `# refused`, and no other.
refused="$repo/python/tests/typing_refused.py"
want="$(grep -n '# refused$' "$refused" | cut -d: -f1 | sort -u | tr '\n' ' ')"
got="$("$venv/bin/python" -m mypy --strict --enable-error-code deprecated --cache-dir "$tmp/mypy" \
    "$refused" | sed -n 's/^[^:]*:\([0-9]*\): error.*/\1/p' | sort -u | tr '\n' ' ' || true)"
[ "$got" = "$want" ] || { echo "mypy refused lines $got of $refused, not $want" >&2; exit 1; }
got="$(cd "$repo" && "$venv/bin/pyright" --pythonpath "$venv/bin/python" "$refused" \
    | sed -n 's/^ *[^:]*:\([0-9]*\):[0-9]* - error.*/\1/p' | sort -u | tr '\n' ' ' || true)"
[ "$got" = "$want" ] || { echo "pyright refused lines $got of $refused, not $want" >&2; exit 1; }
"$venv/bin/python" -m pytest "$repo/python/tests/test_shards.py" -q -p no:cacheprovider -k dask
# The notebook, every cell run by a Jupyter kernel as a user's would be (about 20 s on 2 cores).
"$venv/bin/python" - "$repo/python/notebooks/tour.ipynb" <<'PY'
import sys

import nbformat
from nbclient import NotebookClient

notebook = nbformat.read(sys.argv[1], as_version=4)
NotebookClient(notebook, timeout=120, kernel_name="python3").execute()
print(f"{sys.argv[1]}: {len(notebook.cells)} cells run")
PY
"$venv/bin/python" "$repo/examples/python/tour.py"

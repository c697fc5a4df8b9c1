#!/usr/bin/env bash
# Builds the Python module the way a user does (a fresh virtual environment, then
# `pip install ./python`, which builds it with maturin), and runs its pytest suite.
#
# Usage: python/ci.sh   (from any directory; needs python3 >= 3.9 with venv, cargo, and PyPI
# for maturin and pytest). The virtual environment lives in a temporary directory, removed at
# the end; the Rust build goes to the repository's target/ like any cargo build.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# The module is built as `pip install` builds it, but lightly optimised and without link-time
# optimisation: the same code, built in about half the time (CI's time is bounded; the tests
# here check the bindings, `cargo test` the optimised engine; a user's install keeps the
# release profile). The suite still runs in seconds.
export CARGO_PROFILE_RELEASE_OPT_LEVEL=1 CARGO_PROFILE_RELEASE_LTO=off
export CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16

python3 -m venv "$tmp/venv"
py="$tmp/venv/bin/python"
"$py" -m pip install --quiet --disable-pip-version-check "$repo/python"
"$py" -m pip install --quiet --disable-pip-version-check pytest
# From the temporary directory, so that `import nqueens` finds the installed package.
cd "$tmp"
"$py" -m pytest "$repo/python/tests" -q -p no:cacheprovider

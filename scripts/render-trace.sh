#!/bin/sh
# Renders a trace's HTML page (at its start, middle and end, and on a narrow screen), its
# animated SVG and a storyboard in headless Chromium (Debian's `chromium` package, driven by
# Playwright from tests/browser), to look at what learners will see.
#
#   scripts/render-trace.sh [OUT_DIR] [N] [ALGO]      (defaults: render-out 8 backtracking)
#
# Uses target/release/nqueens if built, else `nqueens` from PATH. Not part of `cargo test`.
set -eu
out=${1:-render-out}
n=${2:-8}
algo=${3:-backtracking}
bin=target/release/nqueens
[ -x "$bin" ] || bin=$(command -v nqueens)
command -v chromium >/dev/null || { echo "error: chromium not found (apt-get install -y chromium)" >&2; exit 1; }
[ -d tests/browser/node_modules ] || (cd tests/browser && npm ci --no-audit --no-fund)
node tests/browser/screenshots.mjs "$out" "$n" "$algo" "$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")"

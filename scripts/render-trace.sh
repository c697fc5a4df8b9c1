#!/bin/sh
# Renders a trace's HTML page and animated SVG in headless Chromium (Debian's `chromium`
# package) and saves screenshots at a few steps, to look at what learners will see.
#
#   scripts/render-trace.sh [OUT_DIR] [N] [ALGO]      (defaults: render-out 6 backtracking)
#
# Uses target/release/nqueens if built, else `nqueens` from PATH. Not part of `cargo test`.
set -eu
out=${1:-render-out}
n=${2:-6}
algo=${3:-backtracking}
bin=target/release/nqueens
[ -x "$bin" ] || bin=nqueens
command -v chromium >/dev/null || { echo "error: chromium not found (apt-get install -y chromium)" >&2; exit 1; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT

shot() { # shot FILE URL [extra flags...]
    file=$1; url=$2; shift 2
    chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
        --disable-component-update --disable-sync --no-first-run \
        --user-data-dir="$profile" --hide-scrollbars --window-size=1280,720 \
        --screenshot="$file" "$@" "$url" >/dev/null 2>&1
    echo "$file"
}

"$bin" trace "$n" --algo "$algo" --format html --limit 20000 > "$out/trace.html"
total=$("$bin" trace "$n" --algo "$algo" --format json --limit 20000 | tail -1 |
    sed 's/.*"steps":\([0-9]*\).*/\1/')
for step in 1 $((total / 4)) $((total / 2)) "$total"; do
    shot "$out/html-step-$step.png" "file://$out/trace.html#step=$step"
done

# The SVG plays on its own; virtual time moves the animation on before the picture.
"$bin" trace "$n" --algo "$algo" --format svg --limit 400 > "$out/trace.svg"
for ms in 500 3000 6000; do
    shot "$out/svg-$ms-ms.png" "file://$out/trace.svg" --virtual-time-budget="$ms" \
        --window-size=480,560
done

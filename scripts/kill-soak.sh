#!/usr/bin/env bash
# Soak test of checkpoints: SIGKILL a checkpointed count at random moments, resume it each time,
# and check the final count against the published one.
#
#   scripts/kill-soak.sh [N] [KILLS] [THREADS]     (defaults: 18 50 2)
#
# Each round starts the same command, kills it with SIGKILL after a random 0.1-1.5 s, and starts
# it again; after KILLS kills the count runs to the end. Prints the rounds, the tasks the
# checkpoint held after each kill, and the verdict; exits 1 if the count is wrong.
set -euo pipefail
n=${1:-18}
kills=${2:-50}
threads=${3:-2}
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=target/release/nqueens
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
ck="$dir/soak.ck"
for ((k = 1; k <= kills; k++)); do
  "$bin" count "$n" -j "$threads" --checkpoint "$ck" --no-time >/dev/null 2>&1 &
  pid=$!
  sleep "$(awk -v r="$RANDOM" 'BEGIN { printf "%.2f", 0.1 + 1.4 * r / 32767 }')"
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  held=$(($(wc -l <"$ck" 2>/dev/null || echo 1) - 1))
  echo "kill $k: checkpoint holds $held tasks"
done
got=$("$bin" count "$n" -j "$threads" --checkpoint "$ck" --no-time --format csv | tail -1)
want=$(awk -v n="$n" '$1 == n { print n "," $2 "," $3 "," }' data/counts.tsv)
echo "final: $got (published: $want)"
[ "$got" = "$want" ] && echo "exact after $kills kills" || { echo "WRONG"; exit 1; }

#!/usr/bin/env bash
# Soak test of checkpoints: SIGKILL a checkpointed count at random moments, resume it each time,
# and check the final count against the published one.
#
#   scripts/kill-soak.sh [N] [KILLS] [THREADS] [LATEST]     (defaults: 18 50 2 0.45)
#
# It builds and soaks target/release/nqueens; NQUEENS_BIN=path soaks a binary already built
# instead (`NQUEENS_BIN=target/debug/nqueens`: the dev profile is optimised too).
#
# Each round starts the same command, kills it with SIGKILL after a random 0.05 s to LATEST
# seconds (a whole N = 18 count takes about 1.5 s on 2 threads, so most kills land mid-count;
# for N = 19 and up, LATEST of a few seconds lets the rounds get past making the task list),
# and starts it again; after KILLS kills the count runs to the end. Prints the tasks the checkpoint held
# after each kill, how many kills landed before the count was complete, and the verdict;
# exits 1 if the count is wrong.
set -euo pipefail
n=${1:-18}
kills=${2:-50}
threads=${3:-2}
latest=${4:-0.45}
cd "$(dirname "$0")/.."
if [ -n "${NQUEENS_BIN:-}" ]; then
  bin=$NQUEENS_BIN
else
  cargo build --release --quiet
  bin=target/release/nqueens
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
ck="$dir/soak.ck"
# The number of tasks, from the header the first run writes.
"$bin" count "$n" -j "$threads" --checkpoint "$dir/probe.ck" --no-time >/dev/null 2>&1 &
probe=$!
# The header is written once the task list is made, which takes longer for larger N.
for _ in $(seq 1 1200); do
  [ -s "$dir/probe.ck" ] && break
  sleep 0.05
done
kill -KILL "$probe" 2>/dev/null || true
wait "$probe" 2>/dev/null || true
total=$(head -1 "$dir/probe.ck" | sed -n 's/.* tasks=\([0-9]*\) .*/\1/p')
midway=0
for ((k = 1; k <= kills; k++)); do
  "$bin" count "$n" -j "$threads" --checkpoint "$ck" --no-time >/dev/null 2>&1 &
  pid=$!
  sleep "$(awk -v r="$RANDOM" -v l="$latest" 'BEGIN { printf "%.3f", 0.05 + (l - 0.05) * r / 32767 }')"
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  held=$(($(wc -l <"$ck" 2>/dev/null || echo 1) - 1))
  [ "$held" -lt "$total" ] && midway=$((midway + 1))
  echo "kill $k: checkpoint holds $held of $total tasks"
done
echo "$midway of $kills kills landed before the count was complete"
got=$("$bin" count "$n" -j "$threads" --checkpoint "$ck" --no-time --format csv | tail -1)
want=$(awk -v n="$n" '$1 == n { print n "," $2 "," $3 "," }' data/counts.tsv)
echo "final: $got (published: $want)"
[ "$got" = "$want" ] && echo "exact after $kills kills" || { echo "WRONG"; exit 1; }

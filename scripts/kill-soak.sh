#!/usr/bin/env bash
# Soak test of checkpoints: SIGKILL a checkpointed count at random moments, resume it each time,
# and check the final count against the published one.
#
#   scripts/kill-soak.sh [N] [KILLS] [THREADS]     (defaults: 18 50 2)
#
# Each round starts the same command, kills it with SIGKILL after a random 0.05-0.45 s (a
# whole N = 18 count takes about 1.5 s on 2 threads, so most kills land mid-count), and starts
# it again; after KILLS kills the count runs to the end. Prints the tasks the checkpoint held
# after each kill, how many kills landed before the count was complete, and the verdict;
# exits 1 if the count is wrong.
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
# The number of tasks, from the header the first run writes.
"$bin" count "$n" -j "$threads" --checkpoint "$dir/probe.ck" --no-time >/dev/null 2>&1 &
probe=$!
sleep 0.05
kill -KILL "$probe" 2>/dev/null || true
wait "$probe" 2>/dev/null || true
total=$(head -1 "$dir/probe.ck" | sed -n 's/.* tasks=\([0-9]*\) .*/\1/p')
midway=0
for ((k = 1; k <= kills; k++)); do
  "$bin" count "$n" -j "$threads" --checkpoint "$ck" --no-time >/dev/null 2>&1 &
  pid=$!
  sleep "$(awk -v r="$RANDOM" 'BEGIN { printf "%.3f", 0.05 + 0.4 * r / 32767 }')"
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

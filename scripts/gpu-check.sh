#!/usr/bin/env bash
# The GPU counter on a machine with an NVIDIA GPU, in one run: correctness, then timings.
#
#   scripts/gpu-check.sh [--bin DIR] [--budget SECONDS] [--cpu] [--scaling] [--tune]
#                        [--variants] [--batch] [--switches] [--layouts] [--ncu] [--big]
#
# It builds nothing: DIR (default target/release) must hold `nqueens` and `examples/gpu_kernel`
# built on an x86-64 machine with `cargo build --release --features cuda --bin nqueens
# --example gpu_kernel`. It needs the NVIDIA driver and NVRTC (found through ldconfig, or
# looked for under /usr/local and /opt), no network.
#
# 1. Every kernel compiled for the GPU's architecture, with ptxas's register and spill report.
# 2. N = 4..20 counted on the GPU with the join (`--strategy join`), and N = 4..17 with the
#    backtracking kernel, every total and unique checked against data/counts.tsv.
# 3. Every task's tally on the GPU against the CPU's, two checkpoints of one task list
#    compared record by record: the join's at N = 16 and 18, the backtracking one's at N = 14.
# 4. Timings, whole command, each count checked, with the time the GPU spent in kernels: the
#    join on the GPU (the default from N = 18) at N = 20 (also with no kernel kept from an
#    earlier count: NQUEENS_KERNEL_CACHE=off) and 21, and at N = 21 with no CPU
#    thread counting tasks beside the GPU (-j 1), the backtracking kernel (`--strategy
#    backtrack`) at N = 20 and 21 beside it, the join at N = 22 (capped at 300 s), then one
#    shard of N = 23's join (1 of $N23_SHARDS, default 20: interleaved tasks, so a fair sample;
#    its time times the shards estimates the whole; 1: the whole count, checked) with the rest
#    of the budget as its cap
#    (the backtracking kernel at N = 22 too with --big).
#    --cpu: N = 20 and 21 on all CPU cores, the same binary.
#    --batch: the join at N = 21 and 22 with batches of 2^B word places for each B in
#    $BATCH_BITS (default "26 28 29 30"; NQUEENS_GPU_BATCH_BITS, the default 27 timed above),
#    run before N = 22's and 23's own timings.
#    --switches: the join at N = 21 and 22 with each set of its kernels' switches in $SWITCHES
#    (sets separated by ';', each "MAKE|JOIN": the values of NQUEENS_GPU_MAKE_DEFINES and
#    NQUEENS_GPU_JOIN_DEFINES; default: the count kernel with each tile's classes listed
#    once, NQJ_CLASS_LIST; the making's scatter claiming places a class at a time,
#    NQM_CLASS_CLAIM; both), each with ptxas's report of `nq_make` and `nq_join` for it, run
#    before N = 22's and 23's own timings.
#    --layouts: the join at N = 21 and 22 with its layout planned for each number of cut bits
#    in $PLANNED_CUTS (default "4 3"; NQUEENS_GPU_PLANNED_CUT: more chunks, words kept wide
#    past 32 bits, so the making may choose fewer cut bits and larger tiles), each alone and
#    with the count kernel's classes listed once (NQJ_CLASS_LIST), with ptxas's report of
#    `nq_join` at each layout, run before N = 22's and 23's own timings.
#    --ncu: Nsight Compute on six launches of the join's kernels at N = 21 (the making's
#    `nq_glue_tops` and `nq_make`, and `nq_join`) with batches of 2^B places for each B in
#    $NCU_BATCH_BITS (default "30") and the switches in $NCU_MAKE_DEFINES and
#    $NCU_JOIN_DEFINES (default none), each one's blocks, time, occupancy and throughput in
#    the table (the full report, stall reasons and each source line's samples too, in the
#    logs).
#    --scaling: N = 20 on 1, 2, 4 and 8 CPU threads (or the counts in $SCALING_THREADS).
#    --tune: the backtracking kernel at N = 20 and 21 with items of 11 to 15 free rows (or the
#    numbers in $TUNE_ROWS; NQUEENS_GPU_REMAINING).
#    --variants: the backtracking kernel at N = 20 with each set of switches in $VARIANTS
#    (NQUEENS_GPU_DEFINES
#    values separated by ';', for example "-DNQ_MIN_BLOCKS=6;-DNQ_REMAINING=15"), then N = 21
#    with the fastest, if one beat the default by 3% or more.
# Every step has a time cap and is skipped when the budget (default 540 s) has too little left
# for it. A table of every result is printed last; the logs stay in a temporary folder, and
# go as one archive, with the table, to $OUT where that is set.
# Exits 1 if any count is wrong.
set -uo pipefail
cd "$(dirname "$0")/.."
bin=target/release
budget=540
scaling=0
cpu=0
tune=0
variants=0
batch=0
switches=0
layouts=0
ncu=0
big=0
while [ $# -gt 0 ]; do
    case "$1" in
        --bin) bin=$2; shift ;;
        --budget) budget=$2; shift ;;
        --scaling) scaling=1 ;;
        --cpu) cpu=1 ;;
        --tune) tune=1 ;;
        --variants) variants=1 ;;
        --batch) batch=1 ;;
        --switches) switches=1 ;;
        --layouts) layouts=1 ;;
        --ncu) ncu=1 ;;
        --big) big=1 ;;
        *) echo "usage: $0 [--bin DIR] [--budget SECONDS] [--cpu] [--scaling] [--tune] [--variants] [--batch] [--switches] [--layouts] [--ncu] [--big]" >&2; exit 2 ;;
    esac
    shift
done
nq=$bin/nqueens
out=$(mktemp -d)
start=$(date +%s)
failed=0
table="$out/table.txt"
: >"$table"

# The driver and NVRTC, where ldconfig does not know them.
for lib in libcuda.so libnvrtc.so; do
    if ! ldconfig -p | grep -q "$lib"; then
        dir=$(find /usr/local /opt /usr/lib -name "$lib*" 2>/dev/null | grep -v stubs | head -1 | xargs -r dirname)
        [ -n "$dir" ] && export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    fi
done

left() { echo $((budget - ($(date +%s) - start))); }
published() { awk -F'\t' -v n="$1" '$1 == n { print $2 "," $3 }' data/counts.tsv; }
note() { printf '%s\n' "$*" | tee -a "$table"; }
# gpu_line FILE: the GPU's busy time from a count's stderr, "K of W s in kernels", and the
# join's making time after it where the line has one.
gpu_line() {
    {
        sed -n 's/.* \([0-9.]*\) s in kernels of \([0-9.]*\) s.*/\1 of \2 s in kernels/p' "$1"
        sed -n 's/.*(\([0-9.]*\) s making the words).*/, making \1 s/p' "$1"
    } | tr -d '\n'
}
# logname NAME: the name of a step's log files (a shard's step name holds a '/').
logname() { printf '%s' "$1" | tr '/ ' '-_'; }

# count NAME CAP ARGS...: one whole `nqueens count`, timed, its total and unique checked.
count() {
    local name=$1 cap=$2
    shift 2
    if [ "$(left)" -lt "$cap" ]; then
        note "$(printf '%-26s skipped: %s s left of the budget' "$name" "$(left)")"
        return
    fi
    local n=$2 t0 t1 rc line want kernel file
    file=$(logname "$name")
    t0=$(date +%s.%N)
    timeout "$cap" env "${envs[@]}" "$nq" "$@" --format csv --no-time >"$out/$file.csv" 2>"$out/$file.err"
    rc=$?
    t1=$(date +%s.%N)
    line=$(tail -1 "$out/$file.csv" | cut -d, -f2,3)
    want=$(published "$n")
    kernel=$(gpu_line "$out/$file.err")
    if [ $rc -ne 0 ]; then
        note "$(printf '%-26s FAILED (exit %s%s): %s' "$name" "$rc" "$([ $rc -eq 124 ] && echo ", over ${cap} s")" "$(tail -1 "$out/$file.err")")"
        [ $rc -eq 124 ] || failed=1
    elif [ "$line" != "$want" ]; then
        note "$(printf '%-26s WRONG: %s, published %s' "$name" "$line" "$want")"
        failed=1
    else
        note "$(printf '%-26s %9.3f s  ok %s  %s' "$name" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" "$line" "$kernel")"
    fi
}
envs=()

# timed NAME CAP ARGS...: one `nqueens` command, timed, not checked (a shard's count has no
# published figure): its time and the GPU's line.
timed() {
    local name=$1 cap=$2
    shift 2
    if [ "$(left)" -lt "$cap" ]; then
        note "$(printf '%-26s skipped: %s s left of the budget' "$name" "$(left)")"
        return
    fi
    local t0 t1 rc kernel file
    file=$(logname "$name")
    t0=$(date +%s.%N)
    timeout "$cap" "$nq" "$@" >"$out/$file.out" 2>"$out/$file.err"
    rc=$?
    t1=$(date +%s.%N)
    kernel=$(gpu_line "$out/$file.err")
    if [ $rc -ne 0 ]; then
        note "$(printf '%-26s FAILED (exit %s%s): %s' "$name" "$rc" "$([ $rc -eq 124 ] && echo ", over ${cap} s")" "$(tail -1 "$out/$file.err")")"
        [ $rc -eq 124 ] || failed=1
    else
        note "$(printf '%-26s %9.3f s  %s' "$name" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" "$kernel")"
    fi
}

# kernel_seconds NAME: the kernels' busy time of the first row of the table named NAME.
kernel_seconds() {
    grep -F "$1 " "$table" | head -1 | sed -n 's/.* \([0-9.]*\) of [0-9.]* s in kernels$/\1/p'
}

note "== $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | head -1)"
note "== $(lscpu | grep -E '^(Model name|CPU\(s\)|Thread\(s\) per core|Core\(s\) per socket)' | tr -s ' ' | paste -sd';')"
note "== LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}"

# 1. The compiler's report.
arch=sm_$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d .)
[ "$arch" = sm_ ] && arch=sm_90
"$bin/examples/gpu_kernel" "$arch" >"$out/kernel.txt" 2>&1 || failed=1
grep " for sm_" "$out/kernel.txt" | while read -r line; do note "== $line"; done

if ! "$nq" count 8 --device gpu >/dev/null 2>"$out/probe.err"; then
    note "== the GPU cannot count here: $(cat "$out/probe.err")"
    cat "$table"
    exit 1
fi

# 2. Every N from 4 to 20 with the join on the GPU, and to 17 with the backtracking kernel.
for n in $(seq 4 20); do
    count "join n=$n" 60 count "$n" --device gpu --strategy join
done
for n in $(seq 4 17); do
    count "gpu n=$n" 60 count "$n" --device gpu --strategy backtrack
done

# 3. Every task's tally, GPU against CPU: tasks STRATEGY N CAP.
tasks() {
    local strategy=$1 n=$2 cap=$3 name="tasks $1 n=$2" records
    if [ "$(left)" -lt $((2 * cap)) ]; then
        note "$(printf '%-26s skipped: %s s left of the budget' "$name" "$(left)")"
        return
    fi
    rm -f "$out/gpu-$strategy$n.ck" "$out/cpu-$strategy$n.ck"
    timeout "$cap" "$nq" count "$n" --device gpu --strategy "$strategy" --checkpoint "$out/gpu-$strategy$n.ck" --no-time >/dev/null 2>"$out/gpu-$strategy$n.ck.err"
    timeout "$cap" "$nq" count "$n" --strategy "$strategy" --checkpoint "$out/cpu-$strategy$n.ck" --no-time >/dev/null 2>&1
    records=$(($(wc -l <"$out/cpu-$strategy$n.ck") - 1))
    if [ "$records" -gt 0 ] && cmp -s <(sort -n "$out/gpu-$strategy$n.ck") <(sort -n "$out/cpu-$strategy$n.ck"); then
        note "$(printf '%-26s ok: all %s tasks equal' "$name" "$records")"
    else
        note "$(printf '%-26s DIFFER: %s' "$name" "$(diff <(sort -n "$out/gpu-$strategy$n.ck") <(sort -n "$out/cpu-$strategy$n.ck") | head -3 | tr '\n' ' ')")"
        failed=1
    fi
}
tasks join 16 30
tasks join 18 60
tasks backtrack 14 30

# 4. Timings: the join on the GPU, the backtracking kernel beside it.
cores=$(nproc)
count "join n=20" 60 count 20 --device gpu
# The same with no kernel kept from an earlier count: what NVRTC's compile adds to a first count.
envs=("NQUEENS_KERNEL_CACHE=off")
count "join n=20 cold" 60 count 20 --device gpu
envs=()
count "join n=21" 90 count 21 --device gpu
# The GPU alone: no CPU thread counts tasks beside it (-j 1).
count "join n=21 -j 1" 90 count 21 --device gpu -j 1
count "gpu n=20" 60 count 20 --device gpu --strategy backtrack
count "gpu n=21" 90 count 21 --device gpu --strategy backtrack
if [ $cpu -eq 1 ]; then
    count "cpu n=20 -j $cores" 60 count 20 -j "$cores"
    count "cpu n=21 -j $cores" 120 count 21 -j "$cores"
fi
if [ $tune -eq 1 ]; then
    for r in ${TUNE_ROWS:-11 12 13 14 15}; do
        envs=("NQUEENS_GPU_REMAINING=$r")
        count "gpu n=20 rows=$r" 30 count 20 --device gpu --strategy backtrack
        count "gpu n=21 rows=$r" 40 count 21 --device gpu --strategy backtrack
    done
    envs=()
fi
best=""
if [ $variants -eq 1 ]; then
    # N = 20 with each set of switches in $VARIANTS, then N = 21 with the one whose kernels
    # took least time, if it beat the default by 3% or more.
    best_kernel=$(kernel_seconds "gpu n=20")
    IFS=';' read -r -a sets <<<"${VARIANTS:-}"
    for defines in "${sets[@]}"; do
        [ -n "$defines" ] || continue
        envs=("NQUEENS_GPU_DEFINES=$defines")
        name="gpu n=20 $(echo "$defines" | sed 's/-DNQ_//g; s/ /+/g')"
        count "$name" 30 count 20 --device gpu --strategy backtrack
        kernel=$(kernel_seconds "$name")
        if [ -n "$kernel" ] && [ -n "$best_kernel" ] &&
            awk -v a="$kernel" -v b="$best_kernel" 'BEGIN { exit !(a < 0.97 * b) }'; then
            best=$defines
            best_kernel=$kernel
        fi
    done
    if [ -n "$best" ]; then
        envs=("NQUEENS_GPU_DEFINES=$best")
        count "gpu n=21 $(echo "$best" | sed 's/-DNQ_//g; s/ /+/g')" 60 count 21 --device gpu --strategy backtrack
    fi
    envs=()
fi
if [ $scaling -eq 1 ]; then
    for j in ${SCALING_THREADS:-1 2 4 8}; do
        count "cpu n=20 -j $j" $((120 / j + 30)) count 20 -j "$j"
    done
fi
# The join's batch size: larger batches give the making kernels more blocks a launch.
if [ $batch -eq 1 ]; then
    for bits in ${BATCH_BITS:-26 28 29 30}; do
        envs=("NQUEENS_GPU_BATCH_BITS=$bits")
        count "join n=21 batch=2^$bits" 60 count 21 --device gpu
        count "join n=22 batch=2^$bits" 90 count 22 --device gpu
    done
    envs=()
fi
# The join's kernels' switches: ptxas's report of `nq_make` and `nq_join` (N = 21's layout),
# and N = 21 and 22, with each set.
if [ $switches -eq 1 ]; then
    IFS=';' read -r -a sets <<<"${SWITCHES:-|-DNQJ_CLASS_LIST=1;-DNQM_CLASS_CLAIM=1|;-DNQM_CLASS_CLAIM=1|-DNQJ_CLASS_LIST=1}"
    for set in "${sets[@]}"; do
        make_defines=${set%%|*}
        join_defines=${set#*|}
        [ "$set" != "$join_defines" ] || join_defines=""
        label=$(echo "$make_defines $join_defines" | sed 's/-D//g; s/^ *//; s/ *$//; s/ /+/g')
        [ -n "$label" ] || continue
        NQUEENS_GPU_MAKE_DEFINES="$make_defines" NQUEENS_GPU_JOIN_DEFINES="$join_defines" \
            "$bin/examples/gpu_kernel" "$arch" 2>&1 |
            awk '/^nq_join for/ && !join++ || /^nq_make for/ || /^error/' |
            while read -r line; do note "== $label: $line"; done
        envs=("NQUEENS_GPU_MAKE_DEFINES=$make_defines" "NQUEENS_GPU_JOIN_DEFINES=$join_defines")
        count "join n=21 $label" 60 count 21 --device gpu
        count "join n=22 $label" 90 count 22 --device gpu
    done
    envs=()
fi
# The join's layout: chunks for fewer cut bits, so larger tiles, alone and with the class list.
if [ $layouts -eq 1 ]; then
    for cut in ${PLANNED_CUTS:-4 3}; do
        NQUEENS_GPU_PLANNED_CUT="$cut" "$bin/examples/gpu_kernel" "$arch" 2>&1 |
            awk '/^nq_join for/ || /^error/' |
            while read -r line; do note "== planned cut $cut: $line"; done
        for join_defines in "" "-DNQJ_CLASS_LIST=1"; do
            label="cut=$cut${join_defines:+ $(echo "$join_defines" | sed 's/-D//')}"
            envs=("NQUEENS_GPU_PLANNED_CUT=$cut" "NQUEENS_GPU_JOIN_DEFINES=$join_defines")
            count "join n=21 $label" 60 count 21 --device gpu
            count "join n=22 $label" 90 count 22 --device gpu
        done
    done
    envs=()
fi
# The join's kernels through Nsight Compute: where the making's time goes, at each batch size
# in $NCU_BATCH_BITS (default "30", the largest), with the kernels' switches in
# $NCU_MAKE_DEFINES and $NCU_JOIN_DEFINES (default none).
if [ $ncu -eq 1 ]; then
    for bits in ${NCU_BATCH_BITS:-30}; do
        name="ncu n=21 batch=2^$bits"
        if [ "$(left)" -lt 90 ]; then
            note "$(printf '%-26s skipped: %s s left of the budget' "$name" "$(left)")"
            continue
        elif ! command -v ncu >/dev/null; then
            note "$(printf '%-26s skipped: no ncu on the PATH' "$name")"
            break
        fi
        # With the source's line numbers in the kernels (the code unchanged), kept as a
        # report whose source page, every line of make.cu and join.cu with its stall
        # samples, is printed beside it. NVRTC names the sources `nqueens_make.cu` and
        # `nqueens_join.cu` in the working folder: copies stand there while ncu reads them
        # into the report (--import-source).
        cp src/engine/device/gpu/make.cu nqueens_make.cu
        cp src/engine/device/gpu/join.cu nqueens_join.cu
        timeout 80 env NQUEENS_GPU_BATCH_BITS="$bits" NQUEENS_GPU_MAKE_DEFINES="${NCU_MAKE_DEFINES:-}" \
            NQUEENS_GPU_JOIN_DEFINES="${NCU_JOIN_DEFINES:-}" NQUEENS_GPU_LINEINFO=1 ncu --kernel-name regex:"nq_make|nq_glue_tops|nq_join" \
            --launch-skip 30 --launch-count 6 --section SpeedOfLight --section Occupancy \
            --section LaunchStats --section WarpStateStats --section SchedulerStats \
            --section SourceCounters --section MemoryWorkloadAnalysis --import-source yes \
            --export "$out/ncu-$bits" "$nq" count 21 --device gpu -j 1 >"$out/ncu-$bits.log" 2>&1
        rm -f nqueens_make.cu nqueens_join.cu
        timeout 30 ncu --import "$out/ncu-$bits.ncu-rep" --print-details all >"$out/ncu-$bits.txt" 2>&1
        for view in cuda sass; do
            timeout 60 ncu --import "$out/ncu-$bits.ncu-rep" --kernel-name regex:"nq_make|nq_glue_tops|nq_join" \
                --page source --csv --print-source "$view" >"$out/ncu-$bits-$view.csv" 2>&1
        done
        awk -v bits="$bits" '/^  nq_/ { name = $1; blocks = $2; gsub(/[(,]/, "", blocks) }
             /Duration/ { time = $NF " " $(NF-1) }
             /Achieved Occupancy/ { occ = $NF }
             /Compute \(SM\) Throughput/ { sm = $NF }
             /Achieved Active Warps Per SM/ {
                 printf "ncu 2^%s %-17s %s blocks, %s, occupancy %s%%, SM throughput %s%%\n", bits, name, blocks, time, occ, sm
             }' "$out/ncu-$bits.txt" | while read -r line; do note "$line"; done
    done
fi
# The backtracking kernel at N = 22 with --big, with the fastest switches found.
if [ $big -eq 1 ]; then
    [ -n "$best" ] && envs=("NQUEENS_GPU_DEFINES=$best")
    count "gpu n=22${best:+ $(echo "$best" | sed 's/-DNQ_//g; s/ /+/g')}" 330 count 22 --device gpu --strategy backtrack
    envs=()
fi
# The join at N = 22, then a shard of N = 23 with whatever the budget has left.
cap=$(($(left) - 60))
[ $cap -gt 300 ] && cap=300
[ $cap -lt 30 ] && cap=30
count "join n=22" $cap count 22 --device gpu
shards=${N23_SHARDS:-20}
cap=$(($(left) - 5))
[ $cap -lt 30 ] && cap=30
if [ "$shards" -eq 1 ]; then
    # N23_SHARDS=1: the whole of N = 23, checked like the others.
    count "join n=23" $cap count 23 --device gpu
else
    timed "join n=23 shard 1/$shards" $cap count 23 --device gpu --shard "1/$shards" --out "$out/n23-shard1.json"
fi

echo
echo "== results ($(($(date +%s) - start)) s; logs in $out)"
cat "$table"
if [ -n "${OUT:-}" ]; then
    cp "$table" "$OUT/table.txt"
    # The ncu reports stay on the machine (a file sent back may be 16 MB at most).
    tar czf "$OUT/logs.tgz" --exclude="*.ncu-rep" -C "$out" .
fi
exit $failed

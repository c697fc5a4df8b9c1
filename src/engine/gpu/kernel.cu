// The GPU counter's kernel: one source for two compilers.
//
// NVRTC compiles this file for the GPU (`__CUDACC__` is defined, the `__global__` wrapper at
// the end is the kernel); the host C++ compiler compiles it for the tests, through the `cc`
// crate (the build script, with the `cuda` feature), so that the per-thread search below runs
// on the CPU and is checked there against the CPU engine. NVRTC has no standard headers, so
// the integer types are declared here.
//
// A work item is a task's start pushed a few levels deeper by the host: a frame (the open
// columns and row shifts of one border constellation, see `Frame` in the Rust source), the
// level reached and the columns and diagonals taken so far. The search below it is the CPU
// engine's (`engine::backtrack::kernel`): a bitboard depth-first search with an explicit
// stack, and the last two free rows counted without a loop (five popcounts, see `nq_two`).

typedef unsigned int nq_u32;
typedef unsigned long long nq_u64;

#if defined(__CUDACC__)
#define NQ_FN __device__ __forceinline__
#define NQ_POPC(x) ((nq_u32)__popc(x))
#else
#define NQ_FN static inline
#define NQ_POPC(x) ((nq_u32)__builtin_popcount(x))
#endif

// Threads per block; the kernel is compiled for exactly this many (`__launch_bounds__`).
#ifndef NQ_BLOCK
#define NQ_BLOCK 128
#endif

// Blocks per multiprocessor the kernel must allow: with NQ_BLOCK, the register budget.
#ifndef NQ_MIN_BLOCKS
#define NQ_MIN_BLOCKS 8
#endif

// Most free rows an item may have left: the search stack holds NQ_REMAINING - 3 levels (the
// last two rows need none, and the level being searched is in registers). The host compiles
// the kernel for the items of each count, so that the stacks take no more shared memory than
// they need; on the CPU the tests use 32 levels, enough for any frame.
#ifndef NQ_REMAINING
#define NQ_REMAINING 15
#endif
#if NQ_REMAINING > 4
#define NQ_STACK (NQ_REMAINING - 3)
#else
#define NQ_STACK 1
#endif

// Words per item, as the host lays them out: frame index, level | levels << 8, cols, left, right.
#define NQ_ITEM_WORDS 5
// Words per frame: per level, the open columns in the low half and the shift to the next
// level in the high half.
#define NQ_FRAME_WORDS 32

NQ_FN nq_u32 nq_open(nq_u64 row) { return (nq_u32)row; }
NQ_FN nq_u32 nq_shift(nq_u64 row) { return (nq_u32)(row >> 32); }

// Completions of the second-to-last free row, whose open columns are `open`, without a loop:
// a queen q there leaves the last row `rest` minus q and its two diagonal neighbours, so the
// sum over every q is popc(open) * popc(rest) minus the bits of three overlaps (the CPU
// engine's `Tail::two` explains it at length). The overlaps' bits are added as a carry-save
// adder would: per column, xor3 is the low bit of how many of the three have it and majority
// the high bit, so four popcounts do instead of five (a popcount issues at a quarter of the
// rate of a logic operation on the GPU). `s` is the row distance to the last free row, at most
// a few rows, so every shift is well under 32.
NQ_FN nq_u32 nq_two(nq_u32 s, nq_u32 last_open, nq_u32 cols, nq_u32 left, nq_u32 right,
                    nq_u32 open) {
    nq_u32 rest = last_open & ~(cols | left >> s | right << s);
    nq_u32 a = rest & open, b = rest & (open >> s), c = rest & (open << s);
    nq_u32 ones = a ^ b ^ c;
    nq_u32 twos = (a & b) | (a & c) | (b & c);
    return NQ_POPC(open) * NQ_POPC(rest) - NQ_POPC(ones) - 2 * NQ_POPC(twos);
}

// The completions below one item. `frame` is the item's frame (NQ_FRAME_WORDS words),
// `levels` its free rows, `level` the row to search next, `cols/left/right` what the queens
// placed so far take on that row. The stack is `stack[k * stride]` for its k-th word, so that
// on the GPU each thread's stack is a column of a block-wide array in shared memory (one bank
// per thread) and on the CPU a plain array (stride 1). It must hold 4 * (levels - level - 3)
// words.
//
// Every turn of the loop places one queen. A thread that runs out of queens on a row climbs
// back up in the same turn (the `while` at the end), so that the threads of a warp, each at
// its own depth, spend their turns placing queens together rather than taking turns to climb.
// The frame's words for the current row (its shift) and the row below (its open columns) are
// kept in registers and loaded only when the row changes: the deepest row, where most queens
// are placed, loads nothing.
NQ_FN nq_u64 nq_count_item(const nq_u64 *frame, nq_u32 levels, nq_u32 level, nq_u32 cols,
                           nq_u32 left, nq_u32 right, nq_u32 *stack, nq_u32 stride) {
    nq_u32 open = nq_open(frame[level]) & ~(cols | left | right);
    nq_u32 remaining = levels - level;
    if (remaining == 0) return 1;
    if (remaining == 1) return NQ_POPC(open);
    // The last two free rows' open columns and shift are the same for every node.
    nq_u32 tail_shift = nq_shift(frame[levels - 2]);
    nq_u32 last_open = nq_open(frame[levels - 1]);
    if (remaining == 2) return nq_two(tail_shift, last_open, cols, left, right, open);
    if (open == 0) return 0;
    nq_u32 deepest = levels - 3;
    nq_u32 shift = nq_shift(frame[level]);
    nq_u32 below = nq_open(frame[level + 1]);
    nq_u64 found = 0;
    nq_u32 depth = 0;
    for (;;) {
        nq_u32 q = open & (0u - open);
        open ^= q;
        nq_u32 c = cols | q;
        nq_u32 l = (left | q) >> shift;
        nq_u32 r = (right | q) << shift;
        nq_u32 next = below & ~(c | l | r);
        if (level == deepest) {
            found += nq_two(tail_shift, last_open, c, l, r, next);
        } else if (next != 0) {
            nq_u32 *entry = stack + 4 * depth * stride;
            entry[0] = cols;
            entry[stride] = left;
            entry[2 * stride] = right;
            entry[3 * stride] = open;
            ++depth;
            ++level;
            cols = c;
            left = l;
            right = r;
            open = next;
            shift = nq_shift(frame[level]);
            below = nq_open(frame[level + 1]);
            continue;
        }
        if (open == 0) {
            do {
                if (depth == 0) return found;
                --depth;
                --level;
                nq_u32 *entry = stack + 4 * depth * stride;
                open = entry[3 * stride];
            } while (open == 0);
            nq_u32 *entry = stack + 4 * depth * stride;
            cols = entry[0];
            left = entry[stride];
            right = entry[2 * stride];
            shift = nq_shift(frame[level]);
            below = nq_open(frame[level + 1]);
        }
    }
}

// Item `i` of `items` counted into `counts[i]`.
NQ_FN void nq_count_one(const nq_u32 *items, const nq_u64 *frames, nq_u64 *counts, nq_u32 i,
                        nq_u32 *stack, nq_u32 stride) {
    const nq_u32 *item = items + (nq_u64)i * NQ_ITEM_WORDS;
    const nq_u64 *frame = frames + (nq_u64)item[0] * NQ_FRAME_WORDS;
    counts[i] = nq_count_item(frame, item[1] >> 8, item[1] & 0xff, item[2], item[3], item[4],
                              stack, stride);
}

#if defined(__CUDACC__)
// The kernel: a persistent grid (as many blocks as fit on the GPU at once) whose threads take
// items one at a time from a shared counter until none is left. Items differ in size by
// orders of magnitude; taking them one at a time keeps every thread busy until the last ones.
extern "C" __global__ void __launch_bounds__(NQ_BLOCK, NQ_MIN_BLOCKS)
    nq_count(const nq_u32 *items, nq_u32 n_items, const nq_u64 *frames, nq_u64 *counts,
             nq_u32 *next) {
    __shared__ nq_u32 stacks[4 * NQ_STACK * NQ_BLOCK];
    nq_u32 *mine = stacks + threadIdx.x;
    for (;;) {
        nq_u32 i = atomicAdd(next, 1u);
        if (i >= n_items) return;
        nq_count_one(items, frames, counts, i, mine, NQ_BLOCK);
    }
}
#else
// The CPU's entry points, for the tests: one item, and a whole batch in the kernel's order.
extern "C" nq_u64 nq_host_count_item(const nq_u64 *frame, nq_u32 levels, nq_u32 level,
                                     nq_u32 cols, nq_u32 left, nq_u32 right) {
    nq_u32 stack[4 * 32];
    return nq_count_item(frame, levels, level, cols, left, right, stack, 1);
}

extern "C" void nq_host_count(const nq_u32 *items, nq_u32 n_items, const nq_u64 *frames,
                              nq_u64 *counts) {
    nq_u32 stack[4 * 32];
    for (nq_u32 i = 0; i < n_items; ++i) nq_count_one(items, frames, counts, i, stack, 1);
}
#endif

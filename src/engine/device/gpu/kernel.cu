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
// engine's (`engine::strategy::backtrack::kernel`): a bitboard depth-first search with an explicit
// stack, and the last two free rows counted without a loop (four popcounts, see `nq_two`).

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
// engine's `Tail::two` explains it at length). `s` is the row distance to the last free row,
// at most a few rows, so every shift is well under 32.
NQ_FN nq_u32 nq_two(nq_u32 s, nq_u32 last_open, nq_u32 cols, nq_u32 left, nq_u32 right,
                    nq_u32 open) {
    nq_u32 rest = last_open & ~(cols | left >> s | right << s);
    nq_u32 a = rest & open, b = rest & (open >> s), c = rest & (open << s);
    return NQ_POPC(open) * NQ_POPC(rest) - NQ_POPC(a) - NQ_POPC(b) - NQ_POPC(c);
}

// The search below one work item, as a thread holds it between turns. `frame` is the item's
// frame (NQ_FRAME_WORDS words); the last two free rows' open columns and shift are the same for
// every node, so they are kept here; `shift` and `below` are the frame's words for the current
// row (its shift) and the row below (its open columns), reloaded only when the row changes.
typedef struct {
    const nq_u64 *frame;
    nq_u32 deepest, tail_shift, last_open;
    nq_u32 level, depth, cols, left, right, open, shift, below;
    nq_u64 found;
} nq_search;

// Starts the search below an item: `levels` free rows, `level` the row to search next,
// `cols/left/right` what the queens placed so far take on that row. Returns 1 if the search
// needs turns (`nq_turn`), 0 if `s->found` is already the item's count (fewer than three free
// rows left, or no open square on this one).
NQ_FN int nq_begin(nq_search *s, const nq_u64 *frame, nq_u32 levels, nq_u32 level, nq_u32 cols,
                   nq_u32 left, nq_u32 right) {
    nq_u32 open = nq_open(frame[level]) & ~(cols | left | right);
    nq_u32 remaining = levels - level;
    s->found = 0;
    if (remaining == 0) {
        s->found = 1;
        return 0;
    }
    if (remaining == 1) {
        s->found = NQ_POPC(open);
        return 0;
    }
    s->tail_shift = nq_shift(frame[levels - 2]);
    s->last_open = nq_open(frame[levels - 1]);
    if (remaining == 2) {
        s->found = nq_two(s->tail_shift, s->last_open, cols, left, right, open);
        return 0;
    }
    if (open == 0) return 0;
    s->frame = frame;
    s->deepest = levels - 3;
    s->level = level;
    s->depth = 0;
    s->cols = cols;
    s->left = left;
    s->right = right;
    s->open = open;
    s->shift = nq_shift(frame[level]);
    s->below = nq_open(frame[level + 1]);
    return 1;
}

// One turn of the search: a thread whose row has no queen left climbs back one row; otherwise
// it places the row's next queen, then either counts the last two rows below it or goes down a
// row. Returns 0 once the search is over, with the item's count in `s->found`.
//
// The stack is `stack[k * stride]` for its k-th word: on the GPU each thread's stack is a
// column of a block-wide array in shared memory (one bank per thread), on the CPU a plain
// array (stride 1). It holds 4 words for each row between the item's row and the deepest.
//
// A turn does one of the two, not both: the threads of a warp are at different depths, and a
// turn that could also climb makes every placing thread wait for the climbing ones' loop.
NQ_FN int nq_turn(nq_search *s, nq_u32 *stack, nq_u32 stride) {
    if (s->open == 0) {
        if (s->depth == 0) return 0;
        --s->depth;
        --s->level;
        nq_u32 *entry = stack + 4 * s->depth * stride;
        s->cols = entry[0];
        s->left = entry[stride];
        s->right = entry[2 * stride];
        s->open = entry[3 * stride];
        s->shift = nq_shift(s->frame[s->level]);
        s->below = nq_open(s->frame[s->level + 1]);
        return 1;
    }
    nq_u32 q = s->open & (0u - s->open);
    s->open ^= q;
    nq_u32 c = s->cols | q;
    nq_u32 l = (s->left | q) >> s->shift;
    nq_u32 r = (s->right | q) << s->shift;
    nq_u32 next = s->below & ~(c | l | r);
    if (s->level == s->deepest) {
        s->found += nq_two(s->tail_shift, s->last_open, c, l, r, next);
    } else if (next != 0) {
        nq_u32 *entry = stack + 4 * s->depth * stride;
        entry[0] = s->cols;
        entry[stride] = s->left;
        entry[2 * stride] = s->right;
        entry[3 * stride] = s->open;
        ++s->depth;
        ++s->level;
        s->cols = c;
        s->left = l;
        s->right = r;
        s->open = next;
        s->shift = nq_shift(s->frame[s->level]);
        s->below = nq_open(s->frame[s->level + 1]);
    }
    return 1;
}

#if defined(__CUDACC__)
#define NQ_TAKE(next) atomicAdd(next, 1u)
#else
#define NQ_TAKE(next) ((*(next))++)
#endif

// What one thread does: take items from the shared counter `next` and count each into
// `counts`, until none is left. Taking the next item is part of the same loop as the search's
// turns: a thread whose item is done takes another at once while the others of its warp go on
// with theirs, instead of the whole warp waiting for its largest item (items differ in size by
// orders of magnitude). On the CPU, one thread does it all.
NQ_FN void nq_run(const nq_u32 *items, nq_u32 n_items, const nq_u64 *frames, nq_u64 *counts,
                  nq_u32 *next, nq_u32 *stack, nq_u32 stride) {
    nq_search s;
    nq_u32 i = 0;
    int busy = 0;
    for (;;) {
        if (!busy) {
            i = NQ_TAKE(next);
            if (i >= n_items) return;
            const nq_u32 *item = items + (nq_u64)i * NQ_ITEM_WORDS;
            busy = nq_begin(&s, frames + (nq_u64)item[0] * NQ_FRAME_WORDS, item[1] >> 8,
                            item[1] & 0xff, item[2], item[3], item[4]);
            if (!busy) {
                counts[i] = s.found;
                continue;
            }
        }
        if (!nq_turn(&s, stack, stride)) {
            counts[i] = s.found;
            busy = 0;
        }
    }
}

#if defined(__CUDACC__)
// The kernel: a persistent grid (as many blocks as fit on the GPU at once) of threads that
// each run `nq_run`, with their stacks in shared memory.
extern "C" __global__ void __launch_bounds__(NQ_BLOCK, NQ_MIN_BLOCKS)
    nq_count(const nq_u32 *items, nq_u32 n_items, const nq_u64 *frames, nq_u64 *counts,
             nq_u32 *next) {
    __shared__ nq_u32 stacks[4 * NQ_STACK * NQ_BLOCK];
    nq_run(items, n_items, frames, counts, next, stacks + threadIdx.x, NQ_BLOCK);
}
#else
// The CPU's entry points, for the tests: one item, and a whole batch as one GPU thread would
// count it.
extern "C" nq_u64 nq_host_count_item(const nq_u64 *frame, nq_u32 levels, nq_u32 level,
                                     nq_u32 cols, nq_u32 left, nq_u32 right) {
    nq_u32 stack[4 * 32];
    nq_search s;
    if (nq_begin(&s, frame, levels, level, cols, left, right)) {
        while (nq_turn(&s, stack, 1)) {
        }
    }
    return s.found;
}

extern "C" void nq_host_count(const nq_u32 *items, nq_u32 n_items, const nq_u64 *frames,
                              nq_u64 *counts) {
    nq_u32 stack[4 * 32];
    nq_u32 next = 0;
    nq_run(items, n_items, frames, counts, &next, stack, 1);
}
#endif

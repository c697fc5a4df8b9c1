// The join's kernel on the GPU: counting the disjoint pairs of two lists of half-board words.
// One source for two compilers, as `kernel.cu`: NVRTC compiles it for the GPU (`__CUDACC__`
// is defined and `nq_join` below is the kernel); the host C++ compiler compiles it for the
// tests (build script, `cuda` feature), where `nq_join_host` plays every block of a launch
// one after the other, lane by lane, through the same functions.
//
// `make.cu` (on the GPU; or the host, `engine::device::gpu::join`, in the tests) makes the words
// of each join of a batch of tasks, sorts each side into classes (by how many of the board's
// two long diagonals a word holds, its "part", 0 to 2, then by `k` "cut" bits) and cuts the
// stored buckets into tiles. A tile is up to NQJ_GROUPS groups of 32 stored words of one
// bucket (cut pattern `b`, part 0), asked by the query classes whose cut pattern avoids `b`:
// the other classes cannot meet it. A block counts a tile at a time:
//
// 1. **The sieve's table.** For each group of 32 stored words and each chunk of NQJ_SPAN bit
//    positions, a row per pattern of the chunk's bits: bit `i` says that word `i` of the
//    group lacks all of the pattern's bits (so is disjoint from a query with that pattern).
//    Pattern 0 is the group's valid words, so padding never counts. The table lives in shared
//    memory: NQJ_GROUPS x NQJ_CHUNKS x 32 words of 32 bits.
// 2. **A query per lane.** The block's threads take the queries of the tile's classes in turn
//    (a lane walks the classes itself, so that lanes of a warp stay on neighbouring queries).
//    A query works out once which row of each chunk its bits pick, then for every group ANDs
//    those rows (one load per chunk) and counts the bits left: 32 pair tests per NQJ_CHUNKS
//    loads, a few ANDs and one popcount. The loads of one chunk by the 32 lanes of a warp all
//    fall in the chunk's 32 consecutive words (one per bank), so they never conflict.
// 3. **Exact sums.** Each query's count is weighted by its part (see `twice_sorted` in the CPU
//    join: twice for a query holding both long diagonals, else once) and summed in 64 bits
//    per thread, per warp and per block; the host adds the tiles of a join and weighs them by
//    the join's symmetry family, in 128 bits.
//
// Words arrive packed: the bits of the two long diagonals and the cut bits removed (a class
// shares them, and a tile only meets classes they cannot clash with), so at most
// NQJ_SPAN * NQJ_CHUNKS bits. With NQJ_WIDE 0 (N up to 23) that is at most 32 bits and a word
// is one 32-bit `low` entry; with NQJ_WIDE 1 the bits above 32 are in `high`.

typedef unsigned int nq_u32;
typedef unsigned long long nq_u64;

#if defined(__CUDACC__)
#define NQJ_FN __device__ __forceinline__
#define NQJ_POPC(x) ((nq_u32)__popc(x))
#define NQJ_UNROLL _Pragma("unroll")
#define NQJ_UNROLL_4 _Pragma("unroll 4")
#else
#define NQJ_FN static inline
#define NQJ_POPC(x) ((nq_u32)__builtin_popcount(x))
#define NQJ_UNROLL
#define NQJ_UNROLL_4
#endif

// Bit positions per chunk: 32 patterns, one per bank of shared memory (see 2. above).
#define NQJ_SPAN 5
#define NQJ_PATTERNS (1 << NQJ_SPAN)

// Chunks per word: enough for the packed words of the count (the host compiles the kernel for
// each count with the number its layout chose: 6 at N = 20 and 21, 7 at N = 22 and 23).
#ifndef NQJ_CHUNKS
#define NQJ_CHUNKS 10
#endif

// Whether words have bits above 32 (in `high`).
#ifndef NQJ_WIDE
#define NQJ_WIDE 1
#endif

// Groups of 32 stored words per tile: the table takes NQJ_GROUPS * NQJ_CHUNKS * 128 bytes of
// shared memory (24 KB with 6 chunks).
#ifndef NQJ_GROUPS
#define NQJ_GROUPS 32
#endif

// Threads per block; the kernel is compiled for exactly this many (`__launch_bounds__`).
#ifndef NQJ_BLOCK
#define NQJ_BLOCK 256
#endif

// Blocks per multiprocessor the kernel must allow: with NQJ_BLOCK, the register budget.
#ifndef NQJ_MIN_BLOCKS
#define NQJ_MIN_BLOCKS 5
#endif

// NQJ_CLASS_LIST 1 (a switch, for timing on a GPU): each tile's query classes listed once by
// the block in shared memory with their running ends, and each warp given an equal run of
// the tile's queries, its lanes every 32nd, instead of every thread walking every class
// between its queries (NQJ_BLOCK apart) with two global loads a class.
#ifndef NQJ_CLASS_LIST
#define NQJ_CLASS_LIST 0
#endif

// The most query classes of a tile: 3 parts of 2^8 cut patterns.
#define NQJ_MAX_CLASSES (3 << 8)

// Words per tile record: first stored word, stored words (1 to 32 * NQJ_GROUPS, or 0 for an
// empty slot, all zeros), where the query side's class table starts in `starts`, and the tile's
// shape: bucket (bits 0-7), cut bits `k` (8-11), first and last query part (12-13, 14-15).
// A class table is `3 << k` class starts (part-major) and the end, as word indices.
#define NQJ_TILE_WORDS 4

// The words of the table: group `g`, chunk `c`, pattern `p` at (g * NQJ_CHUNKS + c) * 32 + p.
#define NQJ_TABLE_WORDS (NQJ_GROUPS * NQJ_CHUNKS * NQJ_PATTERNS)

// Word `i` of the batch.
NQJ_FN nq_u64 nqj_word(const nq_u32 *low, const nq_u32 *high, nq_u32 i) {
#if NQJ_WIDE
    return (nq_u64)high[i] << 32 | low[i];
#else
    (void)high;
    return low[i];
#endif
}

// Row `p` of a chunk's table, for the lane of pattern `p`: the words of the group (`valid`)
// lacking every bit of `p`, where `lack[k]` tells which words lack the chunk's bit `k`.
NQJ_FN nq_u32 nqj_entry(nq_u32 p, nq_u32 valid, const nq_u32 lack[NQJ_SPAN]) {
    nq_u32 row = valid;
NQJ_UNROLL
    for (int k = 0; k < NQJ_SPAN; k++) {
        row &= (p >> k & 1) ? lack[k] : ~0u;
    }
    return row;
}

// Which row of each chunk query `q` picks: its offset in a group's part of the table.
NQJ_FN void nqj_offsets(nq_u64 q, nq_u32 at[NQJ_CHUNKS]) {
NQJ_UNROLL
    for (int c = 0; c < NQJ_CHUNKS; c++) {
        at[c] = c * NQJ_PATTERNS + (nq_u32)(q >> (NQJ_SPAN * c) & (NQJ_PATTERNS - 1));
    }
}

// The stored words of the tile's first `groups` groups disjoint from the query whose rows are
// at `at`: per group, the AND of one row per chunk, counted. A row of each chunk is followed
// from group to group by a pointer of its own, so that the unrolled loop's loads take their
// group's offset as an immediate, with no address arithmetic per load.
NQJ_FN nq_u32 nqj_disjoint(const nq_u32 *table, const nq_u32 at[NQJ_CHUNKS], nq_u32 groups) {
    const nq_u32 *rows[NQJ_CHUNKS];
NQJ_UNROLL
    for (int c = 0; c < NQJ_CHUNKS; c++) rows[c] = table + at[c];
    nq_u32 found = 0;
NQJ_UNROLL_4
    for (nq_u32 g = 0; g < groups; g++) {
        nq_u32 row = rows[0][0];
        rows[0] += NQJ_CHUNKS * NQJ_PATTERNS;
NQJ_UNROLL
        for (int c = 1; c < NQJ_CHUNKS; c++) {
            row &= rows[c][0];
            rows[c] += NQJ_CHUNKS * NQJ_PATTERNS;
        }
        found += NQJ_POPC(row);
    }
    return found;
}

// The share of one thread (`first`, stepping by `step`) of a tile's queries: the classes of
// the tile's query parts whose cut pattern avoids the tile's bucket, taken in turn (the
// subsets of the free cut bits, from all of them down to none), each query's disjoint stored
// words counted twice in part 2, else once.
NQJ_FN nq_u64 nqj_ask(const nq_u32 *table, nq_u32 groups, const nq_u32 *low, const nq_u32 *high,
                      const nq_u32 *starts, const nq_u32 *tile, nq_u32 first, nq_u32 step) {
    const nq_u32 shape = tile[3];
    const nq_u32 bucket = shape & 0xff, k = shape >> 8 & 0xf;
    const nq_u32 from = shape >> 12 & 3, to = shape >> 14 & 3;
    const nq_u32 avail = ~bucket & ((1u << k) - 1);
    nq_u64 sum = 0;
    for (nq_u32 part = from; part <= to; part++) {
        const nq_u32 *classes = starts + tile[2] + (part << k);
        const nq_u64 scale = part == 2 ? 2 : 1;
        nq_u32 sub = avail, pos = first;
        nq_u32 begin = classes[sub], size = classes[sub + 1] - begin;
        for (;;) {
            // Past this class: on to the next subset, the lane alone (a cheap loop, so that
            // every lane then counts a query together).
            bool more = true;
            while (pos >= size) {
                if (sub == 0) {
                    more = false;
                    break;
                }
                pos -= size;
                sub = (sub - 1) & avail;
                begin = classes[sub];
                size = classes[sub + 1] - begin;
            }
            if (!more) break;
            nq_u32 at[NQJ_CHUNKS];
            nqj_offsets(nqj_word(low, high, begin + pos), at);
            sum += scale * nqj_disjoint(table, at, groups);
            pos += step;
        }
    }
    return sum;
}

// The number of query classes of a tile's list: the subsets of its free cut bits, for each
// part it meets. `*doubled` is the first of them in part 2 (counted twice), or the number
// if none is.
NQJ_FN nq_u32 nqj_classes(const nq_u32 *tile, nq_u32 *doubled) {
    const nq_u32 shape = tile[3];
    const nq_u32 bucket = shape & 0xff, k = shape >> 8 & 0xf;
    const nq_u32 from = shape >> 12 & 3, to = shape >> 14 & 3;
    const nq_u32 m = NQJ_POPC(~bucket & ((1u << k) - 1));
    *doubled = to == 2 ? (2 - from) << m : (to - from + 1) << m;
    return (to - from + 1) << m;
}

// Class `e` of a tile's list: where its queries start, and (in `*size`) how many. The low
// bits of `e` are spread over the free cut bits (a subset), the rest count parts from the
// first.
NQJ_FN nq_u32 nqj_class(const nq_u32 *starts, const nq_u32 *tile, nq_u32 e, nq_u32 *size) {
    const nq_u32 shape = tile[3];
    const nq_u32 bucket = shape & 0xff, k = shape >> 8 & 0xf, from = shape >> 12 & 3;
    nq_u32 free_bits = ~bucket & ((1u << k) - 1);
    const nq_u32 m = NQJ_POPC(free_bits);
    nq_u32 sub = 0, pick = e & ((1u << m) - 1);
    while (free_bits != 0) {
        const nq_u32 bit = free_bits & (0u - free_bits);
        if (pick & 1) sub |= bit;
        pick >>= 1;
        free_bits &= free_bits - 1;
    }
    const nq_u32 *classes = starts + tile[2] + ((from + (e >> m)) << k);
    const nq_u32 begin = classes[sub];
    *size = classes[sub + 1] - begin;
    return begin;
}

// The share of lane `lane` of warp `warp` of a tile's listed queries (`begins`, and `ends`,
// the running end of each of the `count` classes): the warp's equal run of the queries, every
// 32nd from the lane's; each query's disjoint stored words counted twice from class
// `doubled` on, else once.
NQJ_FN nq_u64 nqj_ask_listed(const nq_u32 *table, nq_u32 groups, const nq_u32 *low,
                             const nq_u32 *high, const nq_u32 *begins, const nq_u32 *ends,
                             nq_u32 count, nq_u32 doubled, nq_u32 warp, nq_u32 lane) {
    const nq_u64 total = count != 0 ? ends[count - 1] : 0;
    const nq_u32 warps = NQJ_BLOCK / 32;
    const nq_u32 end = (nq_u32)(total * (warp + 1) / warps);
    nq_u32 q = (nq_u32)(total * warp / warps) + lane;
    if (q >= end) return 0;
    // The first class ending past the lane's first query, by halving.
    nq_u32 lo = 0, hi = count;
    while (lo < hi) {
        const nq_u32 mid = (lo + hi) / 2;
        if (ends[mid] > q) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    nq_u32 c = lo;
    nq_u64 sum = 0;
    for (; q < end; q += 32) {
        while (ends[c] <= q) c++;
        const nq_u32 before = c != 0 ? ends[c - 1] : 0;
        nq_u32 at[NQJ_CHUNKS];
        nqj_offsets(nqj_word(low, high, begins[c] + (q - before)), at);
        const nq_u64 found = nqj_disjoint(table, at, groups);
        sum += c >= doubled ? 2 * found : found;
    }
    return sum;
}

#if defined(__CUDACC__)

// The blocks take the tiles (`tiles`, NQJ_TILE_WORDS words each, `n_tiles` of them) in turn,
// as many blocks as the device holds at once, and each writes a tile's sum to `sums`. Looping
// rather than a block per tile makes the empty slots of joins made on the GPU cost a load each
// (a join plans room for more tiles than it may need: about five empty slots a tile).
extern "C" __global__ void __launch_bounds__(NQJ_BLOCK, NQJ_MIN_BLOCKS)
    nq_join(const nq_u32 *__restrict__ low, const nq_u32 *__restrict__ high,
            const nq_u32 *__restrict__ starts, const nq_u32 *__restrict__ tiles,
            nq_u32 n_tiles, nq_u64 *__restrict__ sums) {
    __shared__ nq_u32 table[NQJ_TABLE_WORDS];
    __shared__ nq_u64 warp_sums[NQJ_BLOCK / 32];
#if NQJ_CLASS_LIST
    __shared__ nq_u32 class_begins[NQJ_MAX_CLASSES], class_ends[NQJ_MAX_CLASSES];
    __shared__ nq_u32 warp_runs[NQJ_BLOCK / 32];
#endif
    const nq_u32 lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    for (nq_u32 t = blockIdx.x; t < n_tiles; t += gridDim.x) {
        const nq_u32 *tile = tiles + (nq_u64)t * NQJ_TILE_WORDS;
        const nq_u32 stored_at = tile[0], stored = tile[1];
        const nq_u32 groups = (stored + 31) / 32;
        if (stored == 0) {
            if (threadIdx.x == 0) sums[t] = 0;
            continue;
        }
        // The table, a group per warp at a time: lane `i` holds word `i`, a ballot per bit
        // gives the words lacking it, and lane `p` writes the row of pattern `p`.
        for (nq_u32 g = warp; g < groups; g += NQJ_BLOCK / 32) {
            const nq_u32 i = g * 32 + lane;
            const bool here = i < stored;
            const nq_u64 w = here ? nqj_word(low, high, stored_at + i) : 0;
            const nq_u32 valid = __ballot_sync(0xffffffffu, here);
NQJ_UNROLL
            for (int c = 0; c < NQJ_CHUNKS; c++) {
                nq_u32 lack[NQJ_SPAN];
NQJ_UNROLL
                for (int k = 0; k < NQJ_SPAN; k++) {
                    lack[k] = __ballot_sync(0xffffffffu, !(w >> (NQJ_SPAN * c + k) & 1));
                }
                table[(g * NQJ_CHUNKS + c) * NQJ_PATTERNS + lane] = nqj_entry(lane, valid, lack);
            }
        }
#if NQJ_CLASS_LIST
        // The class list: each thread its run of up to 3 classes, their sizes summed across
        // the block (a scan in each warp, then of the warps' totals) into running ends.
        nq_u32 doubled;
        const nq_u32 count = nqj_classes(tile, &doubled);
        const nq_u32 per = (count + NQJ_BLOCK - 1) / NQJ_BLOCK;
        const nq_u32 mine = threadIdx.x * per;
        nq_u32 run = 0;
        for (nq_u32 e = mine; e < mine + per && e < count; e++) {
            nq_u32 size;
            class_begins[e] = nqj_class(starts, tile, e, &size);
            class_ends[e] = size;
            run += size;
        }
        nq_u32 scan = run;
NQJ_UNROLL
        for (int d = 1; d < 32; d *= 2) {
            const nq_u32 up = __shfl_up_sync(0xffffffffu, scan, d);
            if (lane >= (nq_u32)d) scan += up;
        }
        if (lane == 31) warp_runs[warp] = scan;
        __syncthreads();
        nq_u32 running = scan - run;
        for (nq_u32 w = 0; w < warp; w++) running += warp_runs[w];
        for (nq_u32 e = mine; e < mine + per && e < count; e++) {
            running += class_ends[e];
            class_ends[e] = running;
        }
        __syncthreads();
        nq_u64 sum = nqj_ask_listed(table, groups, low, high, class_begins, class_ends, count,
                                    doubled, warp, lane);
#else
        __syncthreads();
        nq_u64 sum = nqj_ask(table, groups, low, high, starts, tile, threadIdx.x, NQJ_BLOCK);
#endif
NQJ_UNROLL
        for (int d = 16; d > 0; d /= 2) {
            sum += __shfl_down_sync(0xffffffffu, sum, d);
        }
        if (lane == 0) warp_sums[warp] = sum;
        // Past this barrier every thread is done with the table, so the next tile's may be
        // built; thread 0 reads the warps' sums before it reaches the next tile's barrier,
        // the first point where they are written again.
        __syncthreads();
        if (threadIdx.x == 0) {
            nq_u64 block = 0;
            for (int k = 0; k < NQJ_BLOCK / 32; k++) block += warp_sums[k];
            sums[t] = block;
        }
    }
}

#else

#ifndef NQJ_HOST_NAME
#define NQJ_HOST_NAME nq_join_host
#endif

// The host's copy of a launch: every tile, its table built lane by lane as the warps' ballots
// would, then every thread's share of the queries as the block's threads would count them.
extern "C" void NQJ_HOST_NAME(const nq_u32 *low, const nq_u32 *high, const nq_u32 *starts,
                              const nq_u32 *tiles, nq_u32 n_tiles, nq_u64 *sums) {
    // On the caller's stack (46 KB at most): the tests call this from many threads at once.
    nq_u32 table[NQJ_TABLE_WORDS];
#if NQJ_CLASS_LIST
    nq_u32 begins[NQJ_MAX_CLASSES], ends[NQJ_MAX_CLASSES];
#endif
    for (nq_u32 t = 0; t < n_tiles; t++) {
        const nq_u32 *tile = tiles + (nq_u64)t * NQJ_TILE_WORDS;
        const nq_u32 stored_at = tile[0], stored = tile[1];
        const nq_u32 groups = (stored + 31) / 32;
        if (stored == 0) {
            sums[t] = 0;
            continue;
        }
        for (nq_u32 g = 0; g < groups; g++) {
            nq_u32 valid = 0;
            nq_u64 w[32];
            for (nq_u32 i = 0; i < 32; i++) {
                const int here = g * 32 + i < stored;
                w[i] = here ? nqj_word(low, high, stored_at + g * 32 + i) : 0;
                valid |= (nq_u32)here << i;
            }
            for (int c = 0; c < NQJ_CHUNKS; c++) {
                nq_u32 lack[NQJ_SPAN];
                for (int k = 0; k < NQJ_SPAN; k++) {
                    lack[k] = 0;
                    for (nq_u32 i = 0; i < 32; i++) {
                        lack[k] |= (nq_u32)!(w[i] >> (NQJ_SPAN * c + k) & 1) << i;
                    }
                }
                for (nq_u32 p = 0; p < NQJ_PATTERNS; p++) {
                    table[(g * NQJ_CHUNKS + c) * NQJ_PATTERNS + p] = nqj_entry(p, valid, lack);
                }
            }
        }
        nq_u64 sum = 0;
#if NQJ_CLASS_LIST
        nq_u32 doubled, running = 0;
        const nq_u32 count = nqj_classes(tile, &doubled);
        for (nq_u32 e = 0; e < count; e++) {
            nq_u32 size;
            begins[e] = nqj_class(starts, tile, e, &size);
            running += size;
            ends[e] = running;
        }
        for (nq_u32 thread = 0; thread < NQJ_BLOCK; thread++) {
            sum += nqj_ask_listed(table, groups, low, high, begins, ends, count, doubled,
                                  thread / 32, thread % 32);
        }
#else
        for (nq_u32 thread = 0; thread < NQJ_BLOCK; thread++) {
            sum += nqj_ask(table, groups, low, high, starts, tile, thread, NQJ_BLOCK);
        }
#endif
        sums[t] = sum;
    }
}

#endif

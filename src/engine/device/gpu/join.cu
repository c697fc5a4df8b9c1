// The join's kernel on the GPU: counting the disjoint pairs of two lists of half-board words.
// One source for two compilers, as `kernel.cu`: NVRTC compiles it for the GPU (`__CUDACC__`
// is defined and `nq_join` below is the kernel); the host C++ compiler compiles it for the
// tests (build script, `cuda` feature), where `nq_join_host` plays every block of a launch
// one after the other, lane by lane, through the same functions.
//
// The host lists the words of each join of a batch of tasks (`engine::device::gpu::join`) and cuts
// each of a join's two terms into tiles: up to NQJ_GROUPS groups of 32 stored words, and all
// the term's query words. A block counts one tile:
//
// 1. **The sieve's table.** For each group of 32 stored words and each chunk of NQJ_SPAN bit
//    positions, a row per pattern of the chunk's bits: bit `i` says that word `i` of the
//    group lacks all of the pattern's bits (so is disjoint from a query with that pattern).
//    Pattern 0 is the group's valid words, so padding never counts. The table lives in shared
//    memory: NQJ_GROUPS x NQJ_CHUNKS x 32 words of 32 bits.
// 2. **A query per lane.** Each thread takes a query word, works out once which row of each
//    chunk its bits pick, then for every group ANDs those rows (one load per chunk) and counts
//    the bits left: 32 pair tests per NQJ_CHUNKS loads, a few ANDs and one popcount. The
//    loads of one chunk by the 32 lanes of a warp all fall in the chunk's 32 consecutive
//    words (one per bank), so they never conflict, whatever the queries.
// 3. **Exact sums.** Each query's count is weighted by the long diagonals it holds (see
//    `twice_sorted` in the CPU join: 1, or 2 for both) and summed in 64 bits per thread, per
//    warp and per block; the host adds the tiles of a join and weighs them by the join's
//    symmetry family, in 128 bits.
//
// Words arrive as the host packs them: the bits of the board's two long diagonals removed (a
// stored word never has them), so at most NQJ_SPAN * NQJ_CHUNKS bits, and a query's weight
// (how many long diagonals it holds, 0 to 2) at bit NQJ_WEIGHT_AT.

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

// Chunks per word: enough for the packed words of the count. The host compiles the kernel for
// each count with the fewest that hold its words (8 from N = 17 to 23); the tests use 10,
// enough for every board the join counts (48 bits at N = 26).
#ifndef NQJ_CHUNKS
#define NQJ_CHUNKS 10
#endif

// Groups of 32 stored words per tile: the table takes NQJ_GROUPS * NQJ_CHUNKS * 128 bytes of
// shared memory (32 KB with 8 chunks).
#ifndef NQJ_GROUPS
#define NQJ_GROUPS 32
#endif

// Threads per block; the kernel is compiled for exactly this many (`__launch_bounds__`).
#ifndef NQJ_BLOCK
#define NQJ_BLOCK 256
#endif

// Blocks per multiprocessor the kernel must allow: with NQJ_BLOCK, the register budget.
#ifndef NQJ_MIN_BLOCKS
#define NQJ_MIN_BLOCKS 4
#endif

// Where a query word keeps its weight, above every sliced bit.
#define NQJ_WEIGHT_AT 60

// Words per tile record, as the host lays them out: first stored word, stored words (1 to
// 32 * NQJ_GROUPS), first query word, query words.
#define NQJ_TILE_WORDS 4

// The words of the table: group `g`, chunk `c`, pattern `p` at (g * NQJ_CHUNKS + c) * 32 + p.
#define NQJ_TABLE_WORDS (NQJ_GROUPS * NQJ_CHUNKS * NQJ_PATTERNS)

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
// at `at`: per group, the AND of one row per chunk, counted.
NQJ_FN nq_u32 nqj_disjoint(const nq_u32 *table, const nq_u32 at[NQJ_CHUNKS], nq_u32 groups) {
    nq_u32 found = 0;
NQJ_UNROLL_4
    for (nq_u32 g = 0; g < groups; g++) {
        const nq_u32 *group = table + g * (NQJ_CHUNKS * NQJ_PATTERNS);
        nq_u32 row = group[at[0]];
NQJ_UNROLL
        for (int c = 1; c < NQJ_CHUNKS; c++) {
            row &= group[at[c]];
        }
        found += NQJ_POPC(row);
    }
    return found;
}

// What a query's disjoint stored words count for: twice for a query holding both long
// diagonals, else once (halved from the CPU join's scales, all even).
NQJ_FN nq_u64 nqj_scale(nq_u64 q) { return (q >> NQJ_WEIGHT_AT) == 2 ? 2 : 1; }

#if defined(__CUDACC__)

// Each block counts one tile (`tiles`, NQJ_TILE_WORDS words each) and writes its sum to
// `sums[blockIdx.x]`.
extern "C" __global__ void __launch_bounds__(NQJ_BLOCK, NQJ_MIN_BLOCKS)
    nq_join(const nq_u64 *__restrict__ words, const nq_u32 *__restrict__ tiles,
            nq_u64 *__restrict__ sums) {
    __shared__ nq_u32 table[NQJ_TABLE_WORDS];
    __shared__ nq_u64 warp_sums[NQJ_BLOCK / 32];
    const nq_u32 *tile = tiles + (nq_u64)blockIdx.x * NQJ_TILE_WORDS;
    const nq_u32 stored_at = tile[0], stored = tile[1], query_at = tile[2], queries = tile[3];
    const nq_u32 lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const nq_u32 groups = (stored + 31) / 32;
    // The table, a group per warp at a time: lane `i` holds word `i`, a ballot per bit gives
    // the words lacking it, and lane `p` writes the row of pattern `p`.
    for (nq_u32 g = warp; g < groups; g += NQJ_BLOCK / 32) {
        const nq_u32 i = g * 32 + lane;
        const bool here = i < stored;
        const nq_u64 w = here ? words[stored_at + i] : 0;
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
    __syncthreads();
    nq_u64 sum = 0;
    for (nq_u32 j = threadIdx.x; j < queries; j += NQJ_BLOCK) {
        const nq_u64 q = words[query_at + j];
        nq_u32 at[NQJ_CHUNKS];
        nqj_offsets(q, at);
        sum += nqj_scale(q) * nqj_disjoint(table, at, groups);
    }
NQJ_UNROLL
    for (int d = 16; d > 0; d /= 2) {
        sum += __shfl_down_sync(0xffffffffu, sum, d);
    }
    if (lane == 0) warp_sums[warp] = sum;
    __syncthreads();
    if (threadIdx.x == 0) {
        nq_u64 block = 0;
        for (int k = 0; k < NQJ_BLOCK / 32; k++) block += warp_sums[k];
        sums[blockIdx.x] = block;
    }
}

#else

// The host's copy of a launch: every tile, its table built lane by lane as the warps' ballots
// would, then every query as a lane would count it.
extern "C" void nq_join_host(const nq_u64 *words, const nq_u32 *tiles, nq_u32 n_tiles,
                             nq_u64 *sums) {
    // On the caller's stack (40 KB at most): the tests call this from many threads at once.
    nq_u32 table[NQJ_TABLE_WORDS];
    for (nq_u32 t = 0; t < n_tiles; t++) {
        const nq_u32 *tile = tiles + (nq_u64)t * NQJ_TILE_WORDS;
        const nq_u32 stored_at = tile[0], stored = tile[1], query_at = tile[2], queries = tile[3];
        const nq_u32 groups = (stored + 31) / 32;
        for (nq_u32 g = 0; g < groups; g++) {
            nq_u32 valid = 0;
            nq_u64 w[32];
            for (nq_u32 i = 0; i < 32; i++) {
                const int here = g * 32 + i < stored;
                w[i] = here ? words[stored_at + g * 32 + i] : 0;
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
        for (nq_u32 j = 0; j < queries; j++) {
            const nq_u64 q = words[query_at + j];
            nq_u32 at[NQJ_CHUNKS];
            nqj_offsets(q, at);
            sum += nqj_scale(q) * nqj_disjoint(table, at, groups);
        }
        sums[t] = sum;
    }
}

#endif

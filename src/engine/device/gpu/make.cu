// The join's words made on the GPU: each join's two halves glued from the quarter lists held in
// device memory, sorted into classes and packed, and the tiles that `join.cu` counts, all
// without the host. One source for two compilers, as `join.cu`: NVRTC compiles `nq_glue_tops`,
// `nq_make` and `nq_sum_joins` for the GPU; the host C++ compiler compiles their `_host` copies
// for the tests (build script, `cuda` feature), which play each block's threads one after the
// other, phase by phase, through the same functions, the barriers between the phases.
//
// The host plans a batch (`engine::device::gpu::make`), with what the CPU join would look up in
// its quarter lists (`half.rs`) for a half: the key of its first row set's left list, the key of
// the matching right list, and the number of row sets (row set `i` pairs left list
// `left_first + i` with right list `right_last - i`). Per task a record of NQM_TOP_WORDS
// numbers: its top half's keys, and where its entries go and how many there may be (the pairs
// of entries it tries). Per join a record of NQM_JOIN_WORDS: its task's top record, its bottom
// half's keys, the middle row's blocked bits, where the join's words go and how many each half
// may have at most, and where its tiles go and how many there may be at most.
//
// `nq_glue_tops` glues each task's top half once, whole entries (the bits above the word say
// which middle columns a placement attacks). Then one block of `nq_make` makes one join, in
// phases:
//
// 1. **Glue**: the task's top entries that leave the join's middle queen free, trimmed to the
//    word; and the bottom half glued, a warp per row set, its lanes over the pairs of entries (a
//    place for the words a warp finds taken with one atomic add): a pair whose entries share no
//    diagonal and leave the middle queen free is a placement of the half, its word the entries'
//    OR, turned (the bottom half's families come the other way round). The words go to
//    `staging`, in the order the lanes find them (order does not matter: the count of disjoint
//    pairs does not depend on it).
// 2. **Cut bits**, as the host listing chose them (`gpu::join`): `k` from the larger side's words
//    free of the long diagonals (about 512 a bucket, at least the layout's fewest, at most 8),
//    and the `k` busiest bits of both sides, counted on 32 words of each spread evenly.
// 3. **Classes**: a count per class (part, then cut pattern) in shared memory, the class table
//    from their sums, then each word to its class, packed: the long diagonals' and the cut
//    bits taken out.
// 4. **Tiles**: per term (the top's part-0 words stored, asked by every bottom word; the
//    bottom's part-0 words stored, asked by the top's parts 1 and 2) and bucket, up to
//    NQM_TILE_STORED stored words a tile, for the buckets that some query class can meet; the
//    join's other tile slots are written empty (the count kernel skips them).
//
// A status record per join says what it made (NQM_STATUS_WORDS words): the two halves' words,
// `k`, the cut bits (low and high 32), the tiles used, and an error (1: more words than the
// plan's bound, 2: more tiles): the plan's bounds are exact upper bounds, so an error is a
// planning fault, and the host refuses the batch. `nq_sum_joins` then adds each join's tile
// slots' sums, what goes back to the host with the status.

typedef unsigned int nq_u32;
typedef unsigned long long nq_u64;

#if defined(__CUDACC__)
#define NQM_FN __device__ __forceinline__
#define NQM_ADD(p, v) atomicAdd((p), (v))
#define NQM_POPC64(x) ((nq_u32)__popcll(x))

// A place from `counter` for each lane of the warp whose `ok` is set, in lane order, with one
// atomic add per warp (a word per lane would make the warp's lanes wait on one another for the
// same counter). Every lane of the warp must call it together.
NQM_FN nq_u32 nqm_claim(nq_u32 *counter, bool ok, nq_u32 lane) {
    const nq_u32 wanting = __ballot_sync(0xffffffffu, ok);
    const nq_u32 leader = wanting ? __ffs(wanting) - 1 : 0;
    nq_u32 base = 0;
    if (wanting && lane == leader) base = atomicAdd(counter, (nq_u32)__popc(wanting));
    base = __shfl_sync(0xffffffffu, base, leader);
    return base + __popc(wanting & ((1u << lane) - 1));
}

// A place in its class for each lane whose `ok` is set (`cursors[class]`, the class's next
// place), the lanes of a warp that share a class claiming theirs with one atomic add: the
// words a warp packs often share classes, and lanes adding to one counter one at a time wait
// on one another. Every lane of the warp must call it together.
NQM_FN nq_u32 nqm_claim_class(nq_u32 *cursors, nq_u32 cls, bool ok, nq_u32 lane) {
    const nq_u32 wanting = __ballot_sync(0xffffffffu, ok);
    const nq_u32 peers = __match_any_sync(0xffffffffu, ok ? cls : 0xffffffffu) & wanting;
    const nq_u32 leader = peers ? __ffs(peers) - 1 : 0;
    nq_u32 base = 0;
    if (ok && lane == leader) base = atomicAdd(&cursors[cls], (nq_u32)__popc(peers));
    base = __shfl_sync(0xffffffffu, base, leader);
    return base + __popc(peers & ((1u << lane) - 1));
}
#else
#define NQM_FN static inline
#define NQM_ADD(p, v) nqm_host_add((p), (v))
#define NQM_POPC64(x) ((nq_u32)__builtin_popcountll(x))
// The host plays the threads one at a time, so an atomic add is a plain one.
static inline nq_u32 nqm_host_add(nq_u32 *p, nq_u32 v) {
    nq_u32 old = *p;
    *p = old + v;
    return old;
}

// The lanes one at a time take their places in lane order, as the warp's one add gives them.
static inline nq_u32 nqm_claim(nq_u32 *counter, bool ok, nq_u32 lane) {
    (void)lane;
    return ok ? nqm_host_add(counter, 1) : 0;
}

// The same for a class's place: in lane order, as the class's one add gives them.
static inline nq_u32 nqm_claim_class(nq_u32 *cursors, nq_u32 cls, bool ok, nq_u32 lane) {
    return nqm_claim(&cursors[cls], ok, lane);
}
#endif

// NQM_CLASS_CLAIM 1 (a switch, for timing on a GPU): in the scatter, the lanes of a warp whose
// words share a class claim their places with one atomic add (`nqm_claim_class`), not one each.
#ifndef NQM_CLASS_CLAIM
#define NQM_CLASS_CLAIM 0
#endif

// Threads per block.
#ifndef NQM_BLOCK
#define NQM_BLOCK 256
#endif
#define NQM_WARPS (NQM_BLOCK / 32)

// Blocks per multiprocessor the kernel must allow: with NQM_BLOCK, the register budget.
#ifndef NQM_MIN_BLOCKS
#define NQM_MIN_BLOCKS 4
#endif

// The most stored words in a tile (`join.cu`'s 32 * NQJ_GROUPS).
#ifndef NQM_TILE_STORED
#define NQM_TILE_STORED 1024
#endif

#define NQM_MAX_CUT 8
#define NQM_PARTS 3
#define NQM_CLASSES (NQM_PARTS << NQM_MAX_CUT)
// A side's class table: a start per class, part-major, and the end; as `join.cu` reads it.
#define NQM_TABLE (NQM_CLASSES + 1)
#define NQM_BUCKET_WORDS 512
#define NQM_SAMPLE 32
// A join's record: its task's top half (a `tops` record), its bottom half's keys (three
// numbers), the middle queen's bits, where its words start, each half's bound, where its tile
// slots start and how many.
#define NQM_J_TOP 0
#define NQM_J_BOTTOM 1
#define NQM_J_BLOCKED 4
#define NQM_J_AT 5
#define NQM_J_CAP 6
#define NQM_J_TILES_AT 8
#define NQM_J_SLOTS 9
#define NQM_JOIN_WORDS 10
// A task's top half: its keys (the first row set's left key, its right key, the row sets),
// where its entries go in `top_staging` and how many it may have.
#define NQM_T_AT 3
#define NQM_T_CAP 4
#define NQM_TOP_WORDS 5
#define NQM_STATUS_WORDS 8

// The board: word mask, long diagonals' bits, bits per family, fewest cut bits, wide words.
#define NQM_BOARD_WORDS 5

// What a launch reads and writes.
struct nqm_args {
    const nq_u64 *left, *left_start, *right, *right_start;
    const nq_u64 *tops, *top_staging;
    const nq_u32 *top_counts;
    const nq_u64 *joins, *board;
    nq_u64 *staging;
    nq_u32 *low, *high, *starts, *tiles, *status;
};

// A block's shared state.
struct nqm_shared {
    nq_u32 count[2], free_words[2];
    nq_u32 error, k, removed_len, tiles_used;
    nq_u64 cut;
    nq_u32 cut_at[NQM_MAX_CUT];
    // The long diagonals' and the cut bits, highest first: taken out of a word in this order.
    nq_u32 removed[NQM_MAX_CUT + 2];
    nq_u64 score[64];
    // A side's class counts, then each class's next place.
    nq_u32 cursor[2][NQM_CLASSES];
    // Per term and bucket (`term << k | bucket`): its tiles, then its first slot.
    nq_u32 tiles[2 << NQM_MAX_CUT];
};

NQM_FN const nq_u64 *nqm_join(const nqm_args *a, nq_u32 join) {
    return a->joins + (nq_u64)join * NQM_JOIN_WORDS;
}

// Where side `side`'s words start in the batch, and how many it may have.
NQM_FN nq_u64 nqm_at(const nq_u64 *j, nq_u32 side) {
    return j[NQM_J_AT] + (side ? j[NQM_J_CAP] : 0);
}
NQM_FN nq_u64 nqm_cap(const nq_u64 *j, nq_u32 side) { return j[NQM_J_CAP + side]; }

// Side `side`'s class table in `starts`.
NQM_FN nq_u64 nqm_table(nq_u32 join, nq_u32 side) { return ((nq_u64)join * 2 + side) * NQM_TABLE; }

NQM_FN nq_u32 nqm_min(nq_u32 a, nq_u32 b) { return a < b ? a : b; }

NQM_FN void nqm_clear(const nqm_args *a, nqm_shared *s, nq_u32 join, nq_u32 t) {
    (void)a;
    (void)join;
    for (nq_u32 i = t; i < 2 * NQM_CLASSES; i += NQM_BLOCK) s->cursor[i / NQM_CLASSES][i % NQM_CLASSES] = 0;
    if (t == 0) {
        s->count[0] = s->count[1] = s->free_words[0] = s->free_words[1] = 0;
        s->error = 0;
    }
}

// The placements of a half whose keys are `keys` (the first row set's left key, its right
// key, the row sets), glued into `out` (at most `cap`), their number counted in `*count`: every
// pair of entries that share no diagonal and miss `blocked`, their OR masked by `mask`, its two
// families swapped if `turn` (a family's bits) is not 0. A warp per row set, its lanes over the
// row set's pairs, a place for the words a warp finds taken with one atomic add.
NQM_FN void nqm_glue_half(const nqm_args *a, const nq_u64 *keys, nq_u64 blocked, nq_u64 mask,
                          nq_u32 turn, nq_u64 *out, nq_u64 cap, nq_u32 *count, nq_u32 t) {
    const nq_u64 family = turn ? (1ull << turn) - 1 : 0;
    const nq_u32 warp = t / 32, lane = t % 32;
    const nq_u64 left_first = keys[0], right_last = keys[1], sets = keys[2];
    for (nq_u64 i = warp; i < sets; i += NQM_WARPS) {
        const nq_u64 ls = a->left_start[left_first + i];
        const nq_u64 rs = a->right_start[right_last - i];
        // A key's entries are far fewer than 2^32 (the most at N = 26 are thousands).
        const nq_u32 nl = (nq_u32)(a->left_start[left_first + i + 1] - ls);
        const nq_u32 nr = (nq_u32)(a->right_start[right_last - i + 1] - rs);
        const nq_u64 pairs = (nq_u64)nl * nr;
        if (pairs == 0) continue;
        const nq_u64 *lefts = a->left + ls, *rights = a->right + rs;
        // Pair `p` is left entry `p / nr` and right entry `p % nr`; a lane steps by 32 pairs,
        // its two indices carried along without a division per pair. Every lane of the warp
        // takes as many steps (the row set is the warp's), for `nqm_claim`.
        nq_u32 li = lane / nr, ri = lane % nr;
        const nq_u32 step_l = 32 / nr, step_r = 32 % nr;
        for (nq_u64 first = 0; first < pairs; first += 32) {
            nq_u64 w = 0;
            bool ok = false;
            if (first + lane < pairs) {
                const nq_u64 l = lefts[li], r = rights[ri];
                ok = (l & r) == 0 && ((l | r) & blocked) == 0;
                w = (l | r) & mask;
                if (turn) w = w >> turn | (w & family) << turn;
            }
            const nq_u32 pos = nqm_claim(count, ok, lane);
            if (ok && pos < cap) out[pos] = w;
            li += step_l;
            ri += step_r;
            if (ri >= nr) {
                ri -= nr;
                li++;
            }
        }
    }
}

// Phase 1: the join's top half from its task's top entries (those that leave the middle queen
// free, trimmed to the word), its bottom half glued; both into `staging`.
NQM_FN void nqm_glue(const nqm_args *a, nqm_shared *s, nq_u32 join, nq_u32 t) {
    const nq_u64 *j = nqm_join(a, join);
    const nq_u64 word_mask = a->board[0], blocked = j[NQM_J_BLOCKED];
    const nq_u64 *top = a->tops + j[NQM_J_TOP] * NQM_TOP_WORDS;
    const nq_u64 *entries = a->top_staging + top[NQM_T_AT];
    const nq_u32 listed = nqm_min(a->top_counts[j[NQM_J_TOP]], (nq_u32)top[NQM_T_CAP]);
    const nq_u64 at = nqm_at(j, 0), cap = nqm_cap(j, 0);
    // Every thread takes as many steps, for `nqm_claim`.
    for (nq_u32 first = 0; first < listed; first += NQM_BLOCK) {
        const nq_u32 i = first + t;
        const nq_u64 e = i < listed ? entries[i] : 0;
        const bool ok = i < listed && (e & blocked) == 0;
        const nq_u32 pos = nqm_claim(&s->count[0], ok, t % 32);
        if (ok && pos < cap) a->staging[at + pos] = e & word_mask;
    }
    nqm_glue_half(a, j + NQM_J_BOTTOM, blocked, word_mask, (nq_u32)a->board[2],
                  a->staging + nqm_at(j, 1), nqm_cap(j, 1), &s->count[1], t);
}

// Phase 2a: the words free of the long diagonals counted, a thread's share at a time.
NQM_FN void nqm_count_free(const nqm_args *a, nqm_shared *s, nq_u32 join, nq_u32 t) {
    const nq_u64 *j = nqm_join(a, join);
    const nq_u64 long_bits = a->board[1];
    for (nq_u32 side = 0; side < 2; side++) {
        const nq_u64 at = nqm_at(j, side);
        const nq_u32 len = nqm_min(s->count[side], (nq_u32)nqm_cap(j, side));
        nq_u32 free_words = 0;
        for (nq_u32 i = t; i < len; i += NQM_BLOCK) free_words += (a->staging[at + i] & long_bits) == 0;
        if (free_words) NQM_ADD(&s->free_words[side], free_words);
    }
}

// Phase 2b: each candidate bit's score, its count in the samples of one side times the other's.
NQM_FN void nqm_sample(const nqm_args *a, nqm_shared *s, nq_u32 join, nq_u32 t) {
    if (t >= 64) return;
    const nq_u64 *j = nqm_join(a, join);
    const nq_u64 candidates = a->board[0] & ~a->board[1];
    nq_u64 score = 1;
    for (nq_u32 side = 0; side < 2; side++) {
        const nq_u64 len = s->count[side] < nqm_cap(j, side) ? s->count[side] : nqm_cap(j, side);
        const nq_u64 step = len == 0 ? 1 : (len + NQM_SAMPLE - 1) / NQM_SAMPLE;
        nq_u64 f = 0;
        for (nq_u64 i = 0; i < len; i += step) f += a->staging[nqm_at(j, side) + i] >> t & 1;
        score *= f;
    }
    s->score[t] = (candidates >> t & 1) ? score : 0;
}

// Phase 2c (one thread): `k` and the cut bits.
NQM_FN void nqm_choose(const nqm_args *a, nqm_shared *s, nq_u32 join) {
    const nq_u64 *j = nqm_join(a, join);
    const nq_u64 top = j[NQM_J_TOP];
    if (s->count[0] > nqm_cap(j, 0) || s->count[1] > nqm_cap(j, 1) ||
        a->top_counts[top] > a->tops[top * NQM_TOP_WORDS + NQM_T_CAP]) {
        s->error = 1;
    }
    const nq_u64 long_bits = a->board[1], candidates = a->board[0] & ~long_bits;
    const nq_u32 min_cut = (nq_u32)a->board[3];
    nq_u32 most = s->free_words[0] > s->free_words[1] ? s->free_words[0] : s->free_words[1];
    most /= NQM_BUCKET_WORDS;
    nq_u32 k = 0;
    while (most > 1) {
        most >>= 1;
        k++;
    }
    if (k < min_cut) k = min_cut;
    if (k > NQM_MAX_CUT) k = NQM_MAX_CUT;
    if (k > NQM_POPC64(candidates)) k = NQM_POPC64(candidates);
    nq_u64 cut = 0;
    for (nq_u32 i = 0; i < k; i++) {
        int best = -1;
        for (int b = 0; b < 64; b++) {
            if (!(candidates >> b & 1) || (cut >> b & 1)) continue;
            // Strictly more: ties go to the lowest bit.
            if (best < 0 || s->score[b] > s->score[best]) best = b;
        }
        cut |= 1ull << best;
    }
    s->k = k;
    s->cut = cut;
    nq_u32 c = 0;
    for (int b = 0; b < 64; b++) {
        if (cut >> b & 1) s->cut_at[c++] = (nq_u32)b;
    }
    const nq_u64 removed = cut | long_bits;
    c = 0;
    for (int b = 63; b >= 0; b--) {
        if (removed >> b & 1) s->removed[c++] = (nq_u32)b;
    }
    s->removed_len = c;
}

// A word's class: its part (long diagonals held) and then its cut pattern.
NQM_FN nq_u32 nqm_class(const nqm_shared *s, nq_u64 long_bits, nq_u64 w) {
    nq_u32 pattern = 0;
    for (nq_u32 i = 0; i < s->k; i++) pattern |= (nq_u32)(w >> s->cut_at[i] & 1) << i;
    return NQM_POPC64(w & long_bits) << s->k | pattern;
}

// A word without its long diagonals' and cut bits, the bits above each closing the gap.
NQM_FN nq_u64 nqm_pack(const nqm_shared *s, nq_u64 w) {
    for (nq_u32 i = 0; i < s->removed_len; i++) {
        const nq_u32 r = s->removed[i];
        w = (w & ((1ull << r) - 1)) | (w >> (r + 1)) << r;
    }
    return w;
}

// Phase 3a: the words of each class counted.
NQM_FN void nqm_histogram(const nqm_args *a, nqm_shared *s, nq_u32 join, nq_u32 t) {
    if (s->error) return;
    const nq_u64 *j = nqm_join(a, join);
    for (nq_u32 side = 0; side < 2; side++) {
        const nq_u64 at = nqm_at(j, side);
        for (nq_u32 i = t; i < s->count[side]; i += NQM_BLOCK) {
            NQM_ADD(&s->cursor[side][nqm_class(s, a->board[1], a->staging[at + i])], 1u);
        }
    }
}

// Phase 3b (threads 0 and 1, a side each): the class table, and each class's first place.
NQM_FN void nqm_scan(const nqm_args *a, nqm_shared *s, nq_u32 join, nq_u32 t) {
    if (s->error || t >= 2) return;
    const nq_u64 *j = nqm_join(a, join);
    nq_u32 *table = a->starts + nqm_table(join, t);
    nq_u32 run = (nq_u32)nqm_at(j, t);
    const nq_u32 classes = NQM_PARTS << s->k;
    for (nq_u32 c = 0; c < classes; c++) {
        const nq_u32 size = s->cursor[t][c];
        table[c] = run;
        s->cursor[t][c] = run;
        run += size;
    }
    table[classes] = run;
}

// Phase 3c: each word packed into its class.
NQM_FN void nqm_scatter(const nqm_args *a, nqm_shared *s, nq_u32 join, nq_u32 t) {
    if (s->error) return;
    const nq_u64 *j = nqm_join(a, join);
    const nq_u32 wide = (nq_u32)a->board[4];
    for (nq_u32 side = 0; side < 2; side++) {
        const nq_u64 at = nqm_at(j, side);
#if NQM_CLASS_CLAIM
        // Every thread takes as many steps, for `nqm_claim_class`.
        for (nq_u32 first = 0; first < s->count[side]; first += NQM_BLOCK) {
            const nq_u32 i = first + t;
            const bool ok = i < s->count[side];
            const nq_u64 w = ok ? a->staging[at + i] : 0;
            const nq_u32 cls = nqm_class(s, a->board[1], w);
            const nq_u32 pos = nqm_claim_class(s->cursor[side], cls, ok, t % 32);
            if (!ok) continue;
#else
        for (nq_u32 i = t; i < s->count[side]; i += NQM_BLOCK) {
            const nq_u64 w = a->staging[at + i];
            const nq_u32 pos = NQM_ADD(&s->cursor[side][nqm_class(s, a->board[1], w)], 1u);
#endif
            const nq_u64 packed = nqm_pack(s, w);
            a->low[pos] = (nq_u32)packed;
            if (wide) a->high[pos] = (nq_u32)(packed >> 32);
        }
    }
}

// Term `term`'s stored side and query side, and its query parts.
NQM_FN void nqm_term(nq_u32 term, nq_u32 *stored, nq_u32 *queries, nq_u32 *from) {
    *stored = term;
    *queries = 1 - term;
    *from = term;
}

// Phase 4a: the tiles of each term's bucket: none if no query class avoids the bucket.
NQM_FN void nqm_count_tiles(const nqm_args *a, nqm_shared *s, nq_u32 join, nq_u32 t) {
    if (s->error) return;
    const nq_u32 k = s->k, all = (1u << k) - 1;
    for (nq_u32 x = t; x < 2u << k; x += NQM_BLOCK) {
        nq_u32 stored, queries, from;
        nqm_term(x >> k, &stored, &queries, &from);
        const nq_u32 bucket = x & all, avail = all & ~bucket;
        const nq_u32 *st = a->starts + nqm_table(join, stored);
        const nq_u32 *qt = a->starts + nqm_table(join, queries);
        const nq_u32 size = st[bucket + 1] - st[bucket];
        bool asked = false;
        for (nq_u32 part = from; part < NQM_PARTS && !asked && size > 0; part++) {
            for (nq_u32 sub = avail;; sub = (sub - 1) & avail) {
                const nq_u32 c = part << k | sub;
                if (qt[c + 1] > qt[c]) {
                    asked = true;
                    break;
                }
                if (sub == 0) break;
            }
        }
        s->tiles[x] = asked ? (size + NQM_TILE_STORED - 1) / NQM_TILE_STORED : 0;
    }
}

// Phase 4b (one thread): each term's bucket's first slot.
NQM_FN void nqm_slots(const nqm_args *a, nqm_shared *s, nq_u32 join) {
    if (s->error) {
        s->tiles_used = 0;
        return;
    }
    nq_u32 run = 0;
    for (nq_u32 x = 0; x < 2u << s->k; x++) {
        const nq_u32 n = s->tiles[x];
        s->tiles[x] = run;
        run += n;
    }
    if (run > nqm_join(a, join)[NQM_J_SLOTS]) {
        s->error = 2;
        run = 0;
    }
    s->tiles_used = run;
}

// Phase 4c: the tile records, and the slots left over empty.
NQM_FN void nqm_write_tiles(const nqm_args *a, nqm_shared *s, nq_u32 join, nq_u32 t) {
    const nq_u64 *j = nqm_join(a, join);
    nq_u32 *tiles = a->tiles + j[NQM_J_TILES_AT] * 4;
    const nq_u32 k = s->k, all = (1u << k) - 1, xs = 2u << k;
    for (nq_u32 x = t; x < xs && !s->error; x += NQM_BLOCK) {
        nq_u32 stored, queries, from;
        nqm_term(x >> k, &stored, &queries, &from);
        const nq_u32 bucket = x & all;
        const nq_u32 *st = a->starts + nqm_table(join, stored);
        const nq_u32 first = s->tiles[x], last = x + 1 < xs ? s->tiles[x + 1] : s->tiles_used;
        const nq_u32 shape = bucket | k << 8 | from << 12 | (NQM_PARTS - 1) << 14;
        for (nq_u32 m = 0; first + m < last; m++) {
            const nq_u32 at = st[bucket] + m * NQM_TILE_STORED;
            nq_u32 *tile = tiles + (nq_u64)(first + m) * 4;
            tile[0] = at;
            tile[1] = nqm_min(NQM_TILE_STORED, st[bucket + 1] - at);
            tile[2] = (nq_u32)nqm_table(join, queries);
            tile[3] = shape;
        }
    }
    for (nq_u64 slot = s->tiles_used + t; slot < j[NQM_J_SLOTS]; slot += NQM_BLOCK) {
        for (int w = 0; w < 4; w++) tiles[slot * 4 + w] = 0;
    }
    if (t == 0) {
        nq_u32 *status = a->status + (nq_u64)join * NQM_STATUS_WORDS;
        status[0] = s->count[0];
        status[1] = s->count[1];
        status[2] = s->k;
        status[3] = (nq_u32)s->cut;
        status[4] = (nq_u32)(s->cut >> 32);
        status[5] = s->tiles_used;
        status[6] = s->error;
        status[7] = 0;
    }
}

// Join `join`'s sum: its tile slots' sums added (what goes back to the host, 8 bytes a join).
NQM_FN void nqm_sum_join(const nq_u64 *joins, const nq_u64 *sums, nq_u32 join, nq_u64 *out) {
    const nq_u64 *j = joins + (nq_u64)join * NQM_JOIN_WORDS;
    nq_u64 sum = 0;
    for (nq_u64 slot = j[NQM_J_TILES_AT]; slot < j[NQM_J_TILES_AT] + j[NQM_J_SLOTS]; slot++) {
        sum += sums[slot];
    }
    out[join] = sum;
}

#if defined(__CUDACC__)

// A thread per join: each join's sum from its tile slots' (`join.cu`'s `sums`).
extern "C" __global__ void nq_sum_joins(const nq_u64 *__restrict__ joins,
                                        const nq_u64 *__restrict__ sums, nq_u32 n_joins,
                                        nq_u64 *__restrict__ out) {
    const nq_u32 join = blockIdx.x * blockDim.x + threadIdx.x;
    if (join < n_joins) nqm_sum_join(joins, sums, join, out);
}

// Each block glues one task's top half (`tops`, NQM_TOP_WORDS numbers each) into
// `top_staging`, whole entries (the bits above the word say which middle columns a placement
// attacks), their number to `top_counts`: the task's joins each take the entries that leave
// their middle queen free.
extern "C" __global__ void __launch_bounds__(NQM_BLOCK)
    nq_glue_tops(const nq_u64 *__restrict__ left, const nq_u64 *__restrict__ left_start,
                 const nq_u64 *__restrict__ right, const nq_u64 *__restrict__ right_start,
                 const nq_u64 *__restrict__ tops, nq_u64 *__restrict__ top_staging,
                 nq_u32 *__restrict__ top_counts) {
    __shared__ nq_u32 count;
    const nqm_args a = {left, left_start, right, right_start, tops, top_staging, top_counts,
                        0, 0, 0, 0, 0, 0, 0, 0};
    const nq_u64 *top = tops + (nq_u64)blockIdx.x * NQM_TOP_WORDS;
    if (threadIdx.x == 0) count = 0;
    __syncthreads();
    nqm_glue_half(&a, top, 0, ~0ull, 0, top_staging + top[NQM_T_AT], top[NQM_T_CAP], &count,
                  threadIdx.x);
    __syncthreads();
    if (threadIdx.x == 0) top_counts[blockIdx.x] = count;
}

#define NQM_PHASE(call) \
    call;               \
    __syncthreads()

// Each block makes one join: `joins` holds NQM_JOIN_WORDS numbers per join; its task's top
// entries are in `top_staging` (`nq_glue_tops`, before).
extern "C" __global__ void __launch_bounds__(NQM_BLOCK, NQM_MIN_BLOCKS)
    nq_make(const nq_u64 *__restrict__ left, const nq_u64 *__restrict__ left_start,
            const nq_u64 *__restrict__ right, const nq_u64 *__restrict__ right_start,
            const nq_u64 *__restrict__ tops, const nq_u64 *__restrict__ top_staging,
            const nq_u32 *__restrict__ top_counts, const nq_u64 *__restrict__ joins,
            const nq_u64 *__restrict__ board, nq_u64 *__restrict__ staging,
            nq_u32 *__restrict__ low, nq_u32 *__restrict__ high, nq_u32 *__restrict__ starts,
            nq_u32 *__restrict__ tiles, nq_u32 *__restrict__ status) {
    __shared__ nqm_shared s;
    const nqm_args a = {left,  left_start, right, right_start, tops,  top_staging, top_counts,
                        joins, board,      staging, low,       high, starts,      tiles,
                        status};
    const nq_u32 join = blockIdx.x, t = threadIdx.x;
    NQM_PHASE(nqm_clear(&a, &s, join, t));
    NQM_PHASE(nqm_glue(&a, &s, join, t));
    NQM_PHASE(nqm_count_free(&a, &s, join, t));
    NQM_PHASE(nqm_sample(&a, &s, join, t));
    NQM_PHASE(if (t == 0) nqm_choose(&a, &s, join));
    NQM_PHASE(nqm_histogram(&a, &s, join, t));
    NQM_PHASE(nqm_scan(&a, &s, join, t));
    NQM_PHASE(nqm_scatter(&a, &s, join, t));
    NQM_PHASE(nqm_count_tiles(&a, &s, join, t));
    NQM_PHASE(if (t == 0) nqm_slots(&a, &s, join));
    nqm_write_tiles(&a, &s, join, t);
}

#else

// The host copies' names: a suffix for a second copy built with other switches.
#ifndef NQM_HOST_SUFFIX
#define NQM_HOST_SUFFIX
#endif
#define NQM_PASTE(a, b) a##b
#define NQM_JOINED(a, b) NQM_PASTE(a, b)
#define NQM_HOST(name) NQM_JOINED(name, NQM_HOST_SUFFIX)

// The host's copy of `nq_glue_tops` over tops `first .. first + count`: each block's threads
// one after the other.
extern "C" void NQM_HOST(nq_glue_tops_host)(const nq_u64 *left, const nq_u64 *left_start,
                                            const nq_u64 *right, const nq_u64 *right_start,
                                            const nq_u64 *tops, nq_u64 *top_staging,
                                            nq_u32 *top_counts, nq_u32 first, nq_u32 count) {
    const nqm_args a = {left, left_start, right, right_start, tops, top_staging, top_counts,
                        0, 0, 0, 0, 0, 0, 0, 0};
    for (nq_u32 task = first; task < first + count; task++) {
        const nq_u64 *top = tops + (nq_u64)task * NQM_TOP_WORDS;
        nq_u32 glued = 0;
        for (nq_u32 t = 0; t < NQM_BLOCK; t++) {
            nqm_glue_half(&a, top, 0, ~0ull, 0, top_staging + top[NQM_T_AT], top[NQM_T_CAP],
                          &glued, t);
        }
        top_counts[task] = glued;
    }
}

// The host's copy of a launch of `nq_make` over joins `first .. first + count`: each block's
// phases in turn, every thread of a phase before the next phase, as the barriers order them.
extern "C" void NQM_HOST(nq_make_host)(const nq_u64 *left, const nq_u64 *left_start,
                                       const nq_u64 *right, const nq_u64 *right_start,
                                       const nq_u64 *tops, const nq_u64 *top_staging,
                                       const nq_u32 *top_counts, const nq_u64 *joins,
                                       const nq_u64 *board, nq_u64 *staging, nq_u32 *low,
                                       nq_u32 *high, nq_u32 *starts, nq_u32 *tiles,
                                       nq_u32 *status, nq_u32 first, nq_u32 count) {
    static_assert(sizeof(nqm_shared) < 16384, "the shared state fits a block's shared memory");
    const nqm_args a = {left,  left_start, right, right_start, tops,  top_staging, top_counts,
                        joins, board,      staging, low,       high, starts,      tiles,
                        status};
    nqm_shared s = nqm_shared();
    for (nq_u32 join = first; join < first + count; join++) {
        for (nq_u32 t = 0; t < NQM_BLOCK; t++) nqm_clear(&a, &s, join, t);
        for (nq_u32 t = 0; t < NQM_BLOCK; t++) nqm_glue(&a, &s, join, t);
        for (nq_u32 t = 0; t < NQM_BLOCK; t++) nqm_count_free(&a, &s, join, t);
        for (nq_u32 t = 0; t < NQM_BLOCK; t++) nqm_sample(&a, &s, join, t);
        nqm_choose(&a, &s, join);
        for (nq_u32 t = 0; t < NQM_BLOCK; t++) nqm_histogram(&a, &s, join, t);
        for (nq_u32 t = 0; t < NQM_BLOCK; t++) nqm_scan(&a, &s, join, t);
        for (nq_u32 t = 0; t < NQM_BLOCK; t++) nqm_scatter(&a, &s, join, t);
        for (nq_u32 t = 0; t < NQM_BLOCK; t++) nqm_count_tiles(&a, &s, join, t);
        nqm_slots(&a, &s, join);
        for (nq_u32 t = 0; t < NQM_BLOCK; t++) nqm_write_tiles(&a, &s, join, t);
    }
}

// The host's copy of `nq_sum_joins`.
extern "C" void NQM_HOST(nq_sum_joins_host)(const nq_u64 *joins, const nq_u64 *sums,
                                            nq_u32 n_joins, nq_u64 *out) {
    for (nq_u32 join = 0; join < n_joins; join++) nqm_sum_join(joins, sums, join, out);
}

#endif

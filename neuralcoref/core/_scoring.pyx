# cython: boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Cython kernel of the pair scorer: a pair's whole network in one pass.

Private: :mod:`neuralcoref.core.scoring.scoring` prepares the weights and keeps the numpy
forward pass that the parity tests hold this kernel to. All inputs are ``const``
memoryviews, so read-only (memory-mapped) arrays work.
"""
import numpy as np

cimport numpy as cnp
from libc.stdint cimport int16_t, int32_t, int64_t
from libc.stdlib cimport free, malloc

cnp.import_array()


cdef extern from *:
    """
    #include <string.h>
    #include <stdint.h>
    /* The pair net pair by pair (see pair_net). Its second layer reads only the
       units the ReLU left positive (a fifth to two fifths of them in the shipped
       models), so it costs that share of a dense product. Every second-layer unit
       sums its terms in the order of the first layer's units, from 0, then adds its
       bias; the output sums unit c into lane c % 8, in order, then the 8 lanes in
       order; no product is fused into an add (the build passes -ffp-contract=off).
       So the figures are the same whichever of the two builds below runs: one for
       CPUs with AVX2 (x86-64 with GCC or clang), one for any other. */
    #if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
    #define NC_AVX2 1
    #include <immintrin.h>
    #else
    #define NC_AVX2 0
    #endif
    #if defined(__GNUC__) || defined(__clang__)
    #define NC_VEC 1
    #define NC_INLINE static inline __attribute__((always_inline))
    typedef float nc_v8 __attribute__((vector_size(32)));
    typedef int32_t nc_v8i __attribute__((vector_size(32)));
    /* 8 floats at any float's address, which may alias floats */
    typedef float nc_v8u __attribute__((vector_size(32), aligned(4), may_alias));
    /* An unaligned load of 8 floats (a macro: a vector return value would be a
       different ABI with and without AVX). */
    #define NC_LOAD8(dst, src) memcpy(&(dst), (src), sizeof(nc_v8))
    #else
    #define NC_VEC 0
    #define NC_INLINE static inline
    #endif

    typedef struct {
        const float *a_part, *m_part, *tables, *w2, *b2, *w_out;
        const int64_t *ante, *ana, *edges, *w2_starts, *edges2;
        const int16_t* codes;
        const int32_t *columns, *caps, *strides, *starts;
        Py_ssize_t n_pairs, h, n_codes, k, n_blocks;
        float b_out;
        float* out;
        /* scratch: hidden (h), val and idx (the widest block + 8), acc (the widest second block) */
        float *hidden, *val, *acc;
        int32_t* idx;
    } nc_pair_args;

    /* acc[c] = sum over k of val[k] * W[idx[k] * ld + c], for c in [0, w). */
    NC_INLINE void nc_sparse_rows(float* __restrict__ acc, const float* __restrict__ W,
                                  Py_ssize_t ld, Py_ssize_t w, const int32_t* __restrict__ idx,
                                  const float* __restrict__ val, Py_ssize_t nnz) {
        Py_ssize_t c = 0, k;
    #if NC_VEC
        for (; c + 32 <= w; c += 32) {  /* 32 outputs in 4 vector registers (more spill with GCC 12) */
            nc_v8 a0 = {0}, a1 = {0}, a2 = {0}, a3 = {0};
            for (k = 0; k < nnz; k++) {
                const nc_v8u* row = (const nc_v8u*)(W + idx[k] * ld + c);
                float v = val[k];
                a0 += v * row[0]; a1 += v * row[1]; a2 += v * row[2]; a3 += v * row[3];
            }
            memcpy(acc + c, &a0, 32); memcpy(acc + c + 8, &a1, 32);
            memcpy(acc + c + 16, &a2, 32); memcpy(acc + c + 24, &a3, 32);
        }
        for (; c + 8 <= w; c += 8) {
            nc_v8 a0 = {0};
            for (k = 0; k < nnz; k++) {
                nc_v8 r0;
                NC_LOAD8(r0, W + idx[k] * ld + c);
                a0 += val[k] * r0;
            }
            memcpy(acc + c, &a0, 32);
        }
    #endif
        for (; c < w; c++) {
            float a = 0.0f;
            for (k = 0; k < nnz; k++) a += val[k] * W[idx[k] * ld + c];
            acc[c] = a;
        }
    }

    /* w_out . relu(acc + b2) over w units: lane c % 8 sums unit c, then the lanes in order. */
    NC_INLINE float nc_output(const float* __restrict__ acc, const float* __restrict__ b2,
                              const float* __restrict__ w_out, Py_ssize_t w) {
        float lanes[8] = {0, 0, 0, 0, 0, 0, 0, 0}, s = 0.0f;
        Py_ssize_t c = 0, j;
    #if NC_VEC
        nc_v8 sum = {0};
        for (; c + 8 <= w; c += 8) {
            nc_v8 u, b, o;
            NC_LOAD8(u, acc + c); NC_LOAD8(b, b2 + c); NC_LOAD8(o, w_out + c);
            u = u + b;
            u = (nc_v8)((nc_v8i)u & (u > 0.0f));  /* ReLU: the mask is all ones where u > 0 */
            sum += u * o;
        }
        memcpy(lanes, &sum, sizeof lanes);
    #endif
        for (; c < w; c++) {
            float u = acc[c] + b2[c];
            lanes[c & 7] += (u > 0.0f ? u : 0.0f) * w_out[c];
        }
        for (j = 0; j < 8; j++) s += lanes[j];
        return s;
    }

    /* h[0:w] = a + m + the table rows, added in turn. */
    NC_INLINE void nc_first_sum(float* __restrict__ h, const float* __restrict__ a,
                                const float* __restrict__ m, const float* __restrict__ tables,
                                Py_ssize_t ld, const Py_ssize_t* rows, Py_ssize_t n_rows, Py_ssize_t w) {
        Py_ssize_t i = 0, r;
    #if NC_VEC
        for (; i + 8 <= w; i += 8) {
            nc_v8 x, y;
            NC_LOAD8(x, a + i); NC_LOAD8(y, m + i);
            x += y;
            for (r = 0; r < n_rows; r++) {
                NC_LOAD8(y, tables + rows[r] * ld + i);
                x += y;
            }
            memcpy(h + i, &x, sizeof x);
        }
    #endif
        for (; i < w; i++) {
            float x = a[i] + m[i];
            for (r = 0; r < n_rows; r++) x += tables[rows[r] * ld + i];
            h[i] = x;
        }
    }

    /* The positive units of h[0:w]: their indices and values, in order; returns their count. */
    NC_INLINE Py_ssize_t nc_positive(const float* __restrict__ h, Py_ssize_t w,
                                     int32_t* __restrict__ idx, float* __restrict__ val) {
        Py_ssize_t j, n = 0;
        for (j = 0; j < w; j++) {  /* without branches: a mispredicted branch per unit costs more */
            idx[n] = (int32_t)j;
            val[n] = h[j];
            n += h[j] > 0.0f;
        }
        return n;
    }

    /* The pair-code groups' table rows of pair p. */
    NC_INLINE Py_ssize_t nc_table_rows(const nc_pair_args* x, Py_ssize_t p, Py_ssize_t* rows) {
        Py_ssize_t g = -1, j, value;
        for (j = 0; j < x->k; j++) {
            if (x->starts[j] >= 0) rows[++g] = x->starts[j];
            value = x->codes[p * x->n_codes + x->columns[j]];
            value = value < 0 ? 0 : (value > x->caps[j] ? x->caps[j] : value);
            rows[g] += value * x->strides[j];
        }
        return g + 1;
    }

    #define NC_PAIR_LOOP(POSITIVE)                                                       \\
        Py_ssize_t p, blk, rows[64], first = x->edges[0];                                \\
        for (p = 0; p < x->n_pairs; p++) {                                               \\
            Py_ssize_t n_rows = nc_table_rows(x, p, rows);                               \\
            nc_first_sum(x->hidden, x->a_part + x->ante[p] * x->h + first,               \\
                         x->m_part + x->ana[p] * x->h + first, x->tables + first, x->h,  \\
                         rows, n_rows, x->edges[x->n_blocks] - first);                   \\
            float score = 0.0f;                                                          \\
            for (blk = 0; blk < x->n_blocks; blk++) {                                    \\
                Py_ssize_t lo2 = x->edges2[blk], w2 = x->edges2[blk + 1] - lo2;          \\
                Py_ssize_t nnz = POSITIVE(x->hidden + x->edges[blk] - first,             \\
                                          x->edges[blk + 1] - x->edges[blk], x->idx, x->val); \\
                nc_sparse_rows(x->acc, x->w2 + x->w2_starts[blk], w2, w2, x->idx, x->val, nnz); \\
                score += nc_output(x->acc, x->b2 + lo2, x->w_out + lo2, w2);             \\
            }                                                                            \\
            x->out[p] = score + x->b_out;                                                \\
        }

    static void nc_pair_loop_generic(nc_pair_args* x) { NC_PAIR_LOOP(nc_positive) }

    #if NC_AVX2
    /* For each mask of 8 lanes, the lanes set, packed to the front. */
    static int32_t nc_pack_lut[256][8];
    static void nc_pack_lut_init(void) {
        for (int m = 0; m < 256; m++) {
            int n = 0;
            for (int j = 0; j < 8; j++) if (m & (1 << j)) nc_pack_lut[m][n++] = j;
            while (n < 8) nc_pack_lut[m][n++] = 0;
        }
    }
    /* nc_positive 8 units at a time: a compare, a mask and one permutation
       (writes up to 8 entries past the count: the buffers hold w + 8). */
    __attribute__((target("avx2"))) static inline Py_ssize_t nc_positive_avx2(
            const float* __restrict__ h, Py_ssize_t w, int32_t* __restrict__ idx, float* __restrict__ val) {
        Py_ssize_t j = 0, n = 0;
        const __m256 zero = _mm256_setzero_ps();
        for (; j + 8 <= w; j += 8) {
            __m256 v = _mm256_loadu_ps(h + j);
            int mask = _mm256_movemask_ps(_mm256_cmp_ps(v, zero, _CMP_GT_OQ));
            __m256i perm = _mm256_loadu_si256((const __m256i*)nc_pack_lut[mask]);
            _mm256_storeu_ps(val + n, _mm256_permutevar8x32_ps(v, perm));
            _mm256_storeu_si256((__m256i*)(idx + n), _mm256_add_epi32(perm, _mm256_set1_epi32((int)j)));
            n += __builtin_popcount(mask);
        }
        for (; j < w; j++) {
            idx[n] = (int32_t)j;
            val[n] = h[j];
            n += h[j] > 0.0f;
        }
        return n;
    }
    __attribute__((target("avx2"))) static void nc_pair_loop_avx2(nc_pair_args* x) {
        NC_PAIR_LOOP(nc_positive_avx2)
    }
    #endif

    /* out[r, c] += sum over k of x[r, cols[k]] * W[k, c] for the rows of a tile of
       MT <= NC_TILE rows, W packed in strips of 16 columns (strip s holds
       W[k, 16 s + j] at Wp[(s K + k) 16 + j]), so that a strip is read straight
       through once per tile, its 16 outputs of all the tile's rows in vector
       registers. Each output adds its terms to its value in the order of k, a
       product then an add, in both builds. */
    #define NC_TILE 6
    typedef struct {  /* out (M, N), leading dimension ldo; x (M, .), ldx; cols (K,); W packed */
        float* out;
        const float* x;
        const int64_t* cols;
        const float* W;
        Py_ssize_t ldo, ldx, M, K, N;
    } nc_rows_args;
    NC_INLINE void nc_rows_tile(float* __restrict__ out, const float* __restrict__ x,
                                const nc_rows_args* a, const int MT) {
        const Py_ssize_t ldo = a->ldo, ldx = a->ldx, K = a->K, N = a->N;
        const int64_t* __restrict__ cols = a->cols;
        const float* __restrict__ Wp = a->W;
        Py_ssize_t c, k;
        int r, j;
        for (c = 0; c < N; c += 16) {
            const float* strip = Wp + c * K;
    #if NC_VEC
            nc_v8 a0[NC_TILE], a1[NC_TILE];
            for (r = 0; r < MT; r++) { NC_LOAD8(a0[r], out + r * ldo + c); NC_LOAD8(a1[r], out + r * ldo + c + 8); }
            for (k = 0; k < K; k++) {
                nc_v8 w0, w1;
                NC_LOAD8(w0, strip + k * 16); NC_LOAD8(w1, strip + k * 16 + 8);
                const float* xk = x + cols[k];
                for (r = 0; r < MT; r++) {
                    float v = xk[r * ldx];
                    a0[r] += v * w0; a1[r] += v * w1;
                }
            }
            for (r = 0; r < MT; r++) { memcpy(out + r * ldo + c, &a0[r], 32); memcpy(out + r * ldo + c + 8, &a1[r], 32); }
    #else
            for (r = 0; r < MT; r++)
                for (j = 0; j < 16; j++) {
                    float a = out[r * ldo + c + j];
                    for (k = 0; k < K; k++) a += x[r * ldx + cols[k]] * strip[k * 16 + j];
                    out[r * ldo + c + j] = a;
                }
    #endif
        }
        (void)j;
    }

    #define NC_ROWS_BODY                                                                 \\
        float* out = a->out;                                                             \\
        const float* x = a->x;                                                           \\
        const Py_ssize_t ldo = a->ldo, ldx = a->ldx, M = a->M;                           \\
        Py_ssize_t r0;                                                                   \\
        for (r0 = 0; r0 < M; r0 += NC_TILE) {                                            \\
            float* o = out + r0 * ldo;                                                   \\
            const float* xr = x + r0 * ldx;                                              \\
            switch (M - r0 < NC_TILE ? (int)(M - r0) : NC_TILE) {                        \\
                case 1: nc_rows_tile(o, xr, a, 1); break;                                \\
                case 2: nc_rows_tile(o, xr, a, 2); break;                                \\
                case 3: nc_rows_tile(o, xr, a, 3); break;                                \\
                case 4: nc_rows_tile(o, xr, a, 4); break;                                \\
                case 5: nc_rows_tile(o, xr, a, 5); break;                                \\
                default: nc_rows_tile(o, xr, a, 6); break;                               \\
            }                                                                            \\
        }

    static void nc_rows_generic(const nc_rows_args* a) { NC_ROWS_BODY }
    #if NC_AVX2
    __attribute__((target("avx2"))) static void nc_rows_avx2(const nc_rows_args* a) { NC_ROWS_BODY }
    #endif

    static int nc_use_avx2 = 0, nc_has_avx2 = 0;
    /* At import (the table is then only read); later calls only ask the CPU again. */
    static void nc_init(void) {
    #if NC_AVX2
        static int ready = 0;
        if (!ready) { nc_pack_lut_init(); __builtin_cpu_init(); ready = 1; }
        nc_has_avx2 = __builtin_cpu_supports("avx2");
        nc_use_avx2 = nc_has_avx2;
    #endif
    }
    static void nc_rows(const nc_rows_args* a) {
    #if NC_AVX2
        if (nc_use_avx2) { nc_rows_avx2(a); return; }
    #endif
        nc_rows_generic(a);
    }
    static void nc_pair_loop(nc_pair_args* x) {
    #if NC_AVX2
        if (nc_use_avx2) { nc_pair_loop_avx2(x); return; }
    #endif
        nc_pair_loop_generic(x);
    }
    """
    ctypedef struct nc_pair_args:
        const float* a_part
        const float* m_part
        const float* tables
        const float* w2
        const float* b2
        const float* w_out
        const int64_t* ante
        const int64_t* ana
        const int64_t* edges
        const int64_t* w2_starts
        const int64_t* edges2
        const int16_t* codes
        const int32_t* columns
        const int32_t* caps
        const int32_t* strides
        const int32_t* starts
        Py_ssize_t n_pairs, h, n_codes, k, n_blocks
        float b_out
        float* out
        float* hidden
        float* val
        float* acc
        int32_t* idx
    int nc_use_avx2
    void nc_init()
    void nc_pair_loop(nc_pair_args* x) nogil
    ctypedef struct nc_rows_args:
        float* out
        const float* x
        const int64_t* cols
        const float* W
        Py_ssize_t ldo, ldx, M, K, N
    void nc_rows(const nc_rows_args* a) nogil


nc_init()


def vector_build(on=None):
    """Whether the kernel runs its AVX2 build (True only on CPUs that have AVX2).

    on (bool | None): None: only ask; False: run the generic build from now on;
        True: the AVX2 build again where the CPU has it (for the parity tests).
    RETURNS (bool): whether the AVX2 build runs now.
    """
    global nc_use_avx2
    if on is not None:
        nc_init()
        if not on:
            nc_use_avx2 = 0
    return bool(nc_use_avx2)


cdef class PairNet:
    """The weights of a pair net of two hidden layers as :func:`pair_net` reads
    them, split into blocks (the members of a merged ensemble; one block for a
    single model), block k of the second layer reading block k of the first.
    Bundled and checked once, when a model loads: a call then converts only the
    Doc's arrays.

    tables: the pair codes' first-layer tables (``expand.PairTables``: columns,
        caps, strides, starts int32 (k,), tables float32 (rows, h)).
    edges (int64 (n_blocks + 1,)): the first layer's block boundaries within [0, h].
    second: the later layers (``scoring._PairNet``): ``w2`` (float32), block k
        a C-ordered (edges[k + 1] - edges[k], edges2[k + 1] - edges2[k]) array
        from ``starts[k]``; ``edges`` (int64 (n_blocks + 1,)): the second
        layer's block boundaries (``edges2``); ``b2``, ``w_out`` (float32 (h2,)):
        its bias and the output weights; ``b_out`` (float): the output bias.
    """
    cdef const int32_t[::1] columns, caps, strides, starts
    cdef const float[:, ::1] tables
    cdef const int64_t[::1] edges, w2_starts, edges2
    cdef const float[::1] w2, b2, w_out
    cdef readonly float b_out
    cdef readonly Py_ssize_t n_blocks
    cdef Py_ssize_t n_codes_min  # pair codes need more columns than the largest one read
    cdef tuple _args

    def __init__(self, tables, edges, second):
        self._args = (tables, edges, second)
        self.columns, self.caps, self.strides, self.starts = tables.columns, tables.caps, tables.strides, tables.starts
        self.tables, self.edges = tables.tables, edges
        self.w2, self.w2_starts, self.edges2 = second.w2, second.starts, second.edges
        self.b2, self.w_out, self.b_out = second.b2, second.w_out, second.b_out
        self.n_blocks = self.edges.shape[0] - 1
        self._check()

    def __reduce__(self):
        return PairNet, self._args

    cdef _check(self):
        cdef Py_ssize_t k = self.columns.shape[0], j, n_groups = 0, blk, lo, hi, lo2, hi2
        if self.caps.shape[0] != k or self.strides.shape[0] != k or self.starts.shape[0] != k:
            raise ValueError("one cap, stride and start per pair-code column")
        self.n_codes_min = 0
        for j in range(k):
            n_groups += self.starts[j] >= 0
            self.n_codes_min = max(self.n_codes_min, self.columns[j] + 1)
            if self.columns[j] < 0 or (self.starts[j] >= 0 and (
                    self.starts[j] + <Py_ssize_t>self.caps[j] * self.strides[j] >= self.tables.shape[0])):
                raise ValueError("pair-code tables must lie within the codes and tables")
        if n_groups > 64 or (k and self.starts[0] < 0):
            raise ValueError("pair-code groups must start at the first code and be at most 64")
        if self.n_blocks < 1 or self.edges2.shape[0] != self.n_blocks + 1 \
                or self.w2_starts.shape[0] != self.n_blocks:
            raise ValueError("one second-layer block per first-layer block")
        if self.edges[0] < 0 or self.edges[self.n_blocks] > self.tables.shape[1]:
            raise ValueError("block edges must lie within the layer")
        for blk in range(self.n_blocks):
            lo, hi, lo2, hi2 = self.edges[blk], self.edges[blk + 1], self.edges2[blk], self.edges2[blk + 1]
            if hi < lo or hi2 < lo2 or lo2 < 0 or hi2 > self.b2.shape[0] or hi2 > self.w_out.shape[0] \
                    or self.w2_starts[blk] < 0 or self.w2_starts[blk] + (hi - lo) * (hi2 - lo2) > self.w2.shape[0]:
                raise ValueError("second-layer blocks must lie within their weights")


def pair_net(PairNet net, const float[:, ::1] a_part, const float[:, ::1] m_part,
             const int64_t[::1] ante, const int64_t[::1] ana, const int16_t[:, ::1] codes,
             tuple blocks, bint bias):
    """Scores of pairs through the pair net ``net``, its blocks ``blocks``:
    ``sum_k w_out_k . relu(relu(a_part[ante] + m_part[ana] + x_pair W_pair)_k W2_k + b2_k) + b_out``.

    The pair inputs' part is summed from the tables (the codes of each group
    index one precomputed row). No activations of more than one pair are kept.
    net (PairNet): the weights.
    a_part, m_part (float32 (n, h)): per-mention first-layer parts (m_part holds the bias).
    ante, ana (int64 (n_pairs,)): antecedent and anaphor of each pair.
    codes (int16 (n_pairs, n_codes)): pair codes.
    blocks (Tuple[int, int]): the blocks to score, ``first`` to ``end``
        (exclusive), a contiguous run of the net's blocks.
    bias (bool): add the output bias.
    RETURNS (ndarray): (n_pairs,) float32 scores.
    """
    cdef Py_ssize_t first = blocks[0], end = blocks[1]
    cdef Py_ssize_t n_pairs = ante.shape[0], h = a_part.shape[1], k = net.columns.shape[0], j, blk
    cdef Py_ssize_t width = 0, width2 = 0, n_mentions = a_part.shape[0]
    if not 0 <= first < end <= net.n_blocks:
        raise ValueError("blocks must be a run of the net's blocks")
    if k and codes.shape[1] < net.n_codes_min:
        raise ValueError("pair-code tables must lie within the codes and tables")
    if m_part.shape[1] != h or net.tables.shape[1] != h or m_part.shape[0] != n_mentions \
            or ana.shape[0] != n_pairs or codes.shape[0] != n_pairs:
        raise ValueError("block edges must lie within the layer, one code row per pair")
    for blk in range(first, end):
        width = max(width, net.edges[blk + 1] - net.edges[blk])
        width2 = max(width2, net.edges2[blk + 1] - net.edges2[blk])
    for j in range(n_pairs):
        if not (0 <= ante[j] < n_mentions and 0 <= ana[j] < n_mentions):
            raise ValueError("pair mentions must lie within the parts")
    out_arr = np.empty(n_pairs, dtype=np.float32)
    if n_pairs == 0:
        return out_arr
    cdef float[::1] out = out_arr
    cdef nc_pair_args x
    x.n_pairs, x.h, x.n_codes, x.k, x.n_blocks = n_pairs, h, codes.shape[1], k, end - first
    x.b_out = net.b_out if bias else 0.0
    x.a_part, x.m_part, x.tables = &a_part[0, 0], &m_part[0, 0], &net.tables[0, 0]
    x.w2, x.b2, x.w_out = &net.w2[0], &net.b2[0], &net.w_out[0]
    x.ante, x.ana = &ante[0], &ana[0]
    x.edges, x.w2_starts, x.edges2 = &net.edges[first], &net.w2_starts[first], &net.edges2[first]
    x.codes, x.columns, x.caps, x.strides, x.starts = NULL, NULL, NULL, NULL, NULL
    if k:  # no codes read without groups
        x.codes, x.columns, x.caps = &codes[0, 0], &net.columns[0], &net.caps[0]
        x.strides, x.starts = &net.strides[0], &net.starts[0]
    x.out = &out[0]
    # Scratch of one pair: the first layer, its positive units (8 more: the
    # vector packing writes past the count) and the second layer.
    x.hidden = <float*>malloc((h + width + 8 + width2 + 8) * sizeof(float))
    x.idx = <int32_t*>malloc((width + 8) * sizeof(int32_t))
    if x.hidden == NULL or x.idx == NULL:
        free(x.hidden)
        free(x.idx)
        raise MemoryError()
    x.val = x.hidden + h
    x.acc = x.val + width + 8
    with nogil:
        nc_pair_loop(&x)
    free(x.hidden)
    free(x.idx)
    return out_arr


cdef char* _data(cnp.ndarray a, int typenum, int ndim, bint write, str name) except NULL:
    # The buffer of a C-contiguous array of this kind and rank, taken from the
    # array itself: a typed memoryview's acquisition costs more than a short
    # text's few-rows product's call (the product itself aside).
    if cnp.PyArray_NDIM(a) != ndim or cnp.PyArray_TYPE(a) != typenum or not cnp.PyArray_IS_C_CONTIGUOUS(a):
        raise ValueError(f"{name} must be a C-contiguous {ndim}-d array of {_KINDS[typenum]}")
    if write and not cnp.PyArray_ISWRITEABLE(a):
        raise ValueError(f"{name} must be writeable")
    cdef char* data = <char*>cnp.PyArray_DATA(a)
    return data if data != NULL else <char*>&_NO_DATA


cdef char _NO_DATA = 0
_KINDS = {cnp.NPY_FLOAT32: "float32", cnp.NPY_INT64: "int64"}


def add_rows_product(cnp.ndarray out, cnp.ndarray x, cnp.ndarray cols, cnp.ndarray Wp):
    """``out += x[:, cols] @ W`` for a few rows, ``W`` packed by :func:`pack_strips`:
    each weight is read once per six rows of ``x`` (a BLAS product packs the
    whole of ``W`` at every call, which costs more than the product for a short
    text's mentions). Each output adds its terms to its value in the order of
    ``cols``; the AVX2 and generic builds give the same bits.

    out (float32 (m, 16 s), writeable), x (float32 (m, width)), cols (int64 (k,))
    in [0, width), Wp (float32 (s, k, 16)); all C-contiguous (read-only ones
    but ``out`` too).
    """
    cdef float* o = <float*>_data(out, cnp.NPY_FLOAT32, 2, True, "out")
    cdef const float* xd = <const float*>_data(x, cnp.NPY_FLOAT32, 2, False, "x")
    cdef const int64_t* c = <const int64_t*>_data(cols, cnp.NPY_INT64, 1, False, "cols")
    cdef const float* w = <const float*>_data(Wp, cnp.NPY_FLOAT32, 3, False, "Wp")
    cdef Py_ssize_t m = out.shape[0], n = out.shape[1], k = cols.shape[0], width = x.shape[1], j
    if x.shape[0] != m or Wp.shape[1] != k or Wp.shape[2] != 16 or Wp.shape[0] * 16 != n:
        raise ValueError("out (m, 16 s), x (m, width) and Wp (s, len(cols), 16) must agree")
    for j in range(k):
        if not 0 <= c[j] < width:
            raise ValueError("cols must lie within the columns of x")
    if m == 0 or n == 0 or k == 0:
        return
    cdef nc_rows_args a
    a.out, a.x, a.cols, a.W = o, xd, c, w
    a.ldo, a.ldx, a.M, a.K, a.N = n, width, m, k, n
    with nogil:
        nc_rows(&a)


def pack_strips(W):
    """``W`` (k, n) as :func:`add_rows_product` reads it: (ceil(n / 16), k, 16)
    float32, strips of 16 columns, the last padded with zeros."""
    W = np.asarray(W, dtype=np.float32)
    k, n = W.shape
    s = -(-n // 16)
    padded = np.zeros((k, s * 16), dtype=np.float32)
    padded[:, :n] = W
    return np.ascontiguousarray(padded.reshape(k, s, 16).transpose(1, 0, 2))

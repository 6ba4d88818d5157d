# cython: boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Cython kernels of the runtime: span hashing, candidate antecedents, pair codes,
the pair scorer's first layer and decoding.

Private: use :mod:`neuralcoref.core.features.contract` and :mod:`neuralcoref.core.features.pairs`, which own
the feature layout, validate inputs and keep pure-numpy references of these
kernels for the parity tests. All inputs are ``const`` memoryviews, so read-only
(memory-mapped) arrays work.
"""
import numpy as np

cimport numpy as cnp
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint32_t, uint64_t

cnp.import_array()

cdef uint64_t HASH_SEED = 14695981039346656037ULL
cdef uint64_t HASH_MULT = 1099511628211ULL


cdef inline uint64_t _mix(uint64_t h, uint64_t w) noexcept nogil:
    return (h ^ w) * HASH_MULT


def bin_values(const int64_t[::1] values, const int64_t[::1] lower_bounds):
    """Index of the bin each value falls in, given the bins' sorted lower bounds.

    RETURNS (ndarray): (n,) int8 bin indices (values below the first bound go to 0).
    """
    cdef Py_ssize_t n = values.shape[0], n_bins = lower_bounds.shape[0]
    out_arr = np.zeros(n, dtype=np.int8)
    cdef int8_t[::1] out = out_arr
    cdef Py_ssize_t i, b
    with nogil:
        for i in range(n):
            b = n_bins - 1
            while b > 0 and values[i] < lower_bounds[b]:
                b -= 1
            out[i] = <int8_t>b
    return out_arr


def hash_spans(const uint64_t[::1] words, const uint8_t[::1] keep,
               const int32_t[::1] starts, const int32_t[::1] ends):
    """Order-sensitive hash of the kept words of each span; 0 when none is kept.

    words (uint64 (n_tokens,)): word hashes (e.g. spaCy's LOWER).
    keep (uint8 (n_tokens,)): 1 for the tokens that take part in the hash.
    RETURNS (ndarray): (n_spans,) uint64.
    """
    cdef Py_ssize_t n = starts.shape[0], i, t
    cdef uint64_t h
    cdef bint any_kept
    out_arr = np.zeros(n, dtype=np.uint64)
    cdef uint64_t[::1] out = out_arr
    with nogil:
        for i in range(n):
            h = HASH_SEED
            any_kept = False
            for t in range(starts[i], ends[i]):
                if keep[t]:
                    h = _mix(h, words[t])
                    any_kept = True
            out[i] = h if any_kept else 0
    return out_arr


def candidate_antecedents(const int8_t[::1] is_pronoun, const uint64_t[::1] head_hash,
                          int max_dist, int max_dist_match, int max_dist_nominal):
    """Candidate antecedents of each mention, in compressed-row form.

    Mention m's candidates are the previous ``max_dist`` mentions if m is a
    pronoun, else the previous ``max_dist_nominal`` ones, then, back to
    ``max_dist_match`` mentions, the non-pronominal ones with m's head word (only
    when m itself is not a pronoun).
    RETURNS (Tuple[ndarray, ndarray]): ``ptr`` (n + 1,) int64 and ``ante``
        (n_pairs,) int32; m's candidates are ``ante[ptr[m]:ptr[m + 1]]``, nearest
        first.
    """
    cdef Py_ssize_t n = is_pronoun.shape[0], m, a, near, lo_near, lo_far, count = 0
    ptr_arr = np.zeros(n + 1, dtype=np.int64)
    cdef int64_t[::1] ptr = ptr_arr
    # First pass counts, second fills: no Python object per pair.
    with nogil:
        for m in range(n):
            near = max_dist if is_pronoun[m] else max_dist_nominal
            lo_near = m - near if m > near else 0
            count += m - lo_near
            if not is_pronoun[m] and head_hash[m] != 0:
                lo_far = m - max_dist_match if m > max_dist_match else 0
                for a in range(lo_far, lo_near):
                    if not is_pronoun[a] and head_hash[a] == head_hash[m]:
                        count += 1
            ptr[m + 1] = count
    ante_arr = np.empty(count, dtype=np.int32)
    cdef int32_t[::1] ante = ante_arr
    cdef Py_ssize_t k
    with nogil:
        for m in range(n):
            k = ptr[m]
            near = max_dist if is_pronoun[m] else max_dist_nominal
            lo_near = m - near if m > near else 0
            a = m - 1
            while a >= lo_near:
                ante[k] = <int32_t>a
                k += 1
                a -= 1
            if not is_pronoun[m] and head_hash[m] != 0:
                lo_far = m - max_dist_match if m > max_dist_match else 0
                a = lo_near - 1
                while a >= lo_far:
                    if not is_pronoun[a] and head_hash[a] == head_hash[m]:
                        ante[k] = <int32_t>a
                        k += 1
                    a -= 1
    return ptr_arr, ante_arr


cdef inline int16_t _agreement(int32_t x, int32_t y) noexcept nogil:
    # 0: unknown on either side, 1: same value, 2: different values
    if x == 0 or y == 0:
        return 0
    return 1 if x == y else 2


cdef inline int16_t _speaker_relation(int32_t spk_a, int32_t spk_m, int32_t per_a,
                                     int32_t per_m) noexcept nogil:
    # First/second-person pronouns with known speakers: 1 same speaker and person,
    # 2 same speaker, other person, 3 other speaker, same person, 4 other speaker
    # and person; 0 otherwise. ("I" is the speaker, "you" the addressee.)
    if spk_a < 0 or spk_m < 0 or per_a < 1 or per_a > 2 or per_m < 1 or per_m > 2:
        return 0
    if spk_a == spk_m:
        return 1 if per_a == per_m else 2
    return 3 if per_a == per_m else 4


def pair_codes(const int32_t[:, ::1] codes, const uint64_t[:, ::1] hashes,
               const int64_t[::1] ptr, const int32_t[::1] ante,
               const int32_t[::1] code_cols, const int32_t[::1] hash_cols,
               int n_types):
    """Compact pair codes for every (antecedent, anaphor) candidate pair.

    codes (int32 (n_mentions, n_mention_codes)): mention codes.
    hashes (uint64 (n_mentions, n_hashes)): mention hashes.
    ptr, ante: candidate antecedents from :func:`candidate_antecedents`.
    code_cols (int32 (11,)): columns of codes: start, end, sent, speaker, type,
        number, gender, person, index, entity, animacy.
    hash_cols (int32 (4,)): columns of hashes: head, exact, relaxed, speaker name.
    RETURNS (ndarray): (n_pairs, 16) int16 with, in order: sentence distance,
        mention distance, same speaker, antecedent is anaphor's speaker, anaphor
        is antecedent's speaker, head match, exact match, relaxed match, overlap,
        number, gender and person agreement, type pair, speaker relation, entity
        class and animacy agreement.
    """
    cdef Py_ssize_t n = ptr.shape[0] - 1, n_pairs = ante.shape[0], m, k, a
    out_arr = np.zeros((n_pairs, 16), dtype=np.int16)
    cdef int16_t[:, ::1] out = out_arr
    cdef int32_t c_start = code_cols[0], c_end = code_cols[1], c_sent = code_cols[2]
    cdef int32_t c_spk = code_cols[3], c_type = code_cols[4], c_num = code_cols[5]
    cdef int32_t c_gen = code_cols[6], c_per = code_cols[7], c_idx = code_cols[8]
    cdef int32_t c_ent = code_cols[9], c_anim = code_cols[10]
    cdef int32_t h_head = hash_cols[0], h_exact = hash_cols[1]
    cdef int32_t h_relax = hash_cols[2], h_spk = hash_cols[3]
    cdef int32_t dist
    with nogil:
        for m in range(n):
            for k in range(ptr[m], ptr[m + 1]):
                a = ante[k]
                dist = codes[m, c_sent] - codes[a, c_sent]
                out[k, 0] = <int16_t>(dist if dist < 32767 else 32767)
                dist = codes[m, c_idx] - codes[a, c_idx]
                out[k, 1] = <int16_t>(dist if dist < 32767 else 32767)
                out[k, 2] = codes[m, c_spk] >= 0 and codes[m, c_spk] == codes[a, c_spk]
                out[k, 3] = hashes[a, h_exact] != 0 and hashes[a, h_exact] == hashes[m, h_spk]
                out[k, 4] = hashes[m, h_exact] != 0 and hashes[m, h_exact] == hashes[a, h_spk]
                out[k, 5] = hashes[a, h_head] != 0 and hashes[a, h_head] == hashes[m, h_head]
                out[k, 6] = hashes[a, h_exact] != 0 and hashes[a, h_exact] == hashes[m, h_exact]
                out[k, 7] = hashes[a, h_relax] != 0 and hashes[a, h_relax] == hashes[m, h_relax]
                out[k, 8] = (codes[a, c_start] < codes[m, c_end]
                             and codes[m, c_start] < codes[a, c_end])
                out[k, 9] = _agreement(codes[a, c_num], codes[m, c_num])
                out[k, 10] = _agreement(codes[a, c_gen], codes[m, c_gen])
                out[k, 11] = _agreement(codes[a, c_per], codes[m, c_per])
                out[k, 12] = <int16_t>(codes[a, c_type] * n_types + codes[m, c_type])
                out[k, 13] = _speaker_relation(codes[a, c_spk], codes[m, c_spk],
                                               codes[a, c_per], codes[m, c_per])
                out[k, 14] = _agreement(codes[a, c_ent], codes[m, c_ent])
                out[k, 15] = _agreement(codes[a, c_anim], codes[m, c_anim])
    return out_arr


cdef extern from *:
    """
    /* Loops over rows of the hidden layer, written so that the compiler vectorises
       them (restrict: the rows never overlap). */
    static inline void nc_add2(float* __restrict__ y, const float* __restrict__ a,
                               const float* __restrict__ b, Py_ssize_t n) {
        for (Py_ssize_t i = 0; i < n; i++) y[i] = a[i] + b[i];
    }
    static inline void nc_add(float* __restrict__ y, const float* __restrict__ x, Py_ssize_t n) {
        for (Py_ssize_t i = 0; i < n; i++) y[i] += x[i];
    }
    static inline void nc_relu(float* y, Py_ssize_t n) {
        for (Py_ssize_t i = 0; i < n; i++) y[i] = y[i] > 0.0f ? y[i] : 0.0f;
    }
    """
    void nc_add2(float* y, const float* a, const float* b, Py_ssize_t n) nogil
    void nc_add(float* y, const float* x, Py_ssize_t n) nogil
    void nc_relu(float* y, Py_ssize_t n) nogil


def pair_first_layer(const float[:, ::1] a_part, const float[:, ::1] m_part,
                     const int64_t[::1] ante, const int64_t[::1] ana,
                     const int16_t[:, ::1] codes, pair_tables, const int64_t[::1] edges):
    """The pair scorer's first layer, fused: relu(a_part[ante] + m_part[ana] + x_pair W).

    The pair inputs' part comes from ``features.PairTables``: the codes of each
    group index one precomputed row (the sum of their weight rows), so a pair
    costs a few row additions. No dense pair matrix and no gathered copies are made.
    a_part, m_part (float32 (n, h)): per-mention parts (m_part holds the bias).
    ante, ana (int64 (n_pairs,)): antecedent and anaphor of each pair.
    codes (int16 (n_pairs, n_codes)): pair codes.
    pair_tables (PairTables): columns, caps, strides, starts (int32 (k,)) and
        tables (float32 (rows, h)).
    edges (int64 (n_blocks + 1,)): unit boundaries of the blocks to compute, a
        contiguous run of the layer's blocks within [0, h].
    RETURNS (ndarray): (n_pairs * (edges[-1] - edges[0]),) float32 activations,
        block by block: block b is an (n_pairs, edges[b + 1] - edges[b])
        C-ordered array starting at n_pairs * (edges[b] - edges[0]), so that the
        next layer reads each block contiguously.
    """
    cdef const int32_t[::1] columns = pair_tables.columns
    cdef const int32_t[::1] caps = pair_tables.caps
    cdef const int32_t[::1] strides = pair_tables.strides
    cdef const int32_t[::1] starts = pair_tables.starts
    cdef const float[:, ::1] tables = pair_tables.tables
    cdef Py_ssize_t n_pairs = ante.shape[0], h = a_part.shape[1], k = columns.shape[0]
    cdef Py_ssize_t n_blocks = edges.shape[0] - 1, p, j, g, n_groups = 0, value, blk, lo, width
    cdef Py_ssize_t rows[64]  # table rows of a pair's groups (PairTables makes a handful)
    for j in range(k):
        n_groups += starts[j] >= 0
    if n_groups > 64 or (k and starts[0] < 0):
        raise ValueError("pair-code groups must start at the first code and be at most 64")
    if n_blocks < 1 or edges[0] < 0 or edges[n_blocks] > h:
        raise ValueError("block edges must lie within the layer")
    out_arr = np.empty(n_pairs * (edges[n_blocks] - edges[0]), dtype=np.float32)
    cdef float[::1] out = out_arr
    cdef float* row
    with nogil:
        for p in range(n_pairs):
            g = -1
            for j in range(k):
                if starts[j] >= 0:
                    g += 1
                    rows[g] = starts[j]
                value = codes[p, columns[j]]
                if value < 0:
                    value = 0
                elif value > caps[j]:
                    value = caps[j]
                rows[g] += value * strides[j]
            for blk in range(n_blocks):
                lo, width = edges[blk], edges[blk + 1] - edges[blk]
                row = &out[n_pairs * (lo - edges[0]) + p * width]
                nc_add2(row, &a_part[ante[p], lo], &m_part[ana[p], lo], width)
                for j in range(g + 1):
                    nc_add(row, &tables[rows[j], lo], width)
                nc_relu(row, width)
    return out_arr


def top_candidates(const float[::1] scores, const int64_t[::1] ptr, Py_ssize_t k):
    """The k best-scoring candidates of each anaphor (all of them when it has k
    or fewer); of equal scores the earlier candidates are kept.

    scores (float32 (n_pairs,)): candidate scores; ptr (int64 (n + 1,)): CSR
        offsets of each anaphor's candidates.
    RETURNS (ndarray): int64 positions of the kept candidates, in increasing
        order (so the CSR order of every anaphor's candidates is kept).
    """
    if k < 1:
        raise ValueError("k must be at least 1")
    cdef Py_ssize_t n = ptr.shape[0] - 1, i, p, lo, hi, j, n_best, n_out = 0, n_above
    cdef float threshold
    out_arr = np.empty(scores.shape[0], dtype=np.int64)
    best_arr = np.empty(k, dtype=np.float32)
    cdef int64_t[::1] out = out_arr
    cdef float[::1] best = best_arr  # the k best scores so far, in decreasing order
    with nogil:
        for i in range(n):
            lo, hi = ptr[i], ptr[i + 1]
            if hi - lo <= k:
                for p in range(lo, hi):
                    out[n_out] = p
                    n_out += 1
                continue
            n_best = 0
            for p in range(lo, hi):  # insertion into the sorted top k
                if n_best == k and scores[p] <= best[k - 1]:
                    continue
                j = n_best if n_best < k else k - 1
                while j > 0 and best[j - 1] < scores[p]:
                    best[j] = best[j - 1]
                    j -= 1
                best[j] = scores[p]
                if n_best < k:
                    n_best += 1
            threshold = best[k - 1]
            n_above = 0
            for j in range(k):
                n_above += best[j] > threshold
            for p in range(lo, hi):  # all above the k-th score, then the earliest ties
                if scores[p] > threshold:
                    out[n_out] = p
                    n_out += 1
                elif scores[p] == threshold and n_above < k:
                    out[n_out] = p
                    n_out += 1
                    n_above += 1
    return out_arr[:n_out].copy()


cdef inline uint32_t _meet(uint32_t a, uint32_t b) noexcept nogil:
    # The values two allowed sets both allow; 0 allows any.
    return a & b if a and b else a | b


cdef inline Py_ssize_t _root(int64_t[::1] parent, Py_ssize_t i) noexcept nogil:
    while parent[i] != i:
        parent[i] = parent[parent[i]]
        i = parent[i]
    return i


cdef inline bint _agrees(uint32_t[:, ::1] masks, Py_ssize_t r, uint32_t own_g,
                         uint32_t own_n) noexcept nogil:
    # Whether the cluster rooted at r still allows one of the mention's genders
    # and one of its numbers (0 allows any).
    return not ((own_g and masks[r, 0] and not (masks[r, 0] & own_g)) or
                (own_n and masks[r, 1] and not (masks[r, 1] & own_n)))


cdef inline bint _forbidden(int64_t[::1] parent, const int64_t[::1] forbid_ptr,
                            const int32_t[::1] forbid, Py_ssize_t m, Py_ssize_t r) noexcept nogil:
    # Whether mention m has a binding partner in the cluster rooted at r.
    cdef Py_ssize_t j
    for j in range(forbid_ptr[m], forbid_ptr[m + 1]):
        if _root(parent, forbid[j]) == r:
            return True
    return False


def consistent_antecedents(scores, double offset, const uint32_t[::1] gender,
                           const uint32_t[::1] number, const uint64_t[::1] names, binding):
    """Each mention's antecedent, decided left to right with the clusters so far.

    A mention takes its best-scoring candidate (the first of equal ones) among
    those whose cluster still allows one of the mention's genders and numbers,
    holds no mention it is forbidden to join and, when both have names, shares a
    name word with it; it links to it if that score beats its single score by
    more than ``offset``. A mention with a binder links to it whatever the
    scores, when the binder's cluster allows it (agreement and binding). The
    cluster then allows only the genders and numbers both allowed, and holds the
    mention's name words.
    scores (DocScores): ``single`` (float32 (n,)) and ``pair`` (float32
        (n_pairs,)) scores of the candidates ``ptr`` (int64 (n + 1,)) and
        ``ante`` (int32 (n_pairs,)) (CSR).
    gender, number (uint32 (n,)): bit sets of the values each mention allows
        (bit c for class code c: one bit for "he", two for a person noun), 0 for any.
    names (uint64 (n,)): bit sets of the mention's name words, 0 for none.
    binding (Binding): ``forbid_ptr`` (int64 (n + 1,)) and ``forbid`` (int32
        (n_forbidden,)): the earlier mentions each mention never shares a
        cluster with (CSR); ``binder`` (int32 (n,)): an earlier mention to link
        to, or -1; ``fallback`` (bool): whether a mention whose best candidate
        is forbidden takes its best allowed one; False: it stays unlinked
        (binding only vetoes).
    RETURNS (ndarray): (n,) int32 antecedent index or -1.
    """
    cdef const float[::1] single = scores.single
    cdef const float[::1] pair = scores.pair
    cdef const int64_t[::1] ptr = scores.ptr
    cdef const int32_t[::1] ante = scores.ante
    cdef const int64_t[::1] forbid_ptr = binding.forbid_ptr
    cdef const int32_t[::1] forbid = binding.forbid
    cdef const int32_t[::1] binder = binding.binder
    cdef bint fallback = binding.fallback
    cdef Py_ssize_t n = single.shape[0], m, k, best, r
    links_arr = np.full(n, -1, dtype=np.int32)
    parent_arr = np.arange(n, dtype=np.int64)
    masks_arr = np.zeros((n, 2), dtype=np.uint32)  # bits of the genders and numbers present
    words_arr = np.array(names, dtype=np.uint64)  # name words present, per cluster root
    cdef int32_t[::1] links = links_arr
    cdef int64_t[::1] parent = parent_arr
    cdef uint32_t[:, ::1] masks = masks_arr
    cdef uint64_t[::1] words = words_arr
    cdef uint32_t own_g, own_n
    cdef uint64_t own_w
    cdef float best_score
    cdef bint bound, vetoed
    cdef float vetoed_score
    with nogil:
        for m in range(n):
            masks[m, 0] = gender[m]
            masks[m, 1] = number[m]
        for m in range(n):
            own_g, own_n, own_w = masks[m, 0], masks[m, 1], words[m]
            best, best_score, bound, vetoed, vetoed_score = -1, 0.0, False, False, 0.0
            if 0 <= binder[m] < m:
                r = _root(parent, binder[m])
                bound = _agrees(masks, r, own_g, own_n) and \
                    not _forbidden(parent, forbid_ptr, forbid, m, r)
            if bound:
                links[m] = binder[m]
            else:
                for k in range(ptr[m], ptr[m + 1]):
                    if best >= 0 and pair[k] <= best_score:
                        continue
                    r = _root(parent, ante[k])
                    if not _agrees(masks, r, own_g, own_n):
                        continue
                    if own_w and words[r] and not (own_w & words[r]):
                        continue
                    if _forbidden(parent, forbid_ptr, forbid, m, r):
                        # The best forbidden candidate, to tell whether the
                        # best one overall is forbidden.
                        if not vetoed or pair[k] > vetoed_score:
                            vetoed, vetoed_score = True, pair[k]
                        continue
                    best, best_score = k, pair[k]
                if best >= 0 and best_score - single[m] > offset and (
                        fallback or not vetoed or best_score > vetoed_score):
                    links[m] = ante[best]
            if links[m] >= 0:
                r = _root(parent, links[m])
                k = _root(parent, m)
                if k != r:
                    parent[k] = r
                    masks[r, 0] = _meet(masks[r, 0], masks[k, 0])
                    masks[r, 1] = _meet(masks[r, 1], masks[k, 1])
                    words[r] |= words[k]
    return links_arr


def one_hot_codes(const int32_t[:, :] codes, const int64_t[::1] columns, const int64_t[::1] offsets,
                  const int64_t[::1] bound_ptr, const int64_t[::1] bounds, float[:, ::1] out):
    """Set the one-hot columns of code blocks in ``out``, in place: for block b,
    ``out[i, offsets[b] + v] = 1`` where v is ``codes[i, columns[b]]``, or its
    bin (as :func:`bin_values`) by the lower bounds ``bounds[bound_ptr[b]:bound_ptr[b + 1]]``
    when that range is not empty. A column outside ``out`` wraps or raises as
    numpy's fancy indexing does (the reference: ``expand._one_hot``).
    """
    cdef Py_ssize_t n = codes.shape[0], n_blocks = columns.shape[0], width = out.shape[1]
    cdef Py_ssize_t i, b, lo, hi, k, col
    cdef int64_t value
    for b in range(n_blocks):
        lo, hi = bound_ptr[b], bound_ptr[b + 1]
        for i in range(n):
            value = codes[i, columns[b]]
            if hi > lo:
                k = hi - 1
                while k > lo and value < bounds[k]:
                    k -= 1
                value = k - lo
            col = offsets[b] + value
            if col < 0:
                col += width
            if col < 0 or col >= width:
                raise IndexError(f"index {offsets[b] + value} is out of bounds for axis 1 with size {width}")
            out[i, col] = 1.0


cdef inline Py_ssize_t _in_sentence(Py_ssize_t p, Py_ssize_t ref, Py_ssize_t n_tok,
                                    const int32_t[:] sent_ids) noexcept nogil:
    # p if it is a token of ref's sentence, else n_tok (the padding slot).
    if 0 <= p < n_tok and sent_ids[p] == sent_ids[ref]:
        return p
    return n_tok


def word_slots(const uint64_t[:] lower, const int32_t[:] token_heads, const int32_t[:] sent_ids,
               const int32_t[:] starts, const int32_t[:] ends, const int32_t[:] heads):
    """LOWER hashes of the WORD_SLOTS of each mention (head, first, last, two words
    before and after within its sentence, the head's head), 0 where a slot falls
    outside the sentence. The reference: ``featurize._word_slots_numpy``.

    RETURNS (ndarray): (n, 8) uint64.
    """
    cdef Py_ssize_t n = starts.shape[0], n_tok = lower.shape[0], i, j, p
    out_arr = np.zeros((n, 8), dtype=np.uint64)
    cdef uint64_t[:, ::1] out = out_arr
    cdef Py_ssize_t slots[8]
    for i in range(n):
        slots[0] = heads[i]
        slots[1] = starts[i]
        slots[2] = ends[i] - 1
        slots[3] = _in_sentence(starts[i] - 1, starts[i], n_tok, sent_ids)
        slots[4] = _in_sentence(starts[i] - 2, starts[i], n_tok, sent_ids)
        slots[5] = _in_sentence(ends[i], ends[i] - 1, n_tok, sent_ids)
        slots[6] = _in_sentence(ends[i] + 1, ends[i] - 1, n_tok, sent_ids)
        slots[7] = token_heads[heads[i]]
        for j in range(8):
            p = slots[j]
            if p < 0 or p > n_tok:
                raise IndexError(f"word slot {p} outside a Doc of {n_tok} tokens")
            out[i, j] = lower[p] if p < n_tok else 0
    return out_arr


def span_vectors(const float[:, ::1] tensor, const int64_t[::1] sent_bounds, const int32_t[:] sent_ids,
                 tuple mentions, tuple windows, tuple document_prior, Py_ssize_t context):
    """Mean token vectors of each mention's SPAN_VECTORS windows (mention, five
    tokens before and after within its sentence, sentence, document, head), from
    float64 running sums, in the order and with the operations of
    ``featurize._span_vectors_numpy`` (so the floats are the same bits).

    sent_bounds: (n_sents + 1,) first token of each sentence, then n_tok.
    mentions: (starts, ends, heads), int32 (n,) each.
    windows: (doc_lo, doc_hi), int64: each mention's document window; empty: the whole Doc.
    document_prior: (prior, weight): the document prior's mean (float64 (dim,)),
        counted as ``weight`` more tokens of the document window; empty prior: none.
    RETURNS (ndarray): (n, 6 * dim) float32.
    """
    cdef const int32_t[:] starts = mentions[0]
    cdef const int32_t[:] ends = mentions[1]
    cdef const int32_t[:] heads = mentions[2]
    cdef const int64_t[:] doc_lo = windows[0]
    cdef const int64_t[:] doc_hi = windows[1]
    cdef const double[::1] prior = document_prior[0]
    cdef double weight = document_prior[1]
    cdef Py_ssize_t n = starts.shape[0], n_tok = tensor.shape[0], dim = tensor.shape[1]
    cdef Py_ssize_t n_sents = sent_bounds.shape[0] - 1, i, d, s, w
    cdef bint whole = doc_lo.shape[0] != n or doc_hi.shape[0] != n
    cdef bint with_prior = prior.shape[0] > 0
    cdef Py_ssize_t lo[5]
    cdef Py_ssize_t hi[5]
    cdef double width, keep
    if with_prior and prior.shape[0] != dim:
        raise ValueError(f"a document prior of width {prior.shape[0]} for vectors of width {dim}")
    sums_arr = np.zeros((n_tok + 1, dim), dtype=np.float64)
    cdef double[:, ::1] sums = sums_arr
    out_arr = np.zeros((n, 6 * dim), dtype=np.float32)
    cdef float[:, ::1] out = out_arr
    with nogil:
        for i in range(n_tok):
            for d in range(dim):
                sums[i + 1, d] = sums[i, d] + <double>tensor[i, d]
    for i in range(n):
        if not (0 <= starts[i] <= ends[i] <= n_tok and 0 <= heads[i] < n_tok):
            raise IndexError(f"mention {i} ({starts[i]}, {ends[i]}, head {heads[i]}) outside a Doc of {n_tok} tokens")
        s = sent_ids[heads[i]]
        if not 0 <= s < n_sents:
            raise IndexError(f"sentence {s} of mention {i} outside {n_sents} sentences")
        lo[0], hi[0] = starts[i], ends[i]
        lo[1], hi[1] = max(starts[i] - context, sent_bounds[s]), starts[i]
        lo[2], hi[2] = ends[i], min(ends[i] + context, sent_bounds[s + 1])
        lo[3], hi[3] = sent_bounds[s], sent_bounds[s + 1]
        if whole:
            lo[4], hi[4] = 0, n_tok
        else:
            lo[4], hi[4] = doc_lo[i], doc_hi[i]
        for w in range(5):
            if not (0 <= lo[w] <= n_tok and 0 <= hi[w] <= n_tok):
                raise IndexError(f"window ({lo[w]}, {hi[w]}) outside a Doc of {n_tok} tokens")
        with nogil:
            for w in range(5):
                if w == 4 and with_prior:
                    width = <double>(hi[w] - lo[w]) + weight
                    for d in range(dim):
                        out[i, w * dim + d] = <float>(((sums[hi[w], d] - sums[lo[w], d]) + weight * prior[d]) / width)
                else:
                    width = <double>max(hi[w] - lo[w], 1)
                    keep = 1.0 if hi[w] > lo[w] else 0.0
                    for d in range(dim):
                        out[i, w * dim + d] = <float>(((sums[hi[w], d] - sums[lo[w], d]) / width) * keep)
            for d in range(dim):
                out[i, 5 * dim + d] = tensor[heads[i], d]
    return out_arr


def value_counts(const uint64_t[::1] values):
    """For each value, how many other entries hold it and how many earlier ones
    do (0 never matches): comparisons of all pairs, for a short Doc's few
    mentions. The references: ``featurize._same_value_counts`` and
    ``featurize._earlier_value_counts``.

    RETURNS (Tuple[ndarray, ndarray]): (n,) int32 each.
    """
    cdef Py_ssize_t n = values.shape[0], i, j
    same_arr = np.zeros(n, dtype=np.int32)
    earlier_arr = np.zeros(n, dtype=np.int32)
    cdef int32_t[::1] same = same_arr
    cdef int32_t[::1] earlier = earlier_arr
    with nogil:
        for i in range(n):
            if values[i] == 0:
                continue
            for j in range(n):
                if j != i and values[j] == values[i]:
                    same[i] += 1
                    if j < i:
                        earlier[i] += 1
    return same_arr, earlier_arr


def nesting(const int32_t[::1] starts, const int32_t[::1] ends):
    """Flags of mentions sorted by (start, end) without duplicates: inside
    another mention, and containing another one. The reference:
    ``featurize._nesting_numpy``.

    RETURNS (Tuple[ndarray, ndarray]): (nested, contains), (n,) int32 each.
    """
    cdef Py_ssize_t n = starts.shape[0], i
    nested_arr = np.zeros(n, dtype=np.int32)
    contains_arr = np.zeros(n, dtype=np.int32)
    cdef int32_t[::1] nested = nested_arr
    cdef int32_t[::1] contains = contains_arr
    cdef int64_t reach = -1, low = 2147483647
    with nogil:
        for i in range(n):  # the furthest end of the mentions before i
            nested[i] = reach >= ends[i] or (i + 1 < n and starts[i + 1] == starts[i])
            reach = max(reach, <int64_t>ends[i])
        for i in range(n - 1, -1, -1):  # the nearest end of the mentions after i
            contains[i] = low <= ends[i] or (i > 0 and starts[i - 1] == starts[i])
            low = min(low, <int64_t>ends[i])
    return nested_arr, contains_arr

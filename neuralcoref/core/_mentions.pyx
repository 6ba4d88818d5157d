# cython: boundscheck=False, wraparound=False, cdivision=True
"""Cython kernels of mention extraction, over arrays from ``doc.to_array``.

Private: use :mod:`neuralcoref.core.mentions.mentions`, which validates inputs, documents the
bit masks and keeps a pure-numpy reference of each kernel for the parity tests.
"""
import numpy as np

cimport numpy as cnp
from libc.stdint cimport int8_t, int32_t, int64_t, uint32_t, uint64_t

cnp.import_array()

# Token-class bits: keep equal to the constants of the same names in mentions.py.
cdef enum:
    TAG_PRONOUN = 1 << 0
    TAG_POSSESSIVE = 1 << 1
    TAG_NON_REFERENTIAL = 1 << 2
    TAG_PUNCT = 1 << 3
    TAG_OPEN = 1 << 4
    TAG_CLOSE = 1 << 5
    POS_NOUN = 1 << 0
    POS_PROPER = 1 << 1
    POS_PRONOUN = 1 << 2
    POS_NUMBER = 1 << 3
    POS_MODIFIER = 1 << 4
    POS_VERB = 1 << 5
    DEP_ARGUMENT = 1 << 0
    DEP_NUMBER_HEAD = 1 << 1
    DEP_DETERMINER = 1 << 2
    DEP_PREPOSITION = 1 << 3
    DEP_CONJ = 1 << 4
    DEP_NO_LIST = 1 << 5
    DEP_CASE = 1 << 6
    DEP_PUNCT = 1 << 7
    DEP_TRIM = 1 << 8
    DEP_RIGHT_CUT = 1 << 9
    DEP_LEFT_CUT = 1 << 10
    DEP_ZERO_SUBJECT = 1 << 11
    DEP_SUBJECT = 1 << 12
    DEP_LEFT_DROP = 1 << 13
    WORD_PRONOUN = 1 << 0
    WORD_PARTITIVE = 1 << 1
    ENT_REFERENTIAL = 1 << 0

# Mention types: indices into mentions.MENTION_TYPES.
cdef enum:
    PRONOMINAL = 0
    NOMINAL = 1
    PROPER = 2
    LIST = 3

# ENT_IOB codes of spaCy's to_array: 3 = B, 1 = I.
cdef enum:
    IOB_IN = 1
    IOB_BEGIN = 3


def subtree_bounds(const cnp.int32_t[::1] heads):
    """Leftmost and rightmost token of each token's dependency subtree.

    heads (int32 array (n_tokens,)): absolute index of each token's head; a root
        is its own head.
    RETURNS (Tuple[ndarray, ndarray]): (left, right), each (n_tokens,) int32,
        right inclusive.
    """
    cdef Py_ssize_t n = heads.shape[0]
    left_arr = np.arange(n, dtype=np.int32)
    right_arr = np.arange(n, dtype=np.int32)
    cdef cnp.int32_t[::1] left = left_arr
    cdef cnp.int32_t[::1] right = right_arr
    cdef Py_ssize_t i, h, steps, k, n_seen = 0, n_queued = 0
    for i in range(n):
        if heads[i] < 0 or heads[i] >= n:
            raise ValueError("heads must be token indices in [0, n_tokens)")
    # Children in CSR form, then a breadth-first order from the roots: bounds are
    # folded from children into heads in reverse order, O(n) however deep the
    # tree ("very very ... good" chains a parser's tokens thousands deep).
    first_arr = np.zeros(n + 1, dtype=np.int64)
    children_arr = np.empty(n, dtype=np.int32)
    order_arr = np.empty(n, dtype=np.int32)
    cdef int64_t[::1] first = first_arr
    cdef cnp.int32_t[::1] children = children_arr
    cdef cnp.int32_t[::1] order = order_arr
    with nogil:
        for i in range(n):
            if heads[i] != i:
                first[heads[i] + 1] += 1
        for i in range(n):
            first[i + 1] += first[i]
        for i in range(n):  # fill, using first[h] as the cursor of h's slots
            if heads[i] != i:
                h = heads[i]
                children[first[h]] = <cnp.int32_t>i
                first[h] += 1
        for i in range(n - 1, -1, -1):  # each cursor stopped at the next start: shift back
            first[i + 1] = first[i]
        first[0] = 0
        for i in range(n):
            if heads[i] == i:
                order[n_queued] = <cnp.int32_t>i
                n_queued += 1
        while n_seen < n_queued:
            h = order[n_seen]
            n_seen += 1
            for k in range(first[h], first[h + 1]):
                order[n_queued] = children[k]
                n_queued += 1
        if n_queued == n:
            for k in range(n - 1, -1, -1):
                i = order[k]
                h = heads[i]
                if h != i:
                    if left[h] > left[i]:
                        left[h] = left[i]
                    if right[h] < right[i]:
                        right[h] = right[i]
    if n_queued == n:
        return left_arr, right_arr
    with nogil:
        # Malformed heads with a cycle (not a forest): walk each token up to its
        # root, widening every ancestor's bounds; the step limit stops the cycles.
        for i in range(n):
            h = i
            steps = 0
            while heads[h] != h and steps < n:
                h = heads[h]
                if left[h] > i:
                    left[h] = <cnp.int32_t>i
                if right[h] < i:
                    right[h] = <cnp.int32_t>i
                steps += 1
    return left_arr, right_arr


def token_classes(const uint64_t[:, :] array, Py_ssize_t head_column,
                  const int64_t[::1] columns, const uint64_t[::1] table_keys,
                  const uint32_t[::1] table_masks, const int64_t[::1] bounds):
    """Absolute heads and the class bits of each token's labels, in one pass.

    array (uint64 array (n_tokens, n_attrs)): ``doc.to_array`` output.
    head_column (int): the column of HEAD (relative offsets).
    columns (int64 array (n_tables,)): the array column each table looks up.
    table_keys (uint64 array (n_keys,)): the tables' labels, concatenated; each
        table's part sorted and unique.
    table_masks (uint32 array (n_keys,)): the class bits of each label.
    bounds (int64 array (n_tables + 1,)): table t is keys[bounds[t]:bounds[t+1]].
    RETURNS (Tuple[ndarray, ndarray]): heads (n_tokens,) int32, a root being its
        own head, and masks (n_tables, n_tokens) uint32, 0 for unknown labels.
    """
    cdef Py_ssize_t n = array.shape[0]
    cdef Py_ssize_t n_tables = columns.shape[0]
    heads_arr = np.empty(n, dtype=np.int32)
    masks_arr = np.zeros((n_tables, n), dtype=np.uint32)
    cdef int32_t[::1] heads = heads_arr
    cdef uint32_t[:, ::1] masks = masks_arr
    cdef Py_ssize_t i, t, lo, end, col
    cdef uint64_t key
    with nogil:
        for i in range(n):
            # HEAD is a relative offset; uint64 wraps negative ones around.
            heads[i] = <int32_t>(i + <int64_t>array[i, head_column])
            for t in range(n_tables):
                key = array[i, columns[t]]
                end = bounds[t + 1]
                lo = bounds[t] + _lower_bound_at(&table_keys[0] + bounds[t], end - bounds[t], key)
                if lo < end and table_keys[lo] == key:
                    masks[t, i] = table_masks[lo]
    return heads_arr, masks_arr


def sort_unique(Py_ssize_t n_tokens, const int32_t[::1] starts, const int32_t[::1] ends,
                const int32_t[::1] heads, const int8_t[::1] types):
    """Candidates sorted by (start, end), each span once: its first emission.

    n_tokens (int): the Doc's length (starts lie in [0, n_tokens)).
    starts, ends, heads (int32 arrays (n,)), types (int8 array (n,)): candidates
        in emission order.
    RETURNS (Tuple[ndarray, ndarray, ndarray, ndarray]): the same four arrays,
        (n_unique,) each.
    """
    cdef Py_ssize_t n = starts.shape[0]
    cdef Py_ssize_t i, j, k, s, b, lo, hi, order_i
    ptr_arr = np.zeros(n_tokens + 1, dtype=np.intp)
    order_arr = np.empty(n, dtype=np.intp)
    out_s_arr = np.empty(n, dtype=np.int32)
    out_e_arr = np.empty(n, dtype=np.int32)
    out_h_arr = np.empty(n, dtype=np.int32)
    out_t_arr = np.empty(n, dtype=np.int8)
    cdef Py_ssize_t[::1] ptr = ptr_arr
    cdef Py_ssize_t[::1] order = order_arr
    cdef int32_t[::1] out_s = out_s_arr
    cdef int32_t[::1] out_e = out_e_arr
    cdef int32_t[::1] out_h = out_h_arr
    cdef int8_t[::1] out_t = out_t_arr
    with nogil:
        # Counting sort by start (stable), then a stable insertion sort by end
        # within each start: buckets hold a token's few phrase variants.
        for i in range(n):
            ptr[starts[i] + 1] += 1
        for s in range(n_tokens):
            ptr[s + 1] += ptr[s]
        for i in range(n):
            order[ptr[starts[i]]] = i
            ptr[starts[i]] += 1
        k = 0
        lo = 0
        for s in range(n_tokens):
            hi = ptr[s]
            for b in range(lo + 1, hi):
                order_i = order[b]
                j = b
                while j > lo and ends[order[j - 1]] > ends[order_i]:
                    order[j] = order[j - 1]
                    j -= 1
                order[j] = order_i
            for b in range(lo, hi):
                i = order[b]
                if b > lo and ends[order[b - 1]] == ends[i]:
                    continue
                out_s[k] = starts[i]
                out_e[k] = ends[i]
                out_h[k] = heads[i]
                out_t[k] = types[i]
                k += 1
            lo = hi
    return out_s_arr[:k], out_e_arr[:k], out_h_arr[:k], out_t_arr[:k]


cdef struct Doc_:
    # Per-token arrays of one Doc, shared by the helpers below.
    const int32_t* left
    const int32_t* right
    const uint32_t* tag
    const uint32_t* pos
    const uint32_t* dep
    const uint32_t* word
    const uint32_t* ent
    const int32_t* n_open      # prefix counts: brackets opened before token i
    const int32_t* n_close     # prefix counts: brackets closed before token i
    const int32_t* child_ptr   # children of i: child_idx[child_ptr[i]:child_ptr[i+1]]
    const int32_t* child_idx


cdef struct Out_:
    int32_t* starts
    int32_t* ends
    int32_t* heads
    int8_t* types
    Py_ssize_t n


cdef inline bint _trimmed(const Doc_* d, Py_ssize_t i) noexcept nogil:
    return ((d.tag[i] & TAG_PUNCT) or (d.dep[i] & DEP_TRIM)) and not (d.dep[i] & DEP_CASE)


cdef void _emit(const Doc_* d, Out_* out, Py_ssize_t start, Py_ssize_t end,
                Py_ssize_t head, int8_t mtype) noexcept nogil:
    # Trim edge punctuation, conjunctions and dangling prepositions, but keep a
    # closing bracket whose opening partner is inside: '"modify"', '(WHO)'. The
    # head stays, even when mis-parsed as punctuation.
    while start < head and _trimmed(d, start):
        start += 1
    while end > head + 1 and _trimmed(d, end - 1):
        if (d.tag[end - 1] & TAG_CLOSE) and (
                d.n_open[end - 1] - d.n_open[start] > d.n_close[end - 1] - d.n_close[start]):
            break
        end -= 1
    out.starts[out.n] = <int32_t>start
    out.ends[out.n] = <int32_t>end
    out.heads[out.n] = <int32_t>head
    out.types[out.n] = mtype
    out.n += 1


cdef int8_t _head_type(const Doc_* d, Py_ssize_t i) noexcept nogil:
    # The mention type of a phrase headed by token i, or -1 if i heads none.
    cdef uint32_t pos = d.pos[i]
    cdef uint32_t dep = d.dep[i]
    cdef Py_ssize_t k, c
    if pos & POS_PROPER:
        return PROPER
    if pos & POS_NOUN:
        # A common noun inside a referential name ("the [Court]") is proper.
        return PROPER if d.ent[i] & ENT_REFERENTIAL else NOMINAL
    if pos & POS_PRONOUN:
        if d.tag[i] & (TAG_NON_REFERENTIAL | TAG_POSSESSIVE):
            return -1
        return PRONOMINAL
    if (pos & POS_NUMBER) and (dep & DEP_NUMBER_HEAD):
        return NOMINAL
    if (pos & POS_MODIFIER) and (dep & DEP_ARGUMENT):
        # "the first", "each other", "one of the ...": a determiner before, or
        # a partitive complement after.
        for k in range(d.child_ptr[i], d.child_ptr[i + 1]):
            c = d.child_idx[k]
            if c < i and (d.dep[c] & DEP_DETERMINER):
                return NOMINAL
            if c > i and (d.dep[c] & DEP_PREPOSITION) and (d.word[c] & WORD_PARTITIVE):
                return NOMINAL
    return -1


cdef inline void _phrase_from(const Doc_* d, Out_* out, Py_ssize_t i, Py_ssize_t start,
                              Py_ssize_t end, bint whole, int8_t htype,
                              Py_ssize_t first_conj) noexcept nogil:
    # The full phrase from ``start``, and one variant per right cut.
    cdef Py_ssize_t k, c
    if whole:
        _emit(d, out, start, end, i, htype if first_conj < 0 else LIST)
    for k in range(d.child_ptr[i], d.child_ptr[i + 1]):
        c = d.child_idx[k]
        if d.left[c] > i and (d.dep[c] & DEP_RIGHT_CUT):
            _emit(d, out, start, d.left[c], i,
                  LIST if 0 <= first_conj < d.left[c] else htype)


cdef void _phrase(const Doc_* d, Out_* out, Py_ssize_t i, int8_t htype) noexcept nogil:
    # The mentions headed by token i: the full subtree, one shorter variant per
    # right dependent that starts a prepositional phrase, clause, apposition or
    # conjunct, and the same again without leading adverbs or interjections
    # (only without them past a subject or copula: "she is [a doctor]").
    cdef Py_ssize_t first = d.child_ptr[i]
    cdef Py_ssize_t last = d.child_ptr[i + 1]
    cdef Py_ssize_t start = d.left[i]
    cdef Py_ssize_t end = d.right[i] + 1
    cdef Py_ssize_t first_conj = -1
    cdef Py_ssize_t late = start
    cdef Py_ssize_t k, c
    cdef bint whole, drop = False, clause = False
    for k in range(first, last):
        c = d.child_idx[k]
        if c > i and (d.dep[c] & DEP_CONJ):
            if first_conj < 0:
                first_conj = c
            clause = clause or _has_subject(d, c)
    # A conjunct's own tail ("Y and Z" of "X, Y and Z") is no list mention, nor
    # is a phrase with a conjunct that has a subject of its own: a clause the
    # parser hung on a noun ("Jean et [Marie sont partis]").
    whole = first_conj < 0 or not ((d.dep[i] & DEP_NO_LIST) or clause)
    for k in range(first, last):
        c = d.child_idx[k]
        if c > i:
            break
        if (d.dep[c] & (DEP_LEFT_CUT | DEP_LEFT_DROP)) or ((d.dep[c] & DEP_PUNCT) and late > start):
            late = d.right[c] + 1
            drop = drop or (d.dep[c] & DEP_LEFT_DROP) != 0
        else:
            break
    if late == start or late > i:
        late = start
        drop = False
    if not drop:
        _phrase_from(d, out, i, start, end, whole, htype, first_conj)
    if late > start:
        _phrase_from(d, out, i, late, end, whole, htype, first_conj)


cdef bint _has_subject(const Doc_* d, Py_ssize_t i) noexcept nogil:
    cdef Py_ssize_t k
    for k in range(d.child_ptr[i], d.child_ptr[i + 1]):
        if d.dep[d.child_idx[k]] & DEP_SUBJECT:
            return True
    return False


cdef bint _zero_subject(const Doc_* d, Py_ssize_t i) noexcept nogil:
    # A verb in a position where its subject may be left out ("et [partit]"),
    # with no subject of its own: a mention of the omitted subject.
    return (d.pos[i] & POS_VERB) and (d.dep[i] & DEP_ZERO_SUBJECT) and not _has_subject(d, i)


def extract_candidates(tokens, const int32_t[::1] left, const int32_t[::1] right):
    """Candidate mentions in emission order, before sorting and de-duplication.

    For each token in order: the token itself if it is a pronoun or a verb
    with an omitted subject, then the phrases it heads; after all tokens, the
    referential named entities.

    tokens (TokenArrays): per token (n,): ``heads`` (int32): absolute head,
        roots their own head; ``tag``, ``pos``, ``dep``, ``word``, ``ent``
        (uint32): class bits of its fine tag, part of speech, dependency label,
        lowercase form, entity type; ``iob`` (uint64): ENT_IOB code (3 = begin,
        1 = inside).
    left, right (int32 arrays (n,)): subtree bounds, right inclusive.
    RETURNS (Tuple[ndarray, ndarray, ndarray, ndarray]): starts, ends (exclusive)
        and heads (n_candidates,) int32, types (n_candidates,) int8.
    """
    cdef const int32_t[::1] heads = tokens.heads
    cdef const uint32_t[::1] tag = tokens.tag
    cdef const uint32_t[::1] pos = tokens.pos
    cdef const uint32_t[::1] dep = tokens.dep
    cdef const uint32_t[::1] word = tokens.word
    cdef const uint32_t[::1] ent = tokens.ent
    cdef const uint64_t[:] iob = tokens.iob
    cdef Py_ssize_t n = heads.shape[0]
    cdef Py_ssize_t i, k, h, s, e, root
    # Children in index order, as compressed rows.
    ptr_arr = np.zeros(n + 1, dtype=np.int32)
    idx_arr = np.empty(max(n, 1), dtype=np.int32)
    fill_arr = np.empty(max(n, 1), dtype=np.int32)
    n_open_arr = np.zeros(n + 1, dtype=np.int32)
    n_close_arr = np.zeros(n + 1, dtype=np.int32)
    cdef int32_t[::1] ptr = ptr_arr
    cdef int32_t[::1] idx = idx_arr
    cdef int32_t[::1] fill = fill_arr
    cdef int32_t[::1] n_open = n_open_arr
    cdef int32_t[::1] n_close = n_close_arr
    # Per token at most: itself as a pronoun, itself as a verb with an omitted
    # subject, the full phrase, the same starting later, one entity, and two
    # variants per cut child; the children sum to < n.
    cdef Py_ssize_t cap = 7 * n + 8
    starts_arr = np.empty(cap, dtype=np.int32)
    ends_arr = np.empty(cap, dtype=np.int32)
    mheads_arr = np.empty(cap, dtype=np.int32)
    types_arr = np.empty(cap, dtype=np.int8)
    cdef int32_t[::1] starts = starts_arr
    cdef int32_t[::1] ends = ends_arr
    cdef int32_t[::1] mheads = mheads_arr
    cdef int8_t[::1] types = types_arr
    cdef Doc_ d
    cdef Out_ out
    cdef int8_t htype
    cdef bint bad_heads = 0
    if n == 0:
        return starts_arr[:0], ends_arr[:0], mheads_arr[:0], types_arr[:0]
    for i in range(n):
        bad_heads = bad_heads or heads[i] < 0 or heads[i] >= n
    if bad_heads:
        raise ValueError("heads must be token indices in [0, n_tokens)")
    with nogil:
        for i in range(n):
            if heads[i] != i:
                ptr[heads[i] + 1] += 1
            n_open[i + 1] = n_open[i] + ((tag[i] & TAG_OPEN) != 0)
            n_close[i + 1] = n_close[i] + ((tag[i] & TAG_CLOSE) != 0)
        for i in range(n):
            ptr[i + 1] += ptr[i]
            fill[i] = ptr[i]
        for i in range(n):
            if heads[i] != i:
                idx[fill[heads[i]]] = <int32_t>i
                fill[heads[i]] += 1
        d.left = &left[0]
        d.right = &right[0]
        d.tag = &tag[0]
        d.pos = &pos[0]
        d.dep = &dep[0]
        d.word = &word[0]
        d.ent = &ent[0]
        d.n_open = &n_open[0]
        d.n_close = &n_close[0]
        d.child_ptr = &ptr[0]
        d.child_idx = &idx[0]
        out.starts = &starts[0]
        out.ends = &ends[0]
        out.heads = &mheads[0]
        out.types = &types[0]
        out.n = 0
        for i in range(n):
            if (tag[i] & TAG_PRONOUN) or ((pos[i] & POS_PRONOUN) and (word[i] & WORD_PRONOUN)):
                _emit(&d, &out, i, i + 1, i, PRONOMINAL)
            if _zero_subject(&d, i):
                _emit(&d, &out, i, i + 1, i, PRONOMINAL)
            htype = _head_type(&d, i)
            if htype >= 0:
                _phrase(&d, &out, i, htype)
        i = 0
        while i < n:
            if iob[i] != IOB_BEGIN or not (ent[i] & ENT_REFERENTIAL):
                i += 1
                continue
            s = i
            e = i + 1
            while e < n and iob[e] == IOB_IN:
                e += 1
            root = s
            for k in range(s, e):
                h = heads[k]
                if h == k or h < s or h >= e:
                    root = k
                    break
            # Keep the possessive marker the gold standard includes: "[Byron 's]".
            if e < n and (dep[e] & DEP_CASE) and heads[e] == root:
                e += 1
            _emit(&d, &out, s, e, root, PROPER)
            i = e
    k = out.n
    return starts_arr[:k], ends_arr[:k], mheads_arr[:k], types_arr[:k]


cdef inline Py_ssize_t _lower_bound_at(const uint64_t* keys, Py_ssize_t hi, uint64_t key) noexcept nogil:
    # The first index in keys[0:hi] (increasing) whose key is not below ``key``.
    cdef Py_ssize_t lo = 0, mid
    while lo < hi:
        mid = (lo + hi) >> 1
        if keys[mid] < key:
            lo = mid + 1
        else:
            hi = mid
    return lo


cdef const uint64_t* _uint64_data(cnp.ndarray array, Py_ssize_t* n) except NULL:
    # The buffer of a 1-d C-contiguous uint64 array (read-only ones too), and
    # its length: taken from the array itself, not through a typed memoryview,
    # whose acquisition costs more than a short Doc's whole search.
    if cnp.PyArray_NDIM(array) != 1 or cnp.PyArray_TYPE(array) != cnp.NPY_UINT64 \
            or not cnp.PyArray_IS_C_CONTIGUOUS(array):
        raise ValueError("label ids must be a 1-d C-contiguous uint64 array")
    n[0] = cnp.PyArray_DIM(array, 0)
    return <const uint64_t*>cnp.PyArray_DATA(array) if n[0] else <const uint64_t*>&_EMPTY_IDS


cdef uint64_t _EMPTY_IDS = 0


def label_mask(cnp.ndarray column, cnp.ndarray sorted_ids):
    """Which entries of a 1-d uint64 column are in ``sorted_ids`` (increasing,
    1-d C-contiguous uint64).

    A binary search per entry over the raw buffer (any stride): a short Doc asks
    this of a rules' label set about twenty times, and each numpy call costs
    more than the whole search.
    RETURNS (ndarray): (len(column),) bool.
    """
    cdef Py_ssize_t k
    cdef const uint64_t* ids = _uint64_data(sorted_ids, &k)
    cdef cnp.npy_intp n = cnp.PyArray_DIM(column, 0)
    cdef Py_ssize_t stride = cnp.PyArray_STRIDE(column, 0), i, lo
    cdef char* data = <char*>cnp.PyArray_DATA(column)
    cdef cnp.ndarray out = cnp.PyArray_ZEROS(1, &n, cnp.NPY_BOOL, 0)
    cdef cnp.npy_bool* dst = <cnp.npy_bool*>cnp.PyArray_DATA(out)
    cdef uint64_t value
    if k == 0:
        return out
    with nogil:
        for i in range(n):
            value = (<uint64_t*>(data + i * stride))[0]
            lo = _lower_bound_at(ids, k, value)
            dst[i] = lo < k and ids[lo] == value
    return out


def label_masks(cnp.ndarray column, cnp.ndarray sorted_ids, cnp.ndarray bits, Py_ssize_t n_sets):
    """For each of ``n_sets`` label sets, which entries of a 1-d uint64 column are
    in it: one binary search per entry over the sets' joined ids (increasing),
    ``bits[j]`` the sets that hold ``sorted_ids[j]`` (bit s: set s); both 1-d
    C-contiguous uint64. One call answers what :func:`label_mask` answers once
    per set.
    RETURNS (ndarray): (n_sets, len(column)) bool, C order.
    """
    cdef Py_ssize_t k, k_bits
    cdef const uint64_t* ids = _uint64_data(sorted_ids, &k)
    cdef const uint64_t* held_by = _uint64_data(bits, &k_bits)
    if not 0 <= n_sets <= 64 or k_bits != k:
        raise ValueError("n_sets must be in [0, 64] and bits as long as sorted_ids")
    cdef cnp.npy_intp dims[2]
    dims[0], dims[1] = n_sets, cnp.PyArray_DIM(column, 0)
    cdef Py_ssize_t n = dims[1], stride = cnp.PyArray_STRIDE(column, 0), i, lo, s
    cdef char* data = <char*>cnp.PyArray_DATA(column)
    cdef cnp.ndarray out = cnp.PyArray_ZEROS(2, dims, cnp.NPY_BOOL, 0)
    cdef cnp.npy_bool* dst = <cnp.npy_bool*>cnp.PyArray_DATA(out)
    cdef uint64_t value, held
    if k == 0 or n_sets == 0:
        return out
    with nogil:
        for i in range(n):
            value = (<uint64_t*>(data + i * stride))[0]
            lo = _lower_bound_at(ids, k, value)
            if lo < k and ids[lo] == value:
                held = held_by[lo]
                for s in range(n_sets):
                    dst[s * n + i] = (held >> s) & 1
    return out


cdef inline bint _int_value(char* p, int typenum, uint64_t* out) noexcept nogil:
    # The value at p as a 64-bit pattern: signed kinds sign-extended, so that
    # values of one kind compare equal exactly when they are equal.
    if typenum == cnp.NPY_BOOL or typenum == cnp.NPY_UINT8:
        out[0] = (<cnp.npy_uint8*>p)[0]
    elif typenum == cnp.NPY_INT8:
        out[0] = <uint64_t><int64_t>(<cnp.npy_int8*>p)[0]
    elif typenum == cnp.NPY_INT16:
        out[0] = <uint64_t><int64_t>(<cnp.npy_int16*>p)[0]
    elif typenum == cnp.NPY_UINT16:
        out[0] = (<cnp.npy_uint16*>p)[0]
    elif typenum == cnp.NPY_INT32:
        out[0] = <uint64_t><int64_t>(<cnp.npy_int32*>p)[0]
    elif typenum == cnp.NPY_UINT32:
        out[0] = (<cnp.npy_uint32*>p)[0]
    elif typenum == cnp.NPY_INT64 or typenum == cnp.NPY_LONGLONG:
        out[0] = <uint64_t>(<cnp.npy_int64*>p)[0]
    elif typenum == cnp.NPY_UINT64 or typenum == cnp.NPY_ULONGLONG:
        out[0] = (<cnp.npy_uint64*>p)[0]
    else:
        return False
    return True


cdef inline bint _readable(int typenum) noexcept nogil:
    return typenum in (cnp.NPY_BOOL, cnp.NPY_UINT8, cnp.NPY_INT8, cnp.NPY_INT16, cnp.NPY_UINT16,
                       cnp.NPY_INT32, cnp.NPY_UINT32, cnp.NPY_INT64, cnp.NPY_LONGLONG,
                       cnp.NPY_UINT64, cnp.NPY_ULONGLONG)


def small_isin(cnp.ndarray element, cnp.ndarray test):
    """``np.isin`` of a 1-d integer (or bool) array in another of the same kind
    (both signed, both unsigned, or both bool), by comparing every pair: one call
    for the dozen values a short Doc asks about.

    RETURNS (ndarray | None): (len(element),) bool; None for a type it does not read.
    """
    cdef cnp.npy_intp n = cnp.PyArray_DIM(element, 0)
    cdef Py_ssize_t k = cnp.PyArray_DIM(test, 0)
    cdef Py_ssize_t e_stride = cnp.PyArray_STRIDE(element, 0), t_stride = cnp.PyArray_STRIDE(test, 0)
    cdef int e_type = cnp.PyArray_TYPE(element), t_type = cnp.PyArray_TYPE(test)
    cdef char* e_data = <char*>cnp.PyArray_DATA(element)
    cdef char* t_data = <char*>cnp.PyArray_DATA(test)
    cdef uint64_t probe, value
    cdef Py_ssize_t i, j
    if not (_readable(e_type) and _readable(t_type)):
        return None
    cdef cnp.ndarray out = cnp.PyArray_ZEROS(1, &n, cnp.NPY_BOOL, 0)
    cdef cnp.npy_bool* dst = <cnp.npy_bool*>cnp.PyArray_DATA(out)
    with nogil:
        for i in range(n):
            _int_value(e_data + i * e_stride, e_type, &probe)
            for j in range(k):
                _int_value(t_data + j * t_stride, t_type, &value)
                if value == probe:
                    dst[i] = True
                    break
    return out

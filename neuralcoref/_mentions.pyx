# cython: boundscheck=False, wraparound=False, cdivision=True
"""Cython kernels of mention extraction, over arrays from ``doc.to_array``.

Private: use :mod:`neuralcoref.mentions`, which validates inputs and keeps a
pure-numpy reference of each kernel for the parity tests.
"""
import numpy as np

cimport numpy as cnp

cnp.import_array()


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
    cdef Py_ssize_t i, h, steps
    with nogil:
        # Walk each token up to its root, widening every ancestor's bounds. The
        # step limit guards against cycles in malformed head arrays.
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

# cython: boundscheck=False, wraparound=False, cdivision=True
"""Cython kernels of the featurizer.

Private: use :mod:`neuralcoref.features`, which owns the feature layout and keeps a
pure-numpy reference of each kernel for the parity tests.
"""
import numpy as np

cimport numpy as cnp

cnp.import_array()


def bin_values(const cnp.int64_t[::1] values, const cnp.int64_t[::1] lower_bounds):
    """Index of the bin each value falls in, given the bins' sorted lower bounds.

    RETURNS (ndarray): (n,) int8 bin indices.
    """
    cdef Py_ssize_t n = values.shape[0], n_bins = lower_bounds.shape[0]
    out_arr = np.zeros(n, dtype=np.int8)
    cdef cnp.int8_t[::1] out = out_arr
    cdef Py_ssize_t i, b
    with nogil:
        for i in range(n):
            b = n_bins - 1
            while b > 0 and values[i] < lower_bounds[b]:
                b -= 1
            out[i] = <cnp.int8_t>b
    return out_arr

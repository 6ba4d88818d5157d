"""Small helpers every stage uses: membership tests on short arrays, the cluster sets
the passes edit, one BLAS thread, a cached property without a lock."""

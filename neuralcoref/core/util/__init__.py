"""Small helpers every stage uses: membership tests on short arrays, the cluster sets
the passes edit, one BLAS thread."""

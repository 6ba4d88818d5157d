"""Cluster-level entity linking and its numpy scorer."""

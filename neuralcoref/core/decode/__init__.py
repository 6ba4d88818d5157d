"""From scores to clusters: the decode inputs, the passes in order, links and cluster
passes."""

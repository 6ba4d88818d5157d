"""The numpy scorers (single, pair, mention), entity-level refinement, the word
vocabulary, a loaded model."""

"""Corpora and evaluation: CoNLL files, gold Docs, the coreference and mention
scorers, GAP."""

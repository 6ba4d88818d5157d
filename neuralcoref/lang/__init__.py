"""Language rules for mention extraction, one module per language."""

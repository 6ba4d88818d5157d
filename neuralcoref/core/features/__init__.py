"""The feature contract, mention and pair features (compact codes, expanded to float32),
candidate pairs."""

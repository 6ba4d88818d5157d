"""What the parse and the lexicons say about mentions for decoding: binding, cataphora,
frames, lexicon classes, aliases, and the decode signals."""

"""Applications: the CLI, the REST server, batch processing, the HTML view,
the dev board, ``neuralcoref predict`` and the benchmark."""

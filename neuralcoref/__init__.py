"""neuralcoref: fast, CPU-first coreference resolution for spaCy 3.

Importing the package has no side effects beyond registering the ``neuralcoref``
spaCy factory; extensions are registered when the factory runs.
"""
__version__ = "5.0.0.dev0"

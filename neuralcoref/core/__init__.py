"""The runtime core: mention extraction, the feature contract, featurizer and expansion,
candidate pairs, scoring, decoding, clustering and the resolver.

It imports neither torch, the corpus readers, the applications nor the model-folder
code: the resolver takes a loaded model (:class:`neuralcoref.core.scoring.model.CorefModel`)."""

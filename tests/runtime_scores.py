"""The numpy runtime's scores of a featurized training set, for parity tests
against the PyTorch model (one way to compute them, shared by the tests)."""
from typing import Any, Optional, Tuple

import numpy as np

from neuralcoref.core.features.contract import MentionFeatures


def runtime_scores(runtime: Any, data: Any) -> Tuple[Any, np.ndarray, Optional[np.ndarray], np.ndarray]:
    """(mention parts, pair scores of the decode path, its kept pairs, plain
    pair scores without the entity pass) of a loaded model on ``data``
    (``neuralcoref.train.dataset.TrainingData``)."""
    features = data.corpus.features
    all_features = MentionFeatures(*(np.asarray(getattr(features, f))
                                     for f in ("codes", "hashes", "words", "vectors")))
    parts = runtime.scorers.mention_parts(all_features, runtime.vocab.rows(all_features.words))
    pair, kept = runtime.scorers.all_pair_scores(parts, data.ptr, data.ante, data.pair_codes)
    plain = runtime.scorers.pair_scores(parts, data.ante, np.repeat(np.arange(len(data)), data.n_candidates),
                                        data.pair_codes)
    return parts, pair, kept, plain

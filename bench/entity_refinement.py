"""Entity-level refinement at inference, in the spirit of Entity Equalization.

    python bench/entity_refinement.py [--model PATH] [--dev CONLL] [--spacy-model NAME]

Each mention's antecedent-side representation is replaced by the mean over its
soft cluster — the runtime's own ``neuralcoref.core.scoring.entities.soft_clusters``, built
left to right from the model's antecedent distributions — and every pair is
rescored with it. Prints dev CoNLL F1 without and with refinement (mixing
weights 0.5 and 1, one and two iterations) and the time the refinement adds. It
uses a trained model as is: the scorers were not trained on refined inputs.
"""
import argparse
import time

import numpy as np

from devset import DEV
from neuralcoref.api import load_spacy
from neuralcoref.artifacts.model_dir import load_model, resolve_model_path
from neuralcoref.core.features.contract import MentionFeatures
from neuralcoref.core.scoring.entities import refine, soft_clusters
from neuralcoref.core.features.pairs import anaphor_index, candidate_window
from neuralcoref.lang import get_pipeline_rules
from neuralcoref.train.dataset import TrainingData
from neuralcoref.train.evaluation import decode, score_predictions
from neuralcoref.train.featurize import featurize_corpus



def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", default=None)
    parser.add_argument("--dev", default=str(DEV))
    parser.add_argument("--spacy-model", default=None)
    parser.add_argument("--cache-dir", default="cache")
    args = parser.parse_args()
    nlp = load_spacy(args.spacy_model)
    model = load_model(resolve_model_path(args.model, nlp.lang))
    rules = get_pipeline_rules(nlp)
    corpus = featurize_corpus(args.dev, nlp, rules, args.cache_dir)
    max_dist, max_dist_match, max_dist_nominal = candidate_window(model.config.defaults)
    data = TrainingData(corpus, model.vocab, max_dist, max_dist_match, max_dist_nominal=max_dist_nominal)
    features = MentionFeatures(*(np.asarray(getattr(corpus.features, k))
                                 for k in ("codes", "hashes", "words", "vectors")))
    if not model.config.scorer.vector_dim:  # the cache keeps vectors a model may not use
        features = MentionFeatures(features.codes, features.hashes, features.words,
                                   features.vectors[:, :0])
    parts = model.scorers.mention_parts(features, model.vocab.rows(features.words))
    ana = anaphor_index(data.ptr)
    start = time.perf_counter()
    pair = model.scorers.pair_scores(parts, data.ante, ana, data.pair_codes)
    base_seconds = time.perf_counter() - start

    def f1(p: np.ndarray) -> float:
        return 100 * score_predictions(data, decode(data, parts.single, p, 0.0)).conll_f1

    print(f"no refinement: dev CoNLL F1 {f1(pair):.2f} (pair scoring {base_seconds:.2f} s)")
    current = pair
    for iteration in (1, 2):
        start = time.perf_counter()
        means = refine(parts.ante, *soft_clusters(parts.single, current, data.ptr, data.ante))
        for mix in (0.5, 1.0):
            refined = parts._replace(ante=((1 - mix) * parts.ante + mix * means).astype(np.float32))
            rescored = model.scorers.pair_scores(refined, data.ante, ana, data.pair_codes)
            print(f"iteration {iteration}, mix {mix}: dev CoNLL F1 {f1(rescored):.2f}")
        current = model.scorers.pair_scores(parts._replace(ante=means), data.ante, ana, data.pair_codes)
        print(f"  refinement time: {time.perf_counter() - start:.2f} s")


if __name__ == "__main__":
    main()

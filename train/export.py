"""Export a trained model straight to the runtime's model folder, with its model card."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Dict, List, Optional

from neuralcoref.artifacts.model_dir import load_model, save_model
from neuralcoref.core.scoring.embeddings import WordVocab
from neuralcoref.core.scoring.model import ModelConfig
from neuralcoref.core.features.pairs import nominal_window
from neuralcoref.corpora.coref_scorer import CorefScores
from neuralcoref.lang.base import LanguageRules

from .config import TrainConfig
from .model import CorefScorers


def export_model(path: Path, model: CorefScorers, cfg: TrainConfig, vocab: WordVocab, lang: str,
                 rules: LanguageRules, spacy_pipeline: str, dev_scores: CorefScores, link_offset: float,
                 summary: Dict, document_prior: Optional[Dict] = None, vector_fingerprint: str = "") -> Path:
    """Write the runtime folder and check that it loads.

    link_offset (float): the dev-tuned single-score offset, folded into the single
        scorer's output bias so that greedyness 0.5 is the tuned threshold.
    document_prior (Dict | None): the model's ``document_prior`` (see
        train/featurize.py's ``document_prior``).
    vector_fingerprint (str): the training pipeline's vectors fingerprint
        (``pipeline_vectors_fingerprint``), recorded for a model reading them.
    RETURNS (Path): the model folder.
    """
    weights = model.export_weights()
    weights["single.out.b"] = weights["single.out.b"] + link_offset
    config = ModelConfig(lang=lang, scorer=model.config, spacy_pipeline=spacy_pipeline, rules=rules.lang,
                         rules_hash=rules.fingerprint(),
                         defaults={"greedyness": 0.5, "max_dist": cfg.max_dist,
                                   "max_dist_match": cfg.max_dist_match,
                                   "max_dist_nominal": nominal_window(cfg.max_dist, cfg.max_dist_nominal)},
                         document_prior=document_prior or {},
                         vector_fingerprints=[vector_fingerprint] if vector_fingerprint and model.config.vector_dim
                         else [])
    card = model_card(config, cfg, dev_scores, summary)
    save_model(path, config, weights, vocab.words, card)
    (path / "training_summary.json").write_text(
        # the summary's "dev" is the dev data's manifest: the scores get their own key
        json.dumps({"config": cfg.to_dict(), **summary, "dev_scores": dev_scores.to_dict()}, indent=2),
        encoding="utf8")
    load_model(path)  # fail now, not in the user's pipeline
    return path


def model_card(config: ModelConfig, cfg: TrainConfig, dev: CorefScores, summary: Dict) -> str:
    """A Markdown model card: data, settings, dev scores per phase and at the end."""
    train, dev_data = summary["train"], summary["dev"]
    scores = dev.to_dict()
    lines = [
        f"# neuralcoref model ({config.lang})", "",
        f"- spaCy pipeline: `{config.spacy_pipeline}`",
        f"- feature schema: `{config.schema_hash}`",
        f"- trained on: `{Path(train['path']).name}` ({train['n_docs']} docs, {train['n_tokens']} tokens, "
        f"{train['mentions']} candidate mentions, extractor recall "
        f"{100 * train['mention_recall']:.1f}%)",
        f"- tuned on: `{Path(dev_data['path']).name}` ({dev_data['n_docs']} docs, {dev_data['n_tokens']} tokens, "
        f"extractor recall {100 * dev_data['mention_recall']:.1f}%)",
        *[f"- also trained on: `{Path(e['source']).name}` ({e['n_docs']} docs, "
          f"{e['n_tokens']} tokens)" for e in summary.get("extra_train", [])],
        *[_scheme_line(s) for s in summary.get("train_schemes", [])],
        *[f"- also trained on (partial labels, x{cfg.partial_repeat} per epoch): `{Path(e['source']).name}` "
          f"({e['n_docs']} docs, {e['anaphoric']} labelled anaphors)" for e in summary.get("partial_train", [])],
        *_pretrained_lines(summary.get("pretrained")),
        f"- device: {summary['device']}; time: featurize {summary['seconds']['featurize']} s, "
        f"train {summary['seconds']['train']} s; peak RAM {summary.get('peak_rss_mb', 0):.0f} MB",
        f"- link offset folded into the single scorer: {summary['link_offset']:+.2f}",
        *_interruption_lines(summary.get("interrupted")), "",
        "## Dev scores", "",
        f"Against the gold clusters {'without' if cfg.drop_singletons else 'with'} singletons "
        "(the model predicts clusters of two or more mentions).", "",
        "| metric | recall | precision | F1 |", "| --- | ---: | ---: | ---: |",
    ]
    for name in ("muc", "bcub", "ceafe", "ceafm", "lea", "blanc", "mentions"):
        s = scores[name]
        lines.append(f"| {name} | {s['recall']:.2f} | {s['precision']:.2f} | {s['f1']:.2f} |")
    lines += ["", f"**CoNLL F1: {scores['conll_f1']:.2f}**", "", "## Training log", "",
              "Dev scores at each epoch's dev-tuned link offset, as the export folds it in "
              "(raw: at offset 0).", "",
              "| phase | epoch | loss | dev MUC | dev B3 | dev CEAF-e | dev CoNLL F1 | offset | raw F1 |",
              "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for e in summary["log"]:
        lines.append(f"| {e['phase']} | {e['epoch']} | {e['loss']:.4f} | {e['dev_muc']:.2f} | "
                     f"{e['dev_bcub']:.2f} | {e['dev_ceafe']:.2f} | {e['dev_conll_f1']:.2f} | "
                     f"{e['link_offset']:+.2f} | {e['dev_conll_f1_raw']:.2f} |")
    lines += ["", "## Settings", "", "```json", json.dumps(cfg.to_dict(), indent=2), "```", ""]
    return "\n".join(lines)


def _pretrained_lines(pretrained: Optional[Dict]) -> List[str]:
    """The card's line on the pretraining a run started from (train/pretrain.py)."""
    if not pretrained:
        return []
    data = pretrained.get("data") or {}
    return [f"- started from representations pretrained on unlabeled text: `{pretrained['text']}` "
            f"({data.get('n_docs', '?')} texts, {data.get('n_tokens', '?')} tokens, tasks "
            f"{data.get('tasks', {})}), {pretrained['steps']} steps, held-out task accuracy "
            f"{pretrained.get('held_out_accuracy')}"]


def _scheme_line(scheme: dict) -> str:
    """A model card line for one training file's annotation scheme (train/schemes.py)."""
    window = "" if scheme["max_doc_tokens"] is None else f", {scheme['max_doc_tokens']} tokens per document and epoch"
    return (f"- annotation scheme of `{Path(scheme['path']).name}` ({Path(scheme['path']).parent.name}): "
            f"unannotated candidates {scheme['unannotated']}{window}, x{scheme['repeat']} per epoch")


def _interruption_lines(interrupted: Optional[Dict]) -> List[str]:
    """The card's note on a run that did not finish (see train/trainer.py's finish_run)."""
    if not interrupted:
        return []
    how = (f"interrupted by {interrupted['signal']}" if interrupted.get("signal")
           else "exported from the checkpoint of an unfinished run")
    return [f"- **INTERRUPTED**: {how} after {interrupted['epochs']} evaluated epochs "
            f"(last: {interrupted['last']}); this is the best model of those epochs"
            + (", link offsets per mention type not tuned (`neuralcoref tune`)"
               if interrupted.get("signal") else "")]

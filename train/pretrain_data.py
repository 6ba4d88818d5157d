"""Self-supervised coreference examples from unlabeled text.

Raw text is parsed by the user's spaCy pipeline and its candidate mentions and
features are computed by the runtime's own code (``prepare_doc``: mention
extraction, features, decode inputs), exactly as for labelled training data. Two
tasks give anaphors whose antecedents are known without annotation:

- masked repeated names: a proper name whose head word recurs in a document; one
  later occurrence has its string and word features hidden (head, first and last
  word slots read as unknown words; no head, exact or relaxed string hash, so no
  string match; no repetition counts) and must pick its earlier occurrences
  among the candidates from its context, type and agreement alone;
- name-to-pronoun substitution: a later occurrence of a person's name whose first
  name has one gender in the name lists is replaced by the pronoun of that
  gender ("he", "him", "his"...) before parsing; its antecedents are the name's
  earlier occurrences.

Proper-name mentions are labelled by their head word (one cluster per head word,
so two names are known not to corefer); every other candidate is unlabelled and
the losses ignore it (the partial-label mode of :class:`~train.dataset.TrainingData`).
"""
from __future__ import annotations

import gzip
import hashlib
import json
import logging
from collections import Counter
from pathlib import Path
from typing import Dict, Iterator, List, Optional, Tuple, Union

import numpy as np
from spacy.language import Language
from spacy.strings import get_string_id
from spacy.tokens import Doc
from tqdm import tqdm

from neuralcoref.about import __version__
from neuralcoref.artifacts.model_dir import pipeline_id
from neuralcoref.core.features.contract import C, H, SCHEMA_HASH, SPAN_VECTORS, WORD_SLOTS, MentionFeatures
from neuralcoref.core.decode.decoding import inputs_fingerprint
from neuralcoref.core.doc.doc_arrays import read_doc
from neuralcoref.core.features.featurize import FeatureTables
from neuralcoref.core.mentions.mentions import PROPER, extract_mentions
from neuralcoref.core.prepare import prepare_doc
from neuralcoref.errors import Errors, NeuralcorefError
from neuralcoref.lang.base import LanguageRules

from .augment import read_names
from .storage import MANIFEST, FeaturizedCorpus, read_corpus, write_corpus

logger = logging.getLogger("neuralcoref.train")

#: Task kinds, as stored per task anaphor.
TASKS = ("masked_name", "pronoun")
#: The word every hidden word slot reads: never in a vocabulary, so the unknown-word row.
MASK_HASH = get_string_id("\x00neuralcoref-mask")
_MASKED_SLOTS = [WORD_SLOTS.index(s) for s in ("head", "first", "last")]
_MASKED_HASHES = [H[h] for h in ("head", "exact", "relaxed")]
_MASKED_COUNTS = [C[c] for c in ("head_count", "string_count", "head_before", "string_before")]
#: Texts are cut at paragraph breaks into pieces of at most this many characters.
MAX_CHARS = 50_000
_FORMAT = 1
#: (gender, role) -> the pronoun's word, tag, lemma and morphology (as en_core_web_sm tags them).
_PRONOUNS = {
    ("m", "subject"): ("he", "PRP", "he", "Case=Nom|Gender=Masc|Number=Sing|Person=3|PronType=Prs"),
    ("m", "object"): ("him", "PRP", "he", "Case=Acc|Gender=Masc|Number=Sing|Person=3|PronType=Prs"),
    ("m", "possessive"): ("his", "PRP$", "his", "Gender=Masc|Number=Sing|Person=3|Poss=Yes|PronType=Prs"),
    ("f", "subject"): ("she", "PRP", "she", "Case=Nom|Gender=Fem|Number=Sing|Person=3|PronType=Prs"),
    ("f", "object"): ("her", "PRP", "she", "Case=Acc|Gender=Fem|Number=Sing|Person=3|PronType=Prs"),
    ("f", "possessive"): ("her", "PRP$", "her", "Gender=Fem|Number=Sing|Person=3|Poss=Yes|PronType=Prs"),
}
_ROLE = {"nsubj": "subject", "nsubjpass": "subject", "dobj": "object", "pobj": "object",
         "dative": "object", "poss": "possessive"}


def read_texts(path: Union[str, Path]) -> Iterator[Tuple[str, str]]:
    """The texts of a ``.txt`` file, a folder of them, or a JSONL(.gz) file whose
    lines are objects with a ``text`` field.

    YIELDS (Tuple[str, str]): (id, text) of each non-blank text, in file order.
    RAISES (NeuralcorefError): E465 for a missing path or one that is none of
        these, E466 for a JSONL line that is not an object with a string ``text``.
    """
    path = Path(path)
    for file in text_files(path):
        if _is_jsonl(file):
            yield from _read_jsonl(file)
        else:
            try:
                text = file.read_text(encoding="utf8")
            except UnicodeDecodeError as err:
                raise NeuralcorefError(Errors.E466.format(path=file, line=1, reason=f"not UTF-8 ({err.reason})"))
            if text.strip():
                yield file.stem, text


def text_files(path: Path) -> List[Path]:
    """The files :func:`read_texts` reads, sorted (E465 when there are none)."""
    if path.is_dir():
        files = sorted(p for p in path.iterdir() if p.suffix == ".txt" or _is_jsonl(p))
    elif path.is_file() and (path.suffix == ".txt" or _is_jsonl(path)):
        files = [path]
    else:
        files = []
    if not files:
        raise NeuralcorefError(Errors.E465.format(path=path))
    return files


def _is_jsonl(path: Path) -> bool:
    return path.name.endswith((".jsonl", ".jsonl.gz"))


def _read_jsonl(file: Path) -> Iterator[Tuple[str, str]]:
    opener = gzip.open if file.name.endswith(".gz") else open
    try:
        with opener(file, "rt", encoding="utf8") as handle:
            for number, line in enumerate(handle, start=1):
                if not line.strip():
                    continue
                try:
                    record = json.loads(line)
                except ValueError as err:
                    raise NeuralcorefError(Errors.E466.format(path=file, line=number, reason=f"not JSON ({err})"))
                if not isinstance(record, dict) or not isinstance(record.get("text"), str):
                    raise NeuralcorefError(Errors.E466.format(path=file, line=number,
                                                              reason="no string field 'text'"))
                if record["text"].strip():
                    yield str(record.get("id", f"{file.name}:{number}")), record["text"]
    except (OSError, EOFError, UnicodeDecodeError) as err:
        raise NeuralcorefError(Errors.E466.format(path=file, line="?", reason=f"unreadable ({err})")) from err


def pieces(texts: Iterator[Tuple[str, str]], max_docs: Optional[int] = None) -> Iterator[Tuple[str, str]]:
    """Texts cut at paragraph breaks into pieces of at most MAX_CHARS characters
    (a paragraph longer than that stays whole); at most ``max_docs`` pieces."""
    count = 0
    for text_id, text in texts:
        piece: List[str] = []
        size = 0
        for paragraph in text.split("\n\n"):
            if piece and size + len(paragraph) > MAX_CHARS:
                yield f"{text_id}#{count}", "\n\n".join(piece)
                count += 1
                piece, size = [], 0
                if max_docs is not None and count >= max_docs:
                    return
            piece.append(paragraph)
            size += len(paragraph) + 2
        if piece and "".join(piece).strip():
            yield f"{text_id}#{count}", "\n\n".join(piece)
            count += 1
        if max_docs is not None and count >= max_docs:
            return


def first_names(rules: LanguageRules, names_dir: Optional[Union[str, Path]] = None) -> Dict[str, str]:
    """Lowercase first names of one gender -> "f" or "m": from ``names_dir``
    (``female.txt`` and ``male.txt``, :func:`train.augment.read_names`), else the
    language's lexicons (English ships the Names Corpus's; French has none)."""
    if names_dir is not None:
        female, male = read_names(names_dir)
        return {**{n.lower(): "f" for n in female}, **{n.lower(): "m" for n in male}}
    merged = lexicon_names(rules)
    return {name: gender[0] for name, gender in merged.items() if gender in ("female", "male")}


def lexicon_names(rules: LanguageRules) -> Dict[str, str]:
    from neuralcoref.lang import lexicon

    return dict(lexicon._merged(tuple(sorted(rules.lexicons)))["names"]) if rules.lexicons else {}


class Substituter:
    """Replaces one later occurrence of each gendered person name by its pronoun.

    gender (Dict[str, str]): lowercase first names -> "f" or "m" (:func:`first_names`).
    rules (LanguageRules): the mention rules (names are found among the candidates).
    """

    def __init__(self, gender: Dict[str, str], rules: LanguageRules):
        self.rules = rules
        self.gender = gender

    def substitute(self, doc: Doc, rng: np.random.Generator, reparse: bool = False) -> Tuple[Doc, Dict[int, str]]:
        """A copy of ``doc`` with the substitutions made.

        reparse (bool): return the words only, for the pipeline to parse again (so
            that ``doc.tensor`` is computed over the new text); otherwise the copy
            keeps the parse, each pronoun taking its name's place in the tree with
            a pronoun's tag, lemma and morphology (one parse instead of two).
        RETURNS (Tuple[Doc, Dict[int, str]]): the new Doc and, per pronoun token
            index in it, the name's head word (lowercase).
        """
        mentions = extract_mentions(doc, self.rules, read_doc(doc))
        chosen = self._choose(doc, mentions, rng)
        new_index = np.zeros(len(doc), dtype=np.int64)
        # (old token, (gender, role, sentence start) for a pronoun or None, end of what it replaces)
        tokens: List[Tuple[int, Optional[Tuple[str, str, bool]], int]] = []
        pronouns: Dict[int, str] = {}
        i = 0
        while i < len(doc):
            if i in chosen:
                end, head, gender, key = chosen[i]
                if doc[end - 1].tag_ != "POS" and end < len(doc) and doc[end].tag_ == "POS":
                    end += 1  # "Lincoln 's" -> "his"
                new_index[i:end] = len(tokens)
                pronouns[len(tokens)] = key
                tokens.append((head, (gender, _ROLE[doc[head].dep_], bool(doc[i].is_sent_start)), end))
                i = end
                continue
            new_index[i] = len(tokens)
            tokens.append((i, None, i + 1))
            i += 1
        words = [_pronoun_word(sub) if sub else doc[old].text for old, sub, _ in tokens]
        spaces = [bool(doc[end - 1].whitespace_) for _, _, end in tokens]
        if reparse or not pronouns:
            return Doc(doc.vocab, words=words, spaces=spaces) if pronouns else doc, pronouns
        return _annotated(doc, words, spaces, tokens, new_index), pronouns

    def _choose(self, doc: Doc, mentions, rng: np.random.Generator) -> Dict[int, Tuple[int, int, str, str]]:
        """start -> (end, head token, gender, head word) of each name occurrence to replace."""
        labels, _ = name_labels(doc, mentions)
        chosen = {}
        for label in np.unique(labels[labels >= 0]):
            members = [int(m) for m in np.flatnonzero(labels == label)]
            if len(members) < 2 or any(doc[int(mentions.heads[m])].ent_type_ != "PERSON" for m in members):
                continue
            genders = {self.gender.get(doc[int(mentions.starts[m])].lower_) for m in members} - {None}
            replaceable = [m for m in members[1:] if self._replaceable(doc, mentions, m)]
            if len(genders) == 1 and replaceable:
                m = replaceable[int(rng.integers(len(replaceable)))]
                head = doc[int(mentions.heads[m])]
                chosen[int(mentions.starts[m])] = (int(mentions.ends[m]), head.i, genders.pop(), head.lower_)
        return chosen

    @staticmethod
    def _replaceable(doc: Doc, mentions, m: int) -> bool:
        # Only a bare name (every word a proper noun) in a role a pronoun can take.
        start, end, head = int(mentions.starts[m]), int(mentions.ends[m]), int(mentions.heads[m])
        return end - start <= 3 and doc[head].dep_ in _ROLE and all(
            doc[t].pos_ == "PROPN" or doc[t].tag_ == "POS" for t in range(start, end))


def _pronoun_word(sub: Tuple[str, str, bool]) -> str:
    word = _PRONOUNS[sub[:2]][0]
    return word.capitalize() if sub[2] else word


def _annotated(doc: Doc, words: List[str], spaces: List[bool], tokens, new_index: np.ndarray) -> Doc:
    """A Doc of ``words`` that keeps ``doc``'s parse, tags and entities: a removed
    token's children attach to the pronoun that replaced it."""
    heads, deps, pos, tags, lemmas, morphs, ents = [], [], [], [], [], [], []
    for old, sub, _ in tokens:
        t = doc[old]
        heads.append(int(new_index[t.head.i]))
        deps.append(t.dep_)
        if sub:
            _, tag, lemma, morph = _PRONOUNS[sub[:2]]
            pos.append("PRON")
            tags.append(tag)
            lemmas.append(lemma)
            morphs.append(morph)
            ents.append("O")
            continue
        pos.append(t.pos_)
        tags.append(t.tag_)
        lemmas.append(t.lemma_)
        morphs.append(str(t.morph))
        ents.append(f"{t.ent_iob_}-{t.ent_type_}" if t.ent_type_ else "O")
    for k in range(len(ents)):  # an entity whose first token was replaced starts anew
        if ents[k].startswith("I-") and (k == 0 or ents[k - 1] == "O" or ents[k - 1][2:] != ents[k][2:]):
            ents[k] = "B-" + ents[k][2:]
    return Doc(doc.vocab, words=words, spaces=spaces, heads=heads, deps=deps, pos=pos, tags=tags,
               lemmas=lemmas, morphs=morphs, ents=ents)


def name_labels(doc: Doc, mentions) -> Tuple[np.ndarray, Dict[str, int]]:
    """Clusters of the proper-name mentions, by their words; -1 for the others.

    Each head word's shortest proper-name mention is labelled (the longer ones with
    the same head, "Mary Jones in Paris", and names inside a longer name, "John"
    in "John Smith", stay unlabelled). In document order, a name joins the
    cluster of the first name that contained its head word ("John Smith", then
    "Smith" or "John"), else starts one.
    RETURNS (Tuple[ndarray, Dict[str, int]]): (n,) int32 labels and the cluster of
        each name word (lowercase).
    """
    labels = np.full(len(mentions), -1, dtype=np.int32)
    proper = [int(m) for m in np.flatnonzero(mentions.types == PROPER)]
    spans = {m: (int(mentions.starts[m]), int(mentions.ends[m])) for m in proper}
    pure = {m for m in proper if all(doc[t].pos_ == "PROPN" for t in range(*spans[m]))}
    shortest: Dict[int, int] = {}
    for m in proper:
        head = int(mentions.heads[m])
        if head not in shortest or _length(spans[m]) < _length(spans[shortest[head]]):
            shortest[head] = m
    clusters: Dict[str, int] = {}
    for m in sorted(shortest.values()):
        start, end = spans[m]
        if any(o != m and o in pure and spans[o][0] <= start and end <= spans[o][1] for o in proper):
            continue  # a part of a longer name
        key = doc[int(mentions.heads[m])].lower_
        cluster = clusters.get(key, len(set(clusters.values())))
        for t in range(start, end):
            if doc[t].pos_ == "PROPN":
                clusters.setdefault(doc[t].lower_, cluster)
        clusters.setdefault(key, cluster)
        labels[m] = cluster
    return labels, clusters


def _length(span: Tuple[int, int]) -> int:
    return span[1] - span[0]


def mask_mentions(features: MentionFeatures, rows: np.ndarray) -> None:
    """Hide the string and word features of the mentions ``rows`` (in place): their
    head, first and last word slots read as an unknown word, their head, exact and
    relaxed string hashes are cleared (no string match with any candidate), their
    repetition counts zeroed, and the mention and head span vectors zeroed."""
    if not len(rows):
        return
    words = features.words
    words[np.ix_(rows, _MASKED_SLOTS)] = np.where(words[np.ix_(rows, _MASKED_SLOTS)] == 0, 0, MASK_HASH)
    features.hashes[np.ix_(rows, _MASKED_HASHES)] = 0
    features.codes[np.ix_(rows, _MASKED_COUNTS)] = 0
    dim = features.vectors.shape[1] // len(SPAN_VECTORS)
    for name in ("mention", "head"):
        block = SPAN_VECTORS.index(name)
        features.vectors[rows, block * dim:(block + 1) * dim] = 0.0


def make_tasks(doc: Doc, mentions, labels: np.ndarray, pronouns: Dict[int, str],
               clusters: Dict[str, int], rng: np.random.Generator) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Label the substituted pronouns and pick one later occurrence of each repeated
    name to mask (``labels`` updated in place).

    RETURNS (Tuple[ndarray, ndarray, ndarray]): the task anaphors (mention rows,
        int64), their kinds (index into TASKS, int8), and the rows to mask (int64).
    """
    rows, kinds = [], []
    index = {(int(s), int(e)): m for m, (s, e) in enumerate(zip(mentions.starts, mentions.ends))}
    for token, key in pronouns.items():
        m = index.get((token, token + 1))
        if m is not None and key in clusters:
            labels[m] = clusters[key]
            rows.append(m)
            kinds.append(TASKS.index("pronoun"))
    masked = []
    for label in np.unique(labels[labels >= 0]):
        names = [m for m in np.flatnonzero(labels == label) if mentions.types[m] == PROPER]
        if len(names) >= 2:
            masked.append(names[1 + int(rng.integers(len(names) - 1))])
    rows += masked
    kinds += [TASKS.index("masked_name")] * len(masked)
    return np.array(rows, dtype=np.int64), np.array(kinds, dtype=np.int8), np.array(masked, dtype=np.int64)


def substituted_docs(nlp: Language, texts: List[Tuple[str, str]], substituter: Substituter,
                     rng: np.random.Generator, reparse: bool,
                     batch_size: int) -> Iterator[Tuple[Doc, Dict[int, str]]]:
    """Each text parsed, with its substitutions made (see :meth:`Substituter.substitute`).

    reparse (bool): parse the substituted texts again (for ``doc.tensor``).
    YIELDS (Tuple[Doc, Dict[int, str]]): the Doc and its pronouns.
    """
    parsed = (substituter.substitute(doc, rng, reparse)
              for doc in nlp.pipe((t for _, t in texts), batch_size=batch_size))
    if not reparse:
        yield from parsed
        return
    pending: List[Dict[int, str]] = []  # the pronouns of the Docs in the pipe, in order

    def unparsed() -> Iterator[Doc]:
        for new, pronouns in parsed:
            pending.append(pronouns)
            yield new

    for doc in nlp.pipe(unparsed(), batch_size=batch_size):
        yield doc, pending.pop(0)


def pretrain_key(path: Union[str, Path], nlp: Language, rules: LanguageRules, options: Dict) -> str:
    """Hash of the text files, the pipeline, the rules, the schema and the options."""
    digest = hashlib.sha1()
    for file in text_files(Path(path)):
        digest.update(file.name.encode("utf8"))
        digest.update(file.read_bytes())
    digest.update(json.dumps([pipeline_id(nlp), rules.fingerprint(), inputs_fingerprint(rules), SCHEMA_HASH,
                              __version__, _FORMAT, options], sort_keys=True).encode("utf8"))
    return digest.hexdigest()[:16]


def featurize_text(path: Union[str, Path], nlp: Language, rules: LanguageRules, cache_dir: Union[str, Path],
                   use_vectors: bool, names_dir: Optional[Union[str, Path]] = None, seed: int = 0,
                   max_docs: Optional[int] = None, batch_size: int = 16,
                   progress: bool = True) -> FeaturizedCorpus:
    """Parse unlabeled text, make the self-supervised tasks and store them as a
    featurized corpus (or load it from the cache).

    path (str | Path): a ``.txt`` file, a folder of them, or JSONL(.gz) with ``text``.
    names_dir (str | Path | None): folder of ``female.txt`` and ``male.txt`` first
        names (None: the language's lexicon, see :func:`first_names`).
    use_vectors (bool): compute the span vectors from ``doc.tensor``.
    max_docs (int | None): use at most this many pieces of text (see :func:`pieces`).
    RETURNS (FeaturizedCorpus): its ``docs`` hold each document's "tasks" (mention
        rows within the document) and "kinds" (indices into TASKS).
    RAISES (NeuralcorefError): E465/E466 for bad input, E467 when the text gives no task.
    """
    options = {"seed": seed, "max_docs": max_docs, "use_vectors": use_vectors,
               "names": str(Path(names_dir).resolve()) if names_dir else "lexicon"}
    folder = Path(cache_dir) / f"pretrain-{Path(path).name}-{pretrain_key(path, nlp, rules, options)}"
    if (folder / MANIFEST).is_file():
        logger.info("Using pretraining data cached in %s", folder)
        return read_corpus(folder)
    rng = np.random.default_rng(seed)
    substituter = Substituter(first_names(rules, names_dir), rules)
    tables = FeatureTables(rules)
    features, labels, docs, inputs = [], [], [], []
    words: Counter = Counter()
    texts = list(pieces(read_texts(path), max_docs))
    for (text_id, _), (doc, pronouns) in tqdm(zip(texts, substituted_docs(nlp, texts, substituter, rng,
                                                                           use_vectors, batch_size)),
                                              total=len(texts), desc="pretraining data", unit="text",
                                              disable=None if progress else True):
        doc_vectors = use_vectors and doc.tensor is not None and doc.tensor.ndim == 2 and doc.tensor.shape[1] > 0
        prepared = prepare_doc(doc, rules, tables, doc_vectors)
        mentions, feats = prepared.mentions, prepared.features
        doc_labels, clusters = name_labels(doc, mentions)
        tasks, kinds, masked = make_tasks(doc, mentions, doc_labels, pronouns, clusters, rng)
        feats = MentionFeatures(*(np.array(a) for a in (feats.codes, feats.hashes, feats.words, feats.vectors)))
        mask_mentions(feats, masked)
        features.append(feats)
        labels.append(doc_labels)
        inputs.append(prepared.inputs)  # stored as for labelled data; pretraining decodes nothing
        docs.append({"id": text_id, "part": 0, "n_tokens": len(doc), "clusters": [],
                     "tasks": tasks.tolist(), "kinds": kinds.tolist()})
        words.update(t.lower_ for t in doc)
    counts = Counter(k for d in docs for k in d["kinds"])
    if not counts:
        raise NeuralcorefError(Errors.E467.format(path=path, n_docs=len(docs)))
    widths = {f.vectors.shape[1] for f in features if len(f)}
    width = max(widths) if widths else 0
    features = [f if f.vectors.shape[1] == width else
                MentionFeatures(f.codes, f.hashes, f.words, np.zeros((len(f), width), np.float32))
                for f in features]
    manifest = {"source": str(path), "spacy_pipeline": pipeline_id(nlp), "lang": rules.lang,
                "n_docs": len(docs), "n_tokens": int(sum(d["n_tokens"] for d in docs)),
                "vector_dim": width // len(SPAN_VECTORS), "n_candidates": int(sum(len(f) for f in features)),
                "tasks": {name: int(counts[i]) for i, name in enumerate(TASKS)},
                "n_gold": 0, "n_found": 0, "mention_recall": 0.0, "mention_precision": 0.0,
                "mention_recall_by_kind": {}, "document_mean": []}
    write_corpus(folder, features, labels, docs, manifest, dict(words), inputs)
    logger.info("Pretraining data from %s: %d texts, %d tokens, tasks %s", path, len(docs),
                manifest["n_tokens"], manifest["tasks"])
    return read_corpus(folder)

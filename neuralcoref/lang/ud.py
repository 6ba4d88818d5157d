"""Generic rules for any spaCy pipeline with Universal Dependencies labels.

For languages without rules of their own (see :func:`neuralcoref.lang.get_rules`):
UD parts of speech (``Token.pos_``) and UD v2 dependency labels (``Token.dep_``),
with the subtypes spaCy's UD-trained pipelines use ("nsubj:pass", "obl:arg",
"acl:relcl", "flat:name"...). No fine-grained tags and no word lists, which differ
by language; what tags tell in English comes from UD features (``Token.morph``)
here: possessive determiners are pronoun mentions ("Poss=Yes"), and a preposition
that holds the mention's article stays in it ("du", "del": "PronType=Art").

How UD differs from the English (ClearNLP) rules: a preposition is a ``case``
dependent *inside* its noun's subtree ("à la maison" is the subtree of "maison"),
so ``case`` is trimmed from mention edges instead of kept; a nominal predicate
heads its clause ("elle est une femme"), so its subject, copula and auxiliaries
are dropped (``left_drop_deps``) and its other clause dependents cut; a
coordinating conjunction hangs on the following conjunct, and every conjunct on
the first. ``bench/mention_recall.py --lang fr --rules ud`` measures their
recall against the French rules' (docs/languages.md).
"""
from .base import LanguageRules, labels

#: Subjects, objects, obliques and nominal modifiers, with common UD subtypes.
SUBJECT_DEPS = labels("nsubj", "nsubj:pass", "nsubj:outer", "csubj", "csubj:pass")
OBJECT_DEPS = labels("obj", "iobj", "obj:lvc", "obj:agent")
OBLIQUE_DEPS = labels("obl", "obl:arg", "obl:mod", "obl:agent", "obl:tmod", "obl:npmod")
NMOD_DEPS = labels("nmod", "nmod:poss", "nmod:tmod", "nmod:npmod", "nmod:gmod")
#: Clausal dependents: a shorter variant of a phrase ends before them.
CLAUSE_DEPS = labels("acl", "acl:relcl", "acl:cleft", "advcl", "parataxis", "ccomp",
                     "xcomp", "csubj")
#: A nominal predicate heads its clause in UD ("qui est [un palais]"): its
#: subject, copula and auxiliaries are left dependents, never in the mention...
CLAUSE_CORE_DEPS = SUBJECT_DEPS | labels(
    "cop", "aux", "aux:pass", "aux:tense", "expl", "expl:subj", "expl:impers")
#: ... and its other clause dependents are dropped in a variant.
PREDICATE_DEPS = CLAUSE_CORE_DEPS | OBLIQUE_DEPS | labels(
    "expl:pass", "expl:comp", "expl:pv", "obj", "iobj")

RULES = LanguageRules(
    lang="xx",
    noun_pos=labels("NOUN"),
    proper_pos=labels("PROPN"),
    pronoun_pos=labels("PRON"),
    number_pos=labels("NUM"),
    modifier_head_pos=labels("NUM", "ADJ"),
    verb_pos=labels("VERB", "AUX"),
    # Turns of a script, chat log or interview: "Mary: Are you coming?".
    turn_label_marks=labels(":"),
    # "son", "sein", "su", "his": possessive determiners are mentions of their own.
    pronoun_morphs=labels("Poss=Yes"),
    # "du", "au", Spanish "del": the contracted article belongs to the mention.
    untrimmed_morphs=labels("PronType=Art"),
    argument_deps=SUBJECT_DEPS | OBJECT_DEPS | OBLIQUE_DEPS | NMOD_DEPS
    | labels("conj", "appos", "ROOT", "root", "vocative", "dislocated", "xcomp"),
    number_head_deps=SUBJECT_DEPS | OBJECT_DEPS | OBLIQUE_DEPS,
    determiner_deps=labels("det", "det:poss", "nmod:poss"),
    preposition_deps=labels(),
    subject_deps=SUBJECT_DEPS | labels("expl", "expl:subj", "expl:impers"),
    conj_deps=labels("conj"),
    no_list_deps=labels("conj"),
    punct_deps=labels("punct"),
    # "fixed": the rest of a multiword preposition ("quant [à]", "il [y a]").
    trim_deps=labels("punct", "case", "cc", "cc:preconj", "mark", "discourse", "fixed"),
    right_cut_deps=NMOD_DEPS | CLAUSE_DEPS | PREDICATE_DEPS
    | labels("appos", "conj", "cc", "amod", "nummod", "advmod", "dep"),
    left_drop_deps=CLAUSE_CORE_DEPS,
    left_cut_deps=PREDICATE_DEPS | labels(
        "advmod", "cc", "cc:preconj", "mark", "discourse", "dep", "parataxis",
        "vocative", "punct"),
    # Of "plus rien" and "rien", gold takes the second (fr-litbank train: 52
    # times against 1 for leading adverbs).
    lead_deps=labels("advmod", "cc", "cc:preconj", "mark", "discourse", "dep", "parataxis",
                     "vocative", "punct", "fixed"),
    name_part_deps=labels("flat:name", "flat"),
    # The small words of European names ("Charles de Gaulle", "Vincent van Gogh").
    name_particles=labels("de", "d'", "d’", "du", "des", "la", "le", "les", "l'", "l’", "van", "von", "der",
                          "den", "ten", "ter", "zu", "di", "da", "del", "della", "dos", "y", "e", "bin", "ibn",
                          "al", "el", "mac"),
    entity_labels=labels("PER", "PERSON", "LOC", "GPE", "FAC", "ORG", "PRODUCT",
                         "EVENT", "WORK_OF_ART"),
    entity_classes={
        "PER": "person", "PERSON": "person", "ORG": "org", "LOC": "place", "GPE": "place",
        "FAC": "place", "NORP": "norp", "DATE": "time", "TIME": "time",
        "CARDINAL": "number", "ORDINAL": "number", "PERCENT": "number", "MONEY": "number",
        "QUANTITY": "number", "MISC": "other", "EVENT": "other", "WORK_OF_ART": "other",
        "LAW": "other", "LANGUAGE": "other", "PRODUCT": "other",
    },
    dep_classes={
        **dict.fromkeys(SUBJECT_DEPS | labels("expl", "expl:subj", "expl:impers"), "subject"),
        **dict.fromkeys(OBJECT_DEPS | labels("expl:comp", "expl:pv"), "object"),
        **dict.fromkeys(OBLIQUE_DEPS, "oblique"),
        # A mention headed by a determiner is a possessive one ("son", "sein").
        "det": "possessive", "det:poss": "possessive", "nmod:poss": "possessive",
        "xcomp": "predicate", "appos": "appositive", "conj": "conjunct",
        **dict.fromkeys(NMOD_DEPS - labels("nmod:poss"), "modifier"),
        "compound": "modifier", "amod": "modifier", "nummod": "modifier",
        "flat": "modifier", "flat:name": "modifier",
        "ROOT": "root", "root": "root",
    },
    content_pos=labels("NOUN", "PROPN", "ADJ", "NUM"),
    expletive_deps=labels("expl", "expl:subj", "expl:impers", "expl:pass"),
    # Binding (decoding only, see neuralcoref.core.discourse.binding): labels only, no words,
    # so principles B and C need a language's pronoun words to apply.
    binding_subject_deps=SUBJECT_DEPS - labels("csubj", "csubj:pass"),
    # Argument obliques only ("obl:arg"): "obl:mod" holds locatives.
    binding_object_deps=OBJECT_DEPS | labels("obl:arg", "obl:agent"),
    control_deps=labels("xcomp"),
    relative_clause_deps=labels("acl:relcl"),
    binding_predicate_deps=labels("appos", "punct", "cop", "xcomp"),
    extraposed_clause_deps=labels("ccomp", "xcomp", "csubj"),
)

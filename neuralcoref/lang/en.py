"""English rules for spaCy's English pipelines: PTB tags, ClearNLP dependency labels,
OntoNotes entity types.

The sets were chosen by measuring recall of gold mentions against candidates per
token on OntoGUM train and dev (see ``bench/mention_recall.py``); the comments say
what each choice bought.
"""
from .base import LanguageRules, labels
from .en_gender import gender_words

#: Titles before a name that GUM's mention spans hold ("Dr. William Glennie"),
#: for the entity linker (``link_span_titles``).
_SPAN_TITLES = labels(
    "dr", "mr", "mrs", "ms", "miss", "prof", "professor", "president", "senator", "governor", "judge",
    "justice", "gen", "general", "col", "capt", "captain", "lord", "lady", "sir", "king", "queen",
    "prince", "princess", "emperor", "pope", "saint", "st", "rev", "reverend", "father", "sister")

RULES = LanguageRules(
    lang="en",
    decoding_agreement=labels("gender", "number"),
    # Noun classes and first names (WordNet, Names Corpus: see lang/data/NOTICE).
    lexicons=labels("en_lexicon"),
    # Speakers of quotations, for decoding only (see neuralcoref.core.doc.quotes): the
    # quotation marks give no speaker features to the shipped models.
    speech_marks=labels('"', "“", "”", "``", "''"),
    speech_open_marks=labels("‘", "`"),
    speech_close_marks=labels("’"),
    # Turns of a script, chat log or interview: "Mary: Are you coming?".
    turn_label_marks=labels(":"),
    speech_verbs=labels("say", "reply", "ask", "answer", "add", "shout", "cry", "whisper",
                        "murmur", "mutter", "exclaim", "respond", "yell", "scream", "continue",
                        "explain", "insist", "repeat", "protest", "declare", "announce",
                        "remark", "observe", "retort", "sigh", "laugh", "call"),
    possessive_suffixes=labels("'s", "'"),
    noun_pos=labels("NOUN"),
    proper_pos=labels("PROPN"),
    pronoun_pos=labels("PRON"),
    number_pos=labels("NUM"),
    modifier_head_pos=labels("NUM", "ADJ"),
    pronoun_tags=labels("PRP", "PRP$"),
    possessive_pronoun_tags=labels("PRP$"),
    # "who", "which", "what" and existential "there" are almost never annotated.
    non_referential_pronoun_tags=labels("WP", "WP$", "WDT", "EX"),
    punct_tags=labels(".", ",", ":", "``", "''", "-LRB-", "-RRB-", "HYPH", "NFP",
                      "$", "#", "SYM"),
    open_bracket_tags=labels("-LRB-", "``"),
    close_bracket_tags=labels("-RRB-", "''"),
    # Demonstratives used as pronouns ("that is true"); spaCy tags them DT/PRON.
    pronoun_words=labels("this", "that", "these", "those"),
    partitive_words=labels("of"),
    argument_deps=labels("nsubj", "nsubjpass", "dobj", "pobj", "dative", "poss",
                         "conj", "appos", "attr", "ROOT"),
    # Bare numbers as arguments are mostly years ("in 1920") and "one".
    number_head_deps=labels("nsubj", "nsubjpass", "dobj", "pobj", "poss"),
    determiner_deps=labels("det", "poss"),
    preposition_deps=labels("prep"),
    conj_deps=labels("conj"),
    # In "X, Y and Z" spaCy may hang Z under Y; "Y and Z" is then no mention.
    no_list_deps=labels("conj"),
    case_deps=labels("case"),
    punct_deps=labels("punct"),
    trim_deps=labels("cc", "punct", "prep", "mark"),
    right_cut_deps=labels("prep", "relcl", "acl", "conj", "cc", "appos", "advmod",
                          "npadvmod", "amod", "nummod", "parataxis", "advcl", "intj"),
    left_cut_deps=labels("advmod", "intj", "neg", "preconj", "dep", "meta",
                         "parataxis", "cc", "mark"),
    # NORP ("American"), dates, times and amounts are rarely coreferent mentions.
    entity_labels=labels("PERSON", "FAC", "ORG", "GPE", "LOC", "PRODUCT", "EVENT",
                         "WORK_OF_ART", "LAW", "LANGUAGE"),
    entity_classes={
        "PERSON": "person", "ORG": "org", "GPE": "place", "LOC": "place", "FAC": "place",
        "NORP": "norp", "DATE": "time", "TIME": "time", "CARDINAL": "number",
        "ORDINAL": "number", "PERCENT": "number", "MONEY": "number", "QUANTITY": "number",
        "EVENT": "other", "WORK_OF_ART": "other", "LAW": "other", "LANGUAGE": "other",
        "PRODUCT": "other",
    },
    dep_classes={
        "nsubj": "subject", "nsubjpass": "subject", "csubj": "subject", "csubjpass": "subject",
        "expl": "subject", "dobj": "object", "dative": "object", "iobj": "object",
        "pobj": "oblique", "agent": "oblique", "poss": "possessive", "attr": "predicate",
        "oprd": "predicate", "appos": "appositive", "conj": "conjunct", "compound": "modifier",
        "nmod": "modifier", "npadvmod": "modifier", "amod": "modifier", "nummod": "modifier",
        "ROOT": "root",
    },
    content_pos=labels("NOUN", "PROPN", "ADJ", "NUM"),
    expletive_pronouns=labels("it"),
    expletive_deps=labels("expl", "nsubj", "nsubjpass"),
    gender_words=gender_words(),
    animate_pronouns=labels("i", "me", "my", "mine", "myself", "we", "us", "our", "ours",
                            "ourselves", "you", "your", "yours", "yourself", "yourselves",
                            "he", "him", "his", "himself", "she", "her", "hers", "herself",
                            "who", "whom", "whose", "someone", "somebody", "anyone",
                            "anybody", "everyone", "everybody", "nobody"),
    inanimate_pronouns=labels("it", "its", "itself", "something", "anything", "everything",
                              "nothing", "which"),
    # Chosen on OntoGUM, LitBank and GAP development together (0.5 to 1.5, any
    # subject or names only, one or two sentences back: docs/experiments/2026-11-27-name-parts.md).
    subject_salience=0.75,
    # Chosen on OntoGUM, LitBank and GAP development together (0.3 to 1.0; own
    # sentence, one or two back: docs/experiments/2026-11-27-it-things.md).
    thing_salience=0.5,
    thing_frame_deps=labels("attr", "acomp", "oprd", "ccomp", "xcomp"),
    degree_deps=labels("advmod", "npadvmod", "neg", "cc", "conj", "punct"),
    # Binding (decoding only, see neuralcoref.core.discourse.binding).
    binding_principles=labels("A", "B", "C", "N", "P", "I"),
    # Third person only: first and second person meet names as vocatives ("What
    # did you do, Sabrina?") and predicates ("we as Americans").
    binding_pronoun_words=labels("he", "him", "she", "her", "it", "they", "them"),
    # P for "its" only: for "his"/"her" ("John told Bill about his problems") it
    # cost OntoGUM and LitBank dev (docs/experiments/2026-11-26-binding.md,
    # 2026-11-26-anchoring.md).
    binding_possessive_words=labels("its"),
    reflexive_words=labels("myself", "yourself", "himself", "herself", "itself", "ourselves",
                           "yourselves", "themselves", "oneself"),
    binding_subject_deps=labels("nsubj", "nsubjpass"),
    binding_object_deps=labels("dobj", "dative", "iobj", "pobj"),
    binding_preposition_deps=labels("prep", "agent", "dative"),
    # Prepositions of arguments; locative and comitative ones ("near him", "with
    # him") take a pronoun bound by the subject ("He took it with him").
    binding_prepositions=labels("to", "about", "at", "for", "from", "by", "of"),
    # "argued with him", but "took the book with him".
    binding_objectless_prepositions=labels("with"),
    # Through the direct object ("made a dish for him", "started a conversation
    # with him"), but for picture nouns ("a story about him"): with "of" and
    # "about" LitBank dev lost 0.09.
    binding_noun_prepositions=labels("to", "at", "for", "from", "by", "with"),
    binding_accusative_words=labels("him", "her", "them"),
    binding_complement_deps=labels("ccomp", "xcomp"),
    control_deps=labels("xcomp"),
    finite_verb_tags=labels("VBD", "VBZ", "VBP"),
    nonfinite_verb_tags=labels("VB", "VBG", "VBN"),
    modal_tags=labels("MD"),
    past_verb_tags=labels("VBD"),
    # Verbs and the prepositional phrases they govern, which the parser may hang
    # on their object ("protected the designer from harm", "accused him of fraud").
    verb_frames=labels("protect from", "protect against", "save from", "rescue from", "prevent from",
                       "stop from", "keep from", "shield from", "accuse of", "convict of", "suspect of",
                       "inform of", "inform about", "remind of", "remind about", "warn of", "warn about",
                       "rob of", "deprive of", "cure of", "thank for", "blame for", "praise for",
                       "punish for", "forgive for", "reward for", "criticize for", "provide with",
                       "supply with", "present with", "help with", "charge with", "congratulate on",
                       "compliment on", "ask about", "ask for", "tell about", "discuss with", "share with"),
    # Titles before a name, whatever the lexicon says of them ("Miss Chaworth").
    title_words=labels("mr", "mrs", "ms", "miss", "mx", "dr", "sir", "dame", "madam", "madame",
                       "lady", "lord", "master", "mister", "mistress", "st", "saint", "rev"),
    # Adverbial clauses, prepositional and adverbial phrases before the main clause.
    preposed_deps=labels("advcl", "prep", "advmod", "npadvmod"),
    relative_clause_deps=labels("relcl"),
    relative_words=labels("who", "which", "that"),
    clausal_modifier_deps=labels("acl"),
    binding_expletive_deps=labels("expl"),
    binding_predicate_deps=labels("attr", "acomp", "oprd", "appos", "punct"),
    predicative_words=labels("as"),
    # Expletive "it" (see neuralcoref.core.mentions.expletives).
    weather_lemmas=labels("rain", "snow", "hail", "drizzle", "sleet", "thunder", "pour"),
    # With the participles the parser reads as predicate nouns ("it was [drizzling]").
    weather_adjectives=labels("cold", "hot", "warm", "cool", "sunny", "cloudy", "windy",
                              "foggy", "rainy", "stormy", "chilly", "freezing", "humid",
                              "late", "early", "dark", "raining", "snowing", "drizzling",
                              "pouring", "hailing"),
    ambient_entity_types=labels("TIME", "DATE"),
    # "take" with a clause: "It takes two hours to get there".
    extraposition_lemmas=labels("seem", "appear", "happen", "turn", "occur", "matter",
                                "follow", "transpire", "take"),
    raising_lemmas=labels("seem", "appear", "happen", "turn", "suppose", "expect", "believe", "say",
                          "know", "think", "report", "consider", "assume"),
    copula_lemmas=labels("be"),
    extraposed_clause_deps=labels("ccomp", "xcomp", "csubj"),
    # The parser hangs many an extraposed infinitive or "that" clause as "advcl"
    # ("it's hard for me [to] think", "It would be strange for Congress [to]
    # say"); "because" and "when" clauses stay out.
    marked_clause_deps=labels("advcl"),
    expletive_marks=labels("to", "that"),
    small_clause_deps=labels("ccomp", "xcomp", "oprd"),
    predicate_adjective_deps=labels("acomp"),
    cleft_deps=labels("attr"),
    # Clefts with any relative clause, and predicate nouns with a clause ("It is
    # a pity that"); the narrower rule is measured in
    # docs/experiments/2026-11-26-binding.md.
    extraposition_subject_deps=labels("nsubjpass", "expl"),
    extraposition_object_deps=labels("dobj"),
    # Gold mentions hold the title ("President Lincoln", not the entity "Lincoln")
    # and leave leading words out ("the book", not "just the book"): counts in
    # docs/experiments/2026-11-26-titles-pp-binding.md. Filters, so the shipped
    # models keep their fingerprints; at the next retrain the leading words can
    # move from left_cut_deps to left_drop_deps and never be proposed.
    title_deps=labels("compound"),
    double_object_lemmas=labels("owe", "give", "pay", "charge", "hand", "send", "offer", "show", "tell",
                                "teach", "lend", "sell", "bring", "promise", "grant", "deny", "cost",
                                "wish", "award", "feed", "serve"),
    lead_deps=labels("advmod", "intj", "neg", "preconj", "dep", "meta", "parataxis", "cc", "mark",
                     "punct"),
    # Entity linking (neuralcoref.core.linking): head words too general to name
    # one entity; the titles GUM's mention spans hold, and those the KB's aliases leave out.
    link_general_heads=labels("one", "ones", "thing", "things", "way", "part", "kind", "lot", "time", "year",
                              "years", "day", "days", "people", "man", "woman", "men", "women", "person",
                              "name", "first", "new"),
    link_span_titles=_SPAN_TITLES,
    link_leading_titles=_SPAN_TITLES | labels(
        "vice", "sen", "gov", "colonel", "lt", "lieutenant", "sgt", "sergeant", "major", "admiral", "dame",
        "duke", "brother", "bishop", "cardinal", "rabbi", "speaker", "secretary", "minister", "mayor",
        "chancellor", "representative", "rep", "congressman", "congresswoman", "ambassador", "detective",
        "officer", "coach", "uncle", "aunt", "madam", "madame", "mister", "sheikh", "chairman", "chief"),
)

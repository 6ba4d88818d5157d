"""Challenge sets for the shipped English and French models, written for the tests.

Each case is a short text with inline markup: ``[text|id]`` marks a mention of
entity ``id``; ``[text|-]`` a span that must be in no cluster (expletive "it",
a distractor). Marks nest (``[[her|1] brother|2]``). Turns of a dialogue are
lines ``Speaker: text``; their speakers go to the Doc as the CoNLL speaker column
would.

A case passes when the predicted clusters, seen through the marked spans, are
the expected ones: every expected entity with two or more mentions is exactly
one predicted cluster, every predicted cluster that contains a marked span
contains only marked spans of one entity, and ``-`` spans are in no cluster.
Clusters made only of unmarked spans are ignored.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Optional, Set, Tuple

from spacy.language import Language
from spacy.tokens import Doc

from neuralcoref.gold import set_speakers

Span = Tuple[int, int]  # character offsets


@dataclass(frozen=True)
class Case:
    name: str
    category: str
    markup: str


CASES: List[Case] = [
    # pronoun gender
    Case("gender_sister_dog", "gender",
         "[My sister|1] has [a dog|2]. [She|1] loves [him|2] very much."),
    Case("gender_john_mary", "gender",
         "[John|1] met [Mary|2] at the station. [He|1] gave [her|2] a ticket."),
    Case("gender_king_queen", "gender",
         "[The king|1] wrote to [the queen|2] because [she|2] had asked [him|1] for help."),
    Case("gender_father_daughter", "gender",
         "[The father|1] hugged [[his|1] daughter|2] before [she|2] left for school."),
    Case("gender_actress", "gender",
         "[The actress|1] thanked [the director|2]. [She|1] said [he|2] was brilliant."),
    # pronoun number
    Case("number_students_teacher", "number",
         "[The students|1] asked [the teacher|2] a question, and [she|2] answered [them|1]."),
    Case("number_company_workers", "number",
         "[The company|1] hired [two engineers|2]. [They|2] started on Monday."),
    Case("number_cats", "number",
         "[Anna|1] adopted [three cats|2]. [She|1] feeds [them|2] twice a day."),
    Case("number_parents", "number",
         "[My parents|1] sold [their|1] house. [They|1] moved to Spain."),
    # it
    Case("it_referential", "it",
         "[The laptop|1] was expensive, but [it|1] broke after a week."),
    Case("it_weather", "it",
         "[It|-] was raining when [Tom|1] arrived, so [he|1] stayed inside."),
    Case("it_extraposed", "it",
         "[It|-] is clear that [the plan|1] failed, and [it|1] will be replaced."),
    Case("it_time", "it",
         "[It|-] was late. [The museum|1] had closed, and [it|1] would open again at nine."),
    Case("it_object", "it",
         "[Sam|1] bought [a car|2] and drove [it|2] home."),
    # cataphora
    Case("cataphora_when", "cataphora",
         "When [she|1] arrived in Paris, [Marie|1] called [her|1] mother."),
    Case("cataphora_before", "cataphora",
         "Before [he|1] could answer, [the lawyer|1] was interrupted."),
    Case("cataphora_his", "cataphora",
         "In [his|1] speech, [the president|1] thanked the voters."),
    # dialogue: I and you with speakers
    Case("dialogue_i_you", "dialogue",
         "Anna: [I|1] think [you|2] are late.\nBen: [I|2] know, [I|2] am sorry."),
    Case("dialogue_we", "dialogue",
         "Anna: Did [you|2] see [the film|3]?\nBen: Yes, [I|2] saw [it|3] yesterday."),
    Case("dialogue_my", "dialogue",
         "Anna: Where is [my|1] bag?\nBen: [Your|1] bag is in the car."),
    Case("dialogue_same_speaker", "dialogue",
         "Anna: [I|1] lost [my|1] keys and [I|1] cannot find them."),
    # possessives
    Case("possessive_his", "possessive",
         "[Peter|1] loves [[his|1] dog|2]. [It|2] follows [him|1] everywhere."),
    Case("possessive_their", "possessive",
         "[The twins|1] painted [[their|1] room|2] blue."),
    Case("possessive_s", "possessive",
         "[[Mary|1]'s brother|2] is a pilot. [He|2] flies to Rome every week."),
    Case("possessive_its", "possessive",
         "[The bank|1] raised [[its|1] rates|2] again."),
    # appositives: one mention for the whole construction, as OntoNotes and
    # OntoGUM annotate them (an apposition is not a coreference link there)
    Case("appositive_ceo", "appositive",
         "[Tim Cook, the chief executive|1], announced [a new phone|2]. [He|1] said [it|2] would ship soon."),
    Case("appositive_city", "appositive",
         "[Paris, the capital of France|1], is crowded in summer, but [it|1] is quiet in winter."),
    Case("appositive_author", "appositive",
         "[The author, a former nurse|1], wrote [her|1] first novel at sixty."),
    # titles
    Case("title_dr", "title",
         "[Dr. Smith|1] examined [the patient|2]. [Smith|1] told [her|2] to rest."),
    Case("title_president", "title",
         "[President Lincoln|1] gave a speech. [Lincoln|1] spoke for two minutes."),
    Case("title_mr", "title",
         "[Mr. Brown|1] opened [the shop|2] at eight. [He|1] closed [it|2] at noon."),
    Case("title_ms", "title",
         "[Ms. Garcia|1] won the election, and [she|1] thanked [her|1] team."),
    # --- binding and expletives
    # principle A: a reflexive takes its local subject
    Case("binding_a_peter_himself", "binding",
         "[Peter|1] met [Paul|2]. [Peter|1] saw [himself|1] in the mirror."),
    Case("binding_a_doctor_himself", "binding",
         "[Tom|1] met [the doctor|2]. [The doctor|2] blamed [himself|2]."),
    Case("binding_a_mary_herself", "binding",
         "[Mary|1] bought [herself|1] a new coat."),
    Case("binding_a_children_themselves", "binding",
         "[The children|1] washed [themselves|1] before dinner."),
    # principle B: a pronoun is not a co-argument of its predicate
    Case("binding_b_he_him", "binding", "[He|1] saw [him|2]."),
    Case("binding_b_she_her", "binding", "[She|1] greeted [her|2]."),
    Case("binding_b_shared_subject", "binding",
         "[John|1] met [Bill|2] and wished [him|2] well."),
    Case("binding_b_accountant_janitor", "binding",
         "[The accountant|1] met [the janitor|2] and wished [him|2] well."),
    Case("binding_b_talked_to_her", "binding",
         "[Mary|1] met [Anna|2] and talked to [her|2]."),
    Case("binding_b_object_control", "binding",
         "[Mark|1] asked [Tom|2] to help [him|1]."),
    Case("binding_b_john_walks_dog", "binding",
         "[John|1] has [a dog|2]. [He|1] walks [him|2] every day."),
    # principle C: a name is not bound by a pronoun that c-commands it
    Case("binding_c_he_said_john", "binding", "[He|1] said that [John|2] left."),
    Case("binding_c_she_told", "binding", "[She|1] told [Peter|2] that [Mary|3] was ill."),
    Case("binding_c_after_john", "binding", "After [John|1] arrived, [he|1] sat down."),
    # possessives in their clause
    Case("possessive_clause_apple_microsoft", "possessive",
         "[Apple|1] said [its|1] revenue grew, while [Microsoft|2] blamed [its|2] cloud unit."),
    Case("possessive_clause_tom_job", "possessive",
         "[Mary|1] thinks that [Tom|2] loves [his|2] job."),
    # expletive "it": weather, extraposition, cleft
    Case("expletive_raining_laptop", "it",
         "I bought [a new laptop|1]. [It|-] is raining today, so I left [it|1] at home. "
         "[It|-] seems that [the battery|2] is weak."),
    Case("expletive_snowed", "it",
         "[It|-] snowed all night, and [the road|1] was closed because [it|1] was icy."),
    Case("expletive_important_that", "it",
         "[It|-] is important that [Sarah|1] finishes [her|1] report."),
    Case("expletive_turned_out", "it",
         "[It|-] turned out that [the car|1] was stolen, but [the police|2] found [it|1]."),
    Case("expletive_cleft", "it",
         "[It|-] was [Mary|1] who called, and [she|1] left a message."),
    Case("expletive_said_that", "it",
         "[It|-] is said that [the castle|1] is haunted, but [it|1] is empty."),
    Case("expletive_clear_that", "it",
         "[It|-] was clear that [the engine|1] was broken, so [Tom|2] fixed [it|1]."),
    Case("expletive_cold", "it",
         "[It|-] was cold, so [Lisa|1] wore [her|1] coat."),
]

#: French cases, most of them two-sentence texts: models trained on whole novels'
#: chapters once linked nothing in texts this short (the "document" vector, see
#: ``document_chunks`` in train/config.py).
FRENCH_CASES: List[Case] = [
    Case("court_marie", "short", "[Marie|1] est arrivée hier. [Elle|1] était fatiguée."),
    Case("court_jean", "short", "[Jean|1] est arrivé hier. [Il|1] était fatigué."),
    Case("court_paul_chien", "short", "[Paul|1] a [un chien|2]. [Il|1] [le|2] promène chaque matin."),
    Case("court_sophie_livre", "short", "[Sophie|1] lit [un livre|2]. [Elle|1] [le|2] trouve passionnant."),
    Case("court_medecin", "short", "[Le médecin|1] est venu ce matin. [Il|1] a examiné l'enfant."),
    Case("court_louise_cles", "short", "[Louise|1] a perdu [ses|1] clés. [Elle|1] les cherche partout."),
    Case("court_soeur", "short", "[Ma sœur|1] habite à Paris. [Elle|1] est avocate."),
    Case("court_roi", "short", "[Le roi|1] entra dans la salle. [Il|1] salua la foule."),
    Case("court_enfants", "short", "[Les enfants|1] jouent dans le jardin. [Ils|1] sont heureux."),
    Case("court_nicolas", "short", "[Nicolas|1] est malade. [Il|1] reste au lit."),
    Case("court_directrice", "short", "[La directrice|1] a parlé aux élèves. [Elle|1] était en colère."),
    Case("court_helene", "short", "[Hélène|1] a fini [ses|1] études. [Elle|1] cherche du travail."),
    Case("genre_marie_jean", "gender", "[Marie|1] a rencontré [Jean|2]. [Elle|1] [lui|2] a donné un livre."),
    Case("genre_jean_pluie", "gender", "[Jean|1] dit que s'[il|1] pleut, [il|1] restera chez [lui|1]."),
    Case("genre_noel_marthe", "gender", "[Noël|1] regarda [Marthe|2]. [Il|1] [lui|2] sourit."),
    Case("personne_maison", "animacy",
         "[Marie|1] a acheté [une maison|2]. [Elle|1] aime beaucoup [cette maison|2]."),
    # --- binding and expletives
    # "il" impersonnel: no mention
    Case("il_faut", "expletive", "[Il|-] faut que [Marie|1] parte, car [elle|1] est en retard."),
    Case("il_y_a", "expletive", "[Il|-] y a [un chat|1] dans le jardin. [Il|1] dort au soleil."),
    Case("il_pleut", "expletive", "[Il|-] pleut, alors [Paul|1] reste chez [lui|1]."),
    Case("il_semble", "expletive", "[Il|-] semble que [Jean|1] est malade. [Il|1] reste au lit."),
    Case("il_est_clair", "expletive", "[Il|-] est clair que [Sophie|1] a raison."),
    Case("il_fait_froid", "expletive", "[Il|-] fait froid, mais [Luc|1] sort sans [son|1] manteau."),
    # binding: object clitics (B), names under a subject pronoun (C), "se"
    Case("liage_b_clitique", "binding", "[Jean|1] a rencontré [Paul|2] et [l'|2] a salué."),
    Case("liage_b_lui", "binding", "[Marie|1] a vu [Sophie|2] et [lui|2] a parlé."),
    Case("liage_c_il_dit", "binding", "[Il|1] dit que [Pierre|2] est parti."),
    Case("liage_se", "binding", "[Jean|1] se regarde dans le miroir, puis [il|1] sort."),
]


@dataclass
class Parsed:
    text: str
    entities: Dict[str, List[Span]]  # id -> spans, "-" for no-cluster spans
    speakers: Optional[List[Tuple[int, int, str]]]  # (start, end, speaker) char ranges


def parse_markup(markup: str, dialogue: bool = False) -> Parsed:
    """Plain text, marked spans by entity and (``dialogue``: lines are turns
    ``Speaker: text``) the speakers' character ranges."""
    text: List[str] = []
    entities: Dict[str, List[Span]] = {}
    speakers: List[Tuple[int, int, str]] = []
    for n, line in enumerate(markup.split("\n")):
        if n:
            text.append("\n")
        if dialogue:
            speaker, line = line.split(": ", 1)
            turn_start = len("".join(text))
        opened: List[int] = []
        i = 0
        while i < len(line):
            char = line[i]
            if char == "[":
                opened.append(len("".join(text)))
            elif char == "|" and opened:
                close = line.index("]", i)
                entities.setdefault(line[i + 1:close], []).append((opened.pop(), len("".join(text))))
                i = close
            else:
                text.append(char)
            i += 1
        if dialogue:
            speakers.append((turn_start, len("".join(text)), speaker))
    return Parsed("".join(text), entities, speakers or None)


def parse_case(case: Case) -> Parsed:
    return parse_markup(case.markup, dialogue=case.category == "dialogue")


def make_doc(nlp: Language, parsed: Parsed) -> Doc:
    """Run the pipeline on a case, with its speakers set before the coref step."""
    doc = nlp.make_doc(parsed.text)
    if parsed.speakers:
        names = []
        for token in doc:
            names.append(next((s for a, b, s in parsed.speakers if a <= token.idx < b), "-"))
        set_speakers(doc, names)
    for _, proc in nlp.pipeline:
        doc = proc(doc)
    return doc


def check(doc: Doc, parsed: Parsed) -> List[str]:
    """The ways the predicted clusters miss the expected ones (empty: the case passes)."""
    entity_of = {span: ent for ent, spans in parsed.entities.items() for span in spans}
    predicted = [{(m.start_char, m.end_char) for m in cluster} for cluster in doc._.coref_clusters]
    problems: List[str] = []
    for cluster in predicted:
        marked = {entity_of.get(span) for span in cluster} - {None}
        if not marked:
            continue
        if "-" in marked or len(marked) > 1 or any(span not in entity_of for span in cluster):
            problems.append(f"wrong cluster {_show(parsed.text, cluster)}")
    for ent, spans in parsed.entities.items():
        if ent == "-" or len(spans) < 2:
            continue
        if set(spans) not in predicted:
            problems.append(f"missed entity {_show(parsed.text, set(spans))}")
    return problems


def _show(text: str, spans: Set[Span]) -> str:
    return "[" + ", ".join(repr(text[a:b]) for a, b in sorted(spans)) + "]"

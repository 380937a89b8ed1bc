"""What a fact-checker looks for first, as rules: each compares a passage with the claims it
cites and, when they disagree, says which kind of change it found and quotes both sides.

- **negation**: the passage negates what a claim asserts, or asserts what a claim negates
  ('did not improve' against 'improved by 12%'), in the same words or others about the same
  things ('cannot stand in for real user logs' against 'can substitute for real user logs'),
  or has a thing the claim says is absent ('needs a learned critic', 'without a learned
  critic'). A negation is read where it stands: 'beat AdamW on none of the six' negates
  'beat', 'None of the models evaluated by the authors reached' negates 'reached';
- **direction**: opposite movement or comparison (rose/fell, beat/trailed, higher/lower). A
  rank or comparison is read with its two sides: the opposite word with the sides swapped
  says the same ('X trailed Y' for 'Y ... above X'), the same word with them swapped does not;
- **date**: a month, day, weekday, season, quarter or half, or a relative date ('next year'),
  that the claims give differently or not at all, compared as periods however written ('the
  April-to-June quarter' and 'the three months to June' are Q2) and with the year they name
  (years, written with digits, are figures);
- **quantity**: percent against percentage points, 'more than' against 'less than', doubled
  against tripled, the fifth against the sixth, a unit by its symbol or its name ('GW',
  'gigawatts'), a factor in words against the one a claim states ('roughly double' for a 70%
  rise), a share in words against a claim's percentage, 'weeks of' against 'months of';
- **entity swap**: the claims' names in other roles: who did what to whom (the same verb done
  by another name, 'Harbor Capital led' for 'Kinetic Ventures led'), a place in a ranking
  ('Korea in second place'), a role after the same word and preposition ('a cohort from the
  Mayo Clinic'), whose figure;
- **modality**: a forecast or plan ('will', 'plans to', 'could', 'projects revenue of') where
  the claim reports a result, or a result where the claim reports a plan, a possibility, a
  proposal or a hypothesis ('proposes that', 'hypothesize that', 'could let labs stop'); a
  possibility made certain ('will exceed' for 'could exceed'); a step weighed made decided
  ('will be banned' for 'will consult on banning');
- **new predicate**: what the sentence asserts (a verb and the words it governs) is in no
  claim, however many topic words the sentence shares with them.

Every rule is lexical: word lists below, read in order, with a clause as the reach of a
negation or a modal, and a word's neighbours as what it is about. They were written against
``tests/verification/fact_check_cases.json`` and ``supported_cases.json``; the held-out set
measures them (``bench/supported_eval.py``). Texts are analysed once each (cached), as a story
cites the same claims from many passages.
"""

from __future__ import annotations

import datetime
import itertools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from functools import cache, lru_cache

from . import text as lex

# --- Word lists ------------------------------------------------------------------------------


def _forms(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Words a negation covers stop at a clause boundary: punctuation or one of these.
_CLAUSE_WORDS = _forms("but while whereas although though because which who whom and or after before since when as")

# A negation cue makes the next content words (up to NEGATION_REACH of them) negated.
_NEGATORS = _forms(
    "not no never none nor neither without cannot nothing nobody lack lacks lacked lacking hardly barely scarcely"
)
_NEGATOR_PHRASES = (
    ("failed", "to"),
    ("fails", "to"),
    ("fail", "to"),
    ("failing", "to"),
    ("unable", "to"),
    ("refused", "to"),
    ("declined", "to"),
    ("declines", "to"),
    ("decline", "to"),
    ("refuses", "to"),
    ("yet", "to"),
    ("no", "longer"),
    ("absence", "of"),
    ("rather", "than"),
    ("instead", "of"),
)
_NEGATOR_FIRST_WORDS = frozenset(phrase[0] for phrase in _NEGATOR_PHRASES)
# 'not only', 'no more than', 'no fewer than': no negation of what follows.
_NOT_NEGATING_NEXT = _forms("only just merely more less fewer later earlier")
NEGATION_REACH = 1
_BOTH_WAYS = {("with", "and"), ("with", "or")}
_ALL = _forms("any every all")
# Pronouns that negate a whole clause's assertion: 'none of the models passed'.
_NOBODY = _forms("none nobody neither nothing")
# Verbs that end what follows them as '-ing': 'stopped selling' is 'no longer sells'.
_CESSATION = _forms(
    "stop stops stopped stopping cease ceases ceased ceasing quit quits halted halts end ends ended ending"
)
# Verbs that take away what they govern: 'removing the critic' is 'without the critic'.
_REMOVALS = _forms(
    "remove removes removed removing drop drops dropped dropping eliminate eliminates eliminated eliminating "
    "omit omits omitted omitting strip strips stripped stripping ditch ditches ditched ditching exclude "
    "excludes excluded excluding withhold withholds withheld withholding"
)
# Verbs that keep what they govern from happening: 'prevented divergence' is 'no divergence'.
_PREVENTIONS = _forms(
    "prevent prevents prevented preventing avert averts averted averting avoid avoids avoided avoiding"
)
# Before 'out of': a thing kept away from another ('stays out of the training sets').
_KEEPING = _forms("keep keeps kept keeping stay stays stayed staying left leave leaves leaving")
# 'not after full translation': a negated time or condition, read past its clause word.
_NEGATED_ADJUNCT = _forms("after before when since")
# 'helped neither the smallest nor the largest', 'beat AdamW on none of the six': after the
# verb, these negate the verb.
_OBJECT_NEGATORS = _forms("none neither")
# Only these negate a verb ('did not improve'); 'no'/'without' negate a noun, which a
# paraphrase often says the other way round ('resists exact verifiers': 'no exact verifier').
_VERBAL_NEGATORS = _forms("not never cannot hardly barely scarcely")

# Polarity: word -> (concept, sign). Opposite signs of one concept contradict each other.
_POLARITY_LISTS = {
    ("level", 1): """
        rise rises rose risen rising increase increases increased increasing grow grows grew grown growing
        growth climb climbs climbed climbing gain gains gained gaining jump jumps jumped surge surged surges
        soar soared soars raise raises raised raising lift lifts lifted boost boosts boosted expand expands
        expanded expansion higher highest hike hiked hikes doubled tripled upturn rebound rebounded increase
        accelerate accelerated accelerates faster quicker strengthen strengthened widen widened won win
        wins gaining peaked larger bigger spiked spike rallied rally recovered ballooned swelled swell
        costlier pricier stronger warmer hotter advanced advances retreated skyrocketed soaring surging
        quadrupled longer wider profit profits profitable surplus lengthen lengthens lengthened
        denser upward upwards
    """,
    ("level", -1): """
        fall falls fell fallen falling decline declines declined declining decrease decreases decreased
        decreasing drop drops dropped dropping dip dipped dips slide slid slides slip slipped slips sink sank
        sunk plunge plunged plunges tumble tumbled tumbles slump slumped slumps shrink shrank shrunk shrinks
        shrinking contracted contraction lower lowered lowers lowest cut cuts cutting
        reduce reduced reduces reduction trim trimmed slash slashed loss losses lose loses lost losing
        downturn slow slowed slows slower slowdown slowing decelerate decelerated weaken weakened
        narrow narrowed halved smaller ease eased eases easing cooled soften softened tanked crashed
        collapsed dwindled cheaper weaker colder cooler plummeted plummet plummets sank slumping dragged
        dampened shorter narrower deficit unprofitable sparser shorten shortens shortened downward downwards
        curb curbs curbed
    """,
    ("rank", 1): """
        beat beats beaten beating outperform outperformed outperforms surpass surpassed surpasses exceed
        exceeded exceeds overtook overtake overtaken outpaced outpace ahead better best top topped led leads
        above met meets
    """,
    ("rank", -1): """
        trail trailed trails trailing lag lagged lags lagging underperform underperformed underperforms
        behind worse worst miss missed misses missing short below
    """,
    ("outcome", 1): """
        passed succeed succeeded succeeds success successful approve approved approves approval
        accept accepted accepts allow allowed allows permit permitted confirm confirmed confirms support
        supported supports improve improved improves improvement improving benefit benefited helped helps
        effective valid upheld uphold positive granted grant safe legal correct
        accurate praised praise welcomed welcome agreed cleared
    """,
    ("outcome", -1): """
        failed fails failure reject rejected rejects rejection deny denied denies ban banned bans
        blocked refuse refused refuses oppose opposed opposes worsen worsened worsens
        deteriorate deteriorated hurt hurts harm harmed harms damaged ineffective invalid overturned
        overturn negative dismissed vetoed veto unsafe illegal incorrect inaccurate
        criticised criticized condemned disagreed
    """,
    ("level", 0): "unchanged flat steady stable stagnant stagnated stalled plateaued",
    ("time", 1): "later delayed postponed",
    ("time", -1): "earlier sooner",
    ("continue", 1): "continued continues continue kept resumed resumes",
    ("continue", -1): "stopped stops ceased halted halts discontinued abandoned cancelled canceled scrapped suspended",
    ("trade", 1): "buy buys bought buying acquire acquired acquires purchase purchased",
    ("trade", -1): "sell sells sold selling divest divested divests offload offloaded",
}
POLARITY: dict[str, tuple[str, int]] = {
    word: concept for concept, words in _POLARITY_LISTS.items() for word in words.split()
}
# Winning and losing are not a movement of a level, whatever the lists say for direction.
_NOT_A_MOVEMENT = _forms("win wins won winning lose loses lost losing loss losses profit profits surplus deficit")
# By stem, for backing: a word of a movement backs another of the same movement ('lower' for
# 'dropped'). Only the plain up/down kind: ranks and outcomes say more than a direction.
POLARITY_STEMS: dict[str, tuple[str, int]] = {
    lex.stem(word): concept
    for concept, words in _POLARITY_LISTS.items()
    if concept[0] == "level"
    for word in words.split()
    if word not in _NOT_A_MOVEMENT
}
_ALSO_BOUND = _forms("more less fewer above below over under")  # before 'than'/a figure: a bound, not a direction
# Words that carry a direction only in some uses: never alone worth a reason.
_WEAK_POLARITY = _forms("led leads top more less fewer better best worse worst short support supports")

# Modality: a forecast, plan, hope or possibility, not a result.
_MODALS = _forms("will would shall could might should 'll")
# Before 'to': 'plans to', 'is expected to', 'set to', 'agreed to', 'projected to'.
_PLAN_WORDS = _forms(
    "plan plans planned planning intend intends intended aim aims aimed expect expects expected set "
    "hope hopes hoped seek seeks sought want wants wanted going due likely poised agreed agree agrees "
    "proposes propose proposed promised promises pledged pledges vowed vows prepared preparing "
    "projected predicted predicts scheduled threaten threatens threatened threatening hoping aiming"
)
_FORECAST_WORDS = _forms("potentially possibly eventually upcoming forthcoming")
# In a claim, any of these is enough to back a passage's forecast or plan.
_HEDGES = (
    _MODALS
    | _PLAN_WORDS
    | _FORECAST_WORDS
    | _forms(
        "must can able let lets allow allows allowed recommend recommends recommended advise advises target targets "
        "goal goals aim pledge proposal plan plans planned future next may might could would likely unlikely "
        "possible possibly potential potentially outlook guidance forecast expectation expectations estimated "
        "estimate estimates intention ambition bid wants seeks considering weighing mulling scheduled due "
        "announce announces announced unveil unveils unveiled"
    )
    | _forms(
        "propose proposes proposed hypothesize hypothesizes hypothesized hypothesise hypothesises hypothesised "
        "speculate speculates speculated posit posits posited conjecture conjectures conjectured theorize "
        "theorizes theorized theorise theorises theorised urge urges urged suggest suggests suggested "
        "believe believes believed think thinks hypothesis proposal"
    )
)
# 'next year', 'coming months': a time still to come.
_FUTURE_UNITS = _forms("year month week quarter season summer spring winter autumn years months weeks")

# Dates.
MONTHS = {
    name: number
    for number, names in enumerate(
        (
            "january jan",
            "february feb",
            "march mar",
            "april apr",
            "may",
            "june jun",
            "july jul",
            "august aug",
            "september sep sept",
            "october oct",
            "november nov",
            "december dec",
        ),
        start=1,
    )
    for name in names.split()
}
WEEKDAYS = _forms("monday tuesday wednesday thursday friday saturday sunday")
_ORDINAL_WORDS = {
    "first": 1,
    "second": 2,
    "third": 3,
    "fourth": 4,
    "fifth": 5,
    "sixth": 6,
    "seventh": 7,
    "eighth": 8,
    "ninth": 9,
    "tenth": 10,
    "eleventh": 11,
    "twelfth": 12,
    "thirteenth": 13,
    "fourteenth": 14,
    "fifteenth": 15,
    "twentieth": 20,
}
_RELATIVE = {"last": -1, "previous": -1, "past": -1, "this": 0, "current": 0, "next": 1, "coming": 1}

# Quantities: bounds on a figure, and multipliers.
_UPPER_BOUNDS = (
    ("less", "than"),
    ("fewer", "than"),
    ("under",),
    ("below",),
    ("up", "to"),
    ("at", "most"),
    ("nearly",),
    ("almost",),
    ("just", "under"),
    ("short", "of"),
    ("no", "more", "than"),
)
_LOWER_BOUNDS = (
    ("more", "than"),
    ("over",),
    ("above",),
    ("at", "least"),
    ("exceeding",),
    ("upwards", "of"),
    ("in", "excess", "of"),
    ("no", "fewer", "than"),
    ("no", "less", "than"),
    ("just", "over"),
)
_MULTIPLIERS = {
    "doubled": 2,
    "doubles": 2,
    "double": 2,
    "doubling": 2,
    "twice": 2,
    "twofold": 2,
    "tripled": 3,
    "triples": 3,
    "triple": 3,
    "tripling": 3,
    "threefold": 3,
    "quadrupled": 4,
    "quadruple": 4,
    "fourfold": 4,
    "halved": Decimal("0.5"),
    "halves": Decimal("0.5"),
    "halving": Decimal("0.5"),
    **{f"{word}fold": Decimal(value) for word, value in (("five", 5), ("six", 6), ("seven", 7), ("eight", 8))},
    "ninefold": Decimal(9),
    "tenfold": Decimal(10),
}

# Synonyms a paraphrase uses for a claim's word: each group backs its members for one another.
# Kept tight (words that stand in for each other in news copy); opposite directions never share
# a group.
_SYNONYM_GROUPS = """
    cut eliminate slash axe shed trim reduce lower scrap
    job jobs position role post redundancy redundancies layoff layoffs
    worker employee staff personnel workforce headcount
    rise increase grow climb gain jump surge soar advance lift boost raise hike
    fall drop decline decrease slide slip dip sink plunge tumble slump shrink contract
    buy acquire purchase takeover acquisition
    sell divest offload sale
    announce unveil launch introduce debut reveal release publish
    deliver ship hand
    resign quit depart
    appoint name hire recruit tap
    approve authorise authorize endorse sanction greenlight clear pass back
    win victory triumph
    double twice twofold doubled
    half halve halved halving
    predecessor previous prior
    goal score
    senate senator
    withdraw pull retract
    reject refuse deny dismiss veto
    sue lawsuit litigation
    fine penalty penalise penalize
    expect forecast predict project anticipate estimate outlook guidance expectation
    plan intend aim propose target
    complete finish finalise finalize conclude
    start begin commence open
    stop halt suspend pause cease end freeze
    follow track monitor
    build construct erect develop create design
    train teach
    paper preprint study
    show demonstrate reveal indicate
    outperform beat surpass exceed outpace top
    achieve attain
    use employ leverage apply
    need require
    hard difficult challenging
    cheap inexpensive
    fast quick rapid swift
    large big
    help aid assist
    problem challenge
    error mistake
    author researcher
    share proportion fraction percentage
    method approach technique recipe
    benchmark test eval evaluation
    pay wage salary
    profit earnings
    revenue sales turnover
    cost price expense spending fee charge
    pay spend
    firm company business group maker manufacturer operator
    factory plant facility site
    output production manufacturing produce
    headquarters office hq
    customer client user buyer consumer subscriber shopper
    study research trial experiment
    result finding outcome
    improve enhance strengthen
    worsen deteriorate weaken
    help aid assist enable
    need require depend
    replace substitute supplant
    investigate probe examine inquiry investigation review scrutinise scrutinize
    warn caution
    agree accept consent
    ban prohibit outlaw forbid bar
    allow permit let
    publish issue
    reach achieve attain hit score
    big large major huge significant substantial
    small minor slight modest little
    fast quick rapid swift
    consecutive straight successive row
    coach manager
    defeat loss
    shares stock
    doctor physician
    car vehicle
    city town municipal
    school pupil student
    stronger strengthen
    lawmaker legislator parliament congress
    law legislation bill act
    election vote ballot poll
    drug medicine medication treatment
    patient
    hospital clinic
    council
    rain rainfall
    temperature heat
    storm hurricane cyclone typhoon
    flood flooding
    injury injured hurt
    death died killed dead fatality fatalities
    arrest detain
    charge charged accuse accused
    police officer
    court judge tribunal
    ruling decision verdict judgment
    government administration ministry authorities
    minister secretary
    region area
    country nation national
    people residents
    home house housing
    train rail railway
    flight route
    airport
    energy power electricity
    capacity
    investment invest funding fund
    loan credit lending
    debt borrowing
    deal agreement contract accord
    merger merge combine
    partner partnership alliance
    launch rollout
    model system
    accuracy accurate
    benchmark test evaluation
    error mistake
    train training trained
    dataset data
    paper preprint report
    author researcher scientist
    fund finance pay
    fix repair mend
    freeze halt
    postpone delay defer
    operation surgery
    recall
    quit leave
    poll survey
    intend plan
    wipe erase
    tag
    efficacy effective
    ease slow
    overcharge
    shop store retailer
    phone smartphone mobile
    kid child children
    apply application applicant
    penalty fine
    global worldwide
    demand consumption usage
    vaccination vaccinations immunisation immunization vaccine vaccines
    flag flagged catch caught detect detected spot spotted
    ship shipping shipment shipments deliver delivery deliveries
"""
SYNONYMS: dict[str, frozenset[int]] = {}
for _number, _line in enumerate(line for line in _SYNONYM_GROUPS.strip().splitlines() if line.strip()):
    for _word in _line.split():
        _key = lex.stem(_word)
        SYNONYMS[_key] = SYNONYMS.get(_key, frozenset()) | {_number}

# Light words: said in news copy about anything, so they say little about what a passage asserts.
# They weigh LIGHT_WEIGHT in coverage and cannot alone make a new predicate.
_LIGHT = """
    people group groups number numbers level levels rate rates area areas case cases point points
    system systems service services work works working world country countries government market
    markets business businesses data information result results change changes changed plan plans
    program programme programs project projects issue issues problem problems question questions
    percent share shares total average high low large small big major key main important good better best
    public private local national international global general common current recent early late
    end start begin began begun began period term effort efforts move moves step steps
    set sets get gets got give gives gave take takes took come comes came go goes went keep keeps kept
    need needs want wants help helps look looks seem looks make including include includes included
    amount level value values figure figures cost costs price prices
    major minor overall total average annual quarterly monthly daily yearly
    lab labs trial trials official officials spokesperson spokesman spokeswoman statement
    following follow follows followed face faces faced serve serves served bring brings brought hold holds
    held turn turns turned run runs ran stand stands stood live lives lived leave leaves left meet meets
    happen happens happened become becomes remain remains remained stay stays stayed continue continues
    continued seek seeks sought appear appears appeared mean means meant include including involve
    involves involved provide provides provided offer offers offered allow allows allowed consider
    considers considered expect expects expected reach reaches reached receive receives received
    thing things side sides part parts place places piece pieces kind kinds sort type types form forms
    fact facts reason reasons way ways lot lots range ranges deal deals side field fields line lines
    real actual certain clear likely possible various several whole entire full own particular specific
    further additional extra other another same similar different new old recent latest previous next
    current former later earlier far close near long short wide broad deep
"""
LIGHT = frozenset(lex.stem(word) for word in _LIGHT.split())
LIGHT_WEIGHT = 0.5

# Verb forms the place of a word does not give away ('fell', 'won', 'sold').
_VERB_FORMS = _forms(
    "sold bought won lost made took gave went came got kept held led left met paid put ran said saw set "
    "told wrote built drew fell grew rose hit cut shut spent sent lent struck stood thought became began "
    "broke brought caught chose fought found hid knew meant sought taught understood"
)
# Common news verbs in their plain form: with an -s, -es or -ed they are verbs too.
_BASE_VERBS = _forms(
    "sell buy replace rewrite build close open prevent cause ban raise hire fire sue approve reject launch "
    "cancel delay predict double join leave pay meet create destroy produce develop require allow block "
    "reduce increase remove add acquire merge expand invest borrow lend spend save earn owe charge supply "
    "deliver ship sign win lose beat lead fund cover offer provide release publish announce report warn "
    "order force end stop start halt suspend resume seize arrest kill injure damage hurt help support "
    "oppose back endorse accuse deny confirm admit claim appoint name elect vote pass veto repeal extend "
    "drop cut boost lift lower slash shed split move shift switch transfer link power train test run "
    "outperform overtake solve fail succeed collapse crash recover rebound grow shrink rise fall climb "
    "exceed halve triple quadruple import export export manufacture recall fine penalise penalize ignore "
    "threaten promise pledge vow plan aim expect hope seek target handle treat cure detect predict leak "
    "steal hack breach attack defend protect store collect share track monitor sue settle owe close "
    "blame prove retract adopt solve replace acquire merge partner invest license patent ban sanction "
    "criticise criticize praise resign retire quit dismiss sack arrest charge convict acquit jail "
    "bankrupt default delist list float spin divest outsource automate abandon scrap withdraw drop "
    "flag discover operate deploy install recruit invent audit inspect investigate probe diagnose screen "
    "prescribe classify translate"
)
_CAUSATIVES = _forms("let lets help helps make makes allow allows enable enables")

# Verbs a paragraph often uses in place of the claim's verb without changing what is asserted.
_CARRIER_VERBS = _forms("reach reached post posted record recorded see saw seen hit hits")

# --- Tokens ----------------------------------------------------------------------------------

_TOKEN = re.compile(
    r"(?P<word>[A-Za-z][A-Za-z0-9]*(?:'[A-Za-z]+)?)"
    r"|(?P<number>[$€£¥]?\d(?:\d|,(?=\d))*(?:\.\d+)?%?)"
    r"|(?P<punct>[.,;:!?()\"]|\s[-\u2013\u2014]\s)"
)


@dataclass(slots=True)
class Token:
    text: str
    low: str
    stem: str
    start: int
    end: int
    kind: str  # word, number or punct
    content: bool = False
    boundary: bool = False  # ends a clause
    name: bool = False
    negated: bool = False
    head: bool = False  # the first word a negation covers: the one it is about
    nominal: bool = False  # negated by 'no', 'without', 'none': a noun's negation
    verbal: bool = False  # negated by 'not', 'never', 'failed to': a verb's negation
    cue: bool = False  # part of a negation cue
    in_negated_clause: bool = False  # a negation cue stands earlier in its clause
    removed: bool = False  # taken away by a verb ('removing the critic'): negated, but no movement
    subject_negated: bool = False  # after 'none of ...', 'nobody': what the clause says, said of no one

    @property
    def key(self) -> str:
        return _key(self.stem)


@dataclass
class Clause:
    """A text (one sentence of a passage, or one claim) read for the rules."""

    text: str
    tokens: list[Token]
    stems: frozenset[str]
    names: list[tuple[int, int, str]] = field(default_factory=list)  # (first, last token, lowered)
    modals: list[tuple[int, int]] = field(default_factory=list)  # (marker token, governed token)
    hedged: bool = False  # any hint of a plan, forecast, possibility or obligation
    found_names: frozenset[str] | None = None
    contexts: dict[int, frozenset[str]] = field(default_factory=dict)
    movements: dict[int, tuple[str, int]] | None = None
    verbs: list[int] | None = None
    all_stems: frozenset[str] | None = None
    numbers: dict[str, list[int]] | None = None
    word_index: dict[str, list[int]] | None = None
    doers: list[tuple[int, list[int]]] | None = None
    prefixed: dict[str, int] | None = None
    owners: dict[int, frozenset[str]] | None = None
    told_apart: dict[int, tuple[frozenset[str], list[frozenset[str]]]] | None = None


def real_names(clause: Clause) -> frozenset[str]:
    """What ``lex.names`` finds in a text: names, not capitalised sentence openers."""
    if clause.found_names is None:
        clause.found_names = frozenset(name.lower() for name in lex.names(clause.text)) if clause.names else frozenset()
    return clause.found_names


def _key(stem: str) -> str:
    """The stem without a final 'e', so 'hire' meets 'hired' ('hir') and 'close' 'closed'."""
    return stem[:-1] if stem.endswith("e") and len(stem) > 3 else stem


def _tokens(text: str) -> list[Token]:
    tokens = []
    stopwords, clause_words, stem = lex.STOPWORDS, _CLAUSE_WORDS, lex.stem
    for match in _TOKEN.finditer(text):
        kind = match.lastgroup
        raw = match.group()
        if kind == "word":
            low = raw.lower()
            bare = low[:-2] if low.endswith("'s") else low
            content = len(bare) > 2 and bare not in stopwords
            tokens.append(Token(raw, low, stem(low), match.start(), match.end(), kind, content, low in clause_words))
        else:
            raw = raw.strip()
            tokens.append(Token(raw, raw, raw, match.start(), match.end(), kind, False, kind == "punct"))
    return tokens


def _mark_names(clause: Clause) -> None:
    """Capitalised words that are not stopwords or dates, merged into spans ('Delmar Chemicals').
    A sentence's first word counts too: the rules use names found on both sides, so a common
    word that opens a sentence is harmless here."""
    tokens = clause.tokens
    index = 0
    while index < len(tokens):
        token = tokens[index]
        bare = token.low[:-2] if token.low.endswith("'s") else token.low
        if (
            token.kind == "word"
            and token.text[0].isupper()
            and bare not in lex.STOPWORDS
            and bare not in MONTHS
            and bare not in WEEKDAYS
            and bare not in _ORDINAL_WORDS
        ):
            last = index
            while last + 1 < len(tokens) and not tokens[last].low.endswith("'s"):
                following = tokens[last + 1]
                if (
                    following.kind == "word" and following.text[0].isupper() and following.low not in lex.STOPWORDS
                ) or _glued(clause.text, tokens[last], following):
                    last += 1  # 'Delmar Chemicals', 'GPT-4.5', 'KRM-8B', 'Llama-3.1-70B-Instruct'
                elif (
                    following.kind == "number" and _VERSION.fullmatch(following.text) and not _counts(tokens, last + 2)
                ):
                    last += 1  # 'Claude Sonnet 4 used', 'Grok 3'
                elif (
                    following.kind == "number"
                    and last + 2 < len(tokens)
                    and tokens[last + 2].kind == "word"
                    and tokens[last + 2].text[0].isupper()
                    and tokens[last + 2].low not in lex.STOPWORDS
                    and tokens[last + 2].low not in MONTHS
                ):
                    last += 2  # 'Gemini 2.5 Pro', 'Claude 3.5 Sonnet'
                else:
                    break
            span = " ".join((t.low[:-2] if t.low.endswith("'s") else t.low) for t in tokens[index : last + 1])
            for t in tokens[index : last + 1]:
                t.name = True
            clause.names.append((index, last, span))
            index = last + 1
        else:
            index += 1


# A version after a name ('Claude Opus 4', 'Grok 3.5'), unless the number counts what follows.
_VERSION = re.compile(r"\d{1,2}(?:\.\d)?")
_COUNTED = _forms(
    "percent per point points million billion trillion times years months weeks days hours minutes seconds people of"
)


def _counts(tokens: list[Token], index: int) -> bool:
    return index < len(tokens) and (tokens[index].low in _COUNTED or tokens[index].low in NUMBER_WORDS)


def _glued(text: str, previous: Token, token: Token) -> bool:
    """A version, size or suffix written onto a name: '-4.5', '-8B', '-Instruct', '3'."""
    joint = text[previous.end : token.start]
    if token.kind == "punct" or joint not in ("", "-", "."):
        return False
    return token.kind == "number" or joint == "" or token.text[0].isupper() or token.text[0].isdigit()


def _mark_negation(tokens: list[Token]) -> None:
    for index, token in enumerate(tokens):
        if token.kind != "word":
            continue
        cue_end = None
        verbal = True
        removal = prevention = False
        if token.low in _NEGATOR_FIRST_WORDS:
            for phrase in _NEGATOR_PHRASES:
                if tuple(t.low for t in tokens[index : index + len(phrase)]) == phrase:
                    if phrase[0] in _DECLINE and not _verb_after_to(tokens, index + 2):
                        break  # 'declined to about 29%': a fall, not a refusal
                    cue_end = index + len(phrase) - 1
                    verbal = phrase[0] not in ("rather", "instead", "absence")
                    break
        following_word = tokens[index + 1] if index + 1 < len(tokens) else None
        if (
            cue_end is None
            and (token.low in _REMOVALS or token.low in _PREVENTIONS)
            and following_word is not None
            and (
                following_word.low in _DETERMINERS
                or following_word.low in _ALL
                # 'eliminates synchronous idle bubbles'; a 'drop' needs its determiner, so 'sales
                # dropped sharply' stays a movement.
                or (following_word.content and not token.low.startswith("drop"))
            )
        ):
            # 'dropping the learned critic' says what 'without a learned critic' says: a noun's
            # negation; 'prevented divergence' what 'no divergence' says.
            cue_end, verbal, removal = index, False, token.low in _REMOVALS
            prevention = not removal
        if (
            cue_end is None
            and token.low == "out"
            and index
            and tokens[index - 1].low in _KEEPING
            and following_word is not None
            and following_word.low == "of"
        ):
            # 'customer data stays out of training sets': the data is not in them.
            cue_end, verbal, removal = index + 1, False, True
        if cue_end is None and token.low in _NEXT_TO_NOTHING and _did_nothing(tokens, index):
            continue  # 'did nothing to curb', 'says little about': the verb is denied
        if cue_end is None and _elliptic_negation(tokens, index):
            continue  # 'but that storing pirated copies was not': the subject is denied the predicate
        if cue_end is None and (token.low in _NEGATORS or token.low.endswith("n't")):
            following = tokens[index + 1].low if index + 1 < len(tokens) else ""
            if following in _NOT_NEGATING_NEXT or (following_word is not None and following_word.kind == "number"):
                continue  # 'not only', 'barely 5%': no negation of what follows
            if token.low == "not" and index and tokens[index - 1].low == "or":
                continue  # 'whether or not they were correct': both ways, no negation
            if token.low == "without" and index > 1 and (tokens[index - 2].low, tokens[index - 1].low) in _BOTH_WAYS:
                continue  # 'code written with and without AI help': both ways, no absence
            if (token.low == "not" or token.low.endswith("n't")) and _until_in_clause(tokens, index):
                continue  # 'would not launch until accuracy improved': put off, not denied
            if token.low in _OBJECT_NEGATORS and _negate_verb_before(tokens, index):
                continue
            cue_end = index
            verbal = token.low in _VERBAL_NEGATORS or token.low.endswith("n't")
            if token.low in _OBJECT_NEGATORS and following == "of":
                # 'none of the 11 models reached': the predicate is negated, not the models.
                _negate_verb_after(tokens, index)
                token.cue = True
                continue
        if cue_end is None:
            continue
        for t in tokens[index : cue_end + 1]:
            t.cue = True
        reached = 0
        # A verb's negation covers the verb; 'no'/'without' cover a noun and its modifier.
        reach = NEGATION_REACH if verbal else NEGATION_REACH + 1
        for offset, t in enumerate(tokens[cue_end + 1 : cue_end + 7]):
            if t.boundary and not (offset == 0 and t.low in _NEGATED_ADJUNCT):
                break
            after = cue_end + 2 + offset
            if t.name and not verbal and after < len(tokens) and tokens[after].content:
                t.negated = True  # 'out of Vellum Labs' training sets': the name qualifies what is negated
                continue
            if t.content:
                t.negated = True
                # A prevention ('prevented severe illness', said also 'effective against severe
                # illness') agrees with a negation but is no contradiction's head.
                t.head = reached == 0 and token.low not in ("rather", "instead") and not prevention
                t.verbal = verbal
                t.nominal = not verbal
                t.removed = removal
                reached += 1
                if reached == reach:
                    break
    for previous, token in itertools.pairwise(tokens):
        # 'critic-free': without a critic.
        if token.low == "free" and token.start == previous.end + 1 and previous.content:
            previous.negated = previous.head = True
    nobody = False
    for index, token in enumerate(tokens):
        if token.boundary:
            nobody = False
        elif nobody and not token.head:
            # 'no model exceeded 25%': the verb a subject's 'no' reaches is said of no one too.
            token.subject_negated = True
        following = tokens[index + 1].low if index + 1 < len(tokens) else ""
        if token.low in _NOBODY or (token.low == "not" and following in ("one", "single")):
            nobody = True  # 'none of the models passed', 'not one of the chatbots refused'
        elif _opens_subject(tokens, index):
            nobody = True  # 'said no model scored above 25%': said of no model
    negated_clause = False
    denied_reason = False  # 'not because the model is bad, but ...': the reason is denied
    for index, token in enumerate(tokens):
        # 'did not help the smallest or the largest model': an 'or' goes on with the denial.
        if token.boundary and token.low != "or" and not (denied_reason and token.low in ("because", "since", ",")):
            negated_clause = False
        if token.low == "but" or token.low in (".", ";", ":"):
            denied_reason = False
        token.in_negated_clause = negated_clause or token.negated or denied_reason
        if token.cue:
            negated_clause = True
            following = tokens[index + 1].low if index + 1 < len(tokens) else ""
            denied_reason = denied_reason or (token.low == "not" and following in ("because", "since"))


# 'did nothing to curb reward hacking', 'did little to slow', 'says little about the flaws':
# the verb after 'to', or the verb of saying before 'about', is denied.
_NEXT_TO_NOTHING = _forms("nothing little")
_DOING = _forms("do does did done doing")
_TELLING = _forms("say says said tell tells told reveal reveals revealed show shows showed")


def _did_nothing(tokens: list[Token], index: int) -> bool:
    """Mark the verb 'nothing' or 'little' denies, if it denies one; whether it did."""
    previous = tokens[index - 1].low if index else ""
    following = tokens[index + 1].low if index + 1 < len(tokens) else ""
    if previous in _DOING and following == "to" and _verb_after_to(tokens, index + 2):
        verb = index + 2
    elif previous in _TELLING and following in ("about", "of"):
        verb = index - 1
    else:
        return False
    tokens[index].cue = True
    _negate(tokens[verb])
    return True


ELLIPSIS_WORDS = 4
_ELLIPTIC_VERBS = _forms("was were is are did does do has have had")


def _elliptic_negation(tokens: list[Token], index: int) -> bool:
    """'..., but that storing pirated copies was not.': a 'not' that ends its clause after a
    form of 'be', 'do' or 'have' denies the earlier predicate of its clause's subject. Marks the
    subject's words denied; whether it was one."""
    token = tokens[index]
    if token.low != "not" or index < 2 or tokens[index - 1].low not in _ELLIPTIC_VERBS:
        return False
    if index + 1 < len(tokens) and not (tokens[index + 1].kind == "punct" or tokens[index + 1].boundary):
        return False
    subject = []
    position = index - 2
    while position >= 0 and not tokens[position].boundary and tokens[position].low != "that":
        if tokens[position].content:
            subject.append(tokens[position])
        position -= 1
    if not subject or len(subject) > ELLIPSIS_WORDS:
        return False
    token.cue = True
    for word in subject:
        _negate(word)
    return True


_DECLINE = _forms("decline declines declined")
# After 'declined to', what a fall reaches rather than a verb refused.
_FALL_TARGETS = _forms("about around roughly nearly almost just below under record level levels low lows zero")


def _verb_after_to(tokens: list[Token], index: int) -> bool:
    """Whether the word after 'to' reads as a verb ('declined to comment'), not a level."""
    if index >= len(tokens):
        return False
    token = tokens[index]
    return (
        token.kind == "word"
        and token.low not in _DETERMINERS
        and token.low not in NUMBER_WORDS
        and token.low not in _FALL_TARGETS
        and not token.name
    )


def _opens_subject(tokens: list[Token], index: int) -> bool:
    """A 'no' that opens its clause's subject: 'said no model scored above 25%'."""
    return tokens[index].low == "no" and (
        not index or tokens[index - 1].boundary or tokens[index - 1].low in _SUBJECT_BEFORE
    )


def _until_in_clause(tokens: list[Token], index: int) -> bool:
    for token in tokens[index + 1 :]:
        if token.boundary:
            return False
        if token.low == "until":
            return True
    return False


def _negate(token: Token) -> None:
    token.negated = token.head = token.verbal = True


def _negate_verb_before(tokens: list[Token], index: int) -> bool:
    """'beat AdamW on none of the six': a 'none' or 'neither' after its clause's verb negates
    the verb. Whether there was such a verb."""
    verbs = []
    position = index - 1
    while position >= 0 and not tokens[position].boundary:
        if tokens[position].content and _verb_form(tokens, position):
            verbs.append(position)
        position -= 1
    if not verbs:
        return False
    # 'sold shares to neither': a past or irregular form is surer a verb than a plural noun.
    sure = [
        position for position in verbs if not tokens[position].low.endswith("s") or tokens[position].low in POLARITY
    ]
    tokens[index].cue = True
    _negate(tokens[(sure or verbs)[0]])
    return True


NONE_OF_REACH = 10


def _negate_verb_after(tokens: list[Token], index: int) -> None:
    """'None of the 11 models evaluated by the authors reached 20%': the verb after the
    'none of' phrase, not a participle of it ('evaluated by'), is what is negated."""
    for position in range(index + 2, min(len(tokens), index + NONE_OF_REACH)):
        token = tokens[position]
        if token.boundary and token.kind == "punct":
            return
        # 'evaluated by the authors', 'planted in 2020' describe the things; 'were verified by'
        # is the verb.
        following = tokens[position + 1].low if position + 1 < len(tokens) else ""
        participle = following == "by" or (
            token.low.endswith("ed") and tokens[position - 1].content and following in _ADJUNCT_PREPOSITIONS
        )
        if participle and tokens[position - 1].low in _BE:
            participle = False
        if token.content and not participle and _verb_form(tokens, position):
            _negate(token)
            return


def _verb_form(tokens: list[Token], index: int) -> bool:
    """A verb by its form or place, for reading a clause's negation (names are no verbs)."""
    token = tokens[index]
    if token.name or token.kind != "word":
        return False
    previous = tokens[index - 1].low if index else ""
    if previous in _DETERMINERS:
        return False
    low = token.low
    return (
        previous in _AUXILIARIES
        or previous.endswith("n't")
        or low in POLARITY
        or low in _VERB_FORMS
        or low in _BASE_VERBS
        or any(low.endswith(suffix) and low[: -len(suffix)] in _BASE_VERBS for suffix in ("s", "es", "ed", "d", "ing"))
        or (low.endswith("ed") and len(low) > 4)
    )


def _mark_modals(clause: Clause) -> None:
    tokens = clause.tokens
    for index, token in enumerate(tokens):
        if token.kind != "word":
            continue
        following = tokens[index + 1].low if index + 1 < len(tokens) else ""
        if (
            token.low in _FORECASTING
            and index > 0
            and (tokens[index - 1].name or tokens[index - 1].low in _PRONOUNS)
            and following not in ("to", "that", ",")
            and index + 1 < len(tokens)
            and not tokens[index + 1].boundary
        ):
            # 'Quarry AI projects Q3 revenue of $84 million': a forecast of what follows.
            clause.modals.append((index, _governed(tokens, index)))
            continue
        if token.low in _CONJECTURES and following == "that":
            # 'proposes that vendors publish', 'hypothesize that collapse is driven': what the
            # that-clause says is put forward, not found.
            verb = _that_verb(clause, index + 2)
            if verb is not None:
                clause.modals.append((index, verb))
            continue
        if token.low in _PLAN_WORDS:
            # 'plans to', 'is expected to', 'set to', 'agreed to': a plan, not a result.
            marker = following == "to" or (
                token.low in ("plan", "plans") and index > 0 and tokens[index - 1].low in ("a", "the", "its", "their")
            )
            if not marker and token.low in _EXPECTING:
                # 'expect the model to reach': the forecast's verb comes after its subject.
                to = next((i for i in range(index + 2, min(len(tokens), index + 7)) if tokens[i].low == "to"), None)
                if to is not None and all(not t.boundary for t in tokens[index + 1 : to]):
                    clause.modals.append((index, _governed(tokens, to)))
                    continue
        elif token.low in _WEIGHING:
            marker = True  # 'is considering a sale': a plan, whatever follows
        else:
            marker = (
                token.low in _MODALS
                or token.low in ("won't", "wouldn't", "couldn't", "shouldn't")
                or (token.low == "may" and not token.text[0].isupper())  # 'May' the month
                or token.low in _FORECAST_WORDS
                or (token.low in ("next", "coming") and following in _FUTURE_UNITS)
                or (token.low == "later" and following == "this")
                or (token.low == "on" and following in ("track", "course"))
                or (token.low in ("is", "are") and following == "to")
            )
        if not marker:
            continue
        clause.modals.append((index, _governed(tokens, index)))


def _governed(tokens: list[Token], index: int) -> int:
    """The first telling word after a modal marker: its verb ('could one day complete')."""
    end = index + 1
    while end < min(len(tokens), index + 6) and not tokens[end].boundary:
        end += 1  # a modal governs no word past its clause: 'next year, the lab says'
    return next(
        (
            position
            for position in range(index + 1, end)
            if (
                tokens[position].content
                or (tokens[position].kind == "word" and tokens[position - 1].low == "to")  # 'to last'
            )
            and tokens[position].low not in _PLAN_WORDS
            and tokens[position].low not in _NOT_GOVERNED
            # 'may partly reflect': the adverb qualifies the verb that follows it
            and not (tokens[position].low.endswith("ly") and position + 1 < end and tokens[position + 1].content)
        ),
        index,
    )


# Verbs that forecast their object: 'projects revenue of', 'forecasts a loss'.
_FORECASTING = _forms("projects projected forecasts forecast forecasted predicts anticipates anticipated expects")

# Verbs that put a that-clause forward as an idea, a hypothesis or advice, not as a finding.
_CONJECTURES = _forms(
    "propose proposes proposed hypothesize hypothesizes hypothesized hypothesise hypothesises hypothesised "
    "speculate speculates speculated posit posits posited conjecture conjectures conjectured theorize "
    "theorizes theorized theorise theorises theorised recommend recommends recommended urge urges urged"
)


def _that_verb(clause: Clause, start: int) -> int | None:
    """The verb of a that-clause starting at ``start``: 'that RL vendors publish', 'that
    entropy collapse in GRPO is driven by'."""
    tokens = clause.tokens
    end = start
    while end < min(len(tokens), start + 10) and not tokens[end].boundary:
        end += 1
    after_be = [i for i in range(start + 1, end) if tokens[i].content and tokens[i - 1].low in _BE]
    if after_be:
        return after_be[0]  # 'collapse is driven by': the noun before 'is' is no verb
    verbs = [i for i in range(start + 1, end) if tokens[i].content and not tokens[i].name and _verb_like(clause, i)]
    return verbs[0] if verbs else None


# 'expect X to', 'predicts X will': a forecast whose subject stands between.
_EXPECTING = _forms("expect expects expected predict predicts predicted forecast forecasts want wants wanted")
# A plan or possibility weighed, not done: 'is considering a sale', 'is threatening a strike'.
_WEIGHING = _forms(
    "considering weighing mulling exploring contemplating eyeing threatening threatens threatened threaten"
)
# Between a modal and its verb: 'could one day complete', 'will soon open'.
_NOT_GOVERNED = _forms("one day someday soon eventually also still likely probably ultimately finally course track")


@lru_cache(maxsize=4096)
def clause_of(text: str) -> Clause:
    tokens = _tokens(text)
    clause = Clause(text, tokens, frozenset(t.stem for t in tokens if t.content))
    _mark_names(clause)
    _mark_negation(tokens)
    _mark_modals(clause)
    # 'set' hedges only as 'set to': 'a small set of tokens' is no plan.
    clause.hedged = bool(clause.modals) or any(t.low in _HEDGES and t.low != "set" for t in tokens)
    return clause


# --- Backing words ---------------------------------------------------------------------------


def _all_stems(claim: Clause) -> frozenset[str]:
    """Every word's stem, as the rules read words and as ``lex.words`` does (hyphens split)."""
    if claim.all_stems is None:
        claim.all_stems = frozenset({t.stem for t in claim.tokens if t.kind == "word"}) | {
            lex.stem(word) for word in lex.words(claim.text)
        }
    return claim.all_stems


class Backing:
    """What the cited claims say, word by word: stems (with the six-letter prefix match) and
    synonym groups."""

    def __init__(self, claims: Sequence[Clause]):
        stems: set[str] = set()
        for claim in claims:
            stems |= _all_stems(claim)
        self.index = lex.StemIndex(stems)
        self.keys = {_key(item) for item in stems}
        self.groups = frozenset(group for item in stems for group in SYNONYMS.get(item, ()))
        self.directions = {POLARITY_STEMS[item] for item in stems if item in POLARITY_STEMS}
        # Every movement, outcome and rank the claims state: 'blocked' says what 'rejected' says.
        self.polarities = {POLARITY[t.low] for claim in claims for t in claim.tokens if t.low in POLARITY}
        # Stems the claims use only inside names: 'air' of 'Norvik Air' backs no plain 'air'.
        in_names = {t.stem for claim in claims for t in claim.tokens if t.name}
        in_words = {t.stem for claim in claims for t in claim.tokens if t.kind == "word" and not t.name}
        self.name_only = in_names - in_words
        # The words the claims' nominalisations were made from, by their first letters.
        self.roots: dict[str, set[str]] = {}
        self.by_start: dict[str, set[str]] = {}
        for item in stems:
            self.by_start.setdefault(item[:MIN_ROOT], set()).add(item)
            for root in _roots(item)[1:]:
                self.roots.setdefault(root[:MIN_ROOT], set()).add(root)

    def add(self, stems: set[str]) -> None:
        if stems:
            self.index = lex.StemIndex(self.index.stems | stems)
            self.keys |= {_key(item) for item in stems}
            for item in stems:
                self.by_start.setdefault(item[:MIN_ROOT], set()).add(item)
                for root in _roots(item)[1:]:
                    self.roots.setdefault(root[:MIN_ROOT], set()).add(root)

    def __contains__(self, stem: str) -> bool:
        return self.backs(stem)

    def backs(self, stem: str) -> bool:
        if stem in self.index or _key(stem) in self.keys or not self.groups.isdisjoint(SYNONYMS.get(stem, ())):
            return True
        if POLARITY_STEMS.get(stem) in self.directions:
            return True  # 'lower' for 'dropped': the same movement
        if _derived_from(stem, self.by_start, self.roots):
            return True  # 'reduction' for 'reduced', 'approval' for 'approved', and the reverse
        # Compounds: 'buy' in 'buyback', 'photo' in 'photograph'.
        return len(stem) >= 3 and any(
            (other.startswith(stem) and len(other) >= max(len(stem) + 3, 5))
            or (len(other) >= 4 and stem.startswith(other) and len(stem) >= len(other) + 3)
            for other in self.index.stems
        )


# Suffixes that make a noun of a verb (or an adjective of a noun), as the stemmer leaves them:
# 'reduction', 'approval', 'closure' ('closur'), 'performance' ('performanc'), 'investor'.
_DERIVING = ("ation", "ition", "ion", "al", "ur", "anc", "enc", "or", "ment", "th")
MIN_ROOT = 4


@lru_cache(maxsize=16384)
def _roots(stem: str) -> tuple[str, ...]:
    """A stem and, when it ends in a deriving suffix, what is left without it: the word the
    noun was made from ('reduct' of 'reduction', 'approv' of 'approval')."""
    found = [stem]
    for suffix in _DERIVING:
        if stem.endswith(suffix) and len(stem) - len(suffix) >= MIN_ROOT:
            found.append(stem[: -len(suffix)])
            break
    return tuple(found)


def _same_root(a: str, b: str) -> bool:
    """Two roots of one word, the noun's spelling drifting at its end: 'reduct'/'reduc',
    'decis'/'decid', 'expans'/'expand', 'acquisit'/'acquir'."""
    shared = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    return shared >= max(MIN_ROOT, min(len(a), len(b)) - 1)


def _derived_from(stem: str, stems: dict[str, set[str]], roots: dict[str, set[str]]) -> bool:
    """Whether a stem is a nominalisation of a claim's word, or the word of a claim's
    nominalisation (``roots``: the claims' stripped roots by their first letters). Two plain
    stems are not compared this way: 'plan' is no root of 'plant'."""
    mine = _roots(stem)
    if len(mine) > 1:
        root = mine[1]
        start = root[:MIN_ROOT]
        candidates = itertools.chain(roots.get(start, ()), stems.get(start, ()))
        if any(_same_root(root, other) for other in candidates):
            return True
    return any(_same_root(stem, other) for other in roots.get(stem[:MIN_ROOT], ()))


def weight(stem: str) -> float:
    return LIGHT_WEIGHT if stem in LIGHT else 1.0


def same_word(a: Token, b: Token) -> bool:
    return (
        a.key == b.key
        or lex.stems_match(a.stem, b.stem)
        or not SYNONYMS.get(a.stem, frozenset()).isdisjoint(SYNONYMS.get(b.stem, frozenset()))
    )


# --- Quoting ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Cited:
    """A cited claim: how a reason names it, and its text read for the rules."""

    label: str
    clause: Clause


def _span(clause: Clause, first: int, last: int) -> str:
    tokens = clause.tokens
    first, last = max(0, first), min(len(tokens) - 1, last)
    while first < last and tokens[first].kind == "punct":
        first += 1
    while last > first and tokens[last].kind == "punct":
        last -= 1
    text = clause.text[tokens[first].start : tokens[last].end].strip()
    return text


def _phrase(clause: Clause, index: int, before: int = 1, after: int = 2) -> str:
    """The words around token ``index``, not crossing a clause boundary."""
    tokens = clause.tokens
    first = index
    while first > 0 and index - first < before and not tokens[first - 1].boundary:
        first -= 1
    # Take a negation cue in with the word it negates: 'did not improve'.
    while first > 0 and (tokens[first - 1].cue or tokens[first - 1].low in ("did", "does", "do", "has", "have")):
        first -= 1
        if index - first > 4:
            break
    last = index
    while last + 1 < len(tokens) and last - index < after and not tokens[last + 1].boundary:
        last += 1
    return _span(clause, first, last)


def _claim_says(cited: Cited, phrase: str) -> str:
    return f"{cited.label} says '{phrase}'"


# --- Context ---------------------------------------------------------------------------------


def _context(clause: Clause, index: int, reach: int = 6) -> frozenset[str]:
    """The content words around token ``index``: what a word there is about."""
    found = clause.contexts.get(index)
    if found is None:
        tokens = clause.tokens
        found = frozenset(
            t.stem
            for t in tokens[max(0, index - reach) : index + reach + 1]
            if t.content and t.low not in POLARITY and t is not tokens[index]
        )
        clause.contexts[index] = found
    return found


def _names_around(clause: Clause, index: int) -> tuple[str | None, str | None]:
    """The nearest name before and after token ``index`` in the same clause-ish window."""
    before = after = None
    for first, last, span in clause.names:
        if last < index and index - last <= 6:
            before = span
        elif first > index and first - index <= 6 and after is None:
            # 'licensed Ivy Labs' model': an owner (a noun follows), not the one done to.
            tokens = clause.tokens
            possessive = tokens[last].low.endswith("'s") or clause.text[tokens[last].end : tokens[last].end + 1] == "'"
            owner = possessive and last + 1 < len(tokens) and tokens[last + 1].content
            after = None if owner else span
            if owner:
                break
    return before, after


# --- Rules -----------------------------------------------------------------------------------


def negation_and_direction(sentence: Clause, claims: Sequence[Cited]) -> list[str]:
    reasons: list[str] = []
    flagged: set[int] = set()
    # Negation of the same word: 'did not improve' against 'improved'.
    for index, token in enumerate(sentence.tokens):
        if not token.head:
            continue
        context = _context(sentence, index)
        best: tuple[int, Cited, int] | None = None
        agrees = False
        for cited in claims:
            for position, other in enumerate(cited.clause.tokens):
                if other.content and _same_or_inflected(token, other):
                    if (
                        other.in_negated_clause
                        or (token.nominal and _scarce(sentence, index, cited.clause))
                        or _prefix_negative(token, other)
                        or _negation_moved(sentence, index, cited.clause, position)
                        or (token.nominal and _predicate_negated(cited.clause, position))
                        or _replaced_at(cited.clause, position)  # 'no longer relies on X', 'replaced X'
                        # 'no longer sells' and 'stopped selling'
                        or (position and cited.clause.tokens[position - 1].low in _CESSATION)
                        or _awaited(cited.clause, position)  # 'has not yet approved', 'awaits approval'
                    ):
                        agrees = (
                            True  # 'no accuracy gain' and 'did not improve accuracy'; 'not authorized', 'unauthorized'
                        )
                        continue
                    if token.verbal and position and cited.clause.tokens[position - 1].kind == "number":
                        continue  # 'did not pass' against '30.7% pass rate': a verb against a measure's name
                    if token.nominal and _subject_at(cited.clause, position):
                        continue  # 'won without its star striker' against 'though its star striker was injured'
                    score = len(context & _context(cited.clause, position))
                    if best is None or score > best[0]:
                        best = (score, cited, position)
        # 'no ferries sailed' may say what 'ferry services were cancelled' says: a noun's
        # negation needs more of the claim's clause in common than a verb's.
        needed = 2 if token.nominal else 1
        if best is not None and not agrees and (best[0] >= needed or (len(claims) == 1 and not token.nominal)):
            _, cited, position = best
            reasons.append(
                f"negation: the paragraph says '{_phrase(sentence, index)}'; "
                f"{_claim_says(cited, _phrase(cited.clause, position))}"
            )
            flagged.add(index)
    # The claims negate what the passage asserts.
    for cited in claims:
        for position, other in enumerate(cited.clause.tokens):
            # Only a verb's negation: a claim's 'without a learned critic' or 'no exact verifier
            # exists' is often said the other way round ('critic-free', 'resists exact verifiers').
            # A noun's 'no' counts when the passage has the verb before it too: 'found no link'
            # against 'found a link'.
            if not (other.head and (other.verbal or _found_no(cited.clause, position, sentence))):
                continue
            for index, token in enumerate(sentence.tokens):
                if (
                    index in flagged
                    or not token.content
                    or token.in_negated_clause
                    or not _same_or_inflected(token, other)
                ):
                    continue
                if _prefix_negative(token, other):
                    continue  # 'unauthorized' says what 'not authorized' says
                if index and sentence.tokens[index - 1].low in _CESSATION:
                    continue  # 'stopped selling' says what 'no longer sells' says
                if not (_context(sentence, index) & _context(cited.clause, position)):
                    continue
                if any(t.negated and same_word(t, other) for t in sentence.tokens):
                    continue
                if _denies_same_object(sentence, cited.clause, position):
                    continue  # 'cannot produce rubrics' where the claim has 'cannot write rubrics'
                if _awaited(sentence, index):
                    continue  # 'still awaits approval' says what 'has not approved' says
                if _predicate_negated(sentence, index):
                    continue  # 'keeping pirated copies was not fair use': said of it, denied
                if index + 1 < len(sentence.tokens) and sentence.tokens[index + 1].cue:
                    continue  # 'needs no external cooling' says 'does not require external cooling'
                if _replaced_at(sentence, index) or _replaced_after(sentence, index):
                    continue  # 'human raters were swapped out' says 'no longer uses human raters'
                if _gerund_noun(sentence, index):
                    continue  # 'stalls on rubric writing': a gerund names the activity, asserts nothing
                reasons.append(
                    f"negation: the paragraph says '{_phrase(sentence, index)}'; "
                    f"{_claim_says(cited, _phrase(cited.clause, position))}, which negates it"
                )
                flagged.add(index)
                break
    # The same contradiction in other shapes, tried in turn until one is found.
    for find, before, after in _OTHER_NEGATIONS:
        if flagged:
            break
        found = find(sentence, claims)
        if found:
            index, cited, position = found
            reasons.append(
                f"negation: the paragraph says '{_phrase(sentence, index, before=before, after=after)}'; "
                f"{_claim_says(cited, _phrase(cited.clause, position, before=before, after=after))}"
            )
            flagged.add(index)
    # Direction: opposite signs of one concept about the same thing.
    for index in _movements(sentence):
        if flagged:
            break  # one contradiction, one reason: a negation found already says it
        reason = _direction(sentence, index, claims)
        if reason:
            reasons.append(reason)
            flagged.add(index)
    reasons += _comparatives(sentence, claims)
    return reasons


# Verbs that take away what they govern by putting another thing in its place.
_REPLACING = _forms(
    "replace replaces replaced replacing substitute substitutes substituted substituting supplant supplants "
    "supplanted swap swaps swapped swapping"
)


def _replaced_at(clause: Clause, index: int) -> bool:
    """'replacing the learned critic with ...' takes the critic away, as 'dropping the learned
    critic in favour of ...' does: a replacement verb shortly before the word."""
    tokens = clause.tokens
    for position in range(index - 1, max(-1, index - 4), -1):
        if tokens[position].boundary:
            return False
        if tokens[position].low in _REPLACING:
            return True
    return False


# What is awaited has not happened yet: 'awaits approval', 'approval is pending'.
_AWAITING = _forms("await awaits awaited awaiting pending")
AWAIT_REACH = 4


def _awaited(clause: Clause, index: int) -> bool:
    tokens = clause.tokens
    nearby = tokens[max(0, index - AWAIT_REACH) : index + 3]
    return any(t.low in _AWAITING for t in nearby)


def _replaced_after(clause: Clause, index: int) -> bool:
    """'human raters were swapped out for a verifier': a replacement verb shortly after."""
    for token in clause.tokens[index + 1 : index + 5]:
        if token.boundary:
            return False
        if token.low in _REPLACING:
            return True
    return False


# Verbs whose object carries the predicate ('had an effect', 'made changes').
_LIGHT_VERBS = _forms("have has had having get gets got getting make makes made making do does did take takes took")
# Words that say 'almost none': 'little effect', 'few changes'.
_FEW = _forms("little few fewer rarely seldom hardly barely scarcely")
OBJECT_REACH = 5
OBJECT_WORDS = 3
# Verbs that already say 'not': their negation is no plain denial ('did not stop').
_NEGATIVE_VERBS = _REMOVALS | _PREVENTIONS | _CESSATION


def _object_of(clause: Clause, index: int) -> frozenset[str]:
    """The first content words after a verb in its clause: what it is about ('for real user
    logs', 'in human tissue samples')."""
    found: list[str] = []
    tokens = clause.tokens
    if index + 1 < len(tokens) and tokens[index + 1].low == "that":
        return frozenset()  # 'does not establish that the foods cause depression': a clause, no object
    # The reach starts at the first content word: 'caught up with those trained on ...'.
    start = index + 1
    while (
        start < len(tokens) and tokens[start].kind == "word" and not (tokens[start].content or tokens[start].boundary)
    ):
        start += 1
    for token in tokens[start : start + OBJECT_REACH]:
        if token.boundary:
            break
        if token.content and token.low not in POLARITY:
            found.append(token.stem)
            if len(found) == OBJECT_WORDS:
                break
    return frozenset(found)


def _predicate_negated(clause: Clause, index: int) -> bool:
    """'the trial date has not been set' says what 'no date has been set' says: the word is the
    subject of a verb its clause negates."""
    for token in clause.tokens[index + 1 :]:
        if token.boundary:
            return False
        if token.cue and (token.low in _VERBAL_NEGATORS or token.low.endswith("n't")):
            return True
    return False


def _negation_moved(sentence: Clause, index: int, claim: Clause, position: int) -> bool:
    """'without requiring a reboot' says what 'needs no reboot' says: the claim's word is
    followed closely by a negation of a word the passage's negation also covers."""
    if claim.tokens[position].cue or sentence.tokens[index].cue:
        return False  # 'eliminates X' takes X away: no negation moved
    mine = [t for t in sentence.tokens[index + 1 : index + 5] if t.negated and not t.removed]
    return any(
        t.negated and not t.removed and t.nominal and any(same_word(t, other) for other in mine)
        for t in claim.tokens[position + 1 : position + 4]
    )


def _gerund_noun(clause: Clause, index: int) -> bool:
    """'stalls on rubric writing': an -ing word after a noun and before no object of its own
    names an activity; 'evidence linking the sweetener to cancer' asserts the link."""
    tokens = clause.tokens
    following = tokens[index + 1] if index + 1 < len(tokens) else None
    return (
        tokens[index].low.endswith("ing")
        and index > 0
        and tokens[index - 1].content
        and (following is None or following.boundary or not (following.content or following.low in _DETERMINERS))
    )


def _denies_same_object(sentence: Clause, claim: Clause, position: int) -> bool:
    """Whether the passage too negates a verb about what the claim's negated verb is about:
    'the team cannot produce rubrics' for 'teams cannot write rubrics'."""
    theirs = _object_of(claim, position) | {claim.tokens[position].stem}
    return any(
        token.head and token.verbal and len((_object_of(sentence, index) | {token.stem}) & theirs) >= 2
        for index, token in enumerate(sentence.tokens)
    )


def _plain_verb(clause: Clause, index: int) -> bool:
    """A verb that is neither negated nor a word of direction or taking away: a plain assertion."""
    token = clause.tokens[index]
    return (
        token.content
        and clause.text[token.start - 1 : token.start] != "-"  # 'ultra-processed food': no verb
        and not token.in_negated_clause
        and not token.subject_negated
        and token.low not in POLARITY
        and token.low not in _NEGATIVE_VERBS
        and token.low not in _FEW
        and (_verb_form(clause.tokens, index) or _other_verb_form(clause.tokens, index))
    )


# Past forms no ending gives away, beyond those every rule knows ('dealt with', 'ran').
_IRREGULAR_PASTS = _forms(
    "dealt ran swam sang rang drank drove rode wrote spoke stole froze chose woke wore tore bore bound "
    "found ground wound fed bled fled led sped shed spread sent spent bent lent built felt dealt dreamt "
    "meant slept kept swept wept crept lit fought sought bought brought thought taught caught stuck struck "
    "hung sprang sank shrank threw grew knew flew drew showed shown proved proven overcame undertook "
    "withstood forbade"
)


def _other_verb_form(tokens: list[Token], index: int) -> bool:
    """A verb the shared test misses: an irregular past, or an '-ing' after a form of 'be'
    ('was running at full power')."""
    low = tokens[index].low
    if tokens[index].name or tokens[index].kind != "word":
        return False
    return low in _IRREGULAR_PASTS or (low.endswith("ing") and index > 0 and tokens[index - 1].low in _BE)


def _negated_in_other_words(sentence: Clause, claims: Sequence[Cited]) -> tuple[int, Cited, int] | None:
    """A verb negated on one side and another verb asserted on the other about the same
    things (two or more of the words after each): 'cannot stand in for real user logs' against
    'can substitute for real user logs', 'have not yet been replicated in human tissue samples'
    against 'have been reproduced in human tissue samples'. Words of direction are the
    direction rule's ('did not rise' may say 'fell')."""
    for cited in claims:
        claim = cited.clause
        for mine, theirs, passage_negated in ((sentence, claim, True), (claim, sentence, False)):
            for index, token in enumerate(mine.tokens):
                if not (token.head and token.verbal) or token.low in POLARITY or token.low in _NEGATIVE_VERBS:
                    continue
                about = _object_of(mine, index)
                if len(about) < 2:
                    continue
                for position, other in enumerate(theirs.tokens):
                    if _same_or_inflected(token, other) or not _plain_verb(theirs, position):
                        continue
                    if theirs.tokens[position].low in _LIGHT_VERBS:
                        continue  # 'had little effect': the predicate is in the noun, not the verb
                    if any(
                        t.low in POLARITY or t.low in _FEW
                        for t in theirs.tokens[position + 1 : position + 1 + OBJECT_REACH]
                    ):
                        continue  # 'rated below the standard' may say 'did not reach the standard'
                    if len(_object_of(theirs, position) & about) >= 2 and not any(t.cue for t in theirs.tokens):
                        return (index, cited, position) if passage_negated else (position, cited, index)
    return None


# Prefixes that make a word its own negative ('unsafe', 'ineffective', 'destabilize').
_NEGATIVE_PREFIXES = ("un", "in", "im", "il", "ir", "dis", "de", "non")


_FREE_PREFIXES = ("un", "non")


def _prefix_negative(a: Token, b: Token) -> bool:
    """Whether one word is the other's negative by prefix: 'unauthorized' and 'authorized'."""
    for longer, shorter in ((a.stem, b.stem), (b.stem, a.stem)):
        for prefix in _NEGATIVE_PREFIXES:
            if longer.startswith(prefix) and len(shorter) >= 4 and lex.stems_match(longer[len(prefix) :], shorter):
                return True
    return False


def _prefixed_forms(clause: Clause) -> dict[str, int]:
    """Each word's negative by prefix and its positive without one ('stabiliz' for
    'destabiliz'), with the word's position: computed once a clause."""
    if clause.prefixed is None:
        forms: dict[str, int] = {}
        for index, token in enumerate(clause.tokens):
            if not token.content or token.name:
                continue
            stem = token.stem
            for prefix in _NEGATIVE_PREFIXES:
                # 'un' and 'non' make a negative of nearly any word; the others also begin words of
                # their own ('disclosed' is no 'closed' denied), so they need a longer base.
                shortest = 4 if prefix in _FREE_PREFIXES else 5
                if len(stem) >= shortest:
                    forms.setdefault(prefix + stem, index)
                if stem.startswith(prefix) and len(stem) - len(prefix) >= shortest:
                    forms.setdefault(stem[len(prefix) :], index)
        clause.prefixed = forms
    return clause.prefixed


def _prefix_negations(sentence: Clause, claims: Sequence[Cited]) -> list[tuple[int, Cited, int]]:
    """Where the passage has a word's negative by prefix and a claim the word, or the reverse,
    neither side having the other's form."""
    forms = _prefixed_forms(sentence)
    found = []
    for cited in claims:
        claim = cited.clause
        for hit in forms.keys() & claim.stems:
            index = forms[hit]
            if sentence.tokens[index].stem in claim.stems or hit in sentence.stems:
                continue
            position = next(
                (i for i, other in enumerate(claim.tokens) if other.stem == hit and other.content and not other.name),
                None,
            )
            # 'had not authorized' says what 'unauthorized' says: a negated word and its negative.
            if position is not None and (
                sentence.tokens[index].in_negated_clause == claim.tokens[position].in_negated_clause
            ):
                found.append((index, cited, position))
    return found


_NEED_NOUNS = _forms("need needs requirement")
# Before a need's object: what says it is still needed ('still has to wait', 'must wait').
_NEEDING = _forms("need needs needed require requires required must has have had")
NEEDED_WORDS = 3


def _removed_needs(clause: Clause) -> list[tuple[int, list[Token]]]:
    """Each need a clause takes away ('removes the need to wait for multiple trajectories',
    'no need for a critic'): the need word's place and the first content words it needs."""
    tokens = clause.tokens
    found = []
    for index, token in enumerate(tokens[:-1]):
        if token.low not in _NEED_NOUNS or not token.negated or tokens[index + 1].low not in ("to", "for", "of"):
            continue
        words = []
        for t in tokens[index + 2 : index + 2 + NEEDED_WORDS + 3]:
            if t.boundary and t.kind == "punct":
                break
            if t.content:
                words.append(t)
                if len(words) == NEEDED_WORDS:
                    break
        if len(words) >= 2:
            found.append((index, words))
    return found


def _still_needed(clause: Clause, at: list[int]) -> bool:
    """Whether what starts at ``at[0]`` follows a word of needing ('has to wait', 'needs')."""
    tokens = clause.tokens
    return any(t.low in _NEEDING for t in tokens[max(0, at[0] - 3) : at[0]])


def _need_removed(sentence: Clause, claims: Sequence[Cited]) -> tuple[int, Cited, int] | None:
    """A need taken away on one side and still there on the other, of the same words in order."""
    for cited in claims:
        claim = cited.clause
        for mine, theirs, passage_removes in ((sentence, claim, True), (claim, sentence, False)):
            for index, words in _removed_needs(mine):
                at = _asserted_at(theirs, words)
                if at is not None and _still_needed(theirs, at) and _says_nothing_negative(theirs, at[0], at[-1]):
                    return (index, cited, at[0]) if passage_removes else (at[0], cited, index)
    return None


ALTERNATIVE_REACH = 10


def _alternatives(clause: Clause) -> tuple[tuple[int, frozenset[str]], ...]:
    """What a clause turns down for another thing: the cue's place and the first content words
    up to its clause's end after 'rather than', 'instead of' or a comma's 'not' ('evaluation,
    not training, ...'). Read once a text: a story cites the same claims from many sentences."""
    return _alternatives_of(clause.text)


@lru_cache(maxsize=4096)
def _alternatives_of(text: str) -> tuple[tuple[int, frozenset[str]], ...]:
    tokens = clause_of(text).tokens
    found = []
    for index, token in enumerate(tokens[:-1]):
        pair = (token.low, tokens[index + 1].low)
        comma_not = token.low == "not" and index and tokens[index - 1].text == ","
        if pair not in (("rather", "than"), ("instead", "of")) and not comma_not:
            continue
        start = index + 1 if comma_not else index + 2
        words = []
        for t in tokens[start : start + ALTERNATIVE_REACH]:
            if t.kind == "punct" or (t.boundary and t.low not in ("or", "and")):
                break
            if t.content:
                words.append(t.stem)
        if words:
            found.append((index, frozenset(words)))
    return tuple(found)


def _swapped_alternatives(sentence: Clause, claims: Sequence[Cited]) -> tuple[int, Cited, int] | None:
    """The passage turns down what a claim prefers and prefers what the claim turns down:
    'boils outputs down to a single pass/fail signal rather than grading them on several
    dimensions' against 'scores outputs across multiple dimensions rather than a single pass
    or fail signal'."""
    mine = _alternatives(sentence)
    if not mine:
        return None
    kept = _all_stems(sentence).difference(*(words for _, words in mine))
    for cited in claims:
        theirs = _alternatives(cited.clause)
        if not theirs:
            continue
        other_kept = _all_stems(cited.clause).difference(*(words for _, words in theirs))
        for index, rejected in mine:
            for position, other_rejected in theirs:
                if rejected & other_rejected:
                    continue  # both turn down the same thing
                if rejected & other_kept and other_rejected & kept:
                    return index, cited, position
    return None


_SCARCITY = _forms("bottleneck bottlenecks scarce scarcity shortage shortages constraint constraints missing")


def _scarce(sentence: Clause, index: int, claim: Clause) -> bool:
    """'for lack of expertise' says what 'expertise is the bottleneck' says."""
    cue = index - 1
    while cue >= 0 and not sentence.tokens[cue].cue:
        cue -= 1
    return (
        cue >= 0
        and sentence.tokens[cue].low in ("lack", "lacks", "lacked", "lacking", "absence")
        and any(t.low in _SCARCITY for t in claim.tokens)
    )


def _with_against_without(sentence: Clause, claims: Sequence[Cited]) -> list[tuple[int, Cited, int]]:
    """Where the passage has 'with X' and a claim 'without X' (the head noun after each)."""
    found = []
    tokens = sentence.tokens
    for index, token in enumerate(tokens):
        if token.low != "with":
            continue
        noun = next((i for i in range(index + 1, min(len(tokens), index + 4)) if tokens[i].content), None)
        if noun is None or tokens[noun].in_negated_clause:
            continue  # 'with no human stepping in' says 'without human intervention'
        for cited in claims:
            other_tokens = cited.clause.tokens
            for position, other in enumerate(other_tokens):
                if other.low != "without" or not other.cue:
                    continue  # 'with and without AI help' says both
                theirs = next(
                    (i for i in range(position + 1, min(len(other_tokens), position + 4)) if other_tokens[i].content),
                    None,
                )
                if theirs is not None and same_word(tokens[noun], other_tokens[theirs]):
                    found.append((noun, cited, theirs))
    return found


# After these a 'no' opens a clause's subject: 'said no model scored above 25%'.
_SUBJECT_BEFORE = _forms(
    "that say says said report reports reported note notes noted add adds added argue argues argued state states "
    "stated claim claims claimed"
)
# Verbs that report speech: what follows is a clause, not their object.
_SAYING = _forms(
    "say says said tell tells told report reports reported note notes noted add adds added argue argues argued "
    "write writes wrote state states stated claim claims claimed announce announces announced"
)


# Cues that say a thing is absent: 'without a learned critic', 'no new orders', 'for lack of'.
_ABSENCE = _forms("without no lack lacks lacked lacking")
# Verbs of doing without: 'dispenses with preference labels' says 'requires no preference labels'.
_DOING_WITHOUT = _forms(
    "resist resists resisted resisting dispense dispenses dispensed dispensing forgo forgoes forgoing forwent "
    "forgone eschew eschews eschewed eschewing skip skips skipped skipping waive waives waived waiving bypass "
    "bypasses bypassed bypassing shun shuns shunned spare spares spared sparing"
)
ABSENT_CONTEXT = 2
PHRASE_GAP = 4


def _absent_phrase(clause: Clause, index: int) -> list[int] | None:
    """The negated words after an absence cue whose head is token ``index``, when they are two
    or more ('without a learned critic': learned, critic)."""
    tokens = clause.tokens
    cue = index - 1
    while cue >= 0 and not tokens[cue].cue:
        cue -= 1
    if cue < 0 or tokens[cue].low not in _ABSENCE or _opens_subject(tokens, cue):
        return None  # 'said no model scored above 25%' is said of no model: the subject's case
    words = [i for i in range(cue + 1, min(len(tokens), cue + 8)) if tokens[i].negated and tokens[i].content]
    return words if len(words) >= 2 else None


def _says_nothing_negative(clause: Clause, first: int, last: int) -> bool:
    """No negation, taking away or downward word in the clause around tokens first..last."""
    tokens = clause.tokens
    while first > 0 and not tokens[first - 1].boundary:
        first -= 1
    while last + 1 < len(tokens) and not tokens[last + 1].boundary:
        last += 1
    return not any(
        t.cue
        or t.in_negated_clause
        or t.low in _NEGATIVE_VERBS
        or t.low in _DOING_WITHOUT
        or POLARITY.get(t.low, ("", 1))[1] < 0
        for t in tokens[first : last + 1]
    )


# Words for what shows a thing is there: 'no evidence of an atmosphere' against 'signs of an
# atmosphere'.
_EVIDENCE = _forms("evidence sign signs trace traces hint hints indication indications proof")


def _same_or_evidence(a: Token, b: Token) -> bool:
    return same_word(a, b) or (a.low in _EVIDENCE and b.low in _EVIDENCE)


def _asserted_at(clause: Clause, words: list[Token]) -> list[int] | None:
    """Where a clause has these words in order, each within PHRASE_GAP tokens of the one
    before ('orders for its 15-megawatt'), none of them negated."""
    tokens = clause.tokens
    for start, token in enumerate(tokens):
        if not _same_or_evidence(token, words[0]) or token.in_negated_clause or not token.content:
            continue
        found, position = [start], start
        for word in words[1:]:
            position = next(
                (
                    i
                    for i in range(position + 1, min(len(tokens), position + 1 + PHRASE_GAP))
                    if _same_or_evidence(tokens[i], word)
                ),
                None,
            )
            if position is None or tokens[position].in_negated_clause:
                break
            found.append(position)
        else:
            return found
    return None


def _subject_at(clause: Clause, index: int) -> bool:
    """Whether the words at ``index`` open a clause of their own ('even though its star striker
    was out injured', 'which its critics ...'): a subject said of in passing, not a thing had or
    used. A sentence's own subject is not ('The retrieval step was used')."""
    position = index - 1
    while position >= 0 and clause.tokens[position].kind == "word" and not clause.tokens[position].content:
        if clause.tokens[position].boundary:
            return clause.tokens[position].low in _SUBORDINATE
        position -= 1
    return False


_SUBORDINATE = _forms("though although while whereas because which who whom")


def _absent_on_one_side(sentence: Clause, claims: Sequence[Cited]) -> tuple[int, Cited, int] | None:
    """A thing said absent on one side ('without a learned critic', 'received no new orders for
    its offshore turbine') and present on the other ('needs a learned critic', 'booked new
    orders for its offshore turbine'): two or more of its words in order, none negated, in a
    clause that says nothing negative and shares more words with the absence's clause."""
    for cited in claims:
        claim = cited.clause
        for mine, theirs, passage_absent in ((sentence, claim, True), (claim, sentence, False)):
            for index, token in enumerate(mine.tokens):
                if not (token.head and token.nominal):
                    continue
                phrase = _absent_phrase(mine, index)
                if phrase is None:
                    continue
                at = _asserted_at(theirs, [mine.tokens[i] for i in phrase])
                if at is None or not _says_nothing_negative(theirs, at[0], at[-1]) or _subject_at(theirs, at[0]):
                    continue
                named = {mine.tokens[i].stem for i in phrase}
                around = _clause_words_at(mine, index) - named
                if len(around & _all_stems(theirs)) < ABSENT_CONTEXT:
                    continue
                return (index, cited, at[0]) if passage_absent else (at[0], cited, index)
    return None


def _found_no(claim: Clause, position: int, sentence: Clause) -> bool:
    """Whether a claim's 'VERB no NOUN' ('found no link') has its verb in the passage."""
    tokens = claim.tokens
    cue = position - 1
    while cue >= 0 and not tokens[cue].cue:
        cue -= 1
    if (
        cue < 1
        or tokens[cue].low != "no"
        or tokens[cue - 1].kind != "word"
        or tokens[cue - 1].low in _BE
        or tokens[cue - 1].low in _SAYING  # 'said no model scored above 25%': what was said, not found
    ):
        return False
    verb = tokens[cue - 1]
    return any(t.kind == "word" and not t.in_negated_clause and same_word(t, verb) for t in sentence.tokens)


def _first(find: Callable[[Clause, Sequence[Cited]], list[tuple[int, Cited, int]]]) -> Callable:
    return lambda sentence, claims: next(iter(find(sentence, claims)), None)


# The negations ``negation_and_direction`` looks for when no word is negated on one side and
# asserted on the other, in turn, each with how many words around it a reason quotes:
_OTHER_NEGATIONS = (
    # A negation of the claim's predicate in other words: 'cannot stand in for real user logs'
    # against 'can substitute for real user logs'.
    (_negated_in_other_words, 1, 4),
    # 'with a learned critic' where a claim has 'without a learned critic'.
    (_first(_with_against_without), 2, 2),
    # 'without any Nvidia H100 chips' where the other side has the Nvidia H100 chips.
    (_absent_on_one_side, 2, 2),
    # 'a single pass/fail signal rather than several dimensions' where a claim has 'several
    # dimensions rather than a single pass/fail signal'.
    (_swapped_alternatives, 3, 3),
    # 'still has to wait for multiple trajectories' where a claim 'removes the need to wait for
    # multiple trajectories'.
    (_need_removed, 3, 3),
    # A word and its negative by prefix: 'destabilizes' against 'stabilizes'.
    (_first(_prefix_negations), 1, 2),
)


# What 'up from' and 'down from' start from when it is a value: 'the 2025 level', 'Beacon-1's rate'.
_LEVEL_NOUNS = _forms("level levels rate rates figure figures share total peak high low record mark pace average")
FROM_REACH = 5


def _from_a_level(tokens: list[Token], start: int) -> bool:
    return any(
        t.kind == "number" or t.low in _LEVEL_NOUNS or t.low in MONTHS or t.low in _FUTURE_UNITS
        for t in tokens[start : start + FROM_REACH]
    )


_EFFECTS = _forms("effect effects impact change difference")
# Words of an earlier time a change is measured from: '56% less than a year earlier'.
_EARLIER = _forms("earlier ago before previous prior last")


def _level_after(tokens: list[Token], start: int) -> bool:
    """Whether what follows 'N% below'/'N% less than' is a level or an earlier time ('the
    year-earlier figure', 'a year earlier'), not a rival ('the older parser')."""
    if start < len(tokens) and tokens[start].low == "than":
        start += 1
    # A figure after it ('below the 47.5 that ... posted') is a rival's: a comparison.
    return any(
        t.low in _LEVEL_NOUNS or t.low in _EARLIER or t.low in _FUTURE_UNITS or t.low in MONTHS
        for t in tokens[start : start + FROM_REACH]
    )


_MOTION = _forms(
    "edged ticked went moved crept go goes going gone is are was were be been picked picks shot "
    "sped speed speeds speeding"  # 'sped up convergence': made it faster
)
# 'prices 12% below the year-earlier level': a change from a level, not a rank.
_OFF_A_LEVEL = {"above": 1, "below": -1, "more": 1, "less": -1, "higher": 1, "lower": -1}
_LOSING = _forms("lose loses lost losing")
_UNITS_OFF = _forms("percent points")


@lru_cache(maxsize=4096)
def _gerund_movement(low: str) -> tuple[str, int] | None:
    """'without reducing task success': the lists' other forms give an '-ing' form's direction."""
    if low.endswith("ing") and len(low) > 5 and low not in POLARITY:
        for base in (low[:-3], low[:-3] + "e", low[:-4]):
            if POLARITY.get(base, ("", 0))[0] == "level":
                return POLARITY[base]
    return None


def _polarity(clause: Clause, index: int) -> tuple[str, int] | None:
    """The concept and sign of token ``index``: its word's, or for 'up'/'down' after a motion
    verb or before a figure ('edged up', 'sales were down 3%')."""
    tokens = clause.tokens
    low = tokens[index].low
    following_low = tokens[index + 1].low if index + 1 < len(tokens) else ""
    if low in _LOSING and following_low == "to":
        return ("rank", -1)  # 'bigger models lose to the 8B one': ranked below it
    if _off_a_level(clause, index):
        # '56% below the year-earlier figure' is down 56% from it; '4.5 points above the older
        # parser' is a rank.
        return ("level", _OFF_A_LEVEL[low])
    if low in POLARITY:
        concept, sign = POLARITY[low]
        if concept == "continue" and following_low[:1].isdigit():
            return None  # 'stopped 92% of phishing emails': a count blocked, no activity ended
        if sign == 0 and index and tokens[index - 1].low in ("more", "less"):
            return (concept, 1 if tokens[index - 1].low == "more" else -1)  # 'less stable': stability fell
        return concept, sign
    gerund = _gerund_movement(low) if tokens[index].head else None
    if gerund:
        return gerund  # a denied '-ing' ('without reducing task success'); others may be nouns
    if low in _EFFECTS and "no" in (tokens[index - 1].low if index else "", tokens[index - 2].low if index > 1 else ""):
        return ("level", 0)  # 'had no effect on local rainfall': it stayed as it was
    if low in ("expensive", "costly", "pricey") and index and tokens[index - 1].low in ("more", "less"):
        return ("level", 1 if tokens[index - 1].low == "more" else -1)  # 'more expensive': pricier
    if low in ("slowly", "quickly", "rapidly") and index and tokens[index - 1].low in ("more", "less"):
        fast = low != "slowly"
        return ("level", 1 if (tokens[index - 1].low == "more") == fast else -1)  # 'more slowly': slower
    if low in ("more", "less") and index and tokens[index - 1].low in ("cost", "costs", "costing"):
        return ("level", 1 if low == "more" else -1)  # 'costs less': cheaper
    if low == "down" and index and tokens[index - 1].low in ("turned", "turn", "turns", "turning"):
        return ("outcome", -1)  # 'turned down the offer': rejected it
    if low in ("up", "down"):
        previous = tokens[index - 1].low if index else ""
        following = tokens[index + 1] if index + 1 < len(tokens) else None
        # 'edged up', 'down 3%', 'up from the 2025 level' (not 'came down from the hills')
        if (
            previous in _MOTION
            or (following is not None and following.kind == "number")
            or (following is not None and following.low == "from" and _from_a_level(tokens, index + 2))
        ):
            return ("level", 1 if low == "up" else -1)
    return None


# A movement named as a thing: what a second movement word can change ('growth slowed').
_MOVEMENT_NOUNS = _forms(
    "growth decline declines increase increases rise rises fall falls loss losses gain gains slowdown drop "
    "drops expansion contraction deficit surplus downturn upturn"
)


# How fast a movement went: after a movement word, it speeds or slows that movement.
_PACE = _forms("slowly quickly rapidly faster slower quicker")
PACE_REACH = 5  # 'declined cognitively 27% more slowly'


# After a movement noun, what makes it the name of a measure: 'its growth forecast'.
_MEASURED = _forms(
    "forecast forecasts outlook target targets estimate estimates projection projections rate rates "
    "figure figures data number numbers strategy plan plans prospects"
)


# Verbs a movement noun after them carries the meaning of: 'never turned a profit'.
_CARRYING = _LIGHT_VERBS | _CARRIER_VERBS | _forms("turn turns turned book books booked report reports reported")


def _light_verb_denied(clause: Clause, index: int) -> bool:
    """'has never turned a profit', 'did not post gains': a denied light verb denies its object."""
    tokens = clause.tokens
    if tokens[index].head or not tokens[index].in_negated_clause:
        return False
    for position in range(index - 1, max(-1, index - 4), -1):
        if tokens[position].head:
            return tokens[position].verbal and tokens[position].low in _CARRYING
        if tokens[position].boundary:
            return False
    return False


def _cue_before(clause: Clause, index: int) -> str | None:
    """The first word of the negation cue that covers token ``index``, a few words back in its
    noun phrase ('avoiding any rise', not 'avoided layoffs by cutting')."""
    tokens = clause.tokens
    for position in range(index - 1, max(-1, index - 5), -1):
        low = tokens[position].low
        if not (tokens[position].cue or tokens[position].content or low in _DETERMINERS or low in _ALL):
            return None
        if tokens[position].cue:
            while position > 0 and tokens[position - 1].cue:
                position -= 1
            return tokens[position].low
    return None


def _off_a_level(clause: Clause, index: int) -> bool:
    """'56% less than a year earlier': a figure's change from a level, no bound on it."""
    tokens = clause.tokens
    return (
        tokens[index].low in _OFF_A_LEVEL
        and index > 0
        and (tokens[index - 1].text.endswith("%") or tokens[index - 1].low in _UNITS_OFF)
        and _level_after(tokens, index + 1)
    )


def _names_a_measure(clause: Clause, index: int) -> bool:
    """'revised its growth forecast upward': the noun names what moved, it does not move."""
    tokens = clause.tokens
    return tokens[index].low in _MOVEMENT_NOUNS and index + 1 < len(tokens) and tokens[index + 1].low in _MEASURED


def _movements(clause: Clause) -> dict[int, tuple[str, int]]:
    """Each direction word of a clause with its concept and sign, negation applied; two of
    one concept close together in a clause read as one ('growth slowed' goes down, 'slowed
    their decline' up), kept at the last of them."""
    if clause.movements is not None:
        return clause.movements
    found: dict[int, tuple[str, int]] = {}
    last: int | None = None
    noun_start: int | None = None  # where a group begun by a movement noun starts
    for index, token in enumerate(clause.tokens):
        if token.boundary:
            last = noun_start = None
            continue
        polarity = _polarity(clause, index) if token.kind == "word" else None
        if polarity is None or _names_a_measure(clause, index) or _awaited(clause, index):
            continue  # 'still awaits approval': nothing approved or refused yet
        if _is_bound(clause, index) and not _off_a_level(clause, index):
            continue
        concept, sign = polarity
        # 'will not go up': the motion verb carries the negation for its 'up'.
        motion_head = token.low in ("up", "down") and (token.in_negated_clause or clause.tokens[index - 1].head)
        # 'stopped selling' is a negated selling, as 'no longer sells' is.
        ceased = index > 0 and clause.tokens[index - 1].low in _CESSATION
        cue = _cue_before(clause, index) if token.negated and not token.head else None
        if cue in ("rather", "instead"):
            continue  # 'rather than raise fees': a movement turned down, none asserted
        # 'avoiding any rise in workload' is no rise, as 'without increasing workload' is.
        prevented = cue in _PREVENTIONS or _light_verb_denied(clause, index)
        negated = (token.head and not token.removed) or motion_head or token.subject_negated or ceased or prevented
        sign = -sign if negated else sign
        # 'decline in home prices slowed' (the noun first, the verb up to six words on), 'slowed
        # their decline' (the verb first, the noun close after).
        reach = 0
        if last is not None:
            # 'declined 27% more slowly' is a slowed decline: a pace after a movement changes it.
            reach = 3 if token.low in _MOVEMENT_NOUNS else PACE_REACH if token.low in _PACE else 0
            if noun_start is not None and index - noun_start <= 6:
                reach = index - last  # 'the deficit grew wider': one movement of the deficit
        if last is not None and found[last][0] == concept and index - last <= reach:
            sign *= found.pop(last)[1]
        elif token.low in _MOVEMENT_NOUNS:
            noun_start = index
        else:
            noun_start = None
        found[index] = (concept, sign)
        last = index
    clause.movements = found
    return found


def _direction(sentence: Clause, index: int, claims: Sequence[Cited]) -> str | None:
    token = sentence.tokens[index]
    concept, sign = _movements(sentence)[index]
    context = _context(sentence, index)
    # About the same thing: two shared words around it, or one in a short passage.
    needed = 2 if len(context) >= 3 else 1
    names = _names_around(sentence, index)
    # The claim's words for the passage's other direction words ('ban' in 'overturned the ban')
    # are theirs to match, not this word's.
    others = {sentence.tokens[i].stem for i in _movements(sentence) if i != index}
    candidates = []
    for cited in claims:
        for position, (other_concept, other_sign) in _movements(cited.clause).items():
            other = cited.clause.tokens[position]
            # 'lagged the smaller one' against 'scored higher than the smaller one': a level
            # compared is a rank.
            compared_rank = {concept, other_concept} == {"rank", "level"} and (
                _than_after(sentence, index) if concept == "level" else _than_after(cited.clause, position)
            )
            if (
                other_concept != concept
                and not compared_rank
                and not (
                    {concept, other_concept} == {"level", "outcome"}
                    and (token.low in _LEVEL_TOO or other.low in _LEVEL_TOO)
                    # 'lifted accuracy' against 'did not improve accuracy'; two negations say little
                    and not (token.negated and other.negated)
                )
            ):
                continue
            if other.stem in others and other.stem != token.stem:
                continue
            compared = _than_after(sentence, index) and _than_after(cited.clause, position)
            # The same word with its sides swapped needs names to show it ('A beat B', 'B beat
            # A'); the words around tell a turned word's sides, not a repeated one's.
            swapped = (
                _names_swapped(names, _names_around(cited.clause, position))
                if other.stem == token.stem and (_noun_use(sentence, index) or _noun_use(cited.clause, position))
                else _swapped(sentence, index, cited.clause, position, names)
            )
            if (concept == "rank" or compared or compared_rank) and swapped:
                # 'B trailed A' says what 'A beat B' says, 'Porto's rents are lower than Lisbon's'
                # what 'rents in Lisbon are higher than in Porto': reversed roles reverse the sign.
                other_sign = -other_sign
            # A figure both sides give the movement ('by 2.8 points') says which of a claim's
            # movements the passage's is.
            mine, theirs = _figures_near(sentence, index), _figures_near(cited.clause, position)
            figures = len(mine & theirs)
            shared = len(context & _context(cited.clause, position))
            if (
                other.stem == token.stem
                and other_sign == sign
                and (figures or not (mine and theirs))
                and (shared or sign)
            ):
                # The claim uses the very word the same way (of the same figure); 'no effect' the same
                # only if about the same things.
                return None
            if figures and shared < needed:
                # The same figure moved by both, said of the same thing a little further back:
                # 'licensing revenue also edged up 9%' against 'licensing revenue in the quarter
                # ended September 2025 fell 9%'.
                shared = max(shared, len(_sides(sentence, index)[0] & _sides(cited.clause, position)[0]))
            if shared + bool(figures) >= needed:  # a figure both give is one more thing shared
                # Words of the word's own clause break ties: 'its MMLU score slipped' is about
                # MMLU, whatever the next clause says.
                own = len(_clause_words_at(sentence, index) & _clause_words_at(cited.clause, position))
                candidates.append((shared + own + FIGURE_WEIGHT * figures, other_sign, cited, position, figures))
    if not candidates:
        return None
    best = max(score for score, *_ in candidates)
    top = [candidate for candidate in candidates if candidate[0] == best]
    if any(other_sign == sign for _, other_sign, _, _, _ in top):
        return None
    if (sign == 0 or any(other_sign == 0 for _, other_sign, _, _, _ in top)) and (
        _negated_movement(token)
        or any(_negated_movement(cited.clause.tokens[position]) for _, _, cited, position, _ in top)
    ):
        return None  # 'did not rise' may say 'was unchanged'
    _, _, cited, position, figures = top[0]
    other = cited.clause.tokens[position]
    weak = _weak(sentence, index), _weak(cited.clause, position)
    # A word that moves only in some uses ('led') counts against a plain one ('trailed') when
    # both give the same figure ('led ... by 2.8 points', 'trailed ... by 2.8 points').
    if all(weak) or (any(weak) and not figures):
        return None
    negated = (token.head and not token.removed) or (other.head and not other.removed)
    # 'no effect on hiring' against 'boosted hiring' is a negation too.
    no_effect = token.low in _EFFECTS or other.low in _EFFECTS
    kind = "negation" if negated or no_effect or token.subject_negated or other.subject_negated else "direction"
    return (
        f"{kind}: the paragraph says '{_phrase(sentence, index)}'; "
        f"{_claim_says(cited, _phrase(cited.clause, position))}"
    )


# Outcome words that also move a level: 'improves stability' against 'lowers stability'.
_LEVEL_TOO = _forms(
    "improve improves improved improving worsen worsens worsened hurt hurts harm harms harmed damaged "
    "boost boosts boosted"
)


def _clause_words_at(clause: Clause, index: int) -> frozenset[str]:
    """The content words of the clause token ``index`` stands in, between boundaries."""
    tokens = clause.tokens
    first = index
    while first > 0 and not tokens[first - 1].boundary:
        first -= 1
    last = index
    while last + 1 < len(tokens) and not tokens[last + 1].boundary:
        last += 1
    return frozenset(t.stem for t in tokens[first : last + 1] if t.content and t.low not in POLARITY)


_INFLECTIONS = ("ed", "d", "s", "es", "ing")


def _same_or_inflected(a: Token, b: Token) -> bool:
    """``same_word``, or one word the other with an inflection ('ordered', 'order'), which the
    stemmer may cut apart ('ord' and 'order')."""
    if same_word(a, b):
        return True
    longer, shorter = (a.low, b.low) if len(a.low) > len(b.low) else (b.low, a.low)
    return len(shorter) >= 4 and any(longer == shorter + ending for ending in _INFLECTIONS)


def _negated_movement(token: Token) -> bool:
    """'did not rise': a movement denied, which may say it stayed flat ('no effect' is no such)."""
    return token.head and (token.low in POLARITY or _gerund_movement(token.low) is not None)


def _weak(clause: Clause, index: int) -> bool:
    """A word that carries a direction only in some uses; 'costs more' is no such use."""
    tokens = clause.tokens
    if tokens[index].low in ("more", "less") and index and tokens[index - 1].low in ("cost", "costs", "costing"):
        return False
    return tokens[index].low in _WEAK_POLARITY


FIGURE_WEIGHT = 4
FIGURE_REACH = 6


def _figures_near(clause: Clause, index: int) -> frozenset[str]:
    """The nearest figure on each side of token ``index``, within FIGURE_REACH tokens and not
    past a comma or a clause word: what a movement or a rank is by ('trailed ... by 2.8
    points'), not the next movement's ('dropped 2% in May following a 1% increase')."""
    tokens = clause.tokens
    found = set()
    for step in (-1, 1):
        position = index + step
        while 0 <= position < len(tokens) and abs(position - index) <= FIGURE_REACH:
            token = tokens[position]
            if token.boundary:
                break
            if token.kind == "number" and not (token.start and clause.text[token.start - 1] in "-."):
                found.add(token.text.rstrip("%,"))
                # 'fell to 33% from 43%': both ends of one movement are its figures.
                ends = tokens[position + 1 : position + 3]
                if step == 1 and len(ends) == 2 and ends[0].low in ("from", "to") and ends[1].kind == "number":
                    found.add(ends[1].text.rstrip("%,"))
                break
            position += step
    return frozenset(found)


SIDE_BEFORE = 10
SIDE_AFTER = 6
# Words that end a side: another clause's subject follows ('ahead of cost, while ...').
_SIDE_ENDS = _forms("but while whereas although though because which who whom")


def _sides(clause: Clause, index: int) -> tuple[frozenset[str], frozenset[str]]:
    """The words before and after a rank or comparison word in its sentence: who is ahead and
    who behind. Commas and 'and' do not end a side ('ahead of Micron and Samsung')."""
    tokens = clause.tokens

    def side(positions: range, cut: bool = False) -> frozenset[str]:
        found = set()
        for position in positions:
            token = tokens[position]
            if token.low in (".", ";", ":") or token.low in _SIDE_ENDS:
                break
            if cut and found and token.low in _ADJUNCT_PREPOSITIONS:
                break  # 'ranked below the new model | on the reading test': an adjunct, no side
            # The verbs ('ranked below') belong to neither side.
            if (
                token.content
                and _identifies(token)
                and token.low not in _STAND_INS
                and not _verb_form(tokens, position)
            ):
                found.add(token.stem)
        return frozenset(found)

    return (
        side(range(index - 1, max(-1, index - SIDE_BEFORE - 1), -1)),
        side(range(index + 1, min(len(tokens), index + SIDE_AFTER + 1)), cut=True),
    )


# Words that stand in for a side's noun ('the larger one'): they tell no side apart.
_STAND_INS = _forms("one ones")
_ADJUNCT_PREPOSITIONS = _forms("on in at by for with from to as during across among per")


def _swapped(sentence: Clause, index: int, claim: Clause, position: int, names: tuple[str | None, str | None]) -> bool:
    """Whether the claim's rank or comparison word has the passage's two sides the other way
    round: by the names on each side, else by the words ('The strongest baseline trailed
    DebateRM' against 'DebateRM ... above the strongest baseline')."""
    return _swapped_sides(sentence, index, claim, position, names) != (
        _rank_passive(sentence, index) != _rank_passive(claim, position)
    )


def _noun_use(clause: Clause, index: int) -> bool:
    """'sales of trail passes': a rank word used as a noun or modifier, with no sides."""
    previous = clause.tokens[index - 1].low if index else ""
    return previous in _DETERMINERS or previous == "of"


def _names_swapped(names: tuple[str | None, str | None], other_names: tuple[str | None, str | None]) -> bool:
    return None not in names and names[0] != names[1] and names == other_names[::-1]


def _rank_passive(clause: Clause, index: int) -> bool:
    """'The deadline was met by the team', 'was beaten by': the doer comes after the word."""
    tokens = clause.tokens
    return any(t.low in _BE for t in tokens[max(0, index - 2) : index]) and any(
        t.low == "by" for t in tokens[index + 1 : index + 3]
    )


def _swapped_sides(
    sentence: Clause, index: int, claim: Clause, position: int, names: tuple[str | None, str | None]
) -> bool:
    other_names = _names_around(claim, position)
    if None not in names and None not in other_names and names[0] != names[1]:
        if names == other_names[::-1]:
            return True
        if names == other_names:
            return False
    mine = _comparison_at(sentence, index)
    theirs = _comparison_at(claim, position)
    if mine and theirs:
        return _order(mine.left, mine.right, theirs.left, theirs.right) == "swapped"
    left, right = _sides(sentence, index)
    other_left, other_right = _sides(claim, position)
    # Words both sides have ('model' of 'the older model ... the new model') tell neither apart.
    left, right, other_left, other_right = (
        left - right,
        right - left,
        other_left - other_right,
        other_right - other_left,
    )
    same = len(left & other_left) + len(right & other_right)
    crossed = len(left & other_right) + len(right & other_left)
    return crossed > same and (same == 0 or (bool(left & other_right) and bool(right & other_left)))


def _than_after(clause: Clause, index: int) -> bool:
    return any(t.low == "than" for t in clause.tokens[index + 1 : index + 3])


_COMPARATIVES = {"more": 1, "less": -1, "fewer": -1}


def _comparatives(sentence: Clause, claims: Sequence[Cited]) -> list[str]:
    """'more harmless requests' against 'fewer harmless requests': the same words, compared
    the other way (bounds on figures, 'more than 200', are the quantity rule's)."""
    reasons = []
    tokens = sentence.tokens
    for index, token in enumerate(tokens[:-1]):
        if token.low not in _COMPARATIVES or _is_bound(sentence, index) or tokens[index + 1].kind != "word":
            continue
        following = tokens[index + 1]
        for cited in claims:
            other_tokens = cited.clause.tokens
            for position, other in enumerate(other_tokens[:-1]):
                if (
                    other.low in _COMPARATIVES
                    and _COMPARATIVES[other.low] != _COMPARATIVES[token.low]
                    and other_tokens[position + 1].stem == following.stem
                    and not _is_bound(cited.clause, position)
                    and not _turned_round(sentence, index, cited.clause, position)
                ):
                    reasons.append(
                        f"direction: the paragraph says '{_phrase(sentence, index, before=0)}'; "
                        f"{_claim_says(cited, _phrase(cited.clause, position, before=0))}"
                    )
    return reasons


def _turned_round(sentence: Clause, index: int, claim: Clause, position: int) -> bool:
    """'Random ordering burned more steps than the curriculum' says what 'the curriculum used
    fewer steps than random ordering' says: the opposite word with the sides swapped."""
    mine, theirs = _comparison_at(sentence, index), _comparison_at(claim, position)
    return bool(mine and theirs) and _order(mine.left, mine.right, theirs.left, theirs.right) == "swapped"


def _is_bound(clause: Clause, index: int) -> bool:
    """'more than 200', 'below 5%': a bound on a figure (the quantity rule's), not a direction."""
    tokens = clause.tokens
    if tokens[index].low not in _ALSO_BOUND:
        return False
    following = tokens[index + 1 : index + 3]
    if any(t.kind == "number" for t in following):
        return True
    if not following or following[0].low != "than":
        return False
    # 'more than 200', 'more than half': a bound; 'cost more than sampling': a comparison.
    after = tokens[index + 2 : index + 4]
    return not after or any(t.kind == "number" or t.low in NUMBER_WORDS or t.low in _BOUND_NOUNS for t in after)


_BOUND_NOUNS = _forms("half third quarter double twice triple a an one")


# Dates ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DateMention:
    kind: str  # month, weekday, season, quarter, half, relative
    value: object
    text: str
    year: int | None = None  # 'Q1 2026', 'March 2025': a period of a named year

    def same_date(self, other: DateMention) -> bool:
        """The same period, and of the same year when both name one ('Q1 2026' is not Q1 2025)."""
        return self.value == other.value and (self.year is None or other.year is None or self.year == other.year)


_QUARTER = re.compile(
    r"\b(?:(?P<q>Q[1-4])|(?P<h>H[12])|(?P<ord>first|second|third|fourth|final|1st|2nd|3rd|4th)[\s-]+"
    r"(?P<unit>quarter|half))\b",
    re.IGNORECASE,
)
# 'the first quarter of training compute' is a share of something, not a date: a period's
# 'of' is followed by a year, 'the year' or a fiscal year.
_NOT_A_PERIOD = re.compile(
    r"\s+of\s+(?!(?:(?:the|its|their|this|last|next|that|current|coming|following|previous|same|new)\s+)*"
    r"(?:(?:19|20)\d\d|year|fiscal|financial|calendar|FY|season|decade|century))",
    re.IGNORECASE,
)
# 'the first three months of 2026' is Q1, 'the last six months of 2025' is H2.
_MONTHS_OF = re.compile(
    r"\b(?P<end>first|last|final)\s+(?P<count>two|three|four|five|six|seven|eight|nine|ten|eleven|\d{1,2})\s+months\s+of\b",
    re.IGNORECASE,
)
# Months a year's span of months names: 'the first four months of 2026' is no quarter.
_MONTH_COUNTS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9}
_MONTH_COUNTS |= {"ten": 10, "eleven": 11}
# 'the last quarter of 2025' is Q4; 'last quarter' alone is the one before now (relative).
_LAST_PERIOD = re.compile(r"\blast\s+(?P<unit>quarter|half)\s+of\b", re.IGNORECASE)
# 'August 5, 2025', '2 August 2025': a day of a month.
_DAY_OF_MONTH = re.compile(
    r"\b(?:(?P<m1>January|February|March|April|May|June|July|August|September|October|November|December)\s+"
    r"(?P<d1>[0-3]?\d)(?:st|nd|rd|th)?\b(?![,.]?\d)|(?P<d2>[0-3]?\d)(?:st|nd|rd|th)?\s+"
    r"(?P<m2>January|February|March|April|May|June|July|August|September|October|November|December)\b)"
)
_ORDINAL_VALUE = {"first": 1, "second": 2, "third": 3, "fourth": 4, "1st": 1, "2nd": 2, "3rd": 3, "4th": 4}
_LAST_OF = {"quarter": 4, "half": 2}
_MONTH_WORD = re.compile(
    r"\b(?P<m>January|February|March|April|May|June|July|August|September|October|November|December|"
    r"Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec)\b\.?"
)
_WEEKDAY_WORD = re.compile(r"\b(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)\b")
_SEASON_WORD = re.compile(r"\b(?:spring|summer|autumn|winter)\b", re.IGNORECASE)
_RELATIVE_WORD = re.compile(
    r"\b(?P<rel>last|previous|past|this|current|next|coming)\s+(?P<unit>year|month|week|quarter|season)\b",
    re.IGNORECASE,
)
_DAYS = {"yesterday": -1, "today": 0, "tomorrow": 1}
_DAY_WORD = re.compile(r"\b(?:yesterday|today|tomorrow)\b", re.IGNORECASE)
_PART_OF_MONTH = re.compile(
    r"\b(early|mid|late)[\s-]+(January|February|March|April|May|June|July|August|September|October|November|"
    r"December)\b",
    re.IGNORECASE,
)
_DECADE = re.compile(r"\b((?:1[5-9]|20)\d0)'?s\b")
_DATE_CONTEXT = re.compile(r"(?:\b(?:in|on|since|until|by|from|to|of|early|late|mid|through|last|next|this)[\s-]+$)")


# 'May-to-June', 'May to July': a month in a range of months reads as a date.
_RANGE_AFTER = re.compile(r"(?:\s*[-\u2013]\s*|[\s-]+(?:to|through|until)[\s-]+)[A-Z][a-z]")
_RANGE_HINT = re.compile(r"[-\u2013]|\b(?:to|through|until|between|months|ended|ending|quarter)\b")
_MONTH_RANGE = re.compile(
    r"\b(?:(?P<between>between)\s+)?([A-Z][a-z]+)(?:\s*(?:-|\u2013)\s*|[\s-]+(?:to|through|until)[\s-]+|\s+(?P<and>and)\s+)"
    r"([A-Z][a-z]+)\b"
)


# 'the three months to September', 'the quarter to June', 'six months ended June': a quarter
# or half by its last month.
_MONTHS_TO = re.compile(
    r"\b(?:(?P<count>three|six|3|6)\s+months|(?P<unit>quarter|half|half-year))\s+(?:to|ended|ending|through)\s+"
    r"(?:the\s+end\s+of\s+)?(?P<m>"
    + "|".join(name.capitalize() for name in MONTHS if len(name) > 3 or name == "may")
    + r")\b"
)

# 'the September quarter': a quarter by its last month, as companies report it.
_MONTH_QUARTER = re.compile(
    r"(?<![-\u2013])(?<!\bto\s)(?<!\bto-)\b(?P<m>March|June|September|December)[\s-]+(?P<unit>quarter)\b"
)


def _quarter_ranges(text: str) -> list[tuple[int, int, str, int, str]]:
    """'July-September', 'April to June', 'between July and September', 'the three months to
    June': a range of months that is a calendar quarter or half, with its span, the period's
    kind and number."""
    found = []
    for match in itertools.chain(_MONTHS_TO.finditer(text), _MONTH_QUARTER.finditer(text)):
        count, unit = match.groupdict().get("count"), (match["unit"] or "").lower()
        months = 3 if count in ("three", "3") or unit == "quarter" else 6
        last = MONTHS[match["m"].lower()]
        if last % months == 0:
            kind = "quarter" if months == 3 else "half"
            found.append((match.start(), match.end(), kind, last // months, match.group()))
    for match in _MONTH_RANGE.finditer(text):
        if match["and"] and not match["between"]:
            continue  # 'in March and June': two months, not a range
        first, last = (MONTHS.get(match.group(i).lower()) for i in (2, 4))
        if not (first and last):
            continue
        start = match.start(2)
        if first % 3 == 1 and last == first + 2:
            found.append((start, match.end(), "quarter", (first + 2) // 3, text[start : match.end()]))
        elif first % 6 == 1 and last == first + 5:
            found.append((start, match.end(), "half", (first + 5) // 6, text[start : match.end()]))
    return found


# The year a period or month is of: 'Q2 2026', 'second quarter of 2025', 'March 3, 2025'.
_YEAR_AFTER_PERIOD = re.compile(
    r"(?:[\s-]+quarter)?(?:\s+of)?(?:\s+(?:the\s+)?(?:fiscal|financial|calendar)(?:\s+year)?)?[\s-]+((?:19|20)\d\d)\b"
)
_YEAR_AFTER_MONTH = re.compile(r"\s*(?:[0-3]?\d(?:st|nd|rd|th)?)?,?\s+((?:19|20)\d\d)\b")


def _dated(text: str, mention: DateMention, start: int, end: int) -> DateMention:
    after = _YEAR_AFTER_MONTH if mention.kind == "month" else _YEAR_AFTER_PERIOD
    year = after.match(text, end)
    if not year:
        return mention
    return DateMention(mention.kind, mention.value, text[start : year.end()], int(year.group(1)))


@lru_cache(maxsize=4096)
def dates(text: str) -> tuple[DateMention, ...]:
    found = []
    ranges = _quarter_ranges(text) if _RANGE_HINT.search(text) else []
    for start, end, kind, number, written in ranges:
        found.append(_dated(text, DateMention(kind, number, written), start, end))
    for match in _MONTH_WORD.finditer(text):
        if any(start <= match.start() < end for start, end, _, _, _ in ranges):
            continue  # a month of a quarter's range: the quarter is the date
        word = match["m"]
        before = text[max(0, match.start() - 12) : match.start()]
        after = text[match.end() : match.end() + 6]
        # 'May' is also a modal verb, 'Mar' a verb: a month when it reads as a date.
        ambiguous = word in ("May", "Mar") or len(word) == 3
        if ambiguous and not (
            _DATE_CONTEXT.search(before.lower()) or re.match(r"\s*\d", after) or _RANGE_AFTER.match(after)
        ):
            continue
        found.append(
            _dated(text, DateMention("month", MONTHS[word.lower().rstrip(".")], word), match.start(), match.end())
        )
    for match in _DAY_OF_MONTH.finditer(text):
        month, day = match["m1"] or match["m2"], match["d1"] or match["d2"]
        if 1 <= int(day) <= 31:
            found.append(DateMention("day", (MONTHS[month.lower()], int(day)), match.group()))
    for match in _MONTHS_OF.finditer(text):
        count = match["count"].lower()
        months = int(count) if count.isdigit() else _MONTH_COUNTS[count]
        first = match["end"].lower() == "first"
        if months in (3, 6):
            kind = "quarter" if months == 3 else "half"
            mention = DateMention(kind, 1 if first else _LAST_OF[kind], match.group()[: -len(" of")])
        else:
            mention = DateMention("span of months", (first, months), match.group()[: -len(" of")])
        found.append(_dated(text, mention, match.start(), match.end()))
    for match in _LAST_PERIOD.finditer(text):
        unit = match["unit"].lower()
        mention = DateMention(unit, _LAST_OF[unit], match.group()[: -len(" of")])
        found.append(_dated(text, mention, match.start(), match.end()))
    for match in _WEEKDAY_WORD.finditer(text):
        found.append(DateMention("weekday", match.group().lower(), match.group()))
    for match in _SEASON_WORD.finditer(text):
        found.append(DateMention("season", match.group().lower(), match.group()))
    for match in _QUARTER.finditer(text):
        if match["q"]:
            found.append(_dated(text, DateMention("quarter", int(match["q"][1]), match.group()), *match.span()))
        elif match["h"]:
            found.append(_dated(text, DateMention("half", int(match["h"][1]), match.group()), *match.span()))
        else:
            unit = match["unit"].lower()
            ordinal = match["ord"].lower()
            value = _LAST_OF[unit] if ordinal == "final" else _ORDINAL_VALUE[ordinal]
            if (unit == "half" and value > 2) or _NOT_A_PERIOD.match(text, match.end()):
                continue
            found.append(_dated(text, DateMention(unit, value, match.group()), *match.span()))
    for match in _DAY_WORD.finditer(text):
        found.append(DateMention("relative:day", _DAYS[match.group().lower()], match.group()))
    for match in _PART_OF_MONTH.finditer(text):
        month = MONTHS[match.group(2).lower()]
        found.append(DateMention(f"part of {match.group(2)}", (month, match.group(1).lower()[:3]), match.group()))
    for match in _DECADE.finditer(text):
        found.append(DateMention("decade", match.group(1), match.group()))
    for match in _RELATIVE_WORD.finditer(text):
        if match["rel"].lower() == "last" and text.startswith(" of", match.end()):
            continue  # 'the last quarter of 2025' is Q4, read above
        found.append(DateMention("relative:" + match["unit"].lower(), _RELATIVE[match["rel"].lower()], match.group()))
    return tuple(found)


def _months_given(mention: DateMention, offered: list[tuple[Cited, DateMention]]) -> bool:
    """Whether the claims give each month a range of months is written with."""
    months = {MONTHS[match["m"].lower().rstrip(".")] for match in _MONTH_WORD.finditer(mention.text)}
    given = {other.value for _, other in offered if other.kind == "month"}
    return len(months) == 2 and months <= given


# 'up 34% from a year earlier': the claim dates the year before its own too.
YEAR_EARLIER = re.compile(
    r"\b(?:a\s+year\s+(?:earlier|before|ago)|(?:the\s+)?(?:previous|prior)\s+year|year[\s-]earlier)\b", re.I
)


def _offered_dates(cited: Cited) -> list[DateMention]:
    mentions = list(dates(cited.clause.text))
    if YEAR_EARLIER.search(cited.clause.text):
        mentions += [DateMention(m.kind, m.value, f"{m.text} (a year earlier)", m.year - 1) for m in mentions if m.year]
    return mentions


def date_rule(passage: str, claims: Sequence[Cited]) -> list[str]:
    mentioned = dates(passage)
    if not mentioned:
        return _offset_date_reasons(passage, claims)
    offered = [(cited, mention) for cited in claims for mention in _offered_dates(cited)]
    reasons = []
    for mention in mentioned:
        same_kind = [(cited, other) for cited, other in offered if other.kind == mention.kind]
        if any(other.same_date(mention) for _, other in same_kind):
            continue
        if mention.kind.startswith("relative:") and (not same_kind or mention.value == 0):
            continue  # 'this year' may be the year a claim names; only a contrary relative date is reported
        if mention.kind in ("quarter", "half") and _months_given(mention, offered):
            continue  # 'grew between January and June' for a claim's 'in January' and 'by June'
        if mention.kind in ("season", "day") and not same_kind:
            continue  # a day no claim dates is the figure rule's: its number must be in a claim
        if same_kind:
            shown = ", ".join(dict.fromkeys(f"'{other.text}'" for _, other in same_kind))
            first = same_kind[0][0]
            reasons.append(f"date: the paragraph says '{mention.text}'; {first.label} says {shown}")
        else:
            reasons.append(f"date: the paragraph says '{mention.text}'; no cited claim gives that {mention.kind}")
    reasons += _offset_date_reasons(passage, claims)
    return list(dict.fromkeys(reasons))


_MONTH_NAMES = "January|February|March|April|May|June|July|August|September|October|November|December"
# A date written in full enough to count from: 'September 9, 2025', '2 August 2025', 'April 2025',
# or a day of a month whose year the text gives elsewhere ('September 12').
_CALENDAR_DATE = re.compile(
    rf"\b(?:(?P<m1>{_MONTH_NAMES})\s+(?P<d1>[0-3]?\d)(?:st|nd|rd|th)?\b(?![,.]?\d)(?:,?\s+(?P<y1>(?:19|20)\d\d))?"
    rf"|(?P<d2>[0-3]?\d)(?:st|nd|rd|th)?\s+(?P<m2>{_MONTH_NAMES})(?:,?\s+(?P<y2>(?:19|20)\d\d))?"
    rf"|(?P<m3>{_MONTH_NAMES}),?\s+(?P<y3>(?:19|20)\d\d))\b"
)
_YEAR_ALONE = re.compile(r"\b(?:in|of|during|by)\s+((?:19|20)\d\d)\b")
_COUNT_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7}
_COUNT_WORDS |= {"eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fourteen": 14, "thirty": 30}
# 'ten days later', 'a year and a half later', 'the following month': a date counted from the
# one before it. ('two years after the launch' counts from something else: not read.)
_OFFSET = re.compile(
    r"\b(?:(?P<n>a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fourteen|thirty|\d{1,3})"
    r"(?P<half>\s+and\s+a\s+half)?\s+(?P<unit>day|week|month|year)s?(?P<half_after>\s+and\s+a\s+half)?"
    r"\s+(?:later|afterwards?|after\s+that)"
    r"|the\s+(?:following|next)\s+(?P<next>day|week|month|year))\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class CalendarDate:
    """A date to the precision a text gives it: a day, a month or a year."""

    year: int
    month: int | None = None
    day: int | None = None

    def __str__(self) -> str:
        if self.month is None:
            return str(self.year)
        month = _MONTH_NAMES.split("|")[self.month - 1]
        return f"{month} {self.day}, {self.year}" if self.day else f"{month} {self.year}"

    def agrees(self, other: CalendarDate) -> bool:
        """The same date where both are precise: 'September 2025' agrees with September 12, 2025."""
        return (
            self.year == other.year
            and (self.month is None or other.month is None or self.month == other.month)
            and (self.day is None or other.day is None or self.day == other.day)
        )


@lru_cache(maxsize=4096)
def calendar_dates(text: str) -> tuple[tuple[int, int, str, CalendarDate], ...]:
    """Dates a text gives, each with its span and words; a day without a year takes the year the
    text gives before it ('on September 9, 2025 ... on September 12')."""
    found = []
    year = None
    first_year = re.search(r"\b(?:19|20)\d\d\b", text)
    for match in _CALENDAR_DATE.finditer(text):
        month = match["m1"] or match["m2"] or match["m3"]
        day = match["d1"] or match["d2"]
        written_year = match["y1"] or match["y2"] or match["y3"]
        year = int(written_year) if written_year else year or (int(first_year.group()) if first_year else None)
        if year is None or (day and not 1 <= int(day) <= 31):
            continue
        date = CalendarDate(year, MONTHS[month.lower()], int(day) if day else None)
        found.append((match.start(), match.end(), match.group(), date))
    for match in _YEAR_ALONE.finditer(text):
        if not any(start <= match.start(1) < end for start, end, _, _ in found):
            found.append((match.start(1), match.end(1), match.group(1), CalendarDate(int(match.group(1)))))
    return tuple(sorted(found, key=lambda item: item[0]))


def _counted_from(anchor: CalendarDate, match: re.Match) -> CalendarDate | None:
    """The date an offset ('ten days later') gives from the date before it, to the offset's
    precision: days and weeks to the day, months and years to the month; 'the following
    year' to the year (after March 2024 it is 2025, any month of it)."""
    unit = (match["unit"] or match["next"]).lower()
    count = 1 if match["next"] else int(match["n"]) if match["n"].isdigit() else _COUNT_WORDS[match["n"].lower()]
    if unit in ("day", "week"):
        if anchor.month is None or anchor.day is None:
            return None
        try:
            start = datetime.date(anchor.year, anchor.month, anchor.day)
        except ValueError:
            return None
        end = start + datetime.timedelta(days=count * (7 if unit == "week" else 1))
        return CalendarDate(end.year, end.month, end.day)
    half = bool(match["half"] or match["half_after"])
    if unit == "year" and (match["next"] or anchor.month is None):
        return CalendarDate(anchor.year + count)
    months = count * (12 if unit == "year" else 1) + (6 if half and unit == "year" else 0)
    if anchor.month is None:
        return CalendarDate(anchor.year + months // 12) if months % 12 == 0 else None
    index = anchor.year * 12 + anchor.month - 1 + months
    return CalendarDate(index // 12, index % 12 + 1)


# 'a year later', 'two years later' are durations a reporter rounds: within two months.
YEAR_OFFSET_SLACK_MONTHS = 2


def _about(target: CalendarDate, match: re.Match) -> list[CalendarDate]:
    """The dates an offset may mean: itself, or for whole years counted to the month, the
    months around it."""
    whole_years = (match["unit"] or "").lower() == "year" and not (match["half"] or match["half_after"])
    if not whole_years or target.month is None:
        return [target]
    index = target.year * 12 + target.month - 1
    return [
        CalendarDate((index + shift) // 12, (index + shift) % 12 + 1)
        for shift in range(-YEAR_OFFSET_SLACK_MONTHS, YEAR_OFFSET_SLACK_MONTHS + 1)
    ]


def counted_date_spans(passage: str) -> list[tuple[int, int]]:
    """Where the passage counts a date from one it gave before ('two years later' after '2019'):
    its number is the date rule's, not a figure the claims must state."""
    if not _OFFSET.search(passage):
        return []
    anchors = calendar_dates(passage)
    return [
        match.span() for match in _OFFSET.finditer(passage) if any(start < match.start() for start, _, _, _ in anchors)
    ]


def _offset_date_reasons(passage: str, claims: Sequence[Cited]) -> list[str]:
    """'Preorders opened ten days later' after 'September 9, 2025' is September 19: the claims
    must give that date, not September 12."""
    if not _OFFSET.search(passage):
        return []
    anchors = calendar_dates(passage)
    offered = [(cited, written, date) for cited in claims for _, _, written, date in calendar_dates(cited.clause.text)]
    reasons = []
    for match in _OFFSET.finditer(passage):
        before = [(written, date) for start, _, written, date in anchors if start < match.start()]
        if not before:
            continue
        anchor_words, anchor = before[-1]
        target = _counted_from(anchor, match)
        if target is None:
            continue
        said = match.group().lower()
        if any(said in cited.clause.text.lower() for cited in claims):
            continue  # the claim counts the same way
        if any(date.agrees(near) for _, _, date in offered for near in _about(target, match)):
            continue
        later = [(cited, written) for cited, written, date in offered if not date.agrees(anchor)]
        where = f"{later[0][0].label} says '{later[0][1]}'" if later else "no cited claim gives that date"
        reasons.append(f"date: the paragraph says '{match.group()}' after '{anchor_words}', which is {target}; {where}")
    return reasons


def backed_date_words(passage: str, claims: Sequence[Cited]) -> set[str]:
    """Stems of the words of each period the claims give in other words ('April', 'June' and
    'quarter' of 'the April-to-June quarter' for a claim's Q2): the date is backed, so are they."""
    mentioned = [mention for mention in dates(passage) if mention.kind in ("quarter", "half")]
    if not mentioned:
        return set()
    offered = [(cited, mention) for cited in claims for mention in _offered_dates(cited)]
    return {
        lex.stem(word)
        for mention in mentioned
        if any(other.kind == mention.kind and other.same_date(mention) for _, other in offered)
        for word in lex.words(mention.text)
    }


# Quantities ----------------------------------------------------------------------------------


def _unit(figure: lex.Figure) -> str:
    text = figure.text.lower()
    if "point" in text or text.endswith(("pp", "pts")):
        return "points"  # before percent: 'percentage points' holds 'percent'
    if "%" in text or "percent" in text or "per cent" in text:
        return "percent"
    return ""


# Words that give a bound away; 'up', 'to', 'at' alone are too common to say so.
_BOUND_WORDS = _forms("less fewer under below most nearly almost short more over above least exceeding upwards excess")


def _bound(text: str, start: int) -> tuple[int, str] | None:
    """+1 for a lower bound ('more than 200'), -1 for an upper one ('nearly 200'), and the words."""
    before = text[max(0, start - 30) : start].lower().split()
    for sign, phrases in ((1, _LOWER_BOUNDS), (-1, _UPPER_BOUNDS)):
        for phrase in sorted(phrases, key=len, reverse=True):
            if tuple(before[-len(phrase) :]) == phrase:
                return sign, " ".join(phrase)
    return None


@lru_cache(maxsize=4096)
def _lower_words(text: str) -> tuple[str, ...]:
    return tuple(re.findall(r"[a-z]+", text.lower()))


@lru_cache(maxsize=4096)
def _figures(text: str) -> tuple[lex.Figure, ...]:
    return tuple(lex.digit_figures(text))


_FRACTIONS = {
    "half": Decimal(50),
    "a third": Decimal("33.3"),
    "one third": Decimal("33.3"),
    "one-third": Decimal("33.3"),
    "two thirds": Decimal("66.7"),
    "two-thirds": Decimal("66.7"),
    "a quarter": Decimal(25),
    "one quarter": Decimal(25),
    "three quarters": Decimal(75),
    "three-quarters": Decimal(75),
    "a fifth": Decimal(20),
    "one fifth": Decimal(20),
    "a tenth": Decimal(10),
    "one tenth": Decimal(10),
}
# A share of something: 'a third of the staff', 'half those of its predecessor', 'half what it cost'.
_FRACTION = re.compile(
    r"\b(" + "|".join(sorted(_FRACTIONS, key=len, reverse=True)) + r")\b(?=\s+(?:of|those|that|what)\b)",
    re.IGNORECASE,
)
_VAGUE = {"dozens": 1, "hundreds": 2, "thousands": 3, "millions": 6, "billions": 9}
_VAGUE_WORD = re.compile(r"\b(?:(tens|hundreds)\s+of\s+)?(dozens|hundreds|thousands|millions|billions)\s+of\b", re.I)
_CURRENCIES = {"$": "dollar", "€": "euro", "£": "pound", "¥": "yen"}
_CURRENCY_WORDS = {"dollars": "dollar", "euros": "euro", "pounds": "pound", "yen": "yen", "yuan": "yuan"}
_RATE = re.compile(r"^\s*(?:a|an|per|each)\s+(hour|day|week|month|year|quarter|minute|second)\b", re.I)
# Units of measure, each written several ways ('GW', 'gigawatt', 'gigawatts'): a unit is
# compared by the name it stands for, so '250 GW' is a claim's '250 gigawatts'.
_UNIT_FORMS = {
    "kilometre": "kilometres kilometers kilometre kilometer km",
    "mile": "miles mile",
    "metre": "metres meters metre meter",
    "foot": "feet foot ft",
    "inch": "inches inch",
    "centimetre": "centimetres centimeters centimetre centimeter cm",
    "millimetre": "millimetres millimeters millimetre millimeter mm",
    "kilogram": "kilograms kilogram kg",
    "gram": "grams gram",
    "tonne": "tonnes tonne",
    "ton": "tons ton",
    "pound": "pounds pound lb lbs",
    "litre": "litres liters litre liter",
    "gallon": "gallons gallon",
    "hectare": "hectares hectare",
    "acre": "acres acre",
    "degree": "degrees degree",
    "celsius": "celsius",
    "fahrenheit": "fahrenheit",
    "hour": "hours hour",
    "minute": "minutes minute",
    "second": "seconds",
    "day": "days day",
    "week": "weeks week",
    "month": "months month",
    "year": "years year",
    "decade": "decades decade",
    "megawatt": "megawatts megawatt mw",
    "gigawatt": "gigawatts gigawatt gw",
    "kilowatt": "kilowatts kilowatt kw",
    "token": "tokens token",
    "parameter": "parameters parameter",
}
_MEASURES = {form: unit for unit, forms in _UNIT_FORMS.items() for form in forms.split()}


# How far (in points) a share in words may sit from a claim's percentage: plain and hedged.
SHARE_SLACK = 2
SHARE_SLACK_HEDGED = 4
_SHARE_HEDGE = re.compile(
    r"\b(?:nearly|almost|about|around|roughly|some|approximately|close to|just under|just over|more than|"
    r"over|under|less than|upwards of)\s+$",
    re.IGNORECASE,
)


@lru_cache(maxsize=4096)
def _shares(text: str) -> tuple[tuple[str, Decimal], ...]:
    """Shares a text states as words or ratios: 'a third of' (33.3), 'one in five' (20)."""
    found = [(match.group(1), _FRACTIONS[match.group(1).lower()]) for match in _FRACTION.finditer(text)]
    found += [
        (match.group(), Decimal(100) / _END_PARTS[match["part"].lower()])
        for match in _END_SHARE.finditer(text)
        if not _NOT_A_PERIOD_END.match(text, match.end())
    ]
    return tuple(found + [(match.group(), value) for match, value in lex.ratios(text)])


# 'the first tenth of training compute', 'the top fifth of earners': a share by its end.
_END_PARTS = {"half": Decimal(2), "third": Decimal(3), "quarter": Decimal(4), "fifth": Decimal(5), "tenth": Decimal(10)}
_END_SHARE = re.compile(
    r"\b(?:first|last|final|top|bottom)\s+(?P<part>half|third|quarter|fifth|tenth)(?=\s+of\b)", re.I
)
# '... quarter of 2025', 'half of the fiscal year': a period, the date rule's.
_NOT_A_PERIOD_END = re.compile(
    r"\s+of\s+(?:(?:the|its|their|this|last|next|that|current|coming|following|previous|same|new)\s+)*"
    r"(?:(?:19|20)\d\d|year|fiscal|financial|calendar|FY|season|decade|century)",
    re.IGNORECASE,
)


@lru_cache(maxsize=8192)
@lru_cache(maxsize=8192)
def _currency(text: str, figure: lex.Figure) -> str | None:
    if figure.text[:1] in _CURRENCIES:
        return _CURRENCIES[figure.text[0]]
    following = text[figure.start + len(figure.text) :].split()[:1]
    return _CURRENCY_WORDS.get(following[0].lower().strip(".,;")) if following else None


@lru_cache(maxsize=8192)
def _measure(text: str, figure: lex.Figure) -> str | None:
    after = text[figure.start + len(figure.text) :]
    rate = _RATE.match(after)
    if rate:
        return "a " + rate.group(1).lower()
    following = after.split()[:1]
    word = following[0].lower().strip(".,;") if following else ""
    return _MEASURES.get(word)


def _units_differ(passage: str, figure: lex.Figure, same_value: list[tuple[Cited, lex.Figure]]) -> str | None:
    """A reason when the claims give this value only in another currency, rate or measure."""
    for reading, label in ((_currency, "currency"), (_measure, "unit")):
        mine = reading(passage, figure)
        if mine is None:
            continue
        theirs = [(cited, other, reading(cited.clause.text, other)) for cited, other in same_value]
        if theirs and all(unit is not None and unit != mine for _, _, unit in theirs):
            cited, other, unit = theirs[0]
            return (
                f"quantity: the paragraph says '{figure}' in {mine}; {cited.label} says '{other}' in {unit} ({label})"
            )
    return None


@lru_cache(maxsize=8192)
def _change_of(text: str, figure: lex.Figure) -> str | None:
    """'to' for a level reached ('rose to 5%'), 'by' for a change ('rose by 5%'), None
    otherwise."""
    before = text[max(0, figure.start - 40) : figure.start].split()[-2:]
    if not before:
        return None
    last = before[-1].lower()
    if last == "to" and len(before) == 2 and before[0].lower() in POLARITY:
        return "to"
    if last == "by" and len(before) == 2 and before[0].lower() in POLARITY:
        return "by"
    return None  # 'rose 3.4%' may give a change or, for a rate, a level: not read


def _by_or_to(passage: str, figure: lex.Figure, same_value: list[tuple[Cited, lex.Figure]]) -> str | None:
    """'rose to 5%' is not 'rose 5%': a level reached against a change by that much."""
    mine = _change_of(passage, figure)
    if mine is None:
        return None
    theirs = [(cited, other, _change_of(cited.clause.text, other)) for cited, other in same_value]
    if all(change is not None and change != mine for _, _, change in theirs):
        cited, other, change = theirs[0]
        return f"quantity: the paragraph says '{mine} {figure}'; {cited.label} says '{change} {other}'"
    return None


def _share_of(text: str, share: str) -> str | None:
    """The stem of what a share is of: 'a third of the staff' -> 'staff', 'of the teacher's
    accuracy' -> 'accuracy'."""
    # 'a 19% share of the global market' is 19% of it.
    pattern = re.escape(share) + r"(?:\s+share)?\s+of\s+(?:the\s+|its\s+|their\s+)?([A-Za-z]+)('s)?(?:\s+([A-Za-z]+))?"
    match = re.search(pattern, text)
    if not match:
        return None
    word = match.group(3) if match.group(2) and match.group(3) else match.group(1)
    if word.lower() in _PRONOUN_WHOLES:
        return _ANY_WHOLE  # 'a third of them': of whatever the claims count
    return lex.stem(word.lower())


# Words that stand for what a sentence before counted: 'about a third of them'.
_PRONOUN_WHOLES = frozenset(["them", "those", "these", "it", "that", "this"])
_ANY_WHOLE = "*"


# Words without which a passage states no factor or share in words: a cheap test first.
_FACTOR_WORDS = frozenset(_MULTIPLIERS) | {"half", "third", "quarter", "quarters", "thirds", "fifth", "tenth"}
# A share reached or held, in words: 'fell to about a quarter', 'stood at a third'.
_LEVEL_SHARE = re.compile(
    r"\b(?:to|at)\s+(?P<hedge>(?:nearly|almost|about|around|roughly|some|approximately|just\s+under|just\s+over|"
    r"more\s+than|over|under|less\s+than)\s+)?(?P<share>"
    + "|".join(sorted(_FRACTIONS, key=len, reverse=True))
    + r")\b(?!\s+of\b)",
    re.IGNORECASE,
)
_LEVEL_BEFORE = re.compile(r"\b(?:to|at)\s+(?:[a-z]+\s+)?$", re.IGNORECASE)


# A span given by its unit alone: 'after months of pressure' is not 'after weeks of pressure'.
_VAGUE_SPAN = re.compile(
    r"\b(?:(?:several|many|a\s+few|few)\s+)?(minutes|hours|days|weeks|months|years|decades)\s+of\b", re.I
)


_SPAN_UNITS = frozenset(["minutes", "hours", "days", "weeks", "months", "years", "decades"])
_COUNTED_SPAN = re.compile(
    r"\b(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|several|many|few)\s+"
    r"(minutes|hours|days|weeks|months|years|decades)\b",
    re.IGNORECASE,
)


def _vague_span_reasons(passage: str, claims: Sequence[Cited]) -> list[str]:
    if _SPAN_UNITS.isdisjoint(_lower_words(passage)):
        return []
    mine = [(match.group(), match.group(1).lower()) for match in _VAGUE_SPAN.finditer(passage)]
    if not mine:
        return []
    theirs = [
        (cited, match.group(), match.group(1).lower())
        for cited in claims
        for match in _VAGUE_SPAN.finditer(cited.clause.text)
    ]
    # A claim's '3 years' backs 'years of work'.
    counted = {_measure(cited.clause.text, figure) for cited in claims for figure in _figures(cited.clause.text)} | {
        _MEASURES.get(match.group(1).lower()) for cited in claims for match in _COUNTED_SPAN.finditer(cited.clause.text)
    }
    reasons = []
    for text, unit in mine:
        if _MEASURES.get(unit, unit) in counted:
            continue
        if theirs and all(other != unit for _, _, other in theirs):
            cited, other_text, _ = theirs[0]
            reasons.append(f"quantity: the paragraph says '{text}'; {cited.label} says '{other_text}'")
    return reasons


def _level_share_reasons(passage: str, claims: Sequence[Cited]) -> list[str]:
    """'dropped to about a quarter' where the claims say it fell to 34.4%."""
    reasons: list[str] = []
    if _FACTOR_WORDS.isdisjoint(_lower_words(passage)):
        return reasons
    for match in _LEVEL_SHARE.finditer(passage):
        value = _FRACTIONS[match["share"].lower()]
        levels = [
            (cited, figure)
            for cited in claims
            for figure in _figures(cited.clause.text)
            if _unit(figure) == "percent"
            and _LEVEL_BEFORE.search(cited.clause.text[max(0, figure.start - 20) : figure.start])
        ]
        slack = SHARE_SLACK_HEDGED if match["hedge"] else SHARE_SLACK
        if levels and all(abs(value - figure.value) > slack for _, figure in levels):
            cited, figure = levels[0]
            reasons.append(f"quantity: the paragraph says '{match.group()}'; {cited.label} says 'to {figure}'")
    return reasons


_SHARE_BELOW = ("nearly", "almost", "close", "just under", "under", "less")
_SHARE_ABOVE = ("just over", "more", "over", "upwards")


def _share_fits(hedge: str, share: Decimal, percent: Decimal, slack: Decimal | int) -> bool:
    """Whether a claim's percentage is a share in words as its hedge puts it. A bound ('nearly
    half', 'just over a third') is met on its own side only, up to a tenth of the share or the
    hedged slack, whichever is more: 'nearly half' is 45%, not 52%; 'just over half' is no 46%."""
    hedge = " ".join(hedge.lower().split())
    reach = max(share / 10, Decimal(slack))
    if hedge.startswith(_SHARE_BELOW):
        return share - reach <= percent <= share
    if hedge.startswith(_SHARE_ABOVE):
        return share <= percent <= share + reach
    return abs(share - percent) <= slack


def _share_reasons(passage: str, claims: Sequence[Cited]) -> list[str]:
    """'a quarter of the staff' where the claims give a third; 'hundreds' where they say thousands."""
    reasons = []
    mine = _shares(passage)
    if mine:
        theirs = [(cited, text, value) for cited in claims for text, value in _shares(cited.clause.text)]
        percents = [
            (cited, figure) for cited in claims for figure in _figures(cited.clause.text) if _unit(figure) == "percent"
        ]
        for text, value in mine:
            # A hedged share ('nearly two-thirds', 'about a quarter') may round a claim's figure.
            hedge = _SHARE_HEDGE.search(passage[: passage.find(text)])
            slack = SHARE_SLACK_HEDGED if hedge else SHARE_SLACK
            if any(abs(value - other) <= slack for _, _, other in theirs) or any(
                _share_fits(hedge.group() if hedge else "", value, figure.value, slack) for _, figure in percents
            ):
                continue
            # A claim's percentage is the same share only when it is of the same thing.
            whole = _share_of(passage, text)
            percents = [
                (c, f)
                for c, f in percents
                if whole and (whole == _ANY_WHOLE or _share_of(c.clause.text, f.text) == whole)
            ]
            if theirs:
                cited, other, _ = theirs[0]
                reasons.append(f"quantity: the paragraph says '{text}'; {cited.label} says '{other}'")
            elif percents:
                cited, figure = percents[0]
                reasons.append(f"quantity: the paragraph says '{text}'; {cited.label} says '{figure}'")
    reasons += _level_share_reasons(passage, claims)
    reasons += _vague_span_reasons(passage, claims)
    vague = [
        (match.group(), _VAGUE[match.group(2).lower()] + (1 if match.group(1) else 0))
        for match in _VAGUE_WORD.finditer(passage)
    ]
    for text, magnitude in vague:
        others = [
            (cited, match.group(), _VAGUE[match.group(2).lower()] + (1 if match.group(1) else 0))
            for cited in claims
            for match in _VAGUE_WORD.finditer(cited.clause.text)
        ]
        if others and all(other != magnitude for _, _, other in others):
            cited, other, _ = others[0]
            reasons.append(f"quantity: the paragraph says '{text}'; {cited.label} says '{other}'")
    return reasons


def quantity_rule(passage: str, claims: Sequence[Cited]) -> list[str]:
    reasons = _share_reasons(passage, claims)
    claim_figures = [(cited, figure) for cited in claims for figure in _figures(cited.clause.text)]
    bounded = not _BOUND_WORDS.isdisjoint(passage.lower().split())
    by_value: dict[Decimal, list[tuple[Cited, lex.Figure]]] = {}
    for cited, other in claim_figures:
        by_value.setdefault(other.value, []).append((cited, other))
    for figure in _figures(passage):
        same_value = by_value.get(figure.value, [])
        if not same_value:
            continue  # the figure rule reports it
        differ = _units_differ(passage, figure, same_value) or _by_or_to(passage, figure, same_value)
        if differ:
            reasons.append(differ)
            continue
        if not bounded and not _unit(figure):
            continue
        unit = _unit(figure)
        if unit and all(_unit(other) and _unit(other) != unit for _, other in same_value):
            cited, other = same_value[0]
            reasons.append(
                f"quantity: the paragraph says '{figure}' ({unit}); {cited.label} says '{other}' ({_unit(other)}): "
                "a percentage point is not a percent"
            )
            continue
        bound = _bound(passage, figure.start) if bounded else None
        if bound is None:
            continue
        for cited, other in same_value:
            other_bound = _bound(cited.clause.text, other.start)
            if other_bound and other_bound[0] != bound[0]:
                reasons.append(
                    f"quantity: the paragraph says '{bound[1]} {figure}'; {cited.label} says '{other_bound[1]} {other}'"
                )
                break
    # Multipliers: 'doubled' against 'tripled'.
    passage_words = _lower_words(passage)
    claim_multipliers = [
        (cited, word, _MULTIPLIERS[word])
        for cited in claims
        for word in _lower_words(cited.clause.text)
        if word in _MULTIPLIERS
    ]
    claim_values = {figure.value for _, figure in claim_figures}
    for word in passage_words:
        if word not in _MULTIPLIERS:
            continue
        value = _MULTIPLIERS[word]
        if any(other == value for _, _, other in claim_multipliers) or value in claim_values:
            continue
        if claim_multipliers:
            cited, other_word, _ = claim_multipliers[0]
            reasons.append(f"quantity: the paragraph says '{word}'; {cited.label} says '{other_word}'")
    if not claim_multipliers:
        reasons += _factor_reasons(passage, claims)
    reasons += _one_unit_reasons(passage, claims)
    reasons += _ratio_part_reasons(passage, claims)
    reasons += _points_as_percent_reasons(passage, claims, claim_values)
    reasons += _level_against_cut_reasons(passage, claims)
    reasons += _quantifier_reasons(passage, claims)
    # Ordinals: 'the fifth month' against 'the sixth month'.
    if _ORDINAL_WORDS.keys().isdisjoint(passage_words):
        return list(dict.fromkeys(reasons))
    for match in re.finditer(r"\b(" + "|".join(_ORDINAL_WORDS) + r")\b", passage, re.IGNORECASE):
        word = match.group().lower()
        value = _ORDINAL_WORDS[word]
        if value <= 2 or re.match(r"[\s-]+(quarter|half)\b", passage[match.end() :], re.IGNORECASE):
            continue
        offered = [
            (cited, other.group().lower())
            for cited in claims
            for other in re.finditer(r"\b(" + "|".join(_ORDINAL_WORDS) + r")\b", cited.clause.text, re.IGNORECASE)
            if _ORDINAL_WORDS[other.group().lower()] > 2
        ]
        if any(_ORDINAL_WORDS[other] == value for _, other in offered) or Decimal(value) in claim_values:
            continue
        if offered:
            cited, other = offered[0]
            reasons.append(f"quantity: the paragraph says '{match.group()}'; {cited.label} says '{other}'")
    return list(dict.fromkeys(reasons))


# A multiplier in words ('roughly doubled', 'cut nearly in half') against the factor a claim
# gives ('a 70% increase', '2.1 times', 'by 38%'): plainly within this share of it, hedged
# within twice that.
FACTOR_TOLERANCE = Decimal("0.05")
_MULTIPLIER_WORD = re.compile(
    r"\b(?:(?P<hedge>roughly|about|around|nearly|almost|approximately|some|close\s+to|more\s+than|over|"
    r"less\s+than|under)\s+)?(?P<word>" + "|".join(sorted(_MULTIPLIERS, key=len, reverse=True)) + r"|in\s+half)\b"
    # 'double-digit', 'twice a year' say no factor
    r"(?![\s-]+(?:digits?|a\s+(?:day|week|month|year)|daily|weekly|monthly|yearly)\b)",
    re.IGNORECASE,
)
_TIMES_FIGURE = re.compile(r"(\d+(?:\.\d+)?)\s*(?:times\b|x\b|\u00d7|-?fold\b)", re.IGNORECASE)
_CHANGE_BEFORE = re.compile(r"\b(?:by|up|down|rose|fell|grew|increased|decreased|cut|reduced|jumped)\s+$", re.I)
_CHANGE_AFTER = re.compile(
    r"\s+(?:increase|rise|jump|gain|growth|decrease|drop|fall|decline|reduction|cut|more|less|higher|lower|"
    r"faster|slower|cheaper|improvement|boost)\b",
    re.IGNORECASE,
)


def _stated_factors(text: str) -> list[tuple[str, Decimal]]:
    """Factors a claim states: '2.1 times', a change in percent ('a 70% increase': 1.7; 'cut
    by 38%': 0.62), and a change in points to a level ('rose 10 points to 30%': 1.5), each with
    its words."""
    found = [(match.group(), Decimal(match.group(1))) for match in _TIMES_FIGURE.finditer(text)]
    # 'reduced training time by 2.1x', '2x faster': the time is 1/2.1 of what it was.
    found += [(written, 1 / factor) for written, factor in found if factor]
    for match in _PERCENT_FROM_TO.finditer(text):
        before, after = Decimal(match["before"]), Decimal(match["after"])
        if before and after:
            found.append((match.group(), after / before))  # 'from 46% to 89%': 1.9 times the level
    for match in _POINTS_TO_LEVEL.finditer(text):
        change, level = Decimal(match["change"]), Decimal(match["level"])
        if level > change:
            found.append((match.group(), level / (level - change)))
        found.append((match.group(), level / (level + change)))
    for figure in _figures(text):
        if _unit(figure) != "percent":
            continue
        before = text[max(0, figure.start - 12) : figure.start]
        if _CHANGE_BEFORE.search(before) or _CHANGE_AFTER.match(text, figure.start + len(figure.text)):
            found += [(figure.text, 1 + figure.value / 100), (figure.text, 1 - figure.value / 100)]
    return found


_PERCENT_FROM_TO = re.compile(
    r"\bfrom\s+(?P<before>\d+(?:\.\d+)?)\s*(?:%|percent)\s+to\s+(?P<after>\d+(?:\.\d+)?)\s*(?:%|percent)", re.I
)
_POINTS_TO_LEVEL = re.compile(
    r"(?P<change>\d+(?:\.\d+)?)\s*(?:percentage\s+points?|points?|pp)\s+to\s+(?P<level>\d+(?:\.\d+)?)\s*(?:%|percent)",
    re.IGNORECASE,
)
# 'rose by a third', 'fell by half': a change stated as a share of the level before.
_CHANGE_BY_SHARE = re.compile(
    r"\b(?:rose|grew|increased|climbed|jumped|fell|dropped|declined|decreased|shrank|cut|reduced|up|down)\s+by\s+"
    r"(?P<hedge>(?:nearly|almost|about|around|roughly|some|more\s+than|over|less\s+than|under)\s+)?(?P<share>"
    + "|".join(sorted(_FRACTIONS, key=len, reverse=True))
    + r")\b(?!\s+of\b)",
    re.IGNORECASE,
)


# 'shaved nearly half off the time', 'took a third off': a cut by that share of the whole.
_SHARE_OFF = re.compile(
    r"\b(?P<hedge>(?:nearly|almost|about|around|roughly|some|more\s+than|over|less\s+than|under)\s+)?(?P<share>"
    + "|".join(sorted(_FRACTIONS, key=len, reverse=True))
    + r")\s+off\b",
    re.IGNORECASE,
)


def _pair_factors(text: str) -> set[Decimal]:
    """How many times one figure of a claim is another ('to around 40 GW from 21 GW': 1.9)."""
    values = [figure.value for figure in _figures(text) if figure.value and _unit(figure) != "percent"]
    return {second / first for first in values for second in values if first != second}


# 'from 32,000 a year earlier', 'compared with 29', 'up from 12': a claim's two figures as a
# level and the one it is set against.
_AGAINST = re.compile(
    r"\b(?:from|compared\s+(?:with|to)|against|versus|vs\.?)\s+(?:just\s+|only\s+)?[$€£]?(?!(?:19|20)\d\d\b)\d", re.I
)


_YEAR_FIGURE = re.compile(r"(?:18|19|20|21)\d\d")


def _before_and_after(text: str) -> bool:
    """Whether a claim sets one count against another, so a multiplier in words is its ratio."""
    counts = [
        figure
        for figure in _figures(text)
        if figure.value and _unit(figure) != "percent" and not _YEAR_FIGURE.fullmatch(figure.text)
    ]
    return 2 <= len(counts) <= 4 and bool(_AGAINST.search(text))


def _passage_factors(passage: str) -> list[tuple[re.Match, list[Decimal]]]:
    """Factors a passage states in words: 'roughly doubled' (2), 'cut in half' (0.5), 'rose by a
    third' (4/3, or 2/3 had it fallen)."""
    found: list[tuple[re.Match, list[Decimal]]] = []
    if _FACTOR_WORDS.isdisjoint(_lower_words(passage)):
        return found  # most passages: a set lookup instead of the patterns below
    for match in _MULTIPLIER_WORD.finditer(passage):
        word = match["word"].lower()
        found.append((match, [Decimal("0.5") if word.startswith("in") else Decimal(_MULTIPLIERS[word])]))
    for match in _CHANGE_BY_SHARE.finditer(passage):
        share = _FRACTIONS[match["share"].lower()] / 100
        found.append((match, [1 + share, 1 - share]))
    for match in _SHARE_OFF.finditer(passage):
        found.append((match, [1 - _FRACTIONS[match["share"].lower()] / 100]))
    return found


_ABOVE_HEDGES = frozenset(["more than", "over"])


def _factor_fits(value: Decimal, factor: Decimal, hedge: str | None) -> bool:
    """Whether a claim's factor is what a multiplier in words says. A plain or rounding word
    ('roughly doubled') is within FACTOR_TOLERANCE (twice that hedged); a bound ('more than
    doubled') holds up to the next whole multiplier: 2.2 times, not 3; 'more than halves' is a
    cut below a half, not below a third."""
    word = " ".join(hedge.lower().split()) if hedge else ""
    tolerance = FACTOR_TOLERANCE * (2 if word else 1)
    if abs(factor - value) <= value * tolerance:
        return True
    if word not in _ABOVE_HEDGES:
        return False
    if value >= 1:
        return value < factor < value + 1
    return 1 / (1 / value + 1) < factor < value  # a cut: 'more than halves' is 0.33 to 0.5


def _factor_reasons(passage: str, claims: Sequence[Cited]) -> list[str]:
    reasons = []
    for match, values in _passage_factors(passage):
        stated = [(cited, text, factor) for cited in claims for text, factor in _stated_factors(cited.clause.text)]
        pairs = {factor for cited in claims for factor in _pair_factors(cited.clause.text)}
        if not stated:
            # No factor stated, but a before and after: 'tripled' against 58 and 29 (2 times).
            befores = [cited for cited in claims if _before_and_after(cited.clause.text)]
            if not befores:
                continue
            written = [str(figure) for figure in _figures(befores[0].clause.text)]
            stated = [(befores[0], ", ".join(written[:-1]) + " and " + written[-1], Decimal(0))]
        candidates = {factor for _, _, factor in stated if factor} | pairs
        if any(_factor_fits(value, factor, match["hedge"]) for factor in candidates for value in values):
            continue
        cited, text, _ = stated[0]
        reasons.append(f"quantity: the paragraph says '{match.group()}'; {cited.label} says '{text}'")
    return reasons


# 'under a second', 'more than a year': a bound on one of a unit.
_ONE_UNIT = re.compile(
    r"\b(?P<bound>less\s+than|under|below|at\s+most|within|more\s+than|over|above|at\s+least)\s+(?:a|an|one)\s+"
    r"(?P<unit>second|minute|hour|day|week|month|year)\b",
    re.IGNORECASE,
)
_UPPER_WORDS = ("less", "under", "below", "at most", "within")
_ONE_UNIT_WORDS = frozenset(["second", "minute", "hour", "day", "week", "month", "year"])


def _one_unit_reasons(passage: str, claims: Sequence[Cited]) -> list[str]:
    """'to under a second' where every claim's figure in seconds is above one."""
    reasons: list[str] = []
    if _ONE_UNIT_WORDS.isdisjoint(_lower_words(passage)):
        return reasons
    for match in _ONE_UNIT.finditer(passage):
        unit = match["unit"].lower()
        upper = match["bound"].lower().startswith(_UPPER_WORDS)
        same_unit = [
            (cited, figure)
            for cited in claims
            for figure in _figures(cited.clause.text)
            if _measure(cited.clause.text, figure) == unit and not _unit(figure)
        ]
        if same_unit and all((figure.value > 1) if upper else (figure.value < 1) for _, figure in same_unit):
            cited, figure = same_unit[-1]
            reasons.append(f"quantity: the paragraph says '{match.group()}'; {cited.label} says '{figure} {unit}s'")
    return reasons


@lru_cache(maxsize=4096)
def _ratios(text: str) -> tuple[tuple[re.Match, Decimal], ...]:
    return tuple(lex.ratios(text))


def _ratio_part_reasons(passage: str, claims: Sequence[Cited]) -> list[str]:
    """'12%' where a claim's 12 is the whole of a ratio ('1 in 12', 8.3%)."""
    reasons: list[str] = []
    if not any(_ratios(cited.clause.text) for cited in claims):
        return reasons
    for figure in _figures(passage):
        if _unit(figure) != "percent":
            continue
        for cited in claims:
            text = cited.clause.text
            ratios = _ratios(text)
            if not ratios:
                continue
            same = [other for other in _figures(text) if other.value == figure.value]
            in_ratio = [
                (match, share)
                for match, share in ratios
                for other in same
                if match.start() <= other.start < match.end() and abs(share - figure.value) > 1
            ]
            if same and len(in_ratio) == len(same):
                match, share = in_ratio[0]
                reasons.append(
                    f"quantity: the paragraph says '{figure}'; {cited.label} says '{match.group()}' ({share:.1f}%)"
                )
    return reasons


# 'took 40% fewer labels' is not 'took 40% as many': a cut by a share against the level left.
_CUT_WORDS = re.compile(r"\s+(?:fewer|less|lower|smaller|cheaper|shorter)\b", re.IGNORECASE)
_LEVEL_WORDS = re.compile(r"\s+as\s+(?:many|much|long|large)\b", re.IGNORECASE)


def _level_against_cut_reasons(passage: str, claims: Sequence[Cited]) -> list[str]:
    reasons: list[str] = []
    if " as " not in passage and " as " not in " ".join(cited.clause.text for cited in claims):
        return reasons
    for figure in _figures(passage):
        if _unit(figure) != "percent":
            continue
        end = figure.start + len(figure.text)
        mine = "level" if _LEVEL_WORDS.match(passage, end) else "cut" if _CUT_WORDS.match(passage, end) else None
        if mine is None:
            continue
        for cited in claims:
            text = cited.clause.text
            for other in _figures(text):
                if other.value != figure.value or _unit(other) != "percent":
                    continue
                after = other.start + len(other.text)
                theirs = (
                    "level" if _LEVEL_WORDS.match(text, after) else "cut" if _CUT_WORDS.match(text, after) else None
                )
                if theirs and theirs != mine:
                    said = (_LEVEL_WORDS.match(passage, end) or _CUT_WORDS.match(passage, end)).group()
                    given = (_LEVEL_WORDS.match(text, after) or _CUT_WORDS.match(text, after)).group()
                    reasons.append(
                        f"quantity: the paragraph says '{figure}{said}'; {cited.label} says '{other}{given}'"
                    )
    return reasons


# 'most of them', 'a majority of', 'a minority of': a share in a word, with the shares it allows.
_QUANTIFIER = re.compile(
    r"\b(?P<word>most|a\s+majority|the\s+majority|a\s+minority|nearly\s+all|almost\s+all)\s+of\b", re.IGNORECASE
)
_QUANTIFIER_RANGES = {
    "most": (Decimal(50), Decimal(100)),
    "a majority": (Decimal(50), Decimal(100)),
    "the majority": (Decimal(50), Decimal(100)),
    "a minority": (Decimal(0), Decimal(50)),
    "nearly all": (Decimal(85), Decimal(100)),
    "almost all": (Decimal(85), Decimal(100)),
}
# 'including 6,000 paid deals', '6,000 of them', '58 of 120': a part of a count a claim gives.
_PART_OF = re.compile(r"\b(?:including|of\s+which|of\s+whom)\s+(?:just\s+|only\s+|some\s+)?(?P<part>\d[\d,]*)\b", re.I)
_PART_OF_WHOLE = re.compile(r"\b(?P<part>\d[\d,]*)\s+(?:of|out\s+of)\s+(?:the\s+|its\s+)?(?P<whole>\d[\d,]*)\b")


def _claim_parts(text: str) -> list[tuple[str, Decimal]]:
    """Shares a claim gives as a part of a count: 'more than 12,500 deals, including 6,000 paid'
    (48%), '58 of 120 tasks' (48%)."""
    found = []
    counts = [figure.value for figure in _figures(text) if figure.value and not _unit(figure)]
    for match in _PART_OF.finditer(text):
        part = Decimal(match["part"].replace(",", ""))
        wholes = [value for value in counts if value > part]
        if part and wholes:
            found.append((match.group(), part * 100 / max(wholes)))
    for match in _PART_OF_WHOLE.finditer(text):
        part, whole = (Decimal(match[key].replace(",", "")) for key in ("part", "whole"))
        if whole and part < whole and not _YEAR_FIGURE.fullmatch(match["whole"]):
            found.append((match.group(), part * 100 / whole))
    return found


def _quantifier_reasons(passage: str, claims: Sequence[Cited]) -> list[str]:
    """'most of them paid' where a claim gives 6,000 paid of more than 12,500: 'most' is more
    than half."""
    reasons: list[str] = []
    if "most" not in passage and "majority" not in passage and "minority" not in passage and " all " not in passage:
        return reasons
    for match in _QUANTIFIER.finditer(passage):
        low, high = _QUANTIFIER_RANGES[" ".join(match["word"].lower().split())]
        given = [(cited, text, share) for cited in claims for text, share in _claim_parts(cited.clause.text)]
        given += [
            (cited, figure.text, figure.value)
            for cited in claims
            for figure in _figures(cited.clause.text)
            if _unit(figure) == "percent" and cited.clause.text.startswith(" of", figure.start + len(figure.text))
        ]
        if given and not any(low < share <= high for _, _, share in given):
            cited, text, share = given[0]
            reasons.append(
                f"quantity: the paragraph says '{match.group()}'; {cited.label} says '{text}' ({share:.0f}%)"
            )
    return reasons


def _points_as_percent_reasons(passage: str, claims: Sequence[Cited], claim_values: set[Decimal]) -> list[str]:
    """'rose by 5.8 percent' where a claim has it rise from 68.5% to 74.3%: the gap between two
    percentages is in percentage points; in percent the rise is 8.5%."""
    reasons: list[str] = []
    for figure in _figures(passage):
        if _unit(figure) != "percent" or figure.value in claim_values:
            continue
        quantum = Decimal(1).scaleb(min(figure.value.normalize().as_tuple().exponent, 0))
        if any(abs(value - figure.value) <= quantum / 2 for value in claim_values):
            continue  # 'about 5%' rounds a claim's own 5.07%
        for cited in claims:
            percents = [other for other in _figures(cited.clause.text) if _unit(other) == "percent" and other.value]
            if len(percents) > 4:
                continue  # a table of shares, not a before and after
            for first, second in itertools.combinations(percents, 2):
                gap = abs(second.value - first.value)
                relative = {gap * 100 / first.value, gap * 100 / second.value}
                if gap.quantize(quantum) != figure.value or any(
                    change.quantize(quantum, rounding=ROUND_HALF_UP) == figure.value for change in relative
                ):
                    continue
                reasons.append(
                    f"quantity: the paragraph says '{figure}'; {cited.label} says '{first}' and '{second}', "
                    f"{gap.normalize()} percentage points apart: a percentage point is not a percent"
                )
    return list(dict.fromkeys(reasons))


# Entities ------------------------------------------------------------------------------------


_SPACING = re.compile(r"[-.' ]")


def _compact(name: str) -> str:
    return _SPACING.sub("", name)


def _mentions(clause: Clause, name: str) -> bool:
    return any(span == name or name in span or span in name for _, _, span in clause.names)


def entity_rule(sentence: Clause, claims: Sequence[Cited]) -> list[str]:
    """Who did what to whom: names of the claims in swapped roles around the same word, and
    a figure given to another of the claims' names."""
    reasons: list[str] = []
    if not sentence.names:
        return reasons
    real = real_names(sentence).union(*(real_names(cited.clause) for cited in claims))

    known: dict[str | None, bool] = {None: False}
    compact_real = {_compact(name) for name in real}

    def is_real(span: str | None) -> bool:
        if span not in known:
            # 'gpt 4.5' as the rules spell 'GPT-4.5'
            known[span] = any(part in real for part in span.split()) or _compact(span) in compact_real  # type: ignore[union-attr,arg-type]
        return known[span]

    mentioned = " ".join(span for cited in claims for _, _, span in cited.clause.names)
    for index in _verbs(sentence):
        token = sentence.tokens[index]
        before, after = _roles_around(sentence, index)
        if not (is_real(before) or is_real(after)) or before == after:
            continue
        passive_here = _passive_at(sentence, index) or _agent_after(sentence, after)
        roles = (after, before) if passive_here else (before, after)  # (doer, done-to)
        for cited in claims:
            for position, other in enumerate(cited.clause.tokens):
                if not other.content or other.name or not same_word(token, other):
                    continue
                if _possessive_at(cited.clause, position):
                    continue
                other_before, other_after = _roles_around(cited.clause, position)
                if other_before is None and other_after is None:
                    continue
                passive = _passive_at(cited.clause, position) or _agent_after(cited.clause, other_after)
                other_roles = (other_after, other_before) if passive else (other_before, other_after)
                swapped = None not in roles and roles[0] != roles[1] and other_roles == roles[::-1]
                # The same doer, another done-to (or the reverse), the passage's name being one
                # the claims use elsewhere: 'hired Tomas Berg' where a claim 'hired Carla Mendes'.
                replaced = next(
                    (
                        (mine, theirs)
                        for role in (0, 1)
                        if roles[1 - role] is not None
                        and roles[1 - role] == other_roles[1 - role]
                        and (mine := roles[role]) is not None
                        and (theirs := other_roles[role]) is not None
                        and is_real(mine)
                        and is_real(theirs)
                        and mine != theirs
                        and mine not in theirs
                        and theirs not in mine
                        and not abbreviates(mine, theirs)  # 'IDC' for 'International Data Corporation'
                        and not abbreviates(theirs, mine)
                        and mine in mentioned
                        and not _mentions(sentence, theirs)
                    ),
                    None,
                )
                if swapped or replaced:
                    start = min(i for i in (_name_start(sentence, before), index) if i is not None)
                    other_start = min(i for i in (_name_start(cited.clause, other_before), position) if i is not None)
                    mine = _span(sentence, start, _name_end(sentence, after, index))
                    theirs = _span(cited.clause, other_start, _name_end(cited.clause, other_after, position))
                    reasons.append(f"entity swap: the paragraph says '{mine}'; {_claim_says(cited, theirs)}")
                    return reasons
    swapped_doer = (
        _doer_swap(sentence, claims, is_real, mentioned)
        or _rank_swap(sentence, claims, is_real, mentioned)
        or _object_swap(sentence, claims, is_real, mentioned)
    )
    if swapped_doer:
        return [swapped_doer]
    # Whose figure: the nearest name before a figure, in the passage and in the claim giving it.
    for index, token in enumerate(sentence.tokens):
        if token.kind != "number" or token.name or _YEAR.fullmatch(_number_value(token)):
            continue  # a number inside a name ('Loom-13B') is no one's figure, nor is a year
        owner = next(
            (
                span
                for first, last, span in reversed(sentence.names)
                if last < index
                and index - last <= 8
                # 'trust AI tools, though 84% use them': the name is another clause's
                and not any(t.boundary for t in sentence.tokens[last + 1 : index])
            ),
            None,
        )
        if not is_real(owner):
            continue
        value = _number_value(token)
        # A day after its month ('October 2') is a date, no one's figure: the date rule's.
        givers = [
            (cited, position)
            for cited in claims
            for position in _numbers(cited.clause).get(value, ())
            if not (position and cited.clause.tokens[position - 1].low in MONTHS)
        ]
        if not givers:
            continue
        if any(_name_in_clause(cited.clause, position, owner) for cited, position in givers):
            continue
        if not any(_mentions(cited.clause, owner) for cited in claims):
            continue
        cited, position = givers[0]
        other_owner = next(
            (span for first, last, span in reversed(cited.clause.names) if last < position and position - last <= 8),
            None,
        )
        if (
            not is_real(other_owner)
            or other_owner == owner
            or owner in other_owner
            or other_owner in owner
            or abbreviates(owner, other_owner)  # 'WMO' for 'World Meteorological Organization'
            or abbreviates(other_owner, owner)
        ):
            continue
        reasons.append(
            f"entity swap: the paragraph gives '{token.text}' to {owner.title()}; "
            f"{_claim_says(cited, _phrase(cited.clause, position, before=5, after=1))}"
        )
    return list(dict.fromkeys(reasons))


def _named_doer(clause: Clause, index: int) -> tuple[int, str] | None:
    """The name that does an active verb: the nearest before it in its clause ('Harbor Capital
    led', 'JERA agreed to supply'), where and which."""
    tokens = clause.tokens
    if tokens[index].low.endswith("ing") and index > 0 and tokens[index - 1].low == ",":
        # 'Accenture won the contract, beating Booz Allen': the sentence's doer does it too.
        opener = clause.names[0] if clause.names else None
        if opener is not None and opener[0] == 0 and opener[1] + 1 < index and _verb_like(clause, opener[1] + 1):
            return None if _passive_at(clause, index) else (opener[0], opener[2])
        return None
    for first, last, span in reversed(clause.names):
        if last >= index:
            continue
        if index - last > 5:
            return None  # a doer stands right before its verb: a few auxiliaries at most
        # Only auxiliaries, adverbs and a plan's 'agreed to' between: 'CoreWeave will pay',
        # 'JERA agreed to supply'; not 'Acme said the country installed'.
        between = tokens[last + 1 : index]
        if between and _head_noun(between[0]):
            between = between[1:]  # 'ReAct agents collected': the name's agents do it
        if any(
            not (t.low in _AUXILIARIES or t.low in _ADVERBS or t.low in _BE or t.low in _PLAN_WORDS or t.low == "now")
            for t in between
        ):
            return None
        if tokens[last].low.endswith("'s") or clause.text[tokens[last].end : tokens[last].end + 1] == "'":
            return None  # 'Cobalt AI's platform became': the owner, not the doer
        return None if _passive_at(clause, index) else (first, span)
    return None


def _owner_in(clause: Clause, name: str) -> bool:
    tokens = clause.tokens
    return any(
        _same_name(span, name)
        and (tokens[last].low.endswith("'s") or clause.text[tokens[last].end : tokens[last].end + 1] == "'")
        for _, last, span in clause.names
    )


def _head_noun(token: Token) -> bool:
    """A plural noun a name qualifies ('ReAct agents', 'Qwen models'): not a verb form."""
    low = token.low
    return (
        token.kind == "word"
        and not token.name
        and len(low) > 3
        and low.endswith("s")
        and not low.endswith("ss")
        and low[:-1] not in _BASE_VERBS
        and low[:-2] not in _BASE_VERBS
        and low not in _SPEECH
    )


def _same_name(one: str, other: str) -> bool:
    if one == other or one in other or other in one:
        return True
    if abbreviates(one, other) or abbreviates(other, one):
        return True  # 'IDC' and 'International Data Corporation'
    # The words of one within the other, or the same first word: 'Harbor Capital' and 'Harbor',
    # not 'Mayo Clinic' and 'Cleveland Clinic', nor 'NW-RM-12B' and 'KRM-8B' (a size letter).
    mine, theirs = ({part for part in name.split() if len(part) > 1 and not part[0].isdigit()} for name in (one, other))
    return bool(mine and theirs) and (mine <= theirs or theirs <= mine or one.split()[0] == other.split()[0])


_NAME_PARTS = re.compile(r"[^\W_]+")
_LONGEST_ABBREVIATION = 6


def abbreviates(short: str, long: str) -> bool:
    """Whether ``short`` is an abbreviation of the words of ``long``, all of them: each word
    gives its first letter and maybe more of its letters in order, small words may give none
    ('IDC' for 'International Data Corporation', 'Tbps' for 'terabits-per-second', 'MJ' for
    'megajoules', 'Fed' for 'Federal'). One word must be long for its letters to be chosen
    from it: 'MS' is no abbreviation of 'most'."""
    letters = "".join(_NAME_PARTS.findall(short)).lower()
    return abbreviates_words(letters, tuple(word.lower() for word in _NAME_PARTS.findall(long)))


@lru_cache(maxsize=16384)
def abbreviates_words(letters: str, words: tuple[str, ...]) -> bool:
    """``abbreviates`` for letters and words already lower-cased and split."""
    if not 2 <= len(letters) <= _LONGEST_ABBREVIATION or not words or len(words) > len(letters) + 3:
        return False
    if len(words) == 1 and (len(words[0]) < 2 * len(letters) + 1 or words[0] == letters):
        return False

    @cache
    def spells(done: int, word: int) -> bool:
        if word == len(words):
            return done == len(letters)
        current = words[word]
        if current in lex.STOPWORDS and spells(done, word + 1):
            return True
        if done == len(letters) or current[0] != letters[done]:
            return False
        # The word's initial, then any of its letters in order, then the next word.
        at, taken = 1, done + 1
        if spells(taken, word + 1):
            return True
        while taken < len(letters):
            found = current.find(letters[taken], at)
            if found < 0:
                return False
            at, taken = found + 1, taken + 1
            if spells(taken, word + 1):
                return True
        return False

    return spells(0, 0)


def _doer_swap(sentence: Clause, claims: Sequence[Cited], is_real: Callable[[str | None], bool], mentioned: str) -> str:
    """The same verb done by another of the claims' names: 'Harbor Capital led the round, with
    Kinetic Ventures participating' where a claim says 'Kinetic Ventures led the round'. No claim
    may give the verb to the passage's doer; speech and light verbs say nothing of roles."""
    for index in _verbs(sentence):
        token = sentence.tokens[index]
        following = sentence.tokens[index + 1].low if index + 1 < len(sentence.tokens) else ""
        if token.low in _SPEECH or token.stem in LIGHT or following == "to":
            continue  # 'agreed to be acquired': the verb after 'to' has the roles
        doer = _named_doer(sentence, index)
        if doer is None or not is_real(doer[1]) or doer[1] not in mentioned:
            continue
        others = []
        for cited in claims:
            for position in _same_words(cited.clause, token):
                if position not in _verbs(cited.clause):
                    continue
                theirs = _named_doer(cited.clause, position)
                if theirs is not None:
                    others.append((cited, position, theirs))
        mine = _joint_doers(sentence, doer[0])
        if not others or any(
            _same_name(one, other)
            for cited, _, theirs in others
            for other in _joint_doers(cited.clause, theirs[0])
            for one in mine
        ):
            continue
        cited, position, theirs = others[0]
        if not is_real(theirs[1]) or _owner_in(sentence, theirs[1]):
            continue  # 'Corvid Health licensed Ivy Labs' model': the claim's doer owns what is done to
        return (
            f"entity swap: the paragraph says '{_doer_quote(sentence, doer[0], index)}'; "
            f"{_claim_says(cited, _doer_quote(cited.clause, theirs[0], position))}"
        )
    return ""


def _joint_doers(clause: Clause, first: int) -> list[str]:
    """A doer and those joined to it before: 'OpenAI and Microsoft signed' has two doers."""
    tokens = clause.tokens
    spans = {start: (last, span) for start, last, span in clause.names}
    found = [spans[first][1]]
    at = first - 1
    while at >= 1 and tokens[at].low in ("and", ",", "or"):
        previous = next((start for start, (last, _) in spans.items() if last == at - 1), None)
        if previous is None:
            break
        found.append(spans[previous][1])
        at = previous - 1
    return found


def _doer_quote(clause: Clause, first: int, verb: int) -> str:
    """'Harbor Capital led'; a doer far from its verb as 'Accenture Federal Services … beating'."""
    if verb - first <= 8:
        return _span(clause, first, verb)
    last = next(last for start, last, _ in clause.names if start == first)
    return f"{_span(clause, first, last)} \u2026 {_span(clause, verb, verb)}"


# Places in a ranking, and the words between a name and its place ('Denmark second', 'Korea
# in second place', 'Gemini 2.5 Pro ranked first', 'GPT-4.5 took first place').
_PLACES_IN_RANK = _forms("first second third fourth fifth top")
_RANK_LINKS = _forms("took take takes ranked ranks came comes placed finished finishes was is were in at the its")


def _place_holder(clause: Clause, index: int) -> tuple[int, str] | None:
    tokens = clause.tokens
    for first, last, span in reversed(clause.names):
        if last >= index:
            continue
        between = tokens[last + 1 : index]
        if len(between) > 4 or any(
            t.boundary or not (t.kind == "number" or t.low in _RANK_LINKS or t.name) for t in between
        ):
            return None
        if tokens[last].low.endswith("'s") or clause.text[tokens[last].end : tokens[last].end + 1] == "'":
            return None  # 'Acme's first product': an owner, not a place
        return first, span
    return None


def _rank_swap(sentence: Clause, claims: Sequence[Cited], is_real: Callable[[str | None], bool], mentioned: str) -> str:
    """A place in a ranking given to another of the claims' names: 'Denmark topped the index,
    with Korea in second place' where a claim ranks 'Korea first and Denmark second'."""
    for index, token in enumerate(sentence.tokens):
        if token.low not in _PLACES_IN_RANK:
            continue
        holder = _place_holder(sentence, index)
        if holder is None or not is_real(holder[1]) or holder[1] not in mentioned:
            continue
        others = [
            (cited, position, theirs)
            for cited in claims
            for position, other in enumerate(cited.clause.tokens)
            if other.low == token.low and (theirs := _place_holder(cited.clause, position)) is not None
        ]
        if not others or any(_same_name(holder[1], theirs[1]) for _, _, theirs in others):
            continue
        cited, position, theirs = others[0]
        if is_real(theirs[1]) and _mentions(sentence, theirs[1]):
            return (
                f"entity swap: the paragraph says '{_span(sentence, holder[0], index)}'; "
                f"{_claim_says(cited, _span(cited.clause, theirs[0], position))}"
            )
    return ""


_ROLE_PREPOSITIONS = _forms("from for to against by with")
_POSSESSIVES = _forms("its their his her our your")


def _prepositional_names(clause: Clause) -> list[tuple[str, int, str]]:
    """Each name after a preposition, with what it is said of: the word or figure before the
    preposition ('cohort from the Mayo Clinic', '97 minutes for ReAct agents', 'gas to Shell')."""
    found = []
    tokens = clause.tokens
    for first, last, span in clause.names:
        if tokens[last].low.endswith("'s") or clause.text[tokens[last].end : tokens[last].end + 1] == "'":
            continue  # 'for Cobalt AI's platform': an owner, not the one the role is given to
        at = first - 1
        while at >= 0 and tokens[at].low in _DETERMINERS:
            if tokens[at].low in _POSSESSIVES:
                break  # 'for its Foundry platform': the owner is another name
            at -= 1
        if at < 1 or tokens[at].low not in _ROLE_PREPOSITIONS:
            continue
        anchor = at - 1
        if tokens[anchor].kind == "word" and not tokens[anchor].content and anchor > 0:
            anchor -= 1
        head = tokens[anchor]
        if head.name or head.boundary:
            continue
        if head.kind == "number":
            key = _number_value(head)
        elif head.content:
            key = head.key
            if anchor > 0 and tokens[anchor - 1].kind == "number":
                key = f"{_number_value(tokens[anchor - 1])} {key}"  # '14 seconds with NCCL'
        else:
            continue
        found.append((f"{key} {tokens[at].low}", first, span))
        # 'to Apple and Google': each name joined on holds the same role.
        spans = {start: (end, joined) for start, end, joined in clause.names}
        end = last
        while end + 2 < len(tokens) and tokens[end + 1].low in ("and", ",", "or") and end + 2 in spans:
            start = end + 2
            end, joined = spans[start]
            found.append((f"{key} {tokens[at].low}", start, joined))
    return found


def _object_swap(
    sentence: Clause, claims: Sequence[Cited], is_real: Callable[[str | None], bool], mentioned: str
) -> str:
    """The same role, after the same word and preposition, given to another of the claims'
    names that the passage names elsewhere: 'a validation cohort from the Mayo Clinic' where a
    claim has 'a validation cohort from Cleveland Clinic' and the Mayo Clinic elsewhere."""
    for key, first, span in _prepositional_names(sentence):
        if not is_real(span) or span not in mentioned:
            continue
        theirs = [
            (cited, other_first, other)
            for cited in claims
            for other_key, other_first, other in _prepositional_names(cited.clause)
            if other_key == key
        ]
        if not theirs or any(_same_name(span, other) for _, _, other in theirs):
            continue
        cited, other_first, other = theirs[0]
        if _named_after(cited.clause, other_first, span) and not _named_after(sentence, first, other):
            continue  # 'trained with GRPO on the DAPO dataset': the passage's name is the word's too
        if is_real(other) and _mentions(sentence, other):
            return (
                f"entity swap: the paragraph says '{_phrase(sentence, first, before=3, after=2)}'; "
                f"{_claim_says(cited, _phrase(cited.clause, other_first, before=3, after=2))}"
            )
    return ""


def _named_after(clause: Clause, position: int, name: str) -> bool:
    """Whether ``name`` stands after token ``position`` in its clause: another role of the same
    word ('trained with GRPO on the DAPO-Math-17K dataset')."""
    tokens = clause.tokens
    end = next((i for i in range(position + 1, len(tokens)) if tokens[i].boundary), len(tokens))
    return any(position < first and last < end and _same_name(span, name) for first, last, span in clause.names)


def _roles_around(clause: Clause, index: int) -> tuple[str | None, str | None]:
    """The names around a verb within its clause: in 'AMD supplied the memory and Nvidia the
    chips', Nvidia is not what AMD supplied."""
    before, after = _names_around(clause, index)
    tokens = clause.tokens
    if after is not None:
        start = _name_start(clause, after)
        if start is not None and start > index and any(t.boundary for t in tokens[index + 1 : start]):
            after = None
    if before is not None:
        # the nearest span before the verb named so
        last = max((end for first, end, span in clause.names if span == before and end < index), default=None)
        if last is not None and any(t.boundary for t in tokens[last + 1 : index]):
            before = None
    return before, after


def _verbs(clause: Clause) -> list[int]:
    """Where the clause's verbs stand that may carry roles: content words, not names, not a
    noun between a possessive and its name."""
    if clause.verbs is None:
        clause.verbs = [
            index
            for index, token in enumerate(clause.tokens)
            if token.content
            and not token.name
            and not _possessive_at(clause, index)
            and clause.text[token.end : token.end + 1] != "-"  # 'fine-tuning', 'sim-trained': a modifier
            and _verb_like(clause, index)
        ]
    return clause.verbs


def _numbers(clause: Clause) -> dict[str, list[int]]:
    if clause.numbers is None:
        clause.numbers = {}
        for index, token in enumerate(clause.tokens):
            if token.kind == "number":
                clause.numbers.setdefault(_number_value(token), []).append(index)
    return clause.numbers


def _number_value(token: Token) -> str:
    return token.low.strip("$€£¥%").replace(",", "")


def _name_in_clause(clause: Clause, position: int, name: str) -> bool:
    """Whether ``name`` is in the clause of token ``position``, or anywhere before it."""
    tokens = clause.tokens
    end = next((i for i in range(position + 1, len(tokens)) if tokens[i].boundary), len(tokens))
    return any((span == name or name in span or span in name) and last < end for _, last, span in clause.names)


def _name_start(clause: Clause, name: str | None) -> int | None:
    return next((first for first, _, span in clause.names if span == name), None)


def _name_end(clause: Clause, name: str | None, index: int) -> int:
    return next((last for first, last, span in clause.names if span == name and first > index), index + 2)


def _agent_after(clause: Clause, name: str | None) -> bool:
    """Whether the name after a verb follows 'by': the doer of a passive further on ('agreed
    to be acquired by Merriam Steel')."""
    start = _name_start(clause, name)
    return start is not None and start > 0 and clause.tokens[start - 1].low == "by"


def _passive_at(clause: Clause, index: int) -> bool:
    """'was acquired by', 'a round led by': the name after the verb is its doer."""
    tokens = clause.tokens
    if any(t.low == "by" for t in tokens[index + 1 : index + 3]):
        return True
    if not any(t.low in ("was", "were", "is", "are", "been", "be", "being") for t in tokens[max(0, index - 2) : index]):
        return False
    for t in tokens[index + 1 :]:
        if t.kind == "punct":
            return False
        if t.low == "by":
            return True
    return False


def _possessive_at(clause: Clause, index: int) -> bool:
    """'Jupiter's moon Europa', 'Europa, a moon of Jupiter': names around a noun, not a doer
    and a done-to."""
    tokens = clause.tokens
    return (index > 0 and tokens[index - 1].low.endswith("'s")) or (
        index + 1 < len(tokens) and tokens[index + 1].low == "of"
    )


# Modality ------------------------------------------------------------------------------------


def modality_rule(sentence: Clause, claims: Sequence[Cited]) -> list[str]:
    """A forecast where the claims report a result, or a result where they report a plan.

    The passage is read narrowly ('will', 'plans to', 'could'), the claims broadly ('must',
    'recommends', 'a plan', 'can'): a reason needs the claim to have no hint of it at all.
    """
    reasons = []
    for marker, governed in sentence.modals:
        following = sentence.tokens[marker + 1].low if marker + 1 < len(sentence.tokens) else ""
        if _purpose_at(sentence, marker) or (sentence.tokens[marker].low == "could" and following == "not"):
            continue  # 'could not find clear evidence': a past inability, reported as a result
        # The forecast's own verb, reported by a claim as done: 'will lower the cost' against
        # 'lowered the cost'. A verb no claim has is the new-predicate rule's.
        # The governed verb, and the first telling word after it ('will lower the cost of labelling').
        said = [governed] if sentence.tokens[governed].content else []
        said += [i for i in _clause_words(sentence, marker)[:1] if i not in said]
        reported = [
            (cited, position)
            for cited in claims
            for i in said
            for position, t in enumerate(cited.clause.tokens)
            if t.content and same_word(sentence.tokens[i], t)
        ]
        upgraded = _certainty_upgrade(sentence, marker, governed, reported) or _weighed_only(sentence, reported)
        if upgraded:
            return [upgraded]
        if not reported or any(cited.clause.hedged for cited, _ in reported):
            continue
        if any(
            t.low in _HEDGES and i != marker and any(t.stem in c.clause.stems for c in claims if c.clause.hedged)
            for i, t in enumerate(sentence.tokens)
        ):
            continue  # 'proposed a budget that would add': the claims' own plan, spelled out
        cited, position = reported[0]
        # Quote the claim from its verb: 'lowered the cost of labelling'.
        verb = next((i for i in range(position, max(-1, position - 5), -1) if _verb_like(cited.clause, i)), None)
        if verb is not None:
            position = verb
        reasons.append(
            f"modality: the paragraph says '{_span(sentence, marker, governed)}' (a forecast, plan or possibility); "
            f"{cited.label} reports it as a result: '{_phrase(cited.clause, position, before=0, after=4)}'"
        )
        return reasons
    if sentence.hedged:
        return reasons
    for cited in claims:
        for marker, governed in cited.clause.modals:
            verb = cited.clause.tokens[governed]
            conjecture = cited.clause.tokens[marker].low in _CONJECTURES
            caused = next(
                (
                    found
                    for position in range(marker + 1, governed + 1)
                    if (found := _caused_verb(cited.clause, position)) is not None
                ),
                None,
            )
            if (
                verb.kind != "word"
                or _purpose_at(cited.clause, marker)
                or not (
                    conjecture
                    or caused is not None
                    or _verb_like(cited.clause, governed)
                    or _directly_governed(cited.clause, marker, governed)
                )
            ):
                continue
            verbs = [verb]
            if caused is not None:
                verbs.append(cited.clause.tokens[caused])  # 'could let labs stop': the stopping
            for index, token in enumerate(sentence.tokens):
                if not (token.content and any(same_word(token, said) for said in verbs)):
                    continue
                if any(t.low == "to" for t in sentence.tokens[max(0, index - 3) : index]):
                    continue  # 'cards to be replaced', 'unable to complete': not reported as done
                following = cited.clause.tokens[marker + 1].low if marker + 1 < len(cited.clause.tokens) else ""
                # 'could not complete' reports a past inability, not a possibility; a proposal or a
                # hypothesis reported in any tense as what is so is a change of modality.
                possibility = conjecture or (cited.clause.tokens[marker].low in _POSSIBILITY and following != "not")
                if not possibility and not _past_at(sentence, index) and not _past_before(sentence, index):
                    continue  # 'opens in March', 'is cutting': the present may report a plan
                reasons.append(
                    f"modality: the paragraph says '{_phrase(sentence, index)}' as a fact; "
                    f"{cited.label} says '{_span(cited.clause, marker, governed + 1)}' (a forecast, plan or "
                    "possibility)"
                )
                return reasons
    return reasons


def _directly_governed(clause: Clause, marker: int, governed: int) -> bool:
    """Whether only adverbs and 'be' stand between a modal and its word: 'may partly reflect',
    'will become generally available'. The word is what the modal hedges."""
    between = clause.tokens[marker + 1 : governed]
    return governed > marker and all(
        t.kind == "word" and (not t.content or t.low.endswith("ly") or t.low in _BE) for t in between
    )


def _caused_verb(clause: Clause, index: int) -> int | None:
    """The verb a causative brings about: 'let labs stop', 'help teams ship'."""
    tokens = clause.tokens
    if tokens[index].low not in _CAUSATIVES:
        return None
    for position in range(index + 2, min(len(tokens), index + 5)):
        if tokens[position].boundary:
            return None
        if tokens[position].content and _verb_like(clause, position):
            return position
    return None


_CERTAIN = _forms("will shall 'll")
# Weighing a step, not taking it: 'will consult on banning', 'is considering cutting'.
_DELIBERATING = _forms(
    "consult consults consulted consulting consultation consider considers considered considering weigh weighs "
    "weighing explore explores exploring study studies studying review reviewing debate debating"
)


def _weighed_only(sentence: Clause, reported: list[tuple[Cited, int]]) -> str:
    """'will be banned' where the claim says 'will consult on banning': a step weighed made a
    step decided. The passage must weigh nothing itself."""
    if any(t.low in _DELIBERATING for t in sentence.tokens):
        return ""
    for cited, position in reported:
        tokens = cited.clause.tokens
        for before in range(max(0, position - 3), position):
            if tokens[before].low in _DELIBERATING and not any(t.boundary for t in tokens[before + 1 : position]):
                mine = _phrase(sentence, _said_at(sentence, tokens[position]), before=2)
                theirs = _span(cited.clause, before, position + 2)
                return (
                    f"modality: the paragraph says '{mine}' as decided; "
                    f"{cited.label} says '{theirs}' (weighed, not decided)"
                )
    return ""


def _said_at(sentence: Clause, token: Token) -> int:
    return next((i for i, t in enumerate(sentence.tokens) if t.content and same_word(t, token)), 0)


def _certainty_upgrade(sentence: Clause, marker: int, governed: int, reported: list[tuple[Cited, int]]) -> str:
    """'will exceed 70%' where the claim says 'could exceed 70%': a possibility made a certain
    forecast. The passage must keep no hint of possibility anywhere ('may', 'could', 'likely')."""
    if sentence.tokens[marker].low not in _CERTAIN or not sentence.tokens[governed].content:
        return ""
    if any(t.low in _POSSIBILITY or t.low in ("likely", "might", "perhaps", "if") for t in sentence.tokens):
        return ""
    for cited, position in reported:
        claim = cited.clause
        for other_marker, other_governed in claim.modals:
            if other_governed != position or claim.tokens[other_marker].low not in _POSSIBILITY:
                continue
            if not same_word(sentence.tokens[governed], claim.tokens[position]):
                continue
            return (
                f"modality: the paragraph says '{_span(sentence, marker, governed)}' (a certain forecast); "
                f"{cited.label} says '{_span(claim, other_marker, other_governed)}' (a possibility)"
            )
    return ""


# A claim's 'may help' is not the passage's 'helps', whatever its tense.
_POSSIBILITY = _forms("may might could possibly potentially")


def _past_at(clause: Clause, index: int) -> bool:
    """A verb reported as done: a past form, or after 'has', 'have', 'had', 'was', 'were'."""
    tokens = clause.tokens
    low = tokens[index].low
    previous = {t.low for t in tokens[max(0, index - 2) : index]}
    if previous & {"has", "have", "had", "was", "were"}:
        return True
    return low.endswith("ed") or low in _VERB_FORMS


def _past_before(clause: Clause, index: int) -> bool:
    """A word reported as done by the verb before it: 'became generally available', 'was
    fully operational'."""
    before = index - 1
    tokens = clause.tokens
    while (
        before >= 0
        and index - before <= 4
        and tokens[before].kind == "word"
        and not tokens[before].boundary
        and (tokens[before].low.endswith("ly") or not tokens[before].content)
        and tokens[before].low not in _BE_PAST
        and tokens[before].low not in _BECOMING
    ):
        before -= 1  # 'has become the first gigawatt-scale', 'was fully operational'
    if before < 0:
        return False
    previous = clause.tokens[before].low
    if previous in _BE_PAST or previous in _VERB_FORMS or (previous.endswith("ed") and len(previous) > 4):
        return True
    return previous in _BECOMING and _past_at(clause, before)  # 'has become', 'has been'


_BECOMING = _forms("become been")


_BE_PAST = _forms("was were became")


def _purpose_at(clause: Clause, marker: int) -> bool:
    """'so their engines could be inspected', 'if it would', 'when it could call a calculator':
    a purpose, condition or ability, not a forecast."""
    before = {t.low for t in clause.tokens[max(0, marker - 3) : marker]}
    return bool(before & {"so", "if", "unless", "whether", "when", "whenever", "once"})


def _clause_words(clause: Clause, marker: int) -> list[int]:
    """Content words a modal governs: from the marker to the end of its clause."""
    found = []
    for index in range(marker + 1, len(clause.tokens)):
        token = clause.tokens[index]
        if token.boundary:
            break
        if token.content and not token.name and token.stem not in LIGHT and token.low not in _PLAN_WORDS:
            found.append(index)
    return found


# New predicates ------------------------------------------------------------------------------

NUMBER_WORDS = _forms(
    "one two three four five six seven eight nine ten eleven twelve twenty thirty forty fifty hundred "
    "thousand million billion dozen dozens hundreds thousands millions billions"
)
_DETERMINERS = _forms("the a an its their his her this that these those our your own")
_AUXILIARIES = _MODALS | _forms("to did does do not never has have had may must can cannot") | {"n't"}
_ADVERBS = _forms("far well still just soon already again almost nearly roughly around about")


def _verb_like(clause: Clause, index: int) -> bool:
    """A verb by its place or its form: after a modal, 'to' or 'not', or after a causative's
    object ('lets farmers sell'); a past form not after a determiner; a known verb, plain or
    with -s, -es, -ed; a word right after a name ('Acme sues')."""
    tokens = clause.tokens
    token = tokens[index]
    previous = tokens[index - 1].low if index > 0 else ""
    if previous in _DETERMINERS:
        return False
    if previous in _AUXILIARIES or previous.endswith("n't"):
        return True
    if index > 1 and tokens[index - 2].low in _CAUSATIVES:
        return True
    low = token.low
    if low in POLARITY or low in _VERB_FORMS or low in _BASE_VERBS:
        return True
    for suffix in ("s", "es", "ed", "d", "ing"):
        if low.endswith(suffix) and low[: -len(suffix)] in _BASE_VERBS:
            return True
    if low.endswith("ing") and low[:-3] + "e" in _BASE_VERBS:
        return True  # 'retiring', 'closing'
    if _doubled(low) in _BASE_VERBS:
        return True  # 'flagged', 'banning'
    if low.endswith("ied") and low[:-3] + "y" in _BASE_VERBS:
        return True
    if low.endswith("s") and not low.endswith("ss") and index > 0 and tokens[index - 1].name:
        return True
    return low.endswith("ed") and len(low) > 4


def _doubled(low: str) -> str:
    """The plain verb of a form that doubles its last consonant: 'flagged', 'banning'."""
    for suffix in ("ed", "ing"):
        stem = low[: -len(suffix)]
        if low.endswith(suffix) and len(stem) > 2 and stem[-1] == stem[-2] and stem[-1] not in "aeiouls":
            return stem[:-1]
    return ""


def _object_like(token: Token) -> bool:
    return token.stem not in LIGHT and token.low not in _ADVERBS and not token.low.endswith("ly")


# A verb's clause (from the verb to the clause's end) with this share of its weighted words, or
# more, backed is a paraphrase of the claim's verb ('has eaten away 30 metres of the cliff').
NEW_PREDICATE_BACKED = 0.5


def _clause_end(tokens: list[Token], start: int) -> int:
    """Where the clause of token ``start`` ends. A comparison's 'as' does not end it: 'took
    twice as long to collect diamonds', 'as many as 40 people'."""
    end = start
    while end < len(tokens) and not (tokens[end].boundary and not _comparing_as(tokens, end)):
        end += 1
    return end


_AS_MUCH = _forms("twice half thrice times just almost nearly about not")


def _comparing_as(tokens: list[Token], index: int) -> bool:
    if tokens[index].low != "as":
        return False
    before = tokens[index - 1].low if index else ""
    return before in _AS_MUCH or (index + 2 < len(tokens) and tokens[index + 2].low == "as")


def _adjectival(clause: Clause, index: int) -> bool:
    """A participle used as an adjective, an adverb before it and its noun after: 'from newly
    acquired skills', 'of the recently opened plant'. What the sentence asserts is elsewhere.
    ('paid contractors' without its adverb may be what the sentence adds: it stays a verb.)"""
    tokens = clause.tokens
    if tokens[index].low.endswith("ing"):
        return False  # 'by detecting deception': a gerund, what the sentence says is done
    before = index - 1
    while before >= 0 and tokens[before].low.endswith("ly") and tokens[before].content:
        before -= 1
    following = tokens[index + 1] if index + 1 < len(tokens) else None
    return (
        before < index - 1
        and before >= 0
        and (tokens[before].low in _PREPOSITIONS or tokens[before].low in _DETERMINERS)
        and following is not None
        and following.content
        and not following.name
    )


_PREPOSITIONS = _forms("of from with in on for to at by into than about against among across without")


# Counts in words are figures, the figure rule's to hold to the claims: 'from a single try'.
_COUNTING = NUMBER_WORDS | _forms("single")


# 'hand-built ones': a pro-form standing for a noun said before, nothing new.
_PRO_FORMS = _forms("ones")


def _counting(token: Token) -> bool:
    return token.low in _COUNTING or token.low in _PRO_FORMS


# Verbs that link a thing to what is said of it ('proved hard', 'remains the workhorse', 'came
# through largely intact'): they assert nothing of their own; a reporter's characterisation of
# the claim's facts follows them.
_LINKING = _forms(
    "prove proves proved proven remain remains remained stay stays stayed seem seems seemed appear appears "
    "appeared become becomes became come comes came emerge emerges emerged"
)


def _clause_backed(clause: Clause, verb: int, backing: Backing) -> float:
    total = backed = 0.0
    tokens = clause.tokens
    for token in tokens[verb + 1 : _clause_end(tokens, verb + 1)]:
        if token.kind == "number" or _counting(token):
            total += 1
            backed += 1  # the figure rule holds figures to the claims
        elif token.content and token.low not in _ADVERBS:
            total += weight(token.stem)
            backed += weight(token.stem) if backing.backs(token.stem) else 0
    return backed / total if total else 0.0


# Verbs that report who said what, not what happened: never the assertion a claim must back.
_SPEECH = _forms(
    "say says said tell tells told report reports reported note notes noted add adds added argue argues argued "
    "write writes wrote state states stated claim claims claimed announce announces announced suggest "
    "suggests suggested show shows showed shown find finds found conclude concludes concluded"
)
_PRONOUNS = _forms("it he she they we which who that this also")
# Verbs news copy uses for taking on a problem, whatever the claim's verb: 'attacks the same
# problem', 'tackles', 'handles'.
_FIGURATIVE = frozenset(
    lex.stem(word) for word in ("attack", "tackle", "address", "handle", "approach", "target", "treat")
)
_PARTICLES = _forms("off up out down back over away on in")
_BE = _forms("is are was were be been being")


def _event_verb(clause: Clause, index: int) -> bool:
    """A news verb used as a verb, in an inflected form or after an auxiliary ('sold', 'has
    sold', 'will sell', 'is being acquired', 'blames'): what the sentence says happened. Plain
    forms after a noun ('a pension fund') and plural nouns ('sales') are left out."""
    tokens = clause.tokens
    token = tokens[index]
    low = token.low
    base = lex.IRREGULAR.get(low)
    previous = tokens[index - 1] if index else None
    if (
        low in _SPEECH
        or (base and base in _SPEECH)
        or POLARITY.get(low, ("",))[0] in ("level", "rank", "time")
        or low in _PLAN_WORDS
        or low in _CARRIER_VERBS
    ):
        return False  # speech is attribution; movements and plans are their own rules'
    if token.stem in LIGHT or token.stem in _FIGURATIVE:
        return False
    following = tokens[index + 1 : index + 4]
    if following and following[0].low in _PARTICLES:
        return False  # 'signed off on', 'shut down': a phrasal verb paraphrases more freely
    if any(t.low == "to" for t in following):
        return False  # 'forced the band to call off': the verb after 'to' is what it asserts
    if (
        previous is not None
        and previous.low == "to"
        and index > 1
        and tokens[index - 2].kind != "punct"
        and tokens[index - 2].low not in _PLAN_WORDS
        and tokens[index - 2].low not in _BE
    ):
        return False  # 'put aside money to cover loans': a purpose, not an assertion
    if previous is not None and previous.low in _DETERMINERS:
        return False
    known = base in _BASE_VERBS if base else False
    form = ""
    if not known:
        for suffix in ("ed", "d", "ing", "es", "s"):
            if low.endswith(suffix) and low[: -len(suffix)] in _BASE_VERBS:
                known, form = True, suffix
                break
        if not known and low.endswith("ied") and low[:-3] + "y" in _BASE_VERBS:
            known, form = True, "ed"
        if not known and low.endswith("ing") and low[:-3] + "e" in _BASE_VERBS:
            known, form = True, "ing"
        if not known and _doubled(low) in _BASE_VERBS:
            known, form = True, "ing" if low.endswith("ing") else "ed"  # 'flagged', 'banning'
        if not known and low in _BASE_VERBS:
            known, form = True, "plain"
        if not known and len(low) > 5 and low[:-2] in _BASE_VERBS and low.endswith("ed"):
            known, form = True, "ed"
    if not known:
        return False
    if base or form in ("ed", "d"):
        return True  # 'sold', 'blamed'
    after_auxiliary = previous is not None and (previous.low in _AUXILIARIES or previous.low in _BE)
    if form == "ing":
        # 'is selling', 'by selling', 'recommends retiring': what is done, or urged to be done.
        return previous is not None and (previous.low in _BE or previous.low == "by" or previous.low in _GERUND_TAKERS)
    if form in ("s", "es"):
        return previous is not None and (previous.name or previous.low in _PRONOUNS)
    # 'lets teams train': the verb a causative brings about; 'the authors blame': a plain verb
    # after its plural subject.
    caused = index > 1 and tokens[index - 2].low in _CAUSATIVES
    return after_auxiliary or caused or (previous is not None and _plural_subject(clause, index - 1))


_PAYING = _forms("pay pays paid paying spend spends spent spending")

# Verbs whose object is a gerund: the gerund is what the sentence says is done or urged.
_GERUND_TAKERS = _forms(
    "recommend recommends recommended suggest suggests suggested propose proposes proposed began begun begin "
    "begins start starts started stop stops stopped avoid avoids avoided consider considers considered"
)


def _plural_subject(clause: Clause, index: int) -> bool:
    """A plural noun that can be a verb's subject: 'the authors', 'regulators'; not a verb form
    itself ('sells') and not the sentence's first word (a name or a noun the rules cannot tell)."""
    token = clause.tokens[index]
    low = token.low
    return (
        index > 0
        and token.kind == "word"
        and len(low) > 3
        and not token.name
        and low.endswith("s")
        and not low.endswith("ss")
        and low[:-1] not in _BASE_VERBS
        and low[:-2] not in _BASE_VERBS
        and (clause.tokens[index - 1].low in _DETERMINERS or clause.tokens[index - 1].name)
    )


def _nearest(sentence: Clause, first: int, end: int, claims: Sequence[Cited]) -> str:
    """The cited claim closest to a clause (most words in common), quoted from its first verb:
    what the writer may have meant to say, for the reason's other side."""
    words = {t.stem for t in sentence.tokens[max(0, first - 6) : end] if t.content}
    best = max(claims, key=lambda cited: len(words & cited.clause.stems), default=None)
    if best is None:
        return ""
    tokens = best.clause.tokens
    words = [i for i, t in enumerate(tokens) if t.content and not t.name]
    clear = [i for i in words if tokens[i].low in POLARITY or tokens[i].low.endswith("ed")]
    likely = [i for i in words if _verb_like(best.clause, i)]
    verb = (clear or likely or [None])[0]
    if verb is None:
        return ""
    first = verb
    while first > 0 and tokens[first - 1].low in _AUXILIARIES:
        first -= 1  # 'will build', 'has cut'
    return f"; the nearest, {_claim_says(best, _span(best.clause, first, verb + 4))}"


def _carries_stated_figure(sentence: Clause, verb: int, end: int, claims: Sequence[Cited]) -> bool:
    """A verb whose object is a figure a claim states ('delivered 87% of the training signal',
    'posts 73.6%'): the verb only attaches the figure to its owner, however the reporter words
    it; whether the figure is right is the figure rule's."""
    tokens = sentence.tokens
    for index in range(verb + 1, min(end, verb + 4)):
        token = tokens[index]
        if token.kind == "number" and not token.name:
            value = _number_value(token)
            return any(value in _numbers(cited.clause) for cited in claims)
        if token.low in _PREPOSITIONS or (token.content and token.low not in _ADVERBS and not token.low.endswith("ly")):
            return False  # 'adopted by 10,000 companies': the figure is the doer's, not the object
    return False


def new_predicate_rule(sentence: Clause, backing: Backing, claims: Sequence[Cited] = ()) -> list[str]:
    """What a sentence asserts that no claim has: a verb in no cited claim whose clause (the
    words it governs, to the clause's end) is mostly in none either ('will replace every
    verifier'). A new verb with backed words after it is a paraphrase of the claim's verb
    ('handed over 214,000 vehicles'); a verb alone says too little to report."""
    tokens = sentence.tokens
    # 'To keep this distinct from last week's story: ...' frames the sentence; what it asserts
    # comes after the frame.
    start = 0
    if tokens and tokens[0].low == "to":
        start = next((i for i, t in enumerate(tokens) if t.kind == "punct"), 0)
    reasons = []
    index = start
    while index < len(tokens):
        token = tokens[index]
        if (
            not token.content
            or token.name
            or token.low in MONTHS  # 'April-to-June': a date, not a verb after 'to'
            # 'paid $14.3 billion for half of Scale AI': the money side of a purchase the claims report
            or (token.low in _PAYING and any(kind == "trade" for kind, _ in backing.polarities))
            or token.low in _CARRIER_VERBS
            or token.low in _LINKING
            or backing.backs(token.stem)
            or not _verb_like(sentence, index)
            or _adjectival(sentence, index)
        ):
            index += 1
            continue
        end = _clause_end(tokens, index + 1)
        new = [
            i
            for i in range(index + 1, end)
            if tokens[i].content
            and not tokens[i].name
            and not _counting(tokens[i])  # counts are the figure rule's
            and not backing.backs(tokens[i].stem)
        ]
        # After the verb, an -s word right after a name is a plural noun ('switched GPU
        # suppliers'), not a verb of that name's.
        governed = [i for i in new if _object_like(tokens[i]) and (not _verb_like(sentence, i) or tokens[i - 1].name)]
        before = index - 1
        while before > 0 and (tokens[before].low in _ADVERBS or tokens[before].low == "now"):
            before -= 1  # 'is now approved'
        passive = before >= 0 and tokens[before].low in _BE
        # The verb's first word after it, new too ('replace every verifier'), unless that word is
        # only in the claims as part of a name ('air' in 'Norvik Air').
        first_word = next(
            (i for i in range(index + 1, end) if tokens[i].content and tokens[i].low not in NUMBER_WORDS), None
        )
        opens_new = first_word is not None and (first_word in new or tokens[first_word].stem in backing.name_only)
        if governed and opens_new and _clause_backed(sentence, index, backing) < NEW_PREDICATE_BACKED:
            first = index
            while first > 0 and tokens[first - 1].low in _AUXILIARIES:
                first -= 1
            words = ", ".join(tokens[i].low for i in [index, *new])
            reasons.append(
                f"new predicate: the paragraph says '{_span(sentence, first, end - 1)}'; no cited claim says "
                f"anything like it (not in them: {words}){_nearest(sentence, index, end, claims)}"
            )
            index = end
            continue
        # Urged or brought about ('recommends retiring 14 benchmarks', 'lets teams train'): the
        # verb is the assertion even when the claims name what it is done to.
        urged = index > 0 and (tokens[index - 1].low in _GERUND_TAKERS or tokens[index - 2].low in _CAUSATIVES)
        # A passive with nothing after it in its clause ('a task that cannot be solved') is a
        # verb alone: too little to tell a new assertion from a reporter's word for the claim's.
        passive = passive and any(tokens[i].content or tokens[i].kind == "number" for i in range(index + 1, end))
        if (
            (governed or passive or urged)
            and (governed or urged or not _carries_stated_figure(sentence, index, end, claims))
            and POLARITY.get(token.low) not in backing.polarities
            and _event_verb(sentence, index)
        ):
            # What happened, in a verb no claim has nor a synonym of: the sentence's assertion
            # is new however many of its topic words the claims share ('has sold its Nevada
            # solar farm' against 'will build a solar farm in Nevada').
            first = index
            while first > 0 and tokens[first - 1].low in _AUXILIARIES | _BE:
                first -= 1
            reasons.append(
                f"new predicate: the paragraph says '{_span(sentence, first, min(end - 1, index + 4))}'; "
                f"no cited claim says '{token.low}' or anything like it{_nearest(sentence, index, end, claims)}"
            )
            index = end
            continue
        # 'lets teams train', 'recommends retiring': the verb a causative or a verb of advice
        # governs may be the assertion.
        index = index + 1 if token.low in _CAUSATIVES or token.low in _GERUND_TAKERS else end
    return reasons


# Roles ---------------------------------------------------------------------------------------


def _subject(clause: Clause, verb: int) -> list[int]:
    """The words right before a verb, up to three, skipping auxiliaries: who does it."""
    tokens = clause.tokens
    found: list[int] = []
    index = verb - 1
    while index >= 0 and (tokens[index].low in _AUXILIARIES or tokens[index].low in _ADVERBS):
        index -= 1
    while index >= 0 and len(found) < 3:
        token = tokens[index]
        if token.boundary or token.kind != "word" or token.low in _DETERMINERS or not token.content:
            break
        found.append(index)
        index -= 1
    return found


def _active(clause: Clause, verb: int) -> bool:
    """Not a passive: no 'be' before the verb, no 'by' after it, an adverb or two between
    ('powered only by sunlight', 'led jointly by'), and no word hyphened to it before: 'sunlight-
    powered' is 'powered by sunlight'."""
    tokens = clause.tokens
    before = tokens[verb - 1].low if verb else ""
    if tokens[verb].start and clause.text[tokens[verb].start - 1] == "-":
        return False
    after = verb + 1
    while (
        after < len(tokens)
        and after <= verb + 2
        and (tokens[after].low in _ADVERBS or tokens[after].low == "only" or tokens[after].low.endswith("ly"))
    ):
        after += 1
    return before not in _BE and before != "being" and (after >= len(tokens) or tokens[after].low != "by")


def _word_keys(token: Token) -> list[str]:
    """Keys under which ``same_word`` may find a token: its key, its long prefix, its synonym groups."""
    keys = ["k:" + token.key]
    if len(token.stem) >= 6:
        keys.append("p:" + token.stem[:6])
    keys += [f"g:{group}" for group in SYNONYMS.get(token.stem, ())]
    return keys


def _same_words(clause: Clause, token: Token) -> list[int]:
    """Positions of a clause's content words that are ``token``'s word, found through an index
    built once a clause (a story cites the same claims from many sentences)."""
    if clause.word_index is None:
        index: dict[str, list[int]] = {}
        for position, other in enumerate(clause.tokens):
            if other.content:
                for key in _word_keys(other):
                    index.setdefault(key, []).append(position)
        clause.word_index = index
    found = {position for key in _word_keys(token) for position in clause.word_index.get(key, ())}
    return sorted(position for position in found if same_word(token, clause.tokens[position]))


def _done_to(clause: Clause, verb: int, stems: set[str]) -> bool:
    """Whether all these words stand after the verb in its clause: the one it is done to."""
    after = set()
    tokens = clause.tokens
    for position in range(verb + 1, min(len(tokens), verb + 13)):
        token = tokens[position]
        # 'and' joins the verb's objects ('builds environments and verifiers for clients').
        if token.boundary and token.low != "and":
            break
        if token.low.endswith("'s") or clause.text[token.end : token.end + 1] == "'":
            return False  # 'licensed Ivy Labs' model': an owner, not the one done to
        if token.low == "by" and any(t.low in _BE for t in tokens[max(verb, position - 3) : position]):
            break  # 'agreed to be acquired by Merriam': the doer of a passive, not the one done to
        after.add(token.stem)
    return stems <= after


# Movement words that also take an object, whose doer can be swapped: 'raised $45 million',
# 'beat the baselines', 'cut its forecast'.
_TRANSITIVE_MOVES = _forms(
    "raise raises raised raising beat beats beating outperform outperforms outperformed surpass surpasses "
    "surpassed cut cuts cutting lift lifts lifted boost boosts boosted lower lowers lowered acquire acquires "
    "acquired buy buys bought sell sells sold trail trails trailed"
)


def _plural_noun_at(clause: Clause, index: int) -> bool:
    """'Phone sales at the firm': an -s word after the sentence's first word is a noun, not a
    verb whose doer that word is."""
    token = clause.tokens[index]
    if index != 1 or not token.low.endswith("s") or token.low.endswith("ss"):
        return False
    return token.low[:-1] not in _BASE_VERBS and token.low[:-2] not in _BASE_VERBS  # 'Acme sues' is a verb


def _nominal_at(clause: Clause, index: int, subject: list[int]) -> bool:
    """Whether a verb-like word and the words before it are a noun phrase, not a doer and its
    verb: 'the number of steps needed to reach' (a preposition before the 'doer'), 'model-
    generated tests stood in' (the '-s' word is the subject of the verb after it)."""
    tokens = clause.tokens
    before = min(subject) - 1
    while before >= 0 and tokens[before].low in _DETERMINERS:
        before -= 1
    if before >= 0 and tokens[before].low in _PREPOSITIONS:
        return True
    low = tokens[index].low
    following = index + 1
    return (
        low.endswith("s")
        and not low.endswith("ss")
        and following < len(tokens)
        and tokens[following].content
        and not tokens[following].low.endswith("s")
        and _verb_like(clause, following)
    )


def _doers(clause: Clause) -> list[tuple[int, list[int]]]:
    """Each active verb of a clause with the words right before it (its doer), once a clause."""
    if clause.doers is None:
        clause.doers = []
        for index, token in enumerate(clause.tokens):
            if (
                not token.content
                or token.name
                or (token.low in POLARITY and token.low not in _TRANSITIVE_MOVES)
                or not _verb_like(clause, index)
                or not _active(clause, index)
                or _plural_noun_at(clause, index)
            ):
                continue
            subject = _subject(clause, index)
            if subject and not _nominal_at(clause, index, subject):
                clause.doers.append((index, subject))
    return clause.doers


def role_rule(sentence: Clause, claims: Sequence[Cited]) -> list[str]:
    """Who did it, swapped: the passage's verb has for its doer what the claim's same verb has
    in another role, and the claim's doer stands elsewhere in the passage ('Pelham Telecom
    fined the regulator' against 'the regulator fined Pelham Telecom'). Both verbs active:
    a passive turns the roles round on purpose."""
    mine_by_verb = dict(_doers(sentence))
    if not mine_by_verb:
        return []
    for cited in claims:
        claim = cited.clause
        for position, theirs in _doers(claim):
            theirs_stems = {claim.tokens[j].stem for j in theirs}
            if not theirs_stems <= sentence.stems:
                continue  # the claim's doer is not in the sentence at all: no swap (and cheap)
            for index in _same_words(sentence, claim.tokens[position]):
                mine = mine_by_verb.get(index)
                if not mine or not theirs_stems.isdisjoint(sentence.tokens[i].stem for i in mine):
                    continue  # the same doer (the common case, and a cheap test)
                if any(same_word(sentence.tokens[i], claim.tokens[j]) for i in mine for j in theirs):
                    continue
                # Each doer is the one done to on the other side: a swap, not a new doer.
                if _done_to(sentence, index, theirs_stems) and _done_to(
                    claim, position, {sentence.tokens[i].stem for i in mine}
                ):
                    return [
                        f"entity swap: the paragraph says '{_span(sentence, min(mine), index + 2)}'; "
                        f"{_claim_says(cited, _span(claim, min(theirs), position + 2))}"
                    ]
    return []


# Movements by value ------------------------------------------------------------------------

_FIGURE_TEXT = r"[$€£¥]?\d[\d,]*(?:\.\d+)?\s?(?:%|percent|per cent)?"
_FROM_TO = re.compile(rf"\bfrom\s+({_FIGURE_TEXT})\s+to\s+({_FIGURE_TEXT})", re.IGNORECASE)
_TO_FROM = re.compile(
    rf"\b(?:to|at|reaching|hitting)\s+({_FIGURE_TEXT})[^.;:]{{0,40}}?\bfrom\s+({_FIGURE_TEXT})", re.IGNORECASE
)


@lru_cache(maxsize=4096)
def _value_moves(text: str) -> tuple[tuple[Decimal, Decimal, str], ...]:
    """Each 'from A to B' (or 'to B from A') of a text: where a value went, by the values."""
    moves = []
    for pattern, swap in ((_FROM_TO, False), (_TO_FROM, True)):
        for match in pattern.finditer(text):
            first, second = (lex.figure_values(match.group(i)) for i in (1, 2))
            if len(first) == 1 and len(second) == 1:
                start, end = (second, first) if swap else (first, second)
                moves.append((next(iter(start)), next(iter(end)), match.group().strip()))
    return tuple(moves)


def value_direction_rule(passage: str, claims: Sequence[Cited]) -> list[str]:
    """'rose from 22.8% to 26.3%' where a claim has it go from 26.3% to 22.8%: the same two
    values, the other way round, whatever words carry the movement."""
    mine = _value_moves(passage)
    if not mine:
        return []
    for start, end, text in mine:
        for cited in claims:
            for other_start, other_end, other_text in _value_moves(cited.clause.text):
                if (start, end) == (other_end, other_start) and start != end:
                    return [f"direction: the paragraph says '{text}'; {_claim_says(cited, other_text)}"]
    return []


# Whose figure, for things that are not names -------------------------------------------------

FIGURE_OWNER_REACH = 5
_YEAR = re.compile(r"(?:19|20)\d\d")


def _owner(clause: Clause, index: int) -> frozenset[str]:
    """The words a figure is said of: up to FIGURE_OWNER_REACH words before it in its clause
    ('the direct-tool-calling baselines reached 30.7%'), light and movement words left out.
    Kept once a clause: a story cites the same claims from many sentences."""
    if clause.owners is None:
        clause.owners = {}
    owner = clause.owners.get(index)
    if owner is None:
        owner = clause.owners[index] = _read_owner(clause, index)
    return owner


def _read_owner(clause: Clause, index: int) -> frozenset[str]:
    found = set()
    first = max(0, index - FIGURE_OWNER_REACH)
    for position in range(index - 1, first - 1, -1):
        t = clause.tokens[position]
        if t.kind == "number" and t.start and clause.text[t.start - 1] in "-.":
            continue  # digits inside a name: 'ProgAgent-14B'
        if t.boundary or t.kind == "number" or t.low in MONTHS:
            break  # another figure's words, or a date's, are not this figure's
        if (
            t.content
            and t.stem not in LIGHT
            and t.low not in POLARITY
            and t.low not in NUMBER_WORDS
            and not _verb_like(clause, position)  # 'reached', 'scored': what is said, not of what
        ):
            found.add(t.stem)
    return frozenset(found)


def _sized(clause: Clause, index: int) -> bool:
    """A number glued to a unit letter: the size in 'a 17B model', '4x', part of a name."""
    end = clause.tokens[index].end
    return end < len(clause.text) and clause.text[end].isalpha()


def _owns_elsewhere(sentence: Clause, index: int, theirs: frozenset[str]) -> bool:
    """Whether what the claim gives this figure to has another figure in the sentence, or
    stands after this one ('against 97 for SkillForge agents'): the figures were exchanged,
    not said of the same thing in other words."""
    tokens = sentence.tokens
    for position, token in enumerate(tokens):
        figure = (token.kind == "number" and not token.name) or token.low in NUMBER_WORDS or token.low == "zero"
        if position != index and figure and theirs & _owner(sentence, position):
            return True
    # 'against 97 for SkillForge agents', '97 minutes for the baseline': whose, after 'for'.
    marker = next((i for i in range(index + 1, min(len(tokens), index + 4)) if tokens[i].low == "for"), None)
    if marker is None:
        return False
    after = {t.stem for t in tokens[marker + 1 : _clause_end(tokens, marker + 1)] if t.content}
    return bool(theirs & after)


def figure_owner_rule(sentence: Clause, claims: Sequence[Cited]) -> list[str]:
    """A figure said of something the claim says another figure of: 'the baselines reached a
    30.7% pass rate, where ProgAgent-14B scored zero' against a claim giving the 30.7% to
    ProgAgent-14B and zero to the baselines.

    Owners are compared by the words that tell a claim's figures apart: in 'the planner agents
    reached 30.7%, the baseline agents 12.4%', 'planner' and 'baseline', not 'agents'."""
    for index, token in enumerate(sentence.tokens):
        if token.kind != "number" or token.name:
            continue  # a number inside a name ('GPT-4.1') is no one's figure
        value = _number_value(token)
        if _YEAR.fullmatch(value) or _sized(sentence, index):
            continue  # a year dates a sentence; it is no one's figure
        givers = [(cited, position) for cited in claims for position in _numbers(cited.clause).get(value, ())]
        if not givers:
            continue
        mine = _owner(sentence, index)
        if not mine:
            continue
        owners = [(cited, position, *_told_apart(cited.clause, position)) for cited, position in givers]
        if any(mine & theirs for _, _, theirs, _ in owners):
            continue  # a cited claim gives this value to the same thing
        after = _owner_after(sentence, index)
        if any(after & theirs for _, _, theirs, _ in owners):
            continue  # '$30.9 billion of revenue': the owner said after the figure
        for cited, position, theirs, others in owners:
            # A swap, not a rewording: the passage's owner is the owner of another of the
            # claim's figures ('where the baselines scored zero'), and the claim's owner of this
            # one has another figure in the passage.
            if (
                theirs
                and theirs <= sentence.stems
                and any(mine & other for other in others)
                and _owns_elsewhere(sentence, index, theirs)
            ):
                claim = cited.clause
                return [
                    f"entity swap: the paragraph gives '{token.text}' to "
                    f"'{_span(sentence, max(0, index - FIGURE_OWNER_REACH), index - 1)}'; "
                    f"{_claim_says(cited, _span(claim, max(0, position - FIGURE_OWNER_REACH), position))}"
                ]
    return []


_SCALES = _forms("thousand million billion trillion k m bn mn percent per cent points percentage")


def _owner_after(clause: Clause, index: int) -> frozenset[str]:
    """What a figure is of when said after it: '$30.9 billion of revenue', '40% of the tasks'."""
    tokens = clause.tokens
    at = index + 1
    while at < len(tokens) and tokens[at].low in _SCALES:
        at += 1
    if at >= len(tokens) or tokens[at].low not in ("of", "in", "off"):
        return frozenset()
    found = set()
    for token in tokens[at + 1 : at + 4]:
        if token.boundary or token.kind == "number" or token.low in _PREPOSITIONS:
            break
        if token.content:
            found.add(token.stem)
    return frozenset(found)


def _told_apart(claim: Clause, position: int) -> tuple[frozenset[str], list[frozenset[str]]]:
    """The owner of a claim's figure and those of its other figures, each less the words they
    share ('agents' of 'the planner agents' and 'the baseline agents'). Kept once a clause."""
    if claim.told_apart is None:
        claim.told_apart = {}
    found = claim.told_apart.get(position)
    if found is None:
        found = claim.told_apart[position] = _read_told_apart(claim, position)
    return found


def _read_told_apart(claim: Clause, position: int) -> tuple[frozenset[str], list[frozenset[str]]]:
    others = [
        _owner(claim, i)
        for i, t in enumerate(claim.tokens)
        if i != position
        and (t.kind == "number" or t.low in NUMBER_WORDS or t.low == "zero")
        and not (t.start and claim.text[t.start - 1] in "-.")  # not 'Lumen-7'
        and not t.name  # not 'Claude Opus 4'
        and not _YEAR.fullmatch(_number_value(t))
        and not _sized(claim, i)  # not 'a 17B model'
    ]
    theirs = _owner(claim, position)
    shared = theirs.intersection(*others) if others else frozenset()
    if shared == theirs:
        return theirs, [other - theirs for other in others]
    return theirs - shared, [other - shared for other in others]


# Comparisons ---------------------------------------------------------------------------------


_TIME_SPANS = _forms("days months years weeks hours minutes seconds decades")


def _identifies(token: Token) -> bool:
    """A word that can tell a side apart: not a rank or comparing word; a level word may
    ('the cheaper plan', 'the larger model')."""
    polarity = POLARITY.get(token.low)
    return token.low not in _COMPARATIVES and (polarity is None or polarity[0] == "level")


def _operand(token: Token) -> str:
    return token.text.rstrip(",") if token.kind == "number" else token.stem


def _side_ends(tokens: list[Token], index: int) -> bool:
    """A side ends at a boundary, or after a figure that took in its comma ('over 65, ...')."""
    return tokens[index].boundary or (index > 0 and tokens[index - 1].text.endswith(","))


def _operand_word(token: Token) -> bool:
    # Figures tell sides apart too: 'adults under 30 than those over 65'.
    return (token.kind == "word" and (token.content or token.low in _TIME_SPANS)) or token.kind == "number"


@dataclass(frozen=True)
class Comparison:
    """An 'A ... than B': where 'than' stands, the comparing word before it ('more', 'denser',
    'rather') and its place, its direction when it has one (+1 'more', -1 'fewer'), and the
    content words that tell each side apart."""

    than: int
    word: str
    at: int
    sign: int | None
    left: frozenset[str]
    right: frozenset[str]


COMPARING_REACH = 5


def _comparing_word(clause: Clause, than: int) -> tuple[int, int | None]:
    """The word that compares, and its sign: the nearest 'more', 'fewer' or direction word
    before 'than' ('consumed 45% fewer context tokens than'), else the word before 'than'."""
    tokens = clause.tokens
    for position in range(than - 1, max(-1, than - COMPARING_REACH - 1), -1):
        token = tokens[position]
        if token.boundary:
            break
        if token.low in _COMPARATIVES:
            return position, _COMPARATIVES[token.low]
        polarity = _polarity(clause, position) if token.kind == "word" else None
        if polarity is not None and polarity[0] in ("level", "rank") and polarity[1]:
            return position, polarity[1]
    return than - 1, None


_WH_SIDES = _forms("how what whatever")


@lru_cache(maxsize=4096)
def _comparisons_of(text: str) -> tuple[Comparison, ...]:
    """Each 'A ... than B' of a text, with the content words of each side within the clause."""
    clause = clause_of(text)
    found = []
    tokens = clause.tokens
    for index, token in enumerate(tokens):
        if token.low != "than" or index == 0 or _is_bound(clause, index - 1):
            continue  # 'more than 200': a bound, the quantity rule's
        start = index - 1
        while start > 0 and not tokens[start - 1].boundary:
            start -= 1
        # The other side: the words right after 'than', to the first function word after them
        # ('than verifier quality in the early stages': verifier quality).
        end = index + 1
        while end < len(tokens) and not _side_ends(tokens, end) and (end == index + 1 or _operand_word(tokens[end])):
            end += 1
        if index + 1 < len(tokens) and tokens[index + 1].low in _WH_SIDES:
            # 'than how good the verifier is', 'than what the rivals spent': a clause as the side.
            while end < len(tokens) and not _side_ends(tokens, end):
                end += 1
        at, sign = _comparing_word(clause, index)
        left = {
            _operand(t)
            for t in tokens[start : index - 1]
            if _operand_word(t) and _identifies(t) and t is not tokens[at]
        }
        right = {
            _operand(t) for t in tokens[index + 1 : end] if _operand_word(t) and _identifies(t) and t is not tokens[at]
        }
        if not right - left:
            # 'than agents using direct tool calling': what tells it apart comes after a function word.
            while end < len(tokens) and not _side_ends(tokens, end):
                end += 1
            right = {
                _operand(t)
                for t in tokens[index + 1 : end]
                if _operand_word(t) and _identifies(t) and t is not tokens[at]
            }
        # What tells the sides apart: 'terminal rewards' against 'process rewards'.
        left, right = left - right, right - left
        if left and right:
            found.append(Comparison(index, tokens[index - 1].low, at, sign, frozenset(left), frozenset(right)))
    return tuple(found)


def _comparisons(clause: Clause) -> tuple[Comparison, ...]:
    return _comparisons_of(clause.text)


def _comparison_at(clause: Clause, index: int) -> Comparison | None:
    """The comparison whose comparing word is token ``index`` ('fewer' of 'fewer steps than')."""
    return next((found for found in _comparisons(clause) if found.at == index), None)


def _order(left: frozenset[str], right: frozenset[str], other_left: frozenset[str], other_right: frozenset[str]) -> str:
    """Whether two comparisons have their sides the 'same' way round, 'swapped', or it is
    'unclear'."""
    if not (right & other_right) and right & other_left and left & other_right:
        return "swapped"
    if not (right & other_left) and right & other_right and not (left & other_right):
        return "same"
    return "unclear"


def comparison_swap_rule(sentence: Clause, claims: Sequence[Cited]) -> list[str]:
    """The two sides of a comparison swapped with the same comparing word: 'rollout volume
    matters more than verifier quality' where a claim has 'verifier quality matters more than
    rollout volume'; 'months rather than days' against 'days rather than months'. Or the
    sides kept and the direction turned: '45% higher than direct calling' against '45% fewer
    ... than direct calling'. 'A costs less than B' says what 'B costs more than A' says."""
    for mine in _comparisons(sentence):
        for cited in claims:
            for theirs in _comparisons(cited.clause):
                if mine.sign is not None and theirs.sign is not None:
                    opposite = mine.sign != theirs.sign
                elif lex.stem(mine.word) == lex.stem(theirs.word):
                    opposite = False
                else:
                    continue
                order = _order(mine.left, mine.right, theirs.left, theirs.right)
                if order == "unclear" or (order == "swapped") == opposite:
                    continue
                if order == "swapped":
                    change = "the sides of the comparison are swapped"
                else:
                    change = "the comparison goes the other way"
                return [
                    f"direction: the paragraph says '{_phrase(sentence, mine.than, before=3, after=3)}'; "
                    f"{_claim_says(cited, _phrase(cited.clause, theirs.than, before=3, after=3))}: {change}"
                ]
    return []


# --- All rules -------------------------------------------------------------------------------


def check(sentences: Sequence[str], claims: Sequence[Cited], backing: Backing | None = None) -> list[str]:
    """Every fact-checker reason for a passage. Dates and quantities are read over the whole
    passage (a figure's words do not cross sentences); the other rules sentence by sentence."""
    backing = backing or Backing([cited.clause for cited in claims])
    passage = " ".join(sentences)
    reasons = date_rule(passage, claims) + quantity_rule(passage, claims) + value_direction_rule(passage, claims)
    for text in sentences:
        sentence = clause_of(text)
        reasons += negation_and_direction(sentence, claims)
        entity = entity_rule(sentence, claims) or role_rule(sentence, claims)
        reasons += entity or figure_owner_rule(sentence, claims)
        reasons += comparison_swap_rule(sentence, claims)
        reasons += modality_rule(sentence, claims)
        reasons += new_predicate_rule(sentence, backing, claims)
    return list(dict.fromkeys(reasons))

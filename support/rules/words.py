"""The word lists the rules read: negation cues, polarity tables (word -> concept and sign),
modal, plan and hedge words, months and ordinals, bounds and multipliers, synonym groups, light
words, verb forms, and the function words (determiners, auxiliaries, prepositions, forms of
'be') that the tokenizer and several rules share.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from lemminflect import getInflection

from .. import text as lex


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
# Actions and their opposites that POLARITY's concepts do not hold: with the same doer and the
# same thing done to, one side says what the other denies ('the verifier missed 92% of the
# flawed proofs' against 'caught 92%'). Each line is one action: its words | the opposite's.
# A word with an underscore is a verb and its particle ('lay_off', 'fall_short'), irregular
# forms written out ('laid_off'). A line marked ~ holds converses, which say the same from the
# other side ('A lent to B', 'B borrowed from A'): opposites only when the doer is the same.
# Drawn up with WordNet's verb antonyms as a checklist and a blind writer's tuning cases
# (tests/support/blind_cases_i.json); kept to the unambiguous, news-worthy ones.
_OPPOSITE_ACTIONS = """
    catch detect spot flag find intercept | miss overlook leak let_through
    reach achieve attain | miss fall_short
    hire recruit employ appoint elect | fire dismiss sack lay_off laid_off oust
    open reopen | close shut
    begin start | end halt
    launch | scrap axe shelve
    include | exclude omit leave_out left_out
    add create | remove eliminate shed cut
    admit acknowledge | deny
    admit | discharge
    accept | decline
    permit | forbid forbade forbidden prohibit
    acquit clear | convict charge indict
    comply | violate breach
    enter join ratify | exit quit leave left withdraw withdrew withdrawn pull_out
    sign | veto
    pass adopt | vote_down abandon
    pass | flunk
    solve | fail
    grant award issue | revoke rescind
    confirm verify prove | refute disprove debunk
    upgrade | downgrade
    promote | demote
    enable switch_on turn_on | disable switch_off turn_off
    ship | hold_back held_back
    qualify | knock_out
    recover | relapse
    expand extend | scale_back shorten curtail
    impose introduce | lift
    endorse | oppose
    bring_forward brought_forward | push_back postpone
    build construct | demolish raze tear_down tore_down torn_down
    attract | deter repel repelled drive_away drove_away driven_away
    reinstate readmit | expel suspend
    restore reconnect | cut_off disconnect
    deploy | withdraw withdrew withdrawn
    improve | degrade impair
    protect shield | expose
    keep retain | drop
    tighten | loosen relax ease
    release free | jail imprison detain
    survive | die
    gain | shed
    rescue | abandon strand
    attend | boycott skip miss
    remember | forget forgot forgotten
    reveal disclose | conceal hide
    credit | blame
    reward | punish penalize penalise
    overestimate | underestimate
    overstate | understate
    overvalue | undervalue
    overpay | underpay
    ~ import | export
    ~ lend lent | borrow
"""


def _verb_forms_of(word: str) -> set[str]:
    """A verb's forms as lemminflect inflects it (by its rules, for a verb its dictionary lacks),
    each as the stem text.stem gives it: 'hire' and 'hired' stem apart ('hire', 'hir'), so each
    form's stem is kept."""
    forms = {word}
    for tag in ("VBD", "VBN", "VBG", "VBZ"):
        forms.update(getInflection(word, tag, inflect_oov=True))
    return {lex.stem(form) for form in forms}


@dataclass(frozen=True)
class Opposites:
    """The table read: each verb form's stem, and each (stem, particle) of a phrasal verb, with
    the actions it is a side of, as (which action, which side); 'miss' is the opposite of
    catching, of reaching and of attending. ``converse`` holds the actions marked ~."""

    words: dict[str, frozenset[tuple[int, int]]]
    phrasal: dict[tuple[str, str], frozenset[tuple[int, int]]]
    converse: frozenset[int]


def _opposites(table: str) -> Opposites:
    words: dict[str, set[tuple[int, int]]] = {}
    phrasal: dict[tuple[str, str], set[tuple[int, int]]] = {}
    converse = set()
    for action, line in enumerate(table.strip().splitlines()):
        if line.lstrip().startswith("~"):
            converse.add(action)
            line = line.lstrip()[1:]
        for side, written in enumerate(line.split("|")):
            for word in written.split():
                verb, _, particle = word.partition("_")
                for stem in _verb_forms_of(verb):
                    key = (stem, particle)
                    if particle:
                        phrasal.setdefault(key, set()).add((action, side))
                    else:
                        words.setdefault(stem, set()).add((action, side))
    return Opposites(
        words={stem: frozenset(sides) for stem, sides in words.items()},
        phrasal={key: frozenset(sides) for key, sides in phrasal.items()},
        converse=frozenset(converse),
    )


OPPOSITE_ACTIONS = _opposites(_OPPOSITE_ACTIONS)

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


# Function words: the tokenizer reads them, and so do several rules ---------------------------

# After these a 'no' opens a clause's subject: 'said no model scored above 25%'.
_SUBJECT_BEFORE = _forms(
    "that say says said report reports reported note notes noted add adds added argue argues argued state states "
    "stated claim claims claimed"
)

_ADJUNCT_PREPOSITIONS = _forms("on in at by for with from to as during across among per")

NUMBER_WORDS = _forms(
    "one two three four five six seven eight nine ten eleven twelve twenty thirty forty fifty hundred "
    "thousand million billion dozen dozens hundreds thousands millions billions"
)
_DETERMINERS = _forms("the a an its their his her this that these those our your own")
_AUXILIARIES = _MODALS | _forms("to did does do not never has have had may must can cannot") | {"n't"}
_ADVERBS = _forms("far well still just soon already again almost nearly roughly around about")

_PREPOSITIONS = _forms("of from with in on for to at by into than about against among across without")

# Verbs that report who said what, not what happened: never the assertion a claim must back.
_SPEECH = _forms(
    "say says said tell tells told report reports reported note notes noted add adds added argue argues argued "
    "write writes wrote state states stated claim claims claimed announce announces announced suggest "
    "suggests suggested show shows showed shown find finds found conclude concludes concluded"
)
_PRONOUNS = _forms("it he she they we which who that this also")

_BE = _forms("is are was were be been being")

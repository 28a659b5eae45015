"""The editions themselves (``../shared/spec/editions.md``).

Each edition is built from the previous one with only what changed, so a difference between two
editions is one visible line here.
"""

from __future__ import annotations

import datetime
from dataclasses import replace
from itertools import product

from arbitro.editions.model import (
    ClaimDeadline,
    Edition,
    FlagDrawRule,
    IllegalMovePolicy,
    QuickplayFinish,
    Supervision,
    register,
)
from arbitro.gamekind import THRESHOLDS, Kind

ANY = ClaimDeadline.ANY_TIME
NEXT = ClaimDeadline.BEFORE_NEXT_MOVE
STANDARD, RAPID, BLITZ = Kind.STANDARD, Kind.RAPID, Kind.BLITZ
ADEQUATE, INADEQUATE = Supervision.ADEQUATE, Supervision.INADEQUATE


def _per_kind(
    standard: IllegalMovePolicy,
    rapid_adequate: IllegalMovePolicy,
    rapid_inadequate: IllegalMovePolicy,
    blitz_adequate: IllegalMovePolicy,
    blitz_inadequate: IllegalMovePolicy,
) -> dict[tuple[Kind, Supervision], IllegalMovePolicy]:
    return {
        (STANDARD, ADEQUATE): standard,
        (STANDARD, INADEQUATE): standard,
        (RAPID, ADEQUATE): rapid_adequate,
        (RAPID, INADEQUATE): rapid_inadequate,
        (BLITZ, ADEQUATE): blitz_adequate,
        (BLITZ, INADEQUATE): blitz_inadequate,
    }


def _flags(rapid_adequate: bool, blitz_adequate: bool) -> dict[tuple[Kind, Supervision], bool]:
    """Standard play: the arbiter calls flags; rapid and blitz as given when supervision is
    adequate; never when it is not."""
    table = dict.fromkeys(product(Kind, Supervision), False)
    table[(STANDARD, ADEQUATE)] = table[(STANDARD, INADEQUATE)] = True
    table[(RAPID, ADEQUATE)] = rapid_adequate
    table[(BLITZ, ADEQUATE)] = blitz_adequate
    return table


# -- 2001: Istanbul 2000, in force 1 July 2001 -------------------------------------------------

_STANDARD_2001 = IllegalMovePolicy(
    arbiter_acts=True,
    deadline=ANY,
    penalties_s=(120, 120),
    loses_at=3,
    draw_if_cannot_checkmate=False,
    article="7.4",
)
_RAPID_2001 = replace(
    _STANDARD_2001, arbiter_acts=False, deadline=NEXT, arbiter_acts_on_obvious=True, article="B6"
)
_BLITZ_2001 = IllegalMovePolicy(
    arbiter_acts=False,
    deadline=NEXT,
    penalties_s=(),
    loses_at=1,
    draw_if_cannot_checkmate=True,
    reinstate=False,
    article="C3",
)


def _adjournment(prefix: str) -> dict[str, str]:
    """The articles on adjourned games (Appendix A of 2001, numbered alike later): sealing
    (A1), the envelope (A2), a draw offer after sealing (A4), the resumption (A5), a game ended
    before it (A6), opening the envelope (A7, A9), an invalid sealed move (A8), lateness (A10),
    a missing envelope (A11), a wrong clock (A12)."""
    numbers = {
        "adjourn": 1, "envelope": 2, "adjourned-draw-offer": 4, "resumption": 5,
        "adjourned-end": 6, "open-envelope": 7, "sealed-move-invalid": 8, "resume": 9,
        "adjournment-lateness": 10, "missing-envelope": 11, "adjourned-clock": 12,
    }  # fmt: skip
    return {rule: f"{prefix}{n}" for rule, n in numbers.items()}


_ARTICLES_2001 = {
    "start": "6.5",
    "press": "6.7",
    "checkmate": "5.1(a)",
    "resignation": "5.1(b)",
    "stalemate": "5.2(a)",
    "dead-position": "5.2(b)",
    "agreement": "5.2(c)",
    "draw-offer": "9.1",
    "threefold-repetition": "9.2",
    "fifty-moves": "9.3",
    "claim-procedure": "9.5",
    "time-forfeit": "6.9",
    "time-forfeit-draw": "6.9",
    "flag-claim": "B8",
    "both-flags": "B9",
    "illegal-move": "7.4",
    "illegal-move-draw": "C3",
    "quickplay-finish": "10.2",
    "points": "11.1",
    "penalties": "13.4",
    "arbiter-decision": "13.4",
    "clock-adjustment": "6.13",
    "restore": "7.4",
    **_adjournment("A"),
}

FIDE_2001 = Edition(
    id="fide-2001",
    name="FIDE Laws of Chess 2001",
    adopted="Istanbul, Nov 2000",
    in_force=datetime.date(2001, 7, 1),
    appendices="A adjourned, B rapid, C blitz, D quickplay finish without arbiter, E notation, "
    "F blind",
    kind_thresholds=THRESHOLDS["fide-2001"],
    illegal_moves=_per_kind(_STANDARD_2001, _RAPID_2001, _RAPID_2001, _BLITZ_2001, _BLITZ_2001),
    incorrect_claim_s={STANDARD: 180, RAPID: 180, BLITZ: 180},
    incorrect_claim_halves_claimant=True,
    incorrect_claim_article="9.5(b)",
    fivefold=None,
    seventy_five_moves=False,
    arbiter_calls_flag=_flags(rapid_adequate=False, blitz_adequate=False),
    flag_draw_rule=FlagDrawRule.CANNOT_CHECKMATE,
    both_flags_always_draw=True,
    press_without_move_is_illegal=False,
    unpromoted_pawn_becomes_queen=False,
    resign_against_bare_king_draws=False,
    agreement_needs_a_move_each=False,
    quickplay_finish=QuickplayFinish(
        kinds=frozenset({STANDARD, RAPID}), without_increment_only=False, article="10.2"
    ),
    articles=_ARTICLES_2001,
    notes="A fallen flag draws when the opponent cannot checkmate 'even with the most "
    "unskilled counterplay'. Both flags down is a draw, also when it is unclear which fell "
    "first.",
)

# -- 2005 ---------------------------------------------------------------------------------------

FIDE_2005 = replace(
    FIDE_2001,
    id="fide-2005",
    name="FIDE Laws of Chess 2005",
    adopted="2004",
    in_force=datetime.date(2005, 7, 1),
    kind_thresholds=THRESHOLDS["fide-2005"],
    uncertain=frozenset({"adopted"}),
    notes="As 2001, with the increment formula for rapid and blitz (T = base + 60 x increment).",
)

# -- 2009: Dresden 2008 -------------------------------------------------------------------------

_STANDARD_2009 = replace(_STANDARD_2001, draw_if_cannot_checkmate=True)
_RAPID_2009_INADEQUATE = replace(
    _STANDARD_2009, arbiter_acts=False, deadline=NEXT, arbiter_acts_on_obvious=True, article="A4"
)
_RAPID_2009_ADEQUATE = replace(_STANDARD_2009, article="A3")
_BLITZ_2009 = replace(_BLITZ_2001, article="B3")

FIDE_2009 = replace(
    FIDE_2005,
    id="fide-2009",
    name="FIDE Laws of Chess 2009",
    adopted="Dresden, Nov 2008",
    in_force=datetime.date(2009, 7, 1),
    appendices="A rapid, B blitz, C notation, D quickplay finish without arbiter, E blind, "
    "F Chess960; adjournment in guidelines",
    kind_thresholds=THRESHOLDS["fide-2009"],
    illegal_moves=_per_kind(
        _STANDARD_2009, _RAPID_2009_ADEQUATE, _RAPID_2009_INADEQUATE, _BLITZ_2009, _BLITZ_2009
    ),
    incorrect_claim_s={STANDARD: 180, RAPID: 180, BLITZ: 180},
    incorrect_claim_halves_claimant=False,
    incorrect_claim_article="9.5(b)",
    both_flags_always_draw=False,
    articles={
        **_ARTICLES_2001,
        "illegal-move-draw": "7.4(b)",
        "flag-claim": "A4",
        "both-flags": "6.11",
        **_adjournment("Guidelines on adjourned games "),
    },
    uncertain=frozenset({"articles.both-flags", "articles.flag-claim", "articles.adjournment"}),
    notes="The third illegal move is a draw, not a loss, when the opponent cannot checkmate. "
    "Both flags down: play on, unless in the last period (then a draw).",
)

# -- 2014: Tallinn 2013 -------------------------------------------------------------------------

_STANDARD_2014 = IllegalMovePolicy(
    arbiter_acts=True,
    deadline=ANY,
    penalties_s=(120,),
    loses_at=2,
    draw_if_cannot_checkmate=True,
    article="7.5.3",
)
_LOSES_2014 = IllegalMovePolicy(
    arbiter_acts=True,
    deadline=NEXT,
    penalties_s=(),
    loses_at=1,
    draw_if_cannot_checkmate=True,
    reinstate=False,
    article="A.4.2",
)
_ARTICLES_2014 = {
    "start": "6.5",
    "press": "6.2.1",
    "checkmate": "5.1.1",
    "resignation": "5.1.2",
    "stalemate": "5.2.1",
    "dead-position": "5.2.2",
    "agreement": "5.2.3",
    "draw-offer": "9.1.2",
    "threefold-repetition": "9.2",
    "fifty-moves": "9.3",
    "fivefold-repetition": "9.6.1",
    "seventy-five-moves": "9.6.2",
    "claim-procedure": "9.5",
    "time-forfeit": "6.9",
    "time-forfeit-draw": "6.9",
    "flag-claim": "A.4.4",
    "both-flags": "6.11",
    "illegal-move": "7.5.3",
    "illegal-move-draw": "7.5.3",
    "quickplay-finish": "G.5",
    "points": "10.1",
    "penalties": "12.9",
    "arbiter-decision": "12.9",
    "clock-adjustment": "6.10",
    "restore": "7.5.1",
    "unpromoted-pawn": "7.5.2",
    **_adjournment("E."),
}

FIDE_2014 = replace(
    FIDE_2009,
    id="fide-2014",
    name="FIDE Laws of Chess 2014",
    adopted="Tallinn, Oct 2013",
    in_force=datetime.date(2014, 7, 1),
    appendices="A rapid, B blitz, C notation, D blind, E adjourned, F Chess960, G quickplay finish",
    kind_thresholds=THRESHOLDS["fide-2014"],
    illegal_moves=_per_kind(
        _STANDARD_2014,
        replace(_STANDARD_2014, article="A.3"),
        _LOSES_2014,
        replace(_LOSES_2014, article="B.3"),
        replace(_LOSES_2014, article="B.3"),
    ),
    incorrect_claim_s={STANDARD: 120, RAPID: 120, BLITZ: 120},
    incorrect_claim_article="9.5.3",
    fivefold="consecutive",
    seventy_five_moves=True,
    arbiter_calls_flag=_flags(rapid_adequate=True, blitz_adequate=True),
    press_without_move_is_illegal=False,
    unpromoted_pawn_becomes_queen=True,
    quickplay_finish=QuickplayFinish(
        kinds=frozenset({STANDARD, RAPID}), without_increment_only=True, article="G.5"
    ),
    articles=_ARTICLES_2014,
    uncertain=frozenset(
        {
            "incorrect_claim_s",
            "fivefold",
            "articles.flag-claim",
            "articles.both-flags",
            "articles.adjournment",
        }
    ),
    notes="Fivefold repetition is read as five consecutive alternate moves. Quickplay finish "
    "(Appendix G) only if announced, and only without increment.",
)

# -- 2017: Baku 2016 / Athens 2017 --------------------------------------------------------------

_STANDARD_2017 = replace(_STANDARD_2014, article="7.5.5")
_ARTICLES_2017 = {
    **_ARTICLES_2014,
    "illegal-move": "7.5.5",
    "illegal-move-draw": "7.5.5",
    "press-without-move": "7.5.3",
    "quickplay-finish": "Guidelines III.5",
    **_adjournment("Guidelines I."),
}

FIDE_2017 = replace(
    FIDE_2014,
    id="fide-2017",
    name="FIDE Laws of Chess 2017",
    adopted="Baku 2016 / Athens 2017",
    in_force=datetime.date(2017, 7, 1),
    appendices="A rapid, B blitz, C notation, D blind; Guidelines I adjourned, II Chess960, "
    "III games without increment (quickplay finish)",
    kind_thresholds=THRESHOLDS["fide-2017"],
    illegal_moves=_per_kind(
        _STANDARD_2017,
        replace(_STANDARD_2017, article="A.3"),
        replace(_LOSES_2014, article="A.4.2"),
        replace(_LOSES_2014, article="B.3"),
        replace(_LOSES_2014, article="B.3"),
    ),
    fivefold="any",
    agreement_needs_a_move_each=True,
    press_without_move_is_illegal=True,
    quickplay_finish=QuickplayFinish(
        kinds=frozenset({STANDARD, RAPID}),
        without_increment_only=True,
        article="Guidelines III.5",
    ),
    articles=_ARTICLES_2017,
    uncertain=frozenset(
        {"agreement_needs_a_move_each", "articles.flag-claim", "articles.adjournment"}
    ),
    notes="Pressing the clock without a move is an illegal move. Five occurrences of a "
    "position in any order draw. A draw by agreement needs both players to have made a move "
    "(5.2.3; the research is unsure whether this came in 2017 or 2023). Quickplay finish in "
    "Guidelines III, not part of the Laws.",
)

# -- 2018: Goynuk 2017 --------------------------------------------------------------------------

_RAPID_2018 = replace(_STANDARD_2017, arbiter_acts=True, deadline=NEXT, article="A.4.2")
_BLITZ_2018 = replace(_RAPID_2018, penalties_s=(60,), article="B.3.2")

FIDE_2018 = replace(
    FIDE_2017,
    id="fide-2018",
    name="FIDE Laws of Chess 2018",
    adopted="Goynuk, Oct 2017",
    in_force=datetime.date(2018, 1, 1),
    kind_thresholds=THRESHOLDS["fide-2018"],
    illegal_moves=_per_kind(_STANDARD_2017, _RAPID_2018, _RAPID_2018, _BLITZ_2018, _BLITZ_2018),
    incorrect_claim_s={STANDARD: 120, RAPID: 120, BLITZ: 60},
    uncertain=frozenset(
        {
            "agreement_needs_a_move_each",
            "articles.flag-claim",
            "articles.illegal-move-blitz",
            "articles.adjournment",
        }
    ),
    notes="Rapid: 1st illegal move +2 min, 2nd loses; blitz: +1 min, 2nd loses; the arbiter "
    "acts only while the opponent has not moved.",
)

# -- 2023: Chennai 2022 -------------------------------------------------------------------------

_RAPID_2023 = replace(_RAPID_2018, penalties_s=(60,))

FIDE_2023 = replace(
    FIDE_2018,
    id="fide-2023",
    name="FIDE Laws of Chess 2023",
    adopted="Chennai 2022",
    in_force=datetime.date(2023, 1, 1),
    kind_thresholds=THRESHOLDS["fide-2023"],
    illegal_moves=_per_kind(_STANDARD_2017, _RAPID_2023, _RAPID_2023, _BLITZ_2018, _BLITZ_2018),
    incorrect_claim_s={STANDARD: 120, RAPID: 60, BLITZ: 60},
    resign_against_bare_king_draws=True,
    uncertain=frozenset({"illegal_moves.blitz", "articles.flag-claim", "articles.adjournment"}),
    notes="Rapid and blitz: 1st illegal move +1 min, 2nd loses (a blitz game with one arbiter "
    "per game may read as 2 min). Resigning when the opponent cannot checkmate is a draw. A "
    "draw by agreement needs both players to have made a move.",
)

# -- club speed-chess rules (seed 003) ----------------------------------------------------------

_CLUB = IllegalMovePolicy(
    arbiter_acts=False,
    deadline=NEXT,
    penalties_s=(),
    loses_at=1,
    draw_if_cannot_checkmate=False,
    reinstate=False,
    first_illegal_decides=True,
    article="14",
)

CLUB_BLITZ = replace(
    FIDE_2005,
    id="club-blitz",
    name="Club speed-chess rules",
    adopted="informal club rules (seed 003)",
    in_force=datetime.date(2001, 7, 1),
    appendices="not FIDE: an informal list of club speed-chess rules",
    kind_thresholds=THRESHOLDS["club-blitz"],
    illegal_moves=_per_kind(_CLUB, _CLUB, _CLUB, _CLUB, _CLUB),
    incorrect_claim_s={STANDARD: 60, RAPID: 60, BLITZ: 60},
    incorrect_claim_halves_claimant=False,
    incorrect_claim_article="9.5",
    arbiter_calls_flag=_flags(rapid_adequate=False, blitz_adequate=False)
    | {(STANDARD, ADEQUATE): False, (STANDARD, INADEQUATE): False},
    flag_draw_rule=FlagDrawRule.BARE_MATERIAL,
    both_flags_always_draw=True,
    press_without_move_is_illegal=True,
    quickplay_finish=None,
    articles={
        # Speed chess has no adjourned games.
        **{rule: number for rule, number in _ARTICLES_2001.items() if rule not in _adjournment("")},
        "illegal-move": "14",
        "illegal-move-draw": "14",
        "press-without-move": "15",
        "time-forfeit": "2a",
        "time-forfeit-draw": "12",
        "flag-claim": "10",
        "both-flags": "7",
        "king-capture": "2c",
        "press": "3",
    },
    uncertain=frozenset({"incorrect_claim_s"}),
    notes="Informal rules, not FIDE. Only the players see flags. An illegal move loses when "
    "the opponent claims it before moving; in a sequence of illegal moves the first decides, "
    "and capturing a king left in check loses. Pressing the clock without a move is illegal. A "
    "player whose opponent's flag fell with only a king, or a king and one minor piece, gets a "
    "draw.",
)

EDITIONS: dict[str, Edition] = {
    register(edition).id: edition
    for edition in (
        FIDE_2001,
        FIDE_2005,
        FIDE_2009,
        FIDE_2014,
        FIDE_2017,
        FIDE_2018,
        FIDE_2023,
        CLUB_BLITZ,
    )
}

"""``docs/editions.md``: one table of what differs between editions, generated from the data.

Regenerate with ``arbitro editions --markdown > docs/editions.md``; a test keeps the file in
sync with :mod:`arbitro.editions.data`.
"""

from __future__ import annotations

from collections.abc import Callable

from arbitro.editions import Edition, Supervision
from arbitro.gamekind import Kind, KindThresholds

Cell = Callable[[Edition], str]


def _mark(edition: Edition, field: str, text: str) -> str:
    """``text``, flagged "(?)" when the research has not confirmed ``field``."""
    uncertain = field in edition.uncertain or any(
        name.startswith(field + ".") for name in edition.uncertain
    )
    return f"{text} (?)" if uncertain else text


def _art(edition: Edition, rule: str) -> str:
    article = edition.article(rule)
    if not article:
        return ""
    return f" — art. {_mark(edition, 'articles.' + rule, article)}"


def _threshold(limit: int, inclusive: bool) -> str:
    return f"T {'≤' if inclusive else '<'} {limit}"


def _kinds(edition: Edition) -> str:
    t: KindThresholds = edition.kind_thresholds
    formula = "base + 60 × increment" if t.counts_increment else "base only"
    return (
        f"blitz {_threshold(t.blitz_limit, t.blitz_inclusive)} ({t.blitz_article}); "
        f"rapid {_threshold(t.rapid_limit, t.rapid_inclusive)} ({t.rapid_article}); "
        f"T = {formula}"
    )


def _illegal(kind: Kind) -> Cell:
    def cell(edition: Edition) -> str:
        adequate = edition.illegal_move(kind, Supervision.ADEQUATE)
        inadequate = edition.illegal_move(kind, Supervision.INADEQUATE)
        text = f"{adequate.describe()} — art. {adequate.article}"
        if inadequate != adequate:
            text = (
                f"adequate supervision: {text}; otherwise: {inadequate.describe()} — art. "
                f"{inadequate.article}"
            )
        return _mark(edition, f"illegal_moves.{kind.value}", text)

    return cell


def _claim(edition: Edition) -> str:
    seconds = edition.incorrect_claim_s
    values = {seconds[k] for k in Kind}
    if len(values) == 1:
        text = f"+{values.pop()} s to the opponent"
    else:
        text = ", ".join(f"{k.value} +{seconds[k]} s" for k in Kind) + " to the opponent"
    if edition.incorrect_claim_halves_claimant:
        text += "; claimant loses half his time (at most 3 min) above 2 min, is set to 1 min "
        text += "with 1–2 min"
    return _mark(edition, "incorrect_claim_s", text) + f" — art. {edition.incorrect_claim_article}"


def _flags(edition: Edition) -> str:
    seen = [kind.value for kind in Kind if edition.arbiter_sees_flags(kind, Supervision.ADEQUATE)]
    if not seen:
        text = "only a player's claim"
    else:
        text = "the arbiter calls flags in " + ", ".join(seen)
        if seen != ["standard", "rapid", "blitz"]:
            text += "; elsewhere only a claim"
        elif not edition.arbiter_sees_flags(Kind.RAPID, Supervision.INADEQUATE):
            text += " (rapid and blitz with adequate supervision)"
    return text + _art(edition, "flag-claim")


def _qpf(edition: Edition) -> str:
    rule = edition.quickplay_finish
    if rule is None:
        return "no"
    kinds = ", ".join(k.value for k in Kind if k in rule.kinds)
    extra = ", without increment only" if rule.without_increment_only else ""
    penalty = f"rejected: +{rule.reject_penalty_s} s to the opponent"
    return f"{kinds}{extra}; {penalty} — art. {rule.article}"


def _adjourned(edition: Edition) -> str:
    first, last = edition.article("adjourn"), edition.article("adjourned-clock")
    if not first:
        return "no"
    prefix = first.removesuffix("1")  # "A1" to "A12" reads "A1–12"
    span = f"{first}–{last.removeprefix(prefix)}"
    return "yes — art. " + _mark(edition, "articles.adjournment", span)


def _yes(value: bool) -> str:
    return "yes" if value else "no"


ROWS: list[tuple[str, Cell]] = [
    ("Adopted", lambda e: _mark(e, "adopted", e.adopted)),
    ("In force", lambda e: e.in_force.isoformat()),
    ("Appendices", lambda e: e.appendices),
    ("Kind of game", _kinds),
    ("Illegal move, standard", _illegal(Kind.STANDARD)),
    ("Illegal move, rapid", _illegal(Kind.RAPID)),
    ("Illegal move, blitz", _illegal(Kind.BLITZ)),
    (
        "Pressing the clock without a move is illegal",
        lambda e: _yes(e.press_without_move_is_illegal) + _art(e, "press-without-move"),
    ),
    (
        "Unpromoted pawn: illegal, becomes a queen",
        lambda e: _yes(e.unpromoted_pawn_becomes_queen) + _art(e, "unpromoted-pawn"),
    ),
    ("Incorrect threefold / fifty-moves claim", _claim),
    (
        "Fivefold repetition draws",
        lambda e: _mark(e, "fivefold", e.fivefold or "no") + _art(e, "fivefold-repetition"),
    ),
    (
        "75 moves draw",
        lambda e: _yes(e.seventy_five_moves) + _art(e, "seventy-five-moves"),
    ),
    ("Flag fall", _flags),
    (
        "Fallen flag is a draw when",
        lambda e: (
            (
                "the opponent cannot checkmate"
                if e.flag_draw_rule.value == "cannot-checkmate"
                else "the opponent has only a king, or a king and one minor piece"
            )
            + _art(e, "time-forfeit-draw")
        ),
    ),
    (
        "Both flags down",
        lambda e: (
            (
                "a draw"
                if e.both_flags_always_draw
                else "a draw in the last period; otherwise play on"
            )
            + _art(e, "both-flags")
        ),
    ),
    ("Quickplay finish", _qpf),
    (
        "Resigning when the opponent cannot mate is a draw",
        lambda e: _yes(e.resign_against_bare_king_draws) + _art(e, "resignation"),
    ),
    (
        "Draw by agreement needs a move by each",
        lambda e: (
            _mark(e, "agreement_needs_a_move_each", _yes(e.agreement_needs_a_move_each))
            + _art(e, "agreement")
        ),
    ),
    ("Adjourned games", _adjourned),
    ("Notes", lambda e: e.notes),
]


def render_markdown() -> str:
    """The whole page."""
    editions = Edition.all()
    lines = [
        "# Editions of the Laws in arbitro",
        "",
        "Generated from `src/arbitro/editions/data.py` by `arbitro editions --markdown`; do not "
        "edit by hand. A value marked (?) is not confirmed against the official text "
        '(`../shared/spec/editions.md`). "art." gives the article (or appendix paragraph) of '
        "that edition.",
        "",
        "| rule | " + " | ".join(e.id for e in editions) + " |",
        "|---|" + "---|" * len(editions),
    ]
    for name, cell in ROWS:
        cells = [cell(edition).replace("|", "\\|") for edition in editions]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"

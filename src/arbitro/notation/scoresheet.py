"""A game score as a player writes it (Appendix E): a scoresheet, as text or as a printable page.

A :class:`Scoresheet` holds the header of a tournament scoresheet (event, site, date, round,
the players, the time control), the numbered rows of moves written in the notation of
Appendix E (``fide`` style by default: ``0-0``, ``d8D``, ``++``, ``exd6a.p.``), each followed by
``(=)`` when a draw offer went with it (E13), and the result. :func:`render_text` writes it as
plain text; :func:`render_html` as a self-contained A4 page laid out like a FIDE scoresheet,
with empty rows to be filled in by hand.

>>> import chess
>>> board = chess.Board()
>>> moves = [board.push_san(san) for san in ("d4", "Nf6", "c4", "e6", "Nc3", "Bb4")]
>>> sheet = Scoresheet.from_moves(chess.Board(), moves, offers={3}, white="Ana", black="Bea")
>>> sheet.rows[1]
Row(number=2, white='c4', black='e6 (=)')
>>> print(render_text(sheet))
Evento:
Lugar:
Fecha:
Ronda:
Blancas:        Ana
Negras:         Bea
Ritmo de juego:
<BLANKLINE>
  1. d4        Cf6
  2. c4        e6 (=)
  3. Cc3       Ab4
<BLANKLINE>
Resultado:      *

Labels are messages of the catalogs (English msgids), in the sheet's language; the piece
letters are those of :data:`~arbitro.notation.letters.LANGUAGES`.
"""

from __future__ import annotations

import html
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import chess

from arbitro.i18n import N_, gettext, normalize_language
from arbitro.notation.algebraic import Style, format
from arbitro.notation.letters import letters_for

if TYPE_CHECKING:
    from arbitro.game import Game

__all__ = ["DRAW_OFFER", "Row", "Scoresheet", "render_html", "render_text"]

#: What follows a move that went with a draw offer (E13).
DRAW_OFFER = "(=)"
#: The White entry of the first row when the score starts with Black to move.
ELLIPSIS = "…"
#: The time control of an untimed game.
NO_CONTROL = "—"
#: Rows preprinted on the sheet (FIDE scoresheets have 60), in blocks of this many.
PRINTED_ROWS = 60
BLOCK_ROWS = 30

_RESULTS = {"1-0": "1-0", "0-1": "0-1", "1/2-1/2": "½-½", "½-½": "½-½", "*": "*"}
_BOXES = ("1-0", "½-½", "0-1")

# Labels written inside f-strings, where the message extractor does not look.
_NUMBER = N_("No.")
_LEGEND = N_("(=) draw offer (E13)")

_TERMINATIONS: dict[str, str] = {
    "checkmate": N_("checkmate"),
    "resignation": N_("resignation"),
    "stalemate": N_("stalemate"),
    "dead-position": N_("dead position"),
    "agreement": N_("draw by agreement"),
    "threefold-repetition": N_("threefold repetition"),
    "fifty-moves": N_("fifty-move rule"),
    "fivefold-repetition": N_("fivefold repetition"),
    "seventy-five-moves": N_("seventy-five-move rule"),
    "time-forfeit": N_("loss on time"),
    "time-forfeit-draw": N_("flag fell, but the opponent cannot checkmate"),
    "both-flags": N_("both flags fell"),
    "illegal-move": N_("illegal move"),
    "illegal-move-draw": N_("illegal move, but the opponent cannot checkmate"),
    "quickplay-finish": N_("quickplay finish"),
    "arbiter-decision": N_("arbiter's decision"),
    "adjournment-lateness": N_("late at the resumption of an adjourned game"),
    "sealed-move-invalid": N_("invalid sealed move"),
    "late-arrival": N_("late arrival"),
}


def _t(message: str, lang: str) -> str:
    """``message`` in ``lang``, from the catalogs."""
    return gettext(message, lang)


@dataclass(frozen=True, slots=True)
class Row:
    """One numbered row of the score: White's entry and Black's (``""`` when not played yet;
    White's is ``…`` when the score starts with Black to move). An entry is the move as written,
    followed by ``" (=)"`` when a draw offer went with it."""

    number: int
    white: str
    black: str = ""


@dataclass(frozen=True, slots=True)
class Scoresheet:
    """A scoresheet: the header, the rows of moves, the result (``1-0``, ``0-1``, ``½-½`` or
    ``*``) and a note on how the game ended; ``lang`` is the language of the piece letters and
    of the labels.

    >>> sheet = Scoresheet.from_moves(chess.Board(), [chess.Move.from_uci("e2e4")], lang="en")
    >>> sheet.rows, sheet.result
    ((Row(number=1, white='e4', black=''),), '*')
    """

    event: str = ""
    site: str = ""
    date: str = ""
    round: str = ""
    white: str = ""
    black: str = ""
    time_control: str = ""
    rows: tuple[Row, ...] = ()
    result: str = "*"
    note: str = ""
    lang: str = "es"

    @classmethod
    def from_moves(
        cls,
        start: chess.Board,
        moves: Sequence[chess.Move],
        *,
        offers: Collection[int] = (),
        white: str = "",
        black: str = "",
        event: str = "",
        site: str = "",
        date: str = "",
        round: str = "",
        time_control: str = "",
        result: str = "*",
        note: str = "",
        lang: str = "es",
        style: Style = "fide",
    ) -> Scoresheet:
        """The scoresheet of ``moves`` played from ``start`` (which is not changed), written in
        ``lang`` and ``style``; ``offers`` are the 0-based plies a draw offer went with.
        ``result`` may be given as PGN writes it (``1/2-1/2``).

        >>> board = chess.Board("4k3/8/8/8/8/8/8/4K2R b K - 0 1")
        >>> moves = [chess.Move.from_uci("e8d7"), chess.Move.from_uci("e1g1")]
        >>> Scoresheet.from_moves(board, moves).rows
        (Row(number=1, white='…', black='Rd7'), Row(number=2, white='0-0', black=''))

        :raises ValueError: for a move that is not legal where it is played, an offer outside
            the plies, an unknown result or style.
        :raises NotationError: for a language without piece letters.
        """
        letters_for(lang)
        _check_offers(offers, len(moves))
        plies = ((move, True, index in offers) for index, move in enumerate(moves))
        return cls(
            event=event,
            site=site,
            date=date,
            round=round,
            white=white,
            black=black,
            time_control=time_control,
            rows=_rows(start, plies, lang, style),
            result=_result(result),
            note=note,
            lang=lang,
        )

    @classmethod
    def from_game(
        cls,
        game: Game,
        *,
        event: str = "",
        site: str = "",
        date: str = "",
        round: str = "",
        lang: str = "es",
    ) -> Scoresheet:
        """The scoresheet of a :class:`~arbitro.game.Game` as it stands: the players and the
        time control of its setup (``—`` when untimed), its legal plies with the draw offers
        that went with them, its result and how it ended (termination and article).

        A ply the engine holds as illegal (kept on a wooden board when nobody claimed it) is
        not written: its cell stays empty, and the moves after it are written on the position
        it left.

        >>> from arbitro.game import Game
        >>> game = Game.create("fide-2023", "15+10", players=("Ana", "Bea"))
        >>> game.start(0)
        >>> game.play("white", "e4", 1_000)
        >>> game.resign("black", 2_000)
        >>> sheet = Scoresheet.from_game(game)
        >>> sheet.white, sheet.time_control, sheet.rows
        ('Ana', '15 min + 10 s', (Row(number=1, white='e4', black=''),))
        >>> sheet.result, sheet.note
        ('1-0', 'abandono (artículo 5.1.2)')
        """
        setup = game.setup
        white, black = setup.players or ("", "")
        control = setup.control
        state = game.state()
        note = ""
        if state.termination is not None:
            note = _t(_TERMINATIONS.get(state.termination, state.termination), lang)
            if state.article:
                note += " " + _t(N_("(article {article})"), lang).format(article=state.article)
        letters_for(lang)
        plies = ((ply.move, ply.legal, ply.draw_offer) for ply in game.plies)
        return cls(
            event=event,
            site=site,
            date=date,
            round=round,
            white=white,
            black=black,
            time_control=control.describe(lang) if control.is_timed else NO_CONTROL,
            rows=_rows(chess.Board(setup.start_fen), plies, lang, "fide"),
            result=_result(state.result),
            note=note,
            lang=lang,
        )


def _check_offers(offers: Collection[int], plies: int) -> None:
    for index in offers:
        if not 0 <= index < plies:
            raise ValueError(f"a draw offer goes with a ply from 0 to {plies - 1}, not {index}")


def _result(result: str) -> str:
    try:
        return _RESULTS[result]
    except KeyError:
        raise ValueError(f"a result is 1-0, 0-1, 1/2-1/2, ½-½ or *, not {result!r}") from None


def _rows(
    start: chess.Board,
    plies: Iterable[tuple[chess.Move, bool, bool]],
    lang: str,
    style: Style,
) -> tuple[Row, ...]:
    """Rows for ``(move, legal, offer)`` plies played from ``start``; an illegal ply is played
    but not written."""
    if style not in ("pgn", "fide"):
        raise ValueError(f"style is 'pgn' or 'fide', not {style!r}")
    board = start.copy(stack=False)
    rows: list[Row] = []
    white: str | None = None  # White's entry of the row being written
    for index, (move, legal, offer) in enumerate(plies):
        entry = ""
        if legal:
            if not board.is_legal(move):
                raise ValueError(f"ply {index}: {move.uci()} is not legal in {board.fen()}")
            entry = format(move, board, lang, style)
            if offer:
                entry += " " + DRAW_OFFER
        if board.turn == chess.WHITE:
            white = entry
        else:
            rows.append(Row(board.fullmove_number, ELLIPSIS if white is None else white, entry))
            white = None
        board.push(move)
    if white is not None:
        rows.append(Row(board.fullmove_number, white))
    return tuple(rows)


# -- plain text ---------------------------------------------------------------------------------


def render_text(sheet: Scoresheet) -> str:
    """The scoresheet as plain text: the header, the numbered rows in two columns, the result
    (and how the game ended), with labels in the sheet's language.

    >>> sheet = Scoresheet(white="Ana", black="Bea", rows=(Row(1, "e4", "e5"),), result="1-0",
    ...                    lang="en")
    >>> print(render_text(sheet).split("\\n\\n")[1])
      1. e4        e5
    """
    lang = sheet.lang
    header = [
        (N_("Event"), sheet.event),
        (N_("Site"), sheet.site),
        (N_("Date"), sheet.date),
        (N_("Round"), sheet.round),
        (N_("White"), sheet.white),
        (N_("Black"), sheet.black),
        (N_("Time control"), sheet.time_control),
    ]
    labels = [(_t(label, lang) + ":", value) for label, value in header]
    result_label = _t(N_("Result"), lang) + ":"
    width = max(len(label) for label, _ in [*labels, (result_label, "")]) + 1
    lines = [f"{label:<{width}}{value}".rstrip() for label, value in labels]
    lines.append("")
    column = max([8, *(len(row.white) for row in sheet.rows)]) + 2
    digits = max([3, *(len(str(row.number)) for row in sheet.rows)])
    lines.extend(
        f"{row.number:>{digits}}. {row.white:<{column}}{row.black}".rstrip() for row in sheet.rows
    )
    if sheet.rows:
        lines.append("")
    result = sheet.result + (f" — {sheet.note}" if sheet.note else "")
    lines.append(f"{result_label:<{width}}{result}")
    return "\n".join(lines)


# -- printable HTML -----------------------------------------------------------------------------

_CSS = """\
@page { size: A4; margin: 12mm; }
* { box-sizing: border-box; }
html { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
body { margin: 0; color: #000; background: #fff;
  font: 10pt/1.25 "DejaVu Sans", "Liberation Sans", Arial, sans-serif; }
main { max-width: 186mm; margin: 0 auto; padding: 4mm 0; }
h1 { font-size: 15pt; text-align: center; margin: 0 0 4mm; letter-spacing: 0.05em;
  text-transform: uppercase; }
h2 { font-size: 10pt; margin: 0 0 1.5mm; }
.header { display: grid; grid-template-columns: 1fr 1fr; gap: 1.5mm 8mm; margin: 0 0 4mm; }
.header div { display: flex; gap: 2mm; border-bottom: 1px solid #000; min-height: 7mm;
  align-items: flex-end; padding-bottom: 0.5mm; }
.header .player dd { font-size: 11pt; font-weight: bold; }
.header dt { font-weight: bold; white-space: nowrap; }
.header dt::after { content: ":"; }
.header dd { margin: 0; flex: 1; overflow-wrap: anywhere; }
.moves { display: flex; flex-wrap: wrap; gap: 4mm; }
.moves table { flex: 0 0 calc(50% - 2mm); width: calc(50% - 2mm); border-collapse: collapse;
  table-layout: fixed; break-inside: avoid; }
caption { font-weight: bold; text-align: left; padding-bottom: 1mm; }
th, td { border: 1px solid #000; padding: 0 1.5mm; height: 5.4mm; }
thead th { background: #e8e8e8; font-size: 9pt; }
th.n { width: 11mm; text-align: right; }
tbody th { font-weight: normal; text-align: right; background: #f4f4f4; }
td { font-family: "DejaVu Sans Mono", "Liberation Mono", monospace; font-size: 10pt;
  white-space: nowrap; overflow: hidden; }
td.offer { background: #fff3c4; }
abbr.offer { font-weight: bold; text-decoration: none; border: 1px solid #000;
  border-radius: 2px; padding: 0 0.5mm; }
.end { display: grid; grid-template-columns: 1fr 1fr; gap: 4mm 8mm; margin-top: 5mm;
  break-inside: avoid; }
.boxes { list-style: none; display: flex; gap: 6mm; margin: 0; padding: 0; }
.boxes li { display: flex; align-items: center; gap: 1.5mm; font-weight: bold; }
.box { display: inline-block; width: 6mm; height: 6mm; border: 1.5px solid #000;
  text-align: center; line-height: 5.5mm; }
.note { margin: 1.5mm 0 0; }
.signatures { display: grid; grid-template-columns: repeat(3, 1fr); gap: 8mm; }
.signature { border-top: 1px solid #000; padding-top: 1mm; margin-top: 10mm; font-size: 9pt; }
.legend { grid-column: 1 / -1; margin: 0; font-size: 8.5pt; }
"""


def _e(text: str) -> str:
    return html.escape(text, quote=True)


def page_start(title: str, lang: str, css: str) -> list[str]:
    """The opening lines of a printable, self-contained HTML page, up to ``<main>``."""
    return [
        "<!DOCTYPE html>",
        f'<html lang="{_e(normalize_language(lang))}">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_e(title)}</title>",
        f"<style>\n{css}</style>",
        "</head>",
        "<body>",
        "<main>",
    ]


def _cell(entry: str, lang: str) -> str:
    if not entry.endswith(DRAW_OFFER):
        return f"<td>{_e(entry)}</td>"
    move = entry[: -len(DRAW_OFFER)].rstrip()
    title = _e(_t(N_("draw offer"), lang))
    mark = f'<abbr class="offer" title="{title}">{DRAW_OFFER}</abbr>'
    return f'<td class="offer">{_e(move)} {mark}</td>'


def _blocks(sheet: Scoresheet) -> list[list[tuple[int, Row | None]]]:
    """The numbers printed on the sheet, in blocks of :data:`BLOCK_ROWS`, with their rows."""
    by_number = {row.number: row for row in sheet.rows}
    first = sheet.rows[0].number if sheet.rows else 1
    last = max(first + PRINTED_ROWS - 1, sheet.rows[-1].number if sheet.rows else 0)
    count = -(-(last - first + 1) // BLOCK_ROWS) * BLOCK_ROWS
    numbers = range(first, first + count)
    return [
        [(n, by_number.get(n)) for n in numbers[i : i + BLOCK_ROWS]]
        for i in range(0, count, BLOCK_ROWS)
    ]


def _table(block: list[tuple[int, Row | None]], lang: str) -> list[str]:
    caption = _t(N_("Moves {first}–{last}"), lang).format(first=block[0][0], last=block[-1][0])
    lines = [
        "<table>",
        f"<caption>{_e(caption)}</caption>",
        "<thead><tr>"
        f'<th scope="col" class="n">{_e(_t(_NUMBER, lang))}</th>'
        f'<th scope="col">{_e(_t(N_("White"), lang))}</th>'
        f'<th scope="col">{_e(_t(N_("Black"), lang))}</th>'
        "</tr></thead>",
        "<tbody>",
    ]
    for number, row in block:
        white, black = (row.white, row.black) if row is not None else ("", "")
        lines.append(
            f'<tr><th scope="row">{number}</th>{_cell(white, lang)}{_cell(black, lang)}</tr>'
        )
    lines += ["</tbody>", "</table>"]
    return lines


def render_html(sheet: Scoresheet) -> str:
    """The scoresheet as a complete, printable HTML5 page (A4, inline CSS, no external
    resources): the header, the moves in numbered blocks of 30 rows (60 rows at least, empty
    ones to be filled by hand), draw offers marked, the result boxes, the note on how the game
    ended, and signature lines for both players and the arbiter.

    >>> page = render_html(Scoresheet(white="Ana & Co", black="<Bea>", lang="en"))
    >>> page.startswith("<!DOCTYPE html>"), "Ana &amp; Co" in page, "&lt;Bea&gt;" in page
    (True, True, True)
    """
    lang = sheet.lang
    title = _t(N_("Scoresheet"), lang)
    if sheet.white or sheet.black:
        title += f": {sheet.white} – {sheet.black}"
    header = [
        ("", N_("Event"), sheet.event),
        ("", N_("Site"), sheet.site),
        ("", N_("Date"), sheet.date),
        ("", N_("Round"), sheet.round),
        ("player", N_("White"), sheet.white),
        ("player", N_("Black"), sheet.black),
        ("", N_("Time control"), sheet.time_control),
    ]
    out = [
        *page_start(title, lang, _CSS),
        f"<h1>{_e(_t(N_('Scoresheet'), lang))}</h1>",
        '<dl class="header">',
    ]
    for css, label, value in header:
        attribute = f' class="{css}"' if css else ""
        out.append(f"<div{attribute}><dt>{_e(_t(label, lang))}</dt><dd>{_e(value)}</dd></div>")
    out += ["</dl>", '<div class="moves">']
    for block in _blocks(sheet):
        out += _table(block, lang)
    out += ["</div>", '<div class="end">', '<section class="result">']
    out.append(f'<h2 id="result">{_e(_t(N_("Result"), lang))}</h2>')
    out.append('<ul class="boxes" aria-labelledby="result">')
    marked = _e(_t(N_("marked"), lang))
    for box in _BOXES:
        if box == sheet.result:
            mark = f'<span class="box" role="img" aria-label="{marked}">✕</span>'
        else:
            mark = '<span class="box" aria-hidden="true"></span>'
        out.append(f"<li>{mark} {box}</li>")
    out.append("</ul>")
    if sheet.note:
        out.append(f'<p class="note">{_e(sheet.note)}</p>')
    out += ["</section>", '<div class="signatures">']
    for label in (N_("White's signature"), N_("Black's signature"), N_("Arbiter's signature")):
        out.append(f'<div class="signature">{_e(_t(label, lang))}</div>')
    out += [
        "</div>",
        f'<p class="legend">{_e(_t(_LEGEND, lang))}</p>',
        "</div>",
        "</main>",
        "</body>",
        "</html>",
    ]
    return "\n".join(out) + "\n"

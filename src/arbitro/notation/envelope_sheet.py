"""The printed envelope of an adjourned game (Appendix A2): everything but the sealed move.

>>> from arbitro.game import Game
>>> game = Game.create("fide-2001", "120", players=("Ana", "Luis"))
>>> game.start(0); game.play("white", "e4", 1_000); game.adjourn(5_000)
>>> game.seal("black", "e5", 9_000)
>>> page = render_html(game.envelope, lang="en")
>>> "Ana" in page and "e5" not in page.split("<svg")[0]
True
"""

from __future__ import annotations

import html

import chess
import chess.svg

from arbitro.color import WHITE
from arbitro.game.envelope import Envelope
from arbitro.i18n import N_, gettext
from arbitro.notation.scoresheet import page_start

__all__ = ["render_html", "render_text"]

_CSS = """\
@page { size: A5 landscape; margin: 10mm; }
* { box-sizing: border-box; }
body { margin: 0; color: #000; background: #fff;
  font: 10.5pt/1.3 "DejaVu Sans", "Liberation Sans", Arial, sans-serif; }
main { max-width: 190mm; margin: 0 auto; padding: 4mm; border: 2px solid #000; }
h1 { font-size: 14pt; text-align: center; margin: 0 0 3mm; text-transform: uppercase;
  letter-spacing: 0.05em; }
.sheet { display: grid; grid-template-columns: 1fr 62mm; gap: 6mm; }
dl { margin: 0; display: grid; grid-template-columns: auto 1fr; gap: 1.2mm 3mm; }
dt { font-weight: bold; }
dd { margin: 0; border-bottom: 1px solid #000; min-height: 5mm; overflow-wrap: anywhere; }
figure { margin: 0; }
figcaption { font-family: "DejaVu Sans Mono", monospace; font-size: 7pt;
  overflow-wrap: anywhere; }
.inside { margin: 3mm 0 0; padding: 2mm; border: 1px dashed #000; text-align: center; }
.signatures { display: grid; grid-template-columns: 1fr 1fr; gap: 8mm; margin-top: 4mm; }
.signature { border-top: 1px solid #000; padding-top: 1mm; margin-top: 10mm; font-size: 9pt; }
"""


# Module constants, not literals inside f-strings: the message extractor only sees these.
_SIGNATURES = (N_("Signature of the player who sealed"), N_("Arbiter's signature"))


def _t(message: str, lang: str) -> str:
    return gettext(message, lang)


def _e(text: str) -> str:
    return html.escape(text, quote=True)


def _duration(ms: int) -> str:
    seconds = ms // 1000
    hours, rest = divmod(seconds, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}"


def _side(color: bool, lang: str) -> str:
    return _t(N_("White"), lang) if color == WHITE else _t(N_("Black"), lang)


def _fields(envelope: Envelope, lang: str) -> list[tuple[str, str]]:
    """The record of A2, as label and value, in the order the appendix lists it."""
    white, black = envelope.players or ("", "")
    sealer = _side(envelope.sealer, lang)
    name = envelope.players[0 if envelope.sealer == WHITE else 1] if envelope.players else ""
    fields = [
        (_t(N_("White"), lang), white),
        (_t(N_("Black"), lang), black),
    ]
    if envelope.used is not None and envelope.clock is not None:
        fields += [
            (_t(N_("Time used by White"), lang), _duration(envelope.used[0])),
            (_t(N_("Time used by Black"), lang), _duration(envelope.used[1])),
            (_t(N_("White's clock"), lang), _duration(envelope.clock[0])),
            (_t(N_("Black's clock"), lang), _duration(envelope.clock[1])),
        ]
    offer = envelope.draw_offer
    standing = _t(N_("none"), lang) if offer is None else _side(offer, lang)
    resumption = envelope.resumption
    fields += [
        (_t(N_("Sealed by"), lang), f"{name} ({sealer})" if name else sealer),
        (_t(N_("Sealed move number"), lang), f"{envelope.move_number} ({sealer})"),
        (_t(N_("Standing draw offer"), lang), standing),
        (_t(N_("Resumption date"), lang), resumption.get("date", "")),
        (_t(N_("Resumption time"), lang), resumption.get("time", "")),
        (_t(N_("Resumption place"), lang), resumption.get("place", "")),
    ]
    return fields


def render_text(envelope: Envelope, lang: str = "es") -> str:
    """The record on the envelope as plain text, one field a line."""
    lines = [_t(N_("Sealed-move envelope"), lang).upper(), ""]
    fields = _fields(envelope, lang)
    width = max(len(label) for label, _ in fields)
    lines += [f"{label:<{width}}  {value}".rstrip() for label, value in fields]
    lines += ["", _t(N_("Position before the sealed move"), lang), envelope.fen]
    lines.append(str(chess.Board(envelope.fen)))
    return "\n".join(lines) + "\n"


def render_html(envelope: Envelope, lang: str = "es") -> str:
    """A complete, printable page for the envelope: the record of A2, a diagram of the position
    before the sealed move, and lines for the sealer's and the arbiter's signatures (A3). The
    sealed move is never on it, even once the envelope has been opened."""
    board = chess.Board(envelope.fen)
    title = _t(N_("Sealed-move envelope"), lang)
    position = _t(N_("Position before the sealed move"), lang)
    diagram = chess.svg.board(board, size=230, coordinates=True, orientation=envelope.sealer)
    out = [
        *page_start(title, lang, _CSS),
        f"<h1>{_e(title)}</h1>",
        '<div class="sheet">',
        "<dl>",
    ]
    for label, value in _fields(envelope, lang):
        out.append(f"<dt>{_e(label)}</dt><dd>{_e(value)}</dd>")
    out += [
        "</dl>",
        "<figure>",
        f'<div role="img" aria-label="{_e(position)}: {_e(envelope.fen)}">{diagram}</div>',
        f"<figcaption>{_e(position)}: {_e(envelope.fen)}</figcaption>",
        "</figure>",
        "</div>",
        '<p class="inside">'
        + _e(
            _t(
                N_(
                    "The sealed move and both scoresheets are inside. The envelope is opened "
                    "only when the player who must answer the sealed move is present."
                ),
                lang,
            )
        )
        + "</p>",
        '<div class="signatures">',
        *(f'<p class="signature">{_e(_t(label, lang))}</p>' for label in _SIGNATURES),
        "</div>",
        "</main>",
        "</body>",
        "</html>",
    ]
    return "\n".join(out) + "\n"

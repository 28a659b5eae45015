"""The scoresheet (Appendix E): a game score as a player writes it, as text and as a page."""

from __future__ import annotations

import dataclasses
import re
from html.parser import HTMLParser

import chess
import pytest

from arbitro.game import Game
from arbitro.notation.letters import NotationError
from arbitro.notation.movetext import read_movetext
from arbitro.notation.scoresheet import Row, Scoresheet, render_html, render_text

# The sample game of the seeds, in Spanish (Appendix E).
SAMPLE = (
    "1.d4 Cf6 2.c4 e6 3.Cc3 Ab4 4.Ad2 0-0 5.e4 d5 6.exd5 exd5 7.cxd5 Axc3 8.Axc3 Cxd5 "
    "9.Cf3 b6 10.Db3 Cxc3 11.bxc3 c5 12.Ae2 cxd4 13.Cxd4 Te8 14.0-0 Cd7 15.a4 Cc5 16.Db4 Ab7 "
    "17.a5"
)
SAMPLE_SAN = (
    "d4 Nf6 c4 e6 Nc3 Bb4 Bd2 O-O e4 d5 exd5 exd5 cxd5 Bxc3 Bxc3 Nxd5 Nf3 b6 Qb3 Nxc3 bxc3 c5 "
    "Be2 cxd4 Nxd4 Re8 O-O Nd7 a4 Nc5 Qb4 Bb7 a5"
)


def sample_rows() -> tuple[Row, ...]:
    """The rows as the seed writes them: ``17.a5`` leaves Black's last entry empty."""
    rows: list[Row] = []
    for chunk in re.split(r"\s*\d+\.", SAMPLE)[1:]:
        entries = chunk.split()
        rows.append(Row(len(rows) + 1, entries[0], entries[1] if len(entries) > 1 else ""))
    return tuple(rows)


def sans(board: chess.Board, moves: list[str]) -> list[chess.Move]:
    """``moves`` (English SAN) as moves, played from a copy of ``board``."""
    board = board.copy()
    return [board.push_san(san) for san in moves]


def played(moves: list[str], **options: object) -> Game:
    """A game with a clock, Ana against Bea, where the players make ``moves`` a second apart."""
    game = Game.create("fide-2023", "15+10", players=("Ana", "Bea"), **options)
    game.start(0)
    for index, move in enumerate(moves):
        game.play("white" if index % 2 == 0 else "black", move, 1000 * (index + 1))
    return game


# -- the moves as Appendix E writes them --------------------------------------------------------


@pytest.mark.law("E8")
@pytest.mark.law("E9")
@pytest.mark.law("E10")
def test_the_seed_sample_game_read_from_spanish_movetext() -> None:
    score = read_movetext(SAMPLE, "es")
    sheet = Scoresheet.from_moves(chess.Board(score.start), score.moves, offers=score.offers)
    assert sheet.rows == sample_rows()
    assert sheet.rows[3] == Row(4, "Ad2", "0-0")
    assert sheet.rows[-1] == Row(17, "a5", "")
    assert sheet.lang == "es" and sheet.result == "*"


@pytest.mark.law("E8")
def test_the_seed_sample_game_played_from_english_san() -> None:
    sheet = Scoresheet.from_moves(chess.Board(), sans(chess.Board(), SAMPLE_SAN.split()))
    assert sheet.rows == sample_rows()


@pytest.mark.law("E8")
def test_the_seed_sample_game_played_in_spanish_on_a_game() -> None:
    game = played([], notation="es")
    for index, (number, white, black) in enumerate(
        (row.number, row.white, row.black) for row in sample_rows()
    ):
        at = 10_000 * number
        game.play("white", white, at)
        if black:
            game.play("black", black, at + 5000)
        assert len(game.plies) == 2 * index + (2 if black else 1)
    sheet = Scoresheet.from_game(game, event="Open de Ejemplo", round="3")
    assert sheet.rows == sample_rows()
    assert (sheet.white, sheet.black, sheet.event, sheet.round) == (
        "Ana",
        "Bea",
        "Open de Ejemplo",
        "3",
    )
    assert sheet.time_control == "15 min + 10 s"


def test_the_scoresheet_is_an_immutable_value() -> None:
    sheet = Scoresheet.from_moves(chess.Board(), sans(chess.Board(), ["e4"]))
    with pytest.raises(dataclasses.FrozenInstanceError):
        sheet.result = "1-0"  # type: ignore[misc]
    assert sheet == Scoresheet.from_moves(chess.Board(), sans(chess.Board(), ["e4"]))
    assert isinstance(sheet.rows, tuple)


def test_the_start_board_is_left_as_it_was() -> None:
    board = chess.Board()
    Scoresheet.from_moves(board, sans(board, ["e4", "e5"]))
    assert board == chess.Board() and not board.move_stack


@pytest.mark.law("E12")
def test_promotion_is_written_without_the_equals_sign() -> None:
    board = chess.Board("7k/3P4/8/8/8/8/8/K7 w - - 0 1")
    queen = Scoresheet.from_moves(board, [chess.Move.from_uci("d7d8q")])
    assert queen.rows == (Row(1, "d8D+", ""),)  # the new queen checks along the last rank
    knight = Scoresheet.from_moves(board, [chess.Move.from_uci("d7d8n")])
    assert knight.rows == (Row(1, "d8C", ""),)
    english = Scoresheet.from_moves(board, [chess.Move.from_uci("d7d8q")], lang="en")
    assert english.rows == (Row(1, "d8Q+", ""),)
    pgn = Scoresheet.from_moves(board, [chess.Move.from_uci("d7d8q")], style="pgn")
    assert pgn.rows == (Row(1, "d8=D+", ""),)


@pytest.mark.law("E12")
def test_a_promotion_that_mates() -> None:
    board = chess.Board("k7/3P4/1K6/8/8/8/8/8 w - - 0 1")
    sheet = Scoresheet.from_moves(board, [chess.Move.from_uci("d7d8q")])
    assert sheet.rows == (Row(1, "d8D++", ""),)


def test_checkmate_is_written_with_two_plus_signs() -> None:
    sheet = Scoresheet.from_moves(
        chess.Board(), sans(chess.Board(), ["f3", "e5", "g4", "Qh4#"]), result="0-1"
    )
    assert sheet.rows == (Row(1, "f3", "e5"), Row(2, "g4", "Dh4++"))
    assert sheet.result == "0-1"


@pytest.mark.law("5.1.1")
def test_a_game_ended_by_checkmate() -> None:
    game = played(["f3", "e5", "g4", "Qh4#"])
    sheet = Scoresheet.from_game(game)
    assert sheet.rows[-1] == Row(2, "g4", "Dh4++")
    assert sheet.result == "0-1"
    assert sheet.note == "jaque mate (artículo 5.1.1)"


@pytest.mark.law("E9")
def test_en_passant_is_marked() -> None:
    board = chess.Board("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1")
    moves = sans(board, ["d5", "exd6"])
    spanish = Scoresheet.from_moves(board, moves)
    assert spanish.rows == (Row(1, "…", "d5"), Row(2, "exd6a.p.", ""))
    english = Scoresheet.from_moves(board, moves, lang="en")
    assert english.rows[-1] == Row(2, "exd6 ep", "")


def test_castling_is_written_with_zeros() -> None:
    board = chess.Board("r3k3/8/8/8/8/8/8/4K2R w Kq - 0 1")
    sheet = Scoresheet.from_moves(board, sans(board, ["O-O", "O-O-O"]))
    assert sheet.rows == (Row(1, "0-0", "0-0-0"),)


# -- draw offers and results --------------------------------------------------------------------


@pytest.mark.law("E13")
def test_draw_offers_follow_the_moves_they_went_with() -> None:
    sheet = Scoresheet.from_moves(
        chess.Board(), sans(chess.Board(), ["d4", "Nf6", "c4", "e6"]), offers=[0, 3]
    )
    assert sheet.rows == (Row(1, "d4 (=)", "Cf6"), Row(2, "c4", "e6 (=)"))


@pytest.mark.law("E13")
def test_read_movetext_offers_reach_the_scoresheet() -> None:
    score = read_movetext("1.d4 Cf6 2.c4 e6 (=) 3.Cc3 Ab4", "es")
    sheet = Scoresheet.from_moves(chess.Board(score.start), score.moves, offers=score.offers)
    assert sheet.rows[1] == Row(2, "c4", "e6 (=)")


@pytest.mark.law("E13")
@pytest.mark.law("9.1")
def test_a_draw_offer_made_in_a_game_is_written_after_the_offerers_move() -> None:
    game = played(["e4"])
    game.offer_draw("white", 1500)  # after his move: it goes with e4
    game.play("black", "e5", 2000)  # a move declines the offer (9.1)
    game.offer_draw("white", 2500)  # before his move: it goes with the next one
    game.play("white", "Nf3", 3000)
    game.decline_draw("black", 3500)
    game.play("black", "Nc6", 4000)
    sheet = Scoresheet.from_game(game)
    assert sheet.rows == (Row(1, "e4 (=)", "e5"), Row(2, "Cf3 (=)", "Cc6"))
    assert sheet.result == "*" and sheet.note == ""
    assert "  1. e4 (=)    e5" in render_text(sheet).splitlines()


@pytest.mark.law("5.2.3")
def test_a_game_drawn_by_agreement_shows_half_half() -> None:
    game = played(["e4", "e5", "Nf3"])
    game.offer_draw("white", 3500)
    game.accept_draw("black", 4000)
    sheet = Scoresheet.from_game(game)
    assert sheet.result == "½-½"
    assert sheet.rows[-1] == Row(2, "Cf3 (=)", "")
    assert sheet.note == "tablas por acuerdo (artículo 5.2.3)"
    text = render_text(sheet)
    assert text.splitlines()[-1] == "Resultado:      ½-½ — tablas por acuerdo (artículo 5.2.3)"
    english = Scoresheet.from_game(game, lang="en")
    assert english.note == "draw by agreement (article 5.2.3)"
    assert english.rows[-1] == Row(2, "Nf3 (=)", "")


@pytest.mark.law("5.1.2")
def test_a_resignation() -> None:
    game = played(["e4", "e5"])
    game.resign("white", 3000)
    sheet = Scoresheet.from_game(game, lang="en")
    assert (sheet.result, sheet.note) == ("0-1", "resignation (article 5.1.2)")


@pytest.mark.parametrize(
    ("given", "written"),
    [("1-0", "1-0"), ("0-1", "0-1"), ("1/2-1/2", "½-½"), ("½-½", "½-½"), ("*", "*")],
)
def test_results_are_written_as_on_a_scoresheet(given: str, written: str) -> None:
    assert Scoresheet.from_moves(chess.Board(), [], result=given).result == written


def test_refusals() -> None:
    board = chess.Board()
    with pytest.raises(ValueError, match="result"):
        Scoresheet.from_moves(board, [], result="2-0")
    with pytest.raises(ValueError, match="draw offer"):
        Scoresheet.from_moves(board, sans(board, ["e4"]), offers=[1])
    with pytest.raises(ValueError, match="not legal"):
        Scoresheet.from_moves(board, [chess.Move.from_uci("e2e5")])
    with pytest.raises(ValueError, match="style"):
        Scoresheet.from_moves(board, [], style="san")  # type: ignore[arg-type]
    with pytest.raises(NotationError):
        Scoresheet.from_moves(board, [], lang="xx")


# -- positions with Black to move, untimed games, illegal plies ---------------------------------


BLACK_TO_MOVE = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"


def test_a_score_that_starts_with_black_to_move() -> None:
    board = chess.Board(BLACK_TO_MOVE)
    sheet = Scoresheet.from_moves(board, sans(board, ["e5", "Nf3", "Nc6"]))
    assert sheet.rows == (Row(1, "…", "e5"), Row(2, "Cf3", "Cc6"))
    assert "  1. …         e5" in render_text(sheet).splitlines()
    later = chess.Board(BLACK_TO_MOVE.replace(" 0 1", " 0 23"))
    assert Scoresheet.from_moves(later, sans(later, ["e5"])).rows == (Row(23, "…", "e5"),)


def test_a_game_that_starts_with_black_to_move() -> None:
    game = Game.create("fide-2023", None, start=BLACK_TO_MOVE)
    game.start(0)
    game.play("black", "c5", 1000)
    game.play("white", "Nf3", 2000)
    sheet = Scoresheet.from_game(game)
    assert sheet.rows == (Row(1, "…", "c5"), Row(2, "Cf3", ""))
    assert (sheet.white, sheet.black, sheet.time_control) == ("", "", "—")


def test_a_move_made_but_not_yet_pressed_is_written() -> None:
    game = played(["e4"])
    game.move("black", "e5", 2000)
    assert Scoresheet.from_game(game).rows == (Row(1, "e4", "e5"),)


def test_an_illegal_ply_left_on_a_wooden_board_is_not_written() -> None:
    game = played(["e4", "e5"], board="physical")
    game.play("white", "e4e6", 3000)  # illegal, and nobody claims it
    game.play("black", "Nc6", 4000)
    game.play("white", "Nf3", 5000)
    assert game.plies[2].reason is not None
    sheet = Scoresheet.from_game(game)
    assert sheet.rows == (Row(1, "e4", "e5"), Row(2, "", "Cc6"), Row(3, "Cf3", ""))


# -- plain text ---------------------------------------------------------------------------------


def test_the_text_scoresheet_in_spanish() -> None:
    game = played(["d4", "Nf6", "c4"])
    sheet = Scoresheet.from_game(
        game, event="Open de Ejemplo", site="Madrid", date="2024-05-01", round="3"
    )
    assert render_text(sheet) == (
        "Evento:         Open de Ejemplo\n"
        "Lugar:          Madrid\n"
        "Fecha:          2024-05-01\n"
        "Ronda:          3\n"
        "Blancas:        Ana\n"
        "Negras:         Bea\n"
        "Ritmo de juego: 15 min + 10 s\n"
        "\n"
        "  1. d4        Cf6\n"
        "  2. c4\n"
        "\n"
        "Resultado:      *"
    )


def test_the_text_scoresheet_in_english() -> None:
    game = played(["d4", "Nf6"])
    text = render_text(Scoresheet.from_game(game, event="Example Open", lang="en"))
    lines = text.splitlines()
    assert lines[0] == "Event:        Example Open"
    assert "White:        Ana" in lines and "Black:        Bea" in lines
    assert "Time control: 15 min + 10 s" in lines
    assert "  1. d4        Nf6" in lines
    assert lines[-1] == "Result:       *"


def test_the_text_of_the_whole_sample_game() -> None:
    score = read_movetext(SAMPLE, "es")
    text = render_text(Scoresheet.from_moves(chess.Board(), score.moves))
    lines = text.splitlines()
    assert " 10. Db3       Cxc3" in lines
    assert " 14. 0-0       Cd7" in lines
    assert " 17. a5" in lines


# -- printable HTML -----------------------------------------------------------------------------

VOID = {"meta", "br", "hr", "img", "input", "link", "col", "wbr", "source", "area", "base"}


class Checker(HTMLParser):
    """Checks that every element is closed in order, and collects what a test looks at."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.problems: list[str] = []
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        if tag not in VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack[-1] != tag:
            self.problems.append(f"</{tag}> closes {self.stack[-1:] or 'nothing'}")
        else:
            self.stack.pop()

    def handle_data(self, data: str) -> None:
        self.text.append(data)

    def count(self, tag: str, **attrs: str) -> int:
        return sum(
            1
            for name, found in self.tags
            if name == tag and all(found.get(k) == v for k, v in attrs.items())
        )


def parse(page: str) -> Checker:
    checker = Checker()
    checker.feed(page)
    checker.close()
    assert not checker.problems, checker.problems
    assert not checker.stack, f"left open: {checker.stack}"
    return checker


def test_the_page_is_well_formed_and_self_contained() -> None:
    score = read_movetext(SAMPLE, "es")
    sheet = Scoresheet.from_moves(
        chess.Board(), score.moves, white="Ana", black="Bea", event="Open", result="1-0"
    )
    page = render_html(sheet)
    assert page.startswith("<!DOCTYPE html>\n")
    checker = parse(page)
    assert checker.count("html", lang="es") == 1
    assert checker.count("title") == 1 and checker.count("caption") == 2
    assert checker.count("th", scope="col") == 6
    assert checker.count("th", scope="row") == 60  # moves 1-30 and 31-60, to be filled by hand
    assert "@page { size: A4" in page
    assert not re.search(r"\b(?:src|href)=|@import|url\(", page)
    assert checker.count("script") == checker.count("link") == checker.count("img") == 0
    text = "".join(checker.text)
    for word in ("Planilla", "Evento", "Blancas", "Negras", "Ritmo de juego", "Resultado", "Nº"):
        assert word in text
    assert "Jugadas 1–30" in text and "Jugadas 31–60" in text
    assert "Firma de las blancas" in text and "Firma del árbitro" in text
    assert '<tr><th scope="row">4</th><td>Ad2</td><td>0-0</td></tr>' in page
    assert '<tr><th scope="row">17</th><td>a5</td><td></td></tr>' in page
    assert checker.count("span", role="img", **{"aria-label": "marcado"}) == 1
    assert '<span class="box" role="img" aria-label="marcado">✕</span> 1-0</li>' in page


def test_names_are_escaped() -> None:
    sheet = Scoresheet(white="Ana <b>&</b> Co", black='Bea "la <Torre>"', event="A&B <Open>")
    page = render_html(sheet)
    checker = parse(page)
    assert "<b>" not in page and "<Torre>" not in page
    assert "Ana &lt;b&gt;&amp;&lt;/b&gt; Co" in page
    assert "A&amp;B &lt;Open&gt;" in page
    text = "".join(checker.text)
    assert "Ana <b>&</b> Co" in text and 'Bea "la <Torre>"' in text
    title = page[page.index("<title>") : page.index("</title>")]
    assert "&lt;b&gt;" in title


@pytest.mark.law("E13")
def test_draw_offers_are_marked_on_the_page() -> None:
    game = played(["e4", "e5", "Nf3"])
    game.offer_draw("white", 3500)
    game.accept_draw("black", 4000)
    page = render_html(Scoresheet.from_game(game, lang="en"))
    parse(page)
    assert '<td class="offer">Nf3 <abbr class="offer" title="draw offer">(=)</abbr></td>' in page
    assert page.count('class="offer"') == 2
    assert '<html lang="en">' in page
    assert '<span class="box" role="img" aria-label="marked">✕</span> ½-½' in page
    assert "draw by agreement (article 5.2.3)" in page
    assert "White&#x27;s signature" in page and "Arbiter&#x27;s signature" in page


def test_a_long_game_gets_more_blocks() -> None:
    start = "8/8/8/8/8/8/8/K6k w - - 0 1"
    board = chess.Board(start)  # the kings walk up and down their files: 70 moves each
    walk: list[chess.Move] = []
    for index in range(140):
        king = board.king(board.turn)
        assert king is not None
        step = 8 if (index // 2) % 14 < 7 else -8
        walk.append(chess.Move(king, king + step))
        board.push(walk[-1])
    sheet = Scoresheet.from_moves(chess.Board(start), walk)
    assert sheet.rows[-1] == Row(70, "Ra1", "Rh1")
    page = render_html(sheet)
    checker = parse(page)
    assert checker.count("caption") == 3
    assert checker.count("th", scope="row") == 90
    assert '<tr><th scope="row">70</th><td>Ra1</td><td>Rh1</td></tr>' in page


def test_a_page_for_a_game_not_yet_started() -> None:
    page = render_html(Scoresheet())
    checker = parse(page)
    assert checker.count("th", scope="row") == 60
    assert "<title>Planilla</title>" in page
    assert "✕" not in page  # no result box is marked: the players fill it in

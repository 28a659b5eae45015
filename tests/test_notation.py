"""Algebraic notation in every language (Appendix E): writing, reading, game scores, PGN."""

from __future__ import annotations

import io
import os
from pathlib import Path

import chess
import chess.pgn
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arbitro.cli import main
from arbitro.errors import ArbitroError
from arbitro.game import Game, GameSetup
from arbitro.notation.algebraic import format, read
from arbitro.notation.letters import LANGUAGES, NotationError
from arbitro.notation.movetext import (
    read_movetext,
    scores,
    split_games,
    translate,
    write_movetext,
)
from arbitro.notation.pgn import game_to_pgn, read_pgn, write_pgn

PGN_DIR = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "pgn"
NEEDS_DATA = pytest.mark.skipif(
    not PGN_DIR.is_dir() and os.environ.get("CI") != "true",
    reason="the game corpus (../shared/data/pgn) is not on this machine",
)

# The sample game of the seeds, in Spanish, and the same moves in English SAN.
SEED_GAME_ES = (
    "1.d4 Cf6 2.c4 e6 3.Cc3 Ab4 4.Ad2 0-0 5.e4 d5 6.exd5 exd5 7.cxd5 Axc3 8.Axc3 Cxd5 "
    "9.Cf3 b6 10.Db3 Cxc3 11.bxc3 c5 12.Ae2 cxd4 13.Cxd4 Te8 14.0-0 Cd7 15.a4 Cc5 16.Db4 Ab7 "
    "17.a5"
)
SEED_GAME_EN = [
    "d4",
    "Nf6",
    "c4",
    "e6",
    "Nc3",
    "Bb4",
    "Bd2",
    "O-O",
    "e4",
    "d5",
    "exd5",
    "exd5",
    "cxd5",
    "Bxc3",
    "Bxc3",
    "Nxd5",
    "Nf3",
    "b6",
    "Qb3",
    "Nxc3",
    "bxc3",
    "c5",
    "Be2",
    "cxd4",
    "Nxd4",
    "Re8",
    "O-O",
    "Nd7",
    "a4",
    "Nc5",
    "Qb4",
    "Bb7",
    "a5",
]

PROMOTION = "4k3/8/8/8/8/8/6p1/4K3 b - - 0 1"  # Black's g-pawn promotes on g1
EN_PASSANT = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1"


def board_after(sans: list[str], fen: str = chess.STARTING_FEN) -> chess.Board:
    board = chess.Board(fen)
    for san in sans:
        board.push_san(san)
    return board


# -- writing ------------------------------------------------------------------------------------


@pytest.mark.law("E2")
@pytest.mark.law("E3")
@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_every_language_writes_its_own_letters(lang: str) -> None:
    knight, bishop, rook, queen, king = LANGUAGES[lang].pieces
    board = chess.Board("4k3/8/8/8/8/8/8/RN1QKB2 w Q - 0 1")
    written = {
        format(chess.Move.from_uci(uci), board, lang)
        for uci in ("b1c3", "f1c4", "a1a7", "d1d7", "e1f2")
    }
    assert written == {
        f"{knight}c3",
        f"{bishop}c4",
        f"{rook}a7",
        f"{queen}d7+",
        f"{king}f2",
    }


@pytest.mark.law("E12")
def test_styles_promotion_mate_castling_and_en_passant() -> None:
    board = chess.Board(PROMOTION)
    promotion = chess.Move.from_uci("g2g1q")
    assert format(promotion, board, "es") == "g1=D+"
    assert format(promotion, board, "es", "fide") == "g1D+"
    assert format(promotion, board, "es", "fide", long=True) == "g2-g1D+"
    assert format(promotion, board, "en", figurines=True) == "g1=♛+"
    castle = chess.Board("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1")
    assert format(chess.Move.from_uci("e1g1"), castle, "es", "fide") == "0-0"
    assert format(chess.Move.from_uci("e1c1"), castle, "es", "fide") == "0-0-0"
    assert format(chess.Move.from_uci("e1c1"), castle, "es") == "O-O-O"
    passant = chess.Board(EN_PASSANT)
    capture = chess.Move.from_uci("e5d6")
    assert format(capture, passant, "es", "fide") == "exd6a.p."
    assert format(capture, passant, "en", "fide") == "exd6 ep"
    assert format(capture, passant, "en") == "exd6"
    mate = board_after(["f3", "e5", "g4"])
    assert format(chess.Move.from_uci("d8h4"), mate, "es") == "Dh4#"
    assert format(chess.Move.from_uci("d8h4"), mate, "es", "fide") == "Dh4++"
    assert format(chess.Move.from_uci("d8h4"), mate, "ru") == "Фh4#"


@pytest.mark.law("E10")
def test_disambiguation_prefers_the_file_then_the_rank() -> None:
    # Knights on g1 and e1 reach f3: the file; on g5 and g1: the rank (E10's examples).
    by_file = chess.Board("4k3/8/8/8/8/8/8/2K1N1N1 w - - 0 1")
    assert format(chess.Move.from_uci("g1f3"), by_file, "es") == "Cgf3"
    by_rank = chess.Board("4k3/8/8/6N1/8/8/8/2K3N1 w - - 0 1")
    assert format(chess.Move.from_uci("g5f3"), by_rank, "es") == "C5f3"
    capture = chess.Board("4k3/8/8/6N1/8/5p2/8/2K3N1 w - - 0 1")
    assert format(chess.Move.from_uci("g1f3"), capture, "es") == "C1xf3"
    assert format(chess.Move.from_uci("g1f3"), capture, "es", long=True) == "Cg1xf3"


def test_format_refuses_an_illegal_move_and_an_unknown_style() -> None:
    with pytest.raises(ValueError, match="not a legal move"):
        format(chess.Move.from_uci("e2e5"), chess.Board())
    with pytest.raises(ValueError, match="style"):
        format(chess.Move.from_uci("e2e4"), chess.Board(), style="long")  # type: ignore[arg-type]
    with pytest.raises(NotationError) as caught:
        format(chess.Move.from_uci("e2e4"), chess.Board(), "xx")
    assert caught.value.code == "unknown-language"


# -- reading ------------------------------------------------------------------------------------


@pytest.mark.law("E8")
def test_reading_plain_entries() -> None:
    board = chess.Board()
    for entry, lang, uci in [
        ("Cf3", "es", "g1f3"),
        ("Sf3", "de", "g1f3"),
        ("Pf3", "nl", "g1f3"),
        ("Кf3", "ru", "g1f3"),
        ("♘f3", "es", "g1f3"),
        ("e4", "es", "e2e4"),
    ]:
        reading = read(entry, board, lang, lenient=False)
        assert reading.status == "ok", (entry, reading.explain())
        assert reading.move == chess.Move.from_uci(uci)
        assert reading.corrections == ()


CORRECTIONS = [
    # (position, entry, language, move, correction code)
    (chess.STARTING_FEN, "Nf3", "es", "g1f3", "english-letter"),
    (chess.STARTING_FEN, "Cgf3", "es", "g1f3", "superfluous-disambiguation"),
    (chess.STARTING_FEN, "Cxf3", "es", "g1f3", "capture-wrong"),
    (chess.STARTING_FEN, "Cf3+", "es", "g1f3", "check-wrong"),
    (chess.STARTING_FEN, "e2-e4", "es", "e2e4", "long-algebraic"),
    (chess.STARTING_FEN, "e2e4", "es", "e2e4", "long-algebraic"),
    (chess.STARTING_FEN, "g1f3", "es", "g1f3", "piece-letter-missing"),
    (chess.STARTING_FEN, "Pe4", "es", "e2e4", "pawn-letter"),
    (chess.STARTING_FEN, "e4!?", "es", "e2e4", "annotation"),
    ("4k3/8/8/4p3/3P4/8/8/4K3 w - - 0 1", "d:e5", "es", "d4e5", "capture-sign"),
    ("4k3/8/8/4p3/3P4/8/8/4K3 w - - 0 1", "de5", "es", "d4e5", "capture-missing"),
    ("4k3/8/8/4p3/3P4/8/8/4K3 w - - 0 1", "e5", "es", "d4e5", "pawn-file"),
    ("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "O-O", "es", "e1g1", "castling-letters"),
    (PROMOTION, "g1=D", "es", "g2g1q", "promotion-form"),
    (PROMOTION, "g1D", "es", "g2g1q", "check-missing"),
    (PROMOTION, "g2g1q", "es", "g2g1q", "promotion-letter"),
    (EN_PASSANT, "exd6e.p.", "es", "e5d6", "en-passant-form"),
    ("4k3/8/8/4p3/3P4/8/8/4K3 w - - 0 1", "dxe5 a.p.", "es", "d4e5", "en-passant-wrong"),
]


@pytest.mark.parametrize(("fen", "entry", "lang", "uci", "code"), CORRECTIONS)
def test_lenient_reading_says_what_it_corrected(
    fen: str, entry: str, lang: str, uci: str, code: str
) -> None:
    board = chess.Board(fen)
    before = board.fen()
    reading = read(entry, board, lang)
    assert reading.status == "ok", reading.explain()
    assert reading.move == chess.Move.from_uci(uci)
    assert code in [c.code for c in reading.corrections]
    assert reading.explain("es")  # every correction reads in Spanish too
    assert board.fen() == before  # reading changes nothing
    strict = read(entry, board, lang, lenient=False)
    if code == "check-missing":
        assert strict.status == "ok"
    else:
        assert strict.status == "unreadable"
        assert "Appendix E" in strict.explain()


@pytest.mark.law("A8")
@pytest.mark.law("E10")
def test_ambiguous_entries_list_every_move_they_could_mean() -> None:
    board = chess.Board("4k3/8/8/8/8/2N3N1/8/4K3 w - - 0 1")
    reading = read("Ce4", board, "es")
    assert reading.status == "ambiguous"
    assert sorted(m.uci() for m in reading.candidates) == ["c3e4", "g3e4"]
    assert "Cce4" in reading.explain() and "Cge4" in reading.explain()
    assert read("Cce4", board, "es").move == chess.Move.from_uci("c3e4")
    promotion = read("g1", chess.Board(PROMOTION), "es")
    assert promotion.status == "ambiguous" and len(promotion.candidates) == 4
    assert "g1D" in promotion.explain()


@pytest.mark.law("A8")
@pytest.mark.parametrize(
    ("fen", "entry", "lang", "words"),
    [
        # The trap of notation.md: Spanish R is the king, the rook is T.
        (PROMOTION, "g1R", "es", "In Spanish, R is the king: a pawn cannot become a king."),
        (PROMOTION, "g1R", "es", "The rook is T"),
        (PROMOTION, "g1P", "es", "cannot become a pawn"),
        ("4k3/7R/8/8/8/8/8/4K3 w - - 0 1", "Re7", "es", "In Spanish R is the king"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "Cf3", "es", "There is no knight"),
        ("4k3/8/8/8/8/8/3r4/4K3 w - - 0 1", "Rd1", "en", "There is no rook"),
        ("4k3/8/8/8/8/8/7P/4K2R w K - 0 1", "Th3", "es", "No rook can move to h3"),
        ("4k3/8/8/8/1b6/8/3N4/4K3 w - - 0 1", "Cf3", "es", "leave the king in check"),
        ("4k3/8/8/8/8/8/8/4K2R w - - 0 1", "0-0", "es", "already moved"),
        ("4k3/8/8/8/8/8/8/4KB1R w K - 0 1", "0-0", "es", "stands between"),
        ("4k3/8/8/8/8/8/4r3/4K2R w K - 0 1", "0-0", "es", "in check"),
        ("4k3/8/8/8/8/8/5r2/4K2R w K - 0 1", "0-0", "es", "attacked square"),
        (chess.STARTING_FEN, "e3D", "es", "Only a pawn that reaches the last rank"),
    ],
)
def test_illegal_entries_say_why(fen: str, entry: str, lang: str, words: str) -> None:
    reading = read(entry, chess.Board(fen), lang)
    assert reading.status == "illegal", reading
    assert words in reading.explain()
    assert reading.explain("es") != ""


@pytest.mark.parametrize(
    ("entry", "lang", "words"),
    [
        ("", "es", "empty"),
        ("Xf3", "es", "'X' is not a piece letter in Spanish (C A T D R)"),
        ("zz9", "es", "not written in algebraic notation"),
        ("Xf3", "de", "'X' is not a piece letter in German"),
        ("Cg-f3", "es", "hyphen"),
    ],
)
def test_unreadable_entries_say_why(entry: str, lang: str, words: str) -> None:
    reading = read(entry, chess.Board(), lang)
    assert reading.status == "unreadable"
    assert words in reading.explain()


@pytest.mark.law("E12")
def test_the_seeds_mixed_promotion_letters_are_read_or_refused_never_guessed() -> None:
    # Seed 002 writes d8D, f8N, b1B, g1R in a Spanish text: D is Spanish, N and B English.
    white = chess.Board("4k3/3P1P2/8/8/8/8/8/4K3 w - - 0 1")
    assert read("d8D", white, "es").move == chess.Move.from_uci("d7d8q")
    knight = read("f8N", white, "es")
    assert knight.move == chess.Move.from_uci("f7f8n")
    assert next(c.code for c in knight.corrections) == "english-letter"
    assert "English letter of the knight (Spanish: C)" in knight.explain()
    assert read("f8N", white, "es", lenient=False).status == "unreadable"
    black = chess.Board("4k3/8/8/8/8/8/1p4p1/4K3 b - - 0 1")
    bishop = read("b1B", black, "es")
    assert bishop.move == chess.Move.from_uci("b2b1b")
    assert "English letter of the bishop" in bishop.explain()
    assert read("g1R", black, "es").status == "illegal"


def test_german_b_is_the_pawn_and_english_b_the_bishop() -> None:
    board = chess.Board("4k3/8/8/8/8/8/4P3/4KB2 w - - 0 1")
    german = read("Be4", board, "de")
    assert german.move == chess.Move.from_uci("e2e4")
    assert "pawn-letter" in [c.code for c in german.corrections]
    assert read("Le2", chess.Board("4k3/8/8/8/8/8/8/4KB2 w - - 0 1"), "de").ok
    assert read("Bg2", board, "en").move == chess.Move.from_uci("f1g2")
    assert read("Nf3", chess.Board(), "de", lenient=False).status == "unreadable"


@pytest.mark.law("E13")
def test_a_draw_offer_travels_with_the_move() -> None:
    reading = read("Cf3 (=)", chess.Board(), "es")
    assert reading.ok and reading.draw_offer


# -- whole scores -------------------------------------------------------------------------------


@pytest.mark.law("E13")
def test_the_seed_game_reads_in_spanish_and_matches_its_english_san() -> None:
    score = read_movetext(SEED_GAME_ES, "es", lenient=False)
    board = chess.Board()
    sans = []
    for move in score.moves:
        sans.append(board.san(move))
        board.push(move)
    assert sans == SEED_GAME_EN
    assert translate(SEED_GAME_ES, "es", "es", "fide") == SEED_GAME_ES
    english = translate(SEED_GAME_ES, "es", "en")
    assert english.startswith("1. d4 Nf6 2. c4 e6 3. Nc3 Bb4 4. Bd2 O-O")


@pytest.mark.law("E13")
def test_draw_offers_comments_and_variations_are_kept() -> None:
    text = "1.e4 e5 2.Cf3 (=) Cc6 {el negro rehúsa} (2...d6 3.d4) 3.Ab5 $1 a6 1/2-1/2"
    score = read_movetext(text, "es")
    assert sorted(score.offers) == [2] and score.result == "1/2-1/2"
    english = translate(text, "es", "en")
    assert english == (
        "1. e4 e5 2. Nf3 (=) 2... Nc6 {el negro rehúsa} (2... d6 3. d4) 3. Bb5 $1 3... a6 1/2-1/2"
    )
    assert translate(english, "en", "es", "fide").startswith("1.e4 e5 2.Cf3 (=) 2...Cc6")
    assert write_movetext(score.moves, "de", "fide", offers=score.offers) == (
        "1.e4 e5 2.Sf3 (=) 2...Sc6 3.Lb5 a6"
    )


def test_a_bad_entry_names_the_move_number_the_entry_and_why() -> None:
    with pytest.raises(NotationError) as caught:
        read_movetext("1.e4 e5 2.Cf3 Cc6 3.Rb5", "es")
    assert caught.value.code == "illegal-move"
    assert caught.value.message().startswith("Move 3. 'Rb5': ")
    with pytest.raises(NotationError) as caught:
        translate('[White "a"]\n\n1. e4 *\n\n[White "b"]\n\n1. e4 e5 2. Ke3 *', "en", "es")
    assert caught.value.message().startswith("Game 2, move 2. 'Ke3': ")


# -- PGN ----------------------------------------------------------------------------------------


def test_the_engine_writes_pgn_with_clocks_offers_and_its_result() -> None:
    game = Game(GameSetup.create("fide-2023", "3+2", players=("Ana", "Bea")))
    game.start(0)
    at = 0
    for san in ("e4", "e5", "Qh5", "Nc6", "Bc4"):
        at += 1500
        game.play("white" if game.board.turn else "black", san, at)
    game.offer_draw("white", at)
    game.play("black", "Nf6", at + 1000)
    game.play("white", "Qxf7", at + 2000)
    pgn = game_to_pgn(game, {"Event": "Club"})
    text = write_pgn(pgn)
    assert '[White "Ana"]' in text and '[TimeControl "180+2"]' in text
    assert '[Result "1-0"]' in text and '[Termination "normal"]' in text
    assert "3. Bc4 { [%clk 0:03:01.5] (=) }" in text
    assert "checkmate, article 5.1.1 (fide-2023)" in text
    back = chess.pgn.read_game(io.StringIO(text))
    assert back is not None
    assert [n.clock() for n in back.mainline()][:3] == [180.5, 180.5, 181.0]
    spanish = write_pgn(pgn, "es", "fide")
    assert "4.Dxf7++" in spanish
    again = read_pgn(io.StringIO(spanish), "es")
    assert again is not None and list(again.mainline_moves()) == list(back.mainline_moves())
    assert sorted(scores(spanish, "es")[0].offers) == [4]


def test_a_game_from_another_start_carries_fen_and_setup() -> None:
    fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"
    game = Game(GameSetup.create("fide-2023", None, start=fen))
    game.start(0)
    game.play("white", "e4", 1000)
    text = write_pgn(game_to_pgn(game))
    assert '[SetUp "1"]' in text and f'[FEN "{fen}"]' in text
    assert split_games(text)[0].start().fen() == fen


def test_the_engine_reads_moves_in_the_games_language() -> None:
    game = Game(GameSetup.create("fide-2023", "15+10", notation="es"))
    game.start(0)
    game.play("white", "Cf3", 1000)
    with pytest.raises(ArbitroError) as caught:
        game.play("black", "Rf6", 2000)
    assert caught.value.code == "illegal-move"
    assert "No king can move to f6" in caught.value.message()
    with pytest.raises(ArbitroError) as unreadable:
        game.play("black", "Xf6", 2000)
    assert unreadable.value.code == "unreadable-move"
    assert "'X' is not a piece letter in Spanish" in unreadable.value.message()
    assert len(game.plies) == 1  # refusals change nothing


@NEEDS_DATA
@pytest.mark.parametrize("style", ["pgn", "fide"])
def test_corpus_sample_round_trips_through_every_language(style: str) -> None:
    files = sorted(PGN_DIR.glob("*.pgn"))
    assert files
    for path in files:
        games = split_games(path.read_text(encoding="utf-8"))[:2]
        text = "\n".join("\n".join(g.tags) + "\n\n" + g.movetext for g in games)
        original = [s.moves for s in scores(text)]
        for lang in LANGUAGES:
            there = translate(text, "en", lang, style)  # type: ignore[arg-type]
            assert [s.moves for s in scores(there, lang)] == original, (path.name, lang)


# -- properties ---------------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(min_value=0, max_value=10_000), min_size=1, max_size=60),
    st.sampled_from(sorted(LANGUAGES)),
    st.sampled_from(["pgn", "fide"]),
    st.booleans(),
    st.booleans(),
)
def test_every_written_move_reads_back_as_itself(
    picks: list[int], lang: str, style: str, figurines: bool, long: bool
) -> None:
    board = chess.Board()
    for pick in picks:
        moves = list(board.legal_moves)
        if not moves:
            break
        move = moves[pick % len(moves)]
        written = format(move, board, lang, style, figurines=figurines, long=long)  # type: ignore[arg-type]
        reading = read(written, board, lang, lenient=True)
        assert reading.ok and reading.move == move, (written, reading.explain())
        if style == "fide" and not figurines and not long:
            assert read(written, board, lang, lenient=False).ok, written
        board.push(move)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=12), st.sampled_from(sorted(LANGUAGES)))
def test_reading_any_text_never_crashes_and_changes_nothing(text: str, lang: str) -> None:
    board = board_after(["e4", "d5"])
    before = board.fen()
    reading = read(text, board, lang)
    assert reading.status in ("ok", "ambiguous", "illegal", "unreadable")
    assert board.fen() == before


# -- command line -------------------------------------------------------------------------------


def test_cli_check(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["notation", "check", "--lang", "es", "Cf3"]) == 0
    assert capsys.readouterr().out == "ok g1f3 Cf3\n"
    fen = "4k3/8/8/8/8/2N3N1/8/4K3 w - - 0 1"
    assert main(["notation", "check", "--lang", "es", "--fen", fen, "Ce4"]) == 1
    assert capsys.readouterr().out == "ambiguous c3e4 g3e4\n"
    assert main(["notation", "check", "--lang", "es", "--fen", PROMOTION, "g1R"]) == 1
    assert capsys.readouterr().out.startswith("illegal In Spanish, R is the king")
    assert main(["notation", "check", "--lang", "es", "--moves", "1.e4 e5", "Axx"]) == 1
    assert capsys.readouterr().out.startswith("unreadable ")
    assert main(["notation", "check", "--lang", "es", "--strict", "O-O"]) == 1
    assert main(["notation", "check", "--lang", "es", "--moves", "1.e4 Rf6", "e5"]) == 2
    assert "Move 1... 'Rf6'" in capsys.readouterr().err


def test_cli_translate(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "game.txt"
    source.write_text(SEED_GAME_ES, encoding="utf-8")
    assert main(["notation", "translate", "--from", "es", "--to", "en", str(source)]) == 0
    assert capsys.readouterr().out.startswith("1. d4 Nf6 2. c4")
    assert (
        main(["notation", "translate", "--from", "es", "--to", "de", "--figurine", str(source)])
        == 0
    )
    assert "♘f3" in capsys.readouterr().out
    source.write_text("1.d4 Cf6 2.c4 Xe6", encoding="utf-8")
    assert main(["notation", "translate", "--from", "es", "--to", "en", str(source)]) == 2
    assert "Move 2... 'Xe6'" in capsys.readouterr().err
    assert main(["notation", "translate", "--to", "en", str(tmp_path / "missing")]) == 2


@pytest.mark.law("E9")
def test_an_en_passant_capture_with_check_round_trips_in_every_language() -> None:
    # "exd6 ep+" writes the mark as a word of its own: it still belongs to the move.
    start = chess.Board("8/3k4/8/4pP2/8/8/8/4K3 w - e6 0 1")
    capture = chess.Move.from_uci("f5e6")
    for lang in LANGUAGES:
        text = write_movetext([capture], lang, "fide", board=start)
        assert read_movetext(text, lang, board=start).moves == (capture,), (lang, text)

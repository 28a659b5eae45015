"""National piece letters (spec/notation.md) as the Laws engine reads them."""

from __future__ import annotations

import pytest

from arbitro.notation.letters import LANGUAGES, NotationError, letters_for, to_english_san


@pytest.mark.parametrize(
    ("entry", "lang", "english"),
    [
        ("Cf3", "es", "Nf3"),
        ("Axe5", "es", "Bxe5"),
        ("Td1", "es", "Rd1"),
        ("Re7", "es", "Ke7"),
        ("Re7", "en", "Re7"),
        ("d8D", "es", "d8=Q"),
        ("d8=D", "es", "d8=Q"),
        ("exd6a.p.", "es", "exd6"),
        ("exd6 ep", "es", "exd6"),
        ("0-0", "es", "O-O"),
        ("0-0-0", "es", "O-O-O"),
        ("Cgxf3", "es", "Ngxf3"),
        ("C5xf3", "es", "N5xf3"),
        ("Sf3", "de", "Nf3"),
        ("Be4", "de", "e4"),
        ("Lb5+", "de", "Bb5"),
        ("Fb5", "fr", "Bb5"),
        ("Pf3", "nl", "Nf3"),
        ("Hd1", "pl", "Qd1"),
        ("Крe2", "ru", "Ke2"),
        ("Фd1", "ru", "Qd1"),
        ("♘f3", "en", "Nf3"),
        ("♞f6", "es", "Nf6"),
        ("Cf3 (=)", "es", "Nf3"),
        ("Cc3:d5", "es", "Nc3xd5"),
    ],
)
def test_national_letters_to_english(entry: str, lang: str, english: str) -> None:
    assert to_english_san(entry, lang) == english


def test_spanish_r_is_the_king_so_g1r_promotes_to_a_king() -> None:
    # The trap of spec/notation.md: the reader turns it into a promotion to a king, which the
    # board then refuses as illegal; it never silently reads it as a rook.
    assert to_english_san("g1R", "es") == "g1=K"


def test_a_letter_that_is_not_a_piece_in_the_language() -> None:
    with pytest.raises(NotationError) as caught:
        to_english_san("Nf3", "es")
    assert "Spanish" in str(caught.value)
    with pytest.raises(NotationError):
        to_english_san("e8P", "es")


def test_unknown_language() -> None:
    with pytest.raises(NotationError) as caught:
        letters_for("xx")
    assert caught.value.code == "unknown-language"


def test_every_language_of_the_spec() -> None:
    assert {
        "en",
        "es",
        "it",
        "fr",
        "pt",
        "ro",
        "de",
        "nl",
        "da",
        "no",
        "sv",
        "cs",
        "pl",
        "hu",
        "fi",
        "et",
        "is",
        "ru",
    } == set(LANGUAGES)

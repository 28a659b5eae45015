"""The catalogs: every message in the code has a Spanish translation, compiled and consistent."""

from __future__ import annotations

import gettext
import string
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

import arbitro
from arbitro.i18n import (
    LANGUAGES,
    LOCALE_DIR,
    Text,
    language_from_environment,
    normalize_language,
)

SOURCE = Path(arbitro.__file__).parent


def catalog(lang: str):  # type: ignore[no-untyped-def]
    with open(LOCALE_DIR / lang / "LC_MESSAGES" / "arbitro.po", "rb") as handle:
        return read_po(handle)


def source_messages() -> set[str]:
    found = set()
    for _, _, message, _, _ in extract_from_dir(str(SOURCE)):
        found.add(message[0] if isinstance(message, tuple) else message)
    return found


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_every_message_in_the_code_is_translated(lang: str) -> None:
    po = catalog(lang)
    translated = {
        (m.id[0] if isinstance(m.id, tuple) else m.id): m for m in po if m.id and not m.fuzzy
    }
    missing = sorted(m for m in source_messages() if m not in translated)
    assert not missing, f"untranslated in {lang}.po (run 'make catalogs'): {missing}"
    for message in translated.values():
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        assert all(strings), f"empty translation for {message.id!r}"
        for text in strings:
            assert fields(text) == fields(ids[0]), f"fields differ in {message.id!r}"


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_compiled_catalog_matches_the_po_file(lang: str) -> None:
    compiled = gettext.translation("arbitro", LOCALE_DIR, languages=[lang])
    for message in catalog(lang):
        if not message.id:
            continue
        if isinstance(message.id, tuple):
            assert compiled.ngettext(message.id[0], message.id[1], 1) == message.string[0]
        else:
            assert compiled.gettext(message.id) == message.string, (
                f"{lang}.mo is stale: run 'make catalogs'"
            )


def test_language_tags() -> None:
    assert normalize_language("es-ES") == "es"
    assert normalize_language("es_AR.UTF-8") == "es"
    assert normalize_language("C") == "en"
    assert normalize_language(None) == "en"
    assert language_from_environment({"LANG": "es_ES.UTF-8"}) == "es"
    assert language_from_environment({"LANGUAGE": "es:en", "LANG": "en_US"}) == "es"
    assert language_from_environment({}) == "en"


def test_text_translates_its_fields_too() -> None:
    inner = Text("it is empty")
    outer = Text("(article {article})", {"article": inner})
    assert outer.translate("es") == "(artículo está vacío)"
    assert str(outer) == "(article it is empty)"

"""Messages in Spanish and English, through gettext catalogs.

English is the source language; catalogs live in ``arbitro/locale/<lang>/LC_MESSAGES``
(``make catalogs`` extracts and compiles them with Babel). A language without a catalog reads
English, as gettext does.

>>> gettext("no time control", "es")
'sin control de tiempo'
>>> normalize_language("es_AR.UTF-8")
'es'
"""

from __future__ import annotations

import gettext as _gettext
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

DOMAIN = "arbitro"
LOCALE_DIR = Path(__file__).parent / "locale"
#: Languages with a catalog (English needs none).
LANGUAGES = ("en", "es")


def N_(message: str) -> str:
    """Mark ``message`` for extraction; it is translated later, where it is shown."""
    return message


def normalize_language(lang: str | None) -> str:
    """The two-letter language of a tag such as ``"es-ES"``, ``"es_AR.UTF-8"`` or ``"EN"``.

    Empty, ``"C"`` and ``"POSIX"`` mean English.
    """
    if not lang:
        return "en"
    code = lang.strip().split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    if code in ("", "c", "posix"):
        return "en"
    return code


def language_from_environment(environ: dict[str, str] | None = None) -> str:
    """The user's language from ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES`` or ``LANG``."""
    env = os.environ if environ is None else environ
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name)
        if value:
            return normalize_language(value.split(":")[0])
    return "en"


@cache
def translations(lang: str) -> _gettext.NullTranslations:
    """The catalog for ``lang`` (any tag ``normalize_language`` reads); English if none."""
    code = normalize_language(lang)
    return _gettext.translation(DOMAIN, LOCALE_DIR, languages=[code], fallback=True)


def gettext(message: str, lang: str = "en") -> str:
    """``message`` translated into ``lang``."""
    return translations(lang).gettext(message)


def ngettext(singular: str, plural: str, n: int, lang: str = "en") -> str:
    """The singular or plural form of a message for ``n``, translated into ``lang``."""
    return translations(lang).ngettext(singular, plural, n)


@dataclass(frozen=True, slots=True)
class Text:
    """A message not yet translated: a template marked with ``N_`` and the values of its
    fields, which may be :class:`Text` values themselves.

    >>> Text("The clocks are stopped.").translate("es")
    'Los relojes están parados.'
    """

    template: str
    params: Mapping[str, object] = field(default_factory=dict)

    def translate(self, lang: str = "en") -> str:
        """The message in ``lang``, its fields filled in (and translated, where they are
        :class:`Text` too)."""
        values = {
            name: value.translate(lang) if isinstance(value, Text) else value
            for name, value in self.params.items()
        }
        return gettext(self.template, lang).format(**values)

    def __str__(self) -> str:
        return self.translate("en")

"""Typed errors. Each carries a stable ``code`` (the scenario format's ``error`` key), the
article of the Laws where one applies, and a message that reads in Spanish and English.

>>> err = ClockError("clock-stopped", "The clocks are stopped.")
>>> err.code, str(err)
('clock-stopped', 'The clocks are stopped.')
>>> err.message("es")
'Los relojes están parados.'
"""

from __future__ import annotations

from typing import Any, ClassVar, Self, cast

from arbitro.i18n import Text, gettext


class ArbitroError(Exception):
    """Base class of every error arbitro raises on purpose.

    ``template`` is an English message with ``{name}`` fields, marked with ``N_`` where it is
    written so that the catalogs carry its translations; ``params`` fill the fields (a
    :class:`~arbitro.i18n.Text` value is translated with the message).
    """

    default_code: ClassVar[str] = "error"

    def __init__(
        self,
        template: str,
        /,
        *,
        code: str | None = None,
        article: str | None = None,
        **params: object,
    ) -> None:
        self.text = Text(template, params)
        self.code = code or self.default_code
        self.article = article
        super().__init__(self.message("en"))

    def message(self, lang: str = "en") -> str:
        """The message in ``lang`` (English where no catalog has it)."""
        return self.text.translate(lang)

    def full_message(self, lang: str = "en") -> str:
        """The message followed by the article of the Laws, when there is one."""
        text = self.message(lang)
        if self.article:
            text += " " + gettext("(article {article})", lang).format(article=self.article)
        return text

    def to_dict(self, lang: str = "en") -> dict[str, str | None]:
        """``{"code", "article", "message"}``, for JSON answers."""
        return {"code": self.code, "article": self.article, "message": self.message(lang)}


class TimeControlError(ArbitroError, ValueError):
    """A time control that cannot be read."""

    default_code = "bad-time-control"


class _CodedError(ArbitroError):
    """An error whose code is given first: ``SomeError("code", N_("message"), ...)``."""

    def __init__(
        self, code: str, template: str, /, *, article: str | None = None, **params: object
    ) -> None:
        super().__init__(template, code=code, article=article, **params)

    @classmethod
    def like(cls, error: ArbitroError) -> Self:
        """An error of this class with the code, message and article of ``error``."""
        params = cast(dict[str, Any], dict(error.text.params))
        return cls(error.code, error.text.template, article=error.article, **params)


class ClockError(_CodedError):
    """An operation the clock cannot perform in its present state (nothing is changed)."""

    default_code = "clock-error"


class GameError(_CodedError):
    """A command the game refuses; the game is left exactly as it was."""

    default_code = "refused"

"""The languages catalog speaks. Django's ``LANGUAGES`` setting is the one list: the
choices of the models, the bot's language picker and the site all read it."""

from django.conf import settings
from django.conf.locale import LANG_INFO
from django.db import models

# The stubs know the functional API with plain labels only, not (value, label) pairs.
Language = models.TextChoices(  # type: ignore[call-overload]
    "Language", [(code.upper(), (code, name)) for code, name in settings.LANGUAGES]
)


def from_telegram(code: str | None) -> str:
    """Telegram sends IETF tags such as ``pt-br``; unknown ones fall back to the default."""
    base = (code or "").split("-")[0].lower()
    return base if base in Language.values else settings.LANGUAGE_CODE


def native_name(code: str) -> str:
    """A language's name in itself ("Italiano"), as a language picker shows it."""
    name = LANG_INFO[code]["name_local"]
    return name[:1].upper() + name[1:]  # Django writes "italiano"; a picker shows "Italiano"

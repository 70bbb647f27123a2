"""Cat Nap at the web table (the contract: ``web.tables``): each cat's naps and
two choices. Its two cards (``art``) picture the rules page."""

from __future__ import annotations

TEMPLATE = "web/tables/cat_nap.html"
LABELS = {"nap": "💤 Nap", "purr": "😺 Purr"}


def card_label(code: str) -> str:
    return {"nap": "Napping cat", "purr": "Purring cat"}.get(code, code)


def legend_texts() -> list[str]:
    return []


def option(parts: tuple[str, ...], view: dict, names: list[str]) -> tuple[str, str | None]:
    return LABELS.get(parts[-1], parts[-1]), None


def pieces(view: dict | None) -> dict:
    return {}


def score_text(result, seat: int, view: dict | None) -> str:
    return f"💤{result.score(seat)}"

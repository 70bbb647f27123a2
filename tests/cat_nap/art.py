"""Cat Nap's cards (the contract: ``games.art``): a napping cat and a purring one, drawn
with the shared motifs. Found through the catalog entry as any game's deck is."""

from __future__ import annotations

from games.art import motifs as m
from games.art.svg import frame, place, text

PAPER, EDGE = "#f3efff", "#4b3f8c"
LOOKS = {"nap": {"mood": "calm", "eyes": "#4b3f8c"}, "purr": {"mood": "happy"}}
LABELS = {"nap": "Napping cat", "purr": "Purring cat"}
BACK_VARIANTS = ("",)


def codes() -> list[str]:
    return list(LOOKS)


def default_label(code: str) -> str:
    return LABELS[code]


def face(code: str) -> str:
    out = frame(PAPER, EDGE) + place(m.cat_head("#9e9e9e", **LOOKS[code]), 50, 66, 70)
    return out + (text(74, 30, "z z", 16, EDGE) if code == "nap" else "")


def back(variant: str = "") -> str:
    return frame(EDGE, PAPER) + place(m.paw(PAPER), 50, 70, 40)


def legend() -> list[tuple[str, str]]:
    return []

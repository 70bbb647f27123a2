"""Smoking Cat's capabilities (``games.capabilities``): a match is played for the letters
of a word its league gives (S15); fewer letters is better (S16); a moderator may award or
remove a letter, with a reason (S17); a league's page shows each player's letters."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from games.capabilities import LeagueOption, ModeratorMove, Progress, Refused, Scoring

SCORING = Scoring(
    lower_is_better=True,  # S16
    heading=_("Letters (fewer is better)"),
    average=_("Letters per match"),
    column=_("Letters"),
    column_title=_("Average letters per match: fewer is better"),
)

# S15: a match plays for the letters of its league's word (``League.word``).
LEAGUE_OPTIONS = (LeagueOption("word", "word", _("Smoking Cat word")),)

PROGRESS = Progress(
    heading=_("Smoking Cat matches in progress"),
    marks=lambda view: (view.get("word") or "", list(view.get("letters") or [])),
)


class NoLetter(Refused):
    code = "no_letter"
    message = _("Seat %(seat)d has no letter to remove.")


class LetterMove(ModeratorMove):
    """S17: a moderator awards (+1) or removes (-1) a letter; the engine applies it, and a
    completed word ends the match as losing a deal would."""

    permission = "adjust_letters"
    permission_label = _("Can award and remove Smoking Cat letters")

    def __init__(self, value: str, delta: int, label, description):
        self.value, self.delta = value, delta
        self.label, self.description = label, description

    def apply(self, rules: Any, state: Any, seat: int, note: str) -> list[dict]:
        return rules.adjust_letters(state, seat, self.delta, note)

    def audit(self, view: dict, seat: int) -> dict:
        """The letter given or taken, named now: earlier moves are applied first, so it
        is the one this move will really give or take."""
        word, before = view["word"], view["letters"][seat]
        if self.delta < 0 and not before:
            raise NoLetter(seat=seat)
        letter = word[len(before)] if self.delta > 0 else before[-1]
        return {"letter": letter, "letters_before": before, "word": word}


AWARD_LETTER = LetterMove(
    "award_letter", +1, _("letter awarded"), _("Award a Smoking Cat letter (S17)")
)
REMOVE_LETTER = LetterMove(
    "remove_letter", -1, _("letter removed"), _("Remove a Smoking Cat letter (S17)")
)
MODERATOR_MOVES = (AWARD_LETTER, REMOVE_LETTER)

"""A finished game's post-game review on its page (issue 27): beside each reviewed step,
the move played, the suggestion and the estimated loss; above the replay, a summary per
player. Read from the stored review (``games.play.reviews``): showing it costs one query
and no search. Only for a finished game, whose hands are public anyway.
"""

from __future__ import annotations

from typing import Any

from django.utils.formats import number_format
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.play import reviews
from games.play.models import Game

from .tables import web_module

GRADE_NAMES = {
    "inaccuracy": _("Inaccuracy"),
    "mistake": _("Mistake"),
    "blunder": _("Blunder"),
}
# Where a decision was made, by the view's phase: "2 in the auction".
PHASE_NAMES = {
    "place": _("while placing cards"),
    "auction": _("in the auction"),
    "pass": _("while passing cards"),
    "play": _("in play"),
    "mark": _("while placing markers"),
    "feed": _("while feeding"),
    "more": _("while feeding"),
}


def _views(steps: list[dict], upto: int) -> list[dict]:
    """The public view before each move up to ``upto``, rebuilt from the replay's deltas."""
    out: list[dict] = []
    view: dict = {}
    for step in steps[: upto + 1]:
        view = {**view, **step.get("view", {})}
        for key in view.pop("__removed__", []):
            view.pop(key, None)
        out.append(view)
    return out


def words(module, action: str, view: dict, names: list[str]) -> str:
    """An action in the page's language, as the replay tells a choice."""
    parts = tuple(action.split(":"))
    try:
        return " → ".join(
            str(module.option(parts[:n], view, names)[0]) for n in range(1, len(parts) + 1)
        )
    except Exception:  # an option the table cannot name out of its context
        return action


def figure(loss: float) -> str:
    """A loss in places as the page shows it: two decimals, in the page's language's
    number format (0,47 in Italian and Portuguese). Rounded here: ``number_format`` cuts
    a float's decimals off."""
    return number_format(round(loss, 2), decimal_pos=2)


def places(loss: float) -> str:
    # Always shown with two decimals, so always the plural ("1.00 places", as the list of
    # graded decisions says): CLDR counts a figure with decimals as "other" in English.
    return ngettext("%(n)s place", "%(n)s places", 2) % {"n": figure(loss)}


def by_words(phases: dict[str, int]) -> list[tuple[str, int]]:
    """The serious decisions per phase, by the phase's words and most first: phases told
    alike add up ("feed" and "more" are both "while feeding")."""
    counts: dict[str, int] = {}
    for phase, count in phases.items():
        words = str(PHASE_NAMES.get(phase, phase))
        counts[words] = counts.get(words, 0) + count
    return sorted(counts.items(), key=lambda kv: -kv[1])


def context(game: Game, data: dict | None, names: list[str]) -> dict[str, Any] | None:
    """What the page shows of the review: ``steps`` (by replay step: its lines) for the
    script, ``players`` for the summary, ``marked`` for the list of graded decisions. None
    without a stored review."""
    review = reviews.stored(game)
    if review is None or not data or data.get("broken"):
        return None
    module = web_module(game.game_type)
    verdicts = [v for v in review.verdicts if v["step"] < len(data["steps"])]
    before = _views(data["steps"], max((v["step"] for v in verdicts), default=0))
    steps: dict[int, dict] = {}
    marked = []
    for v in verdicts:
        view = before[v["step"] - 1]  # the decision was made before its move
        name = names[v["seat"]] if v["seat"] < len(names) else "?"
        played = words(module, v["played"], view, names)
        best = words(module, v["best"], view, names)
        if v["best"] == v["played"]:
            line = _("%(name)s played %(move)s: the best move found.") % {
                "name": name,
                "move": played,
            }
        else:
            line = _("%(name)s played %(move)s; suggested: %(best)s; estimated loss: %(loss)s.") % {
                "name": name,
                "move": played,
                "best": best,
                "loss": places(v["loss"]),
            }
        grade = str(GRADE_NAMES.get(v["grade"], "")) if v["grade"] else ""
        steps[v["step"]] = {"grade": v["grade"], "label": grade, "line": str(line)}
        if v["grade"]:
            marked.append(
                {
                    "step": v["step"],
                    "name": name,
                    "grade": v["grade"],
                    "label": grade,
                    "played": played,
                    "best": best,
                    "loss": figure(v["loss"]),
                }
            )
    players = []
    for line in review.summary:
        if not line["decisions"]:
            continue
        players.append(
            {
                "name": names[line["seat"]] if line["seat"] < len(names) else "?",
                "decisions": line["decisions"],
                "inaccuracy": line["inaccuracy"],
                "mistake": line["mistake"],
                "blunder": line["blunder"],
                "loss": figure(line["loss"]),
                "text": said(line),
            }
        )
    return {"steps": steps, "players": players, "marked": marked}


def said(line: dict) -> str:
    """A player's review in words: "3 mistakes, 1 inaccuracy; the mistakes and blunders: 2 in
    the auction, 1 in play"."""
    counted = {
        "blunder": lambda n: ngettext("%(n)d blunder", "%(n)d blunders", n),
        "mistake": lambda n: ngettext("%(n)d mistake", "%(n)d mistakes", n),
        "inaccuracy": lambda n: ngettext("%(n)d inaccuracy", "%(n)d inaccuracies", n),
    }
    parts = [counted[g](line[g]) % {"n": line[g]} for g in counted if line[g]]
    if not parts:
        return str(_("No mistakes found."))
    text = ", ".join(parts)
    serious = line["mistake"] + line["blunder"]
    if line["phases"] and serious:
        # Every phase, so that the counts add up to the mistakes and blunders: the phase
        # with the most alone, then every phase again in brackets, read as "1 in play (in
        # play: 1, while feeding: 1)" (issue 45).
        where = ", ".join(f"{count} {words}" for words, count in by_words(line["phases"]))
        text += "; " + ngettext(
            "the mistake or blunder: %(where)s",
            "the mistakes and blunders: %(where)s",
            serious,
        ) % {"where": where}
    return text

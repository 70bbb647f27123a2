"""The data behind a game's replay page: the public view at every step, what happened in
words, and each seat's private view only once the game is over.

Views travel as deltas (only the keys that changed since the previous step), so a match
of many deals stays a small page; the browser rebuilds each step from them.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from django.core.cache import cache
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from games import art
from games.catalog import WEB
from games.play.models import ENDED_STATUSES, Game, GameStatus
from games.play.replay import applied_moves, views
from games.play.table import seen_by
from games.ratings import standings

from . import params
from .tables import WebTable, event_text, web_module

log = logging.getLogger(__name__)

ENDED = ENDED_STATUSES
CACHE_SECONDS = 24 * 3600
# A running game's replay is worth keeping while people watch that move.
RUNNING_SECONDS = 10 * 60

# Words the page's script needs, translated on the server (no JavaScript catalog); a
# game's board adds its own words (``REPLAY_LABELS`` of its web module). What
# happened at each step comes as sentences (``sentences``), never from the script.
LABELS = {
    "step": _("Step"),
    "of": _("of"),
    "seat": _("Seat"),
    "player": _("Player"),
    "cards": _("Cards"),
    "pile": _("Pile"),
    "score": _("Score"),
    "to_act": _("to act"),
    "phase": _("Phase"),
    "hidden": _("hidden"),
    "over": _("Game over"),
    "hands": _("Hands"),
    "play": _("Play"),
    "pause": _("Pause"),
    # Phases shared by games (each game adds its own: its web module's REPLAY_LABELS)
    "phase_over": _("over"),
}


def labels(game: Game) -> dict[str, str]:
    """The page script's words for this game's replay, in the active language."""
    own = getattr(game.kind.renderer(WEB), "REPLAY_LABELS", {})
    return {key: str(text) for key, text in {**LABELS, **own}.items()}


def board_script(game: Game) -> str | None:
    """The static path of the script that draws the game's board on the replay page
    (``static/web/replay/<slug>.js`` in its package), or None for a game without one."""
    folder = game.kind.directory
    name = f"web/replay/{game.game_type}.js"
    return name if folder and (folder / "static" / name).is_file() else None


def cache_key(game: Game) -> str:
    # The sentences are in the page's language: one replay per language.
    return f"web:replay:v2:{game.pk}:{game.version}:{game.status}:{get_language()}"


def payload(game: Game) -> dict[str, Any] | None:
    """The replay of ``game`` (None for a game that never started), cached per version,
    status and language: a running game's replay is built once per move however many
    watch it, and a finished one once."""
    if game.seed is None or game.status == GameStatus.LOBBY:
        return None
    key = cache_key(game)
    data = cache.get(key)
    if data is None:
        data = build(game)
        cache.set(key, data, CACHE_SECONDS if game.status in ENDED else RUNNING_SECONDS)
    return data


def build(game: Game) -> dict[str, Any]:
    reveal = game.status in ENDED
    lines = standings.seat_lines(game)  # the seats are prefetched by the view
    names = [line.name for line in lines]
    module = web_module(game.game_type)
    out_steps: list[dict] = []
    previous_public: dict = {}
    previous_private: list[dict] = [{} for _ in lines]
    try:
        for move, public, seat_views in views(game, applied_moves(game), seats=reveal):
            events = move.events if move else []
            public_events = seen_by(events, None)
            step: dict[str, Any] = {
                "seq": move.seq if move else 0,
                "seat": move.seat if move else None,
                "moderator": bool(move and move.source == "moderator"),
                "events": public_events,
                "view": delta(previous_public, public),
            }
            if reveal:
                # After the game everything may be shown: the move itself, the events
                # only some seats saw, and what each seat held.
                step["action"] = move.action if move else None
                step["private_events"] = [e for e in events if e not in public_events]
                privates = [private_part(view, public) for view in seat_views]
                step["private"] = [
                    delta(before, now)
                    for before, now in zip(previous_private, privates, strict=True)
                ]
                previous_private = privates
            step["text"] = sentences(game.game_type, module, step, names, public)
            previous_public = public
            out_steps.append(step)
    except Exception:  # an engine that cannot replay its own log: show what we have
        log.exception("game %s: replay failed at step %s", game.pk, len(out_steps))
        return {"game": game.game_type, "reveal": reveal, "steps": out_steps, "broken": True}
    return {"game": game.game_type, "reveal": reveal, "steps": out_steps, "broken": False}


def sentences(slug: str, module: WebTable, step: dict, names: list[str], view: dict) -> list[str]:
    """What happened at ``step``, in words: the web table's sentences for its events (one
    source of sentences for the table and the replay), and after the game those only
    some seats saw, each said to be theirs. A move none of whose events makes a sentence
    is told by its choices, or as a move of its seat."""
    if step["seq"] == 0:
        return [str(_("Start of the game"))]
    said = [text for ev in step["events"] if (text := event_text(slug, ev, names, view))]
    for ev in step.get("private_events", []):
        text = event_text(slug, ev, names, view)
        if text:
            whose = ", ".join(_name(names, seat) for seat in ev.get("to") or [])
            said.append(_("Only %(names)s saw: %(text)s") % {"names": whose, "text": text})
    if said:
        return said
    if step["moderator"]:
        return [str(_("A moderator's decision"))]
    who = _name(names, step["seat"])
    if step.get("action"):
        parts = tuple(step["action"].split(":"))
        chosen = [module.option(parts[:n], view, names)[0] for n in range(1, len(parts) + 1)]
        return [_("%(name)s: %(choice)s") % {"name": who, "choice": " → ".join(chosen)}]
    if step["seat"] is not None:
        return [_("%(name)s moves.") % {"name": who}]
    return [str(_("Nothing happened that spectators may see."))]


def _name(names: list[str], seat: int | None) -> str:
    return names[seat] if seat is not None and 0 <= seat < len(names) else "?"


def deck(game: Game, steps: list[dict]) -> dict[str, str]:
    """The card art for ``steps``, {code: svg} with each card named in the page's
    language: only the cards those steps show, so a running game's page holds no picture
    of a card nobody has seen. A game without card art (``games.art``) shows none."""
    if game.game_type not in art.GAMES:
        return {}
    module = web_module(game.game_type)
    text = json.dumps(steps)
    return {
        code: art.card_svg(game.game_type, code, module.card_label(code))
        for code in art.codes(game.game_type)
        if json.dumps(code) in text
    }


def back(game: Game) -> str:
    """A face-down card of the game's deck ("" for a game without card art)."""
    if game.game_type not in art.GAMES:
        return ""
    return art.back_svg(game.game_type, "", str(_("Face-down card")))


# A step number from the address: no game has more steps than this.
MAX_STEP = 10**6


def since_param(raw: str | None) -> int:
    """The ``since`` of a following page's address (``params.BadParameter`` if it is no
    step number)."""
    return params.integer(raw, "since", maximum=MAX_STEP, default=0)


def follow(game: Game, data: dict | None, since: int) -> dict[str, Any]:
    """What a page following a running game asks for: the steps from ``since`` on (all of
    them once the game is over: its hands are shown from the first step), with the art of
    their cards."""
    if data is None:
        return {"status": game.status, "from": 0, "steps": [], "cards": {}}
    start = since if not data["reveal"] else 0
    steps = data["steps"][start:]
    return {
        "status": game.status,
        "reveal": data["reveal"],
        "broken": data["broken"],
        "from": start,
        "steps": steps,
        "cards": deck(game, steps),
    }


def private_part(seat_view: dict, public: dict) -> dict:
    """What a seat's view adds to the public one."""
    return {k: v for k, v in seat_view.items() if k not in public or public[k] != v}


def delta(before: dict, now: dict) -> dict:
    """The keys of ``now`` that differ from ``before``; removed keys map to None under
    "__removed__"."""
    changed = {k: v for k, v in now.items() if k not in before or before[k] != v}
    removed = [k for k in before if k not in now]
    if removed:
        changed["__removed__"] = removed
    return changed

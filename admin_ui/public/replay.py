"""The data behind a game's replay page: the public view at every step, and each seat's
private view only once the game is over.

Views travel as deltas (only the keys that changed since the previous step), so a long
Smoking Cat match stays a small page; the browser rebuilds each step from them.
"""

from __future__ import annotations

import logging
from typing import Any

from django.core.cache import cache
from django.utils.translation import gettext_lazy as _

from games.play.models import ENDED_STATUSES, Game, GameStatus
from games.play.replay import applied_moves, views
from games.play.table import seen_by

log = logging.getLogger(__name__)

ENDED = ENDED_STATUSES
CACHE_SECONDS = 24 * 3600
# A running game's replay is worth keeping while people watch that move.
RUNNING_SECONDS = 10 * 60

# Words the page's script needs, translated on the server (no JavaScript catalog).
LABELS = {
    "step": _("Step"),
    "of": _("of"),
    "start": _("Start of the game"),
    "seat": _("Seat"),
    "player": _("Player"),
    "hand": _("Hand"),
    "cards": _("Cards"),
    "letters": _("Letters"),
    "points": _("Points"),
    "deal": _("Deal"),
    "dealer": _("dealer"),
    "trick": _("Trick"),
    "last_trick": _("Last trick"),
    "round": _("Round"),
    "row": _("Row"),
    "stake": _("Stake"),
    "passed": _("passed"),
    "mice": _("Mice"),
    "sacks": _("Sacks"),
    "pile": _("Pile"),
    "bank": _("Bank"),
    "tokens": _("Tokens"),
    "common": _("Common pile"),
    "chase": _("Chase"),
    "flips_left": _("flips left"),
    "animals": _("Animals"),
    "food_left": _("Food cards left"),
    "markers_left": _("Markers left"),
    "action_cards": _("Action cards"),
    "score": _("Score"),
    "to_act": _("to act"),
    "phase": _("Phase"),
    "details": _("Everything in this view"),
    "moderator": _("A moderator's decision"),
    "hidden": _("hidden"),
    "private": _("private"),
    "nothing": _("Nothing happened that spectators may see."),
    "sated": _("sated"),
    "over": _("Game over"),
    "hands": _("Hands"),
    "passed_cards": _("passed"),
    "bone": _("bone"),
    "fish": _("fish"),
    "kind_cat": _("cat"),
    "kind_dog": _("dog"),
    # Cards
    "felix_R": _("rabbit"),
    "felix_D": _("big dog"),
    "felix_d": _("small dog"),
    "bon_cheese": _("cheese"),
    "bon_cat": _("cat"),
    "bon_mouse1": _("mouse 1"),
    "bon_mouse2": _("mouse 2"),
    "bon_mouse3": _("mouse 3"),
    "action_shoo": _("Shoo"),
    "action_wander": _("Wander"),
    "action_switch": _("Switch seats"),
    "action_snatch": _("Snatch"),
    "action_bowl": _("Pass the bowl"),
    "action_trade": _("Trade a bite"),
    "action_swap": _("Swap dinners"),
    "action_clean": _("Clean the bowl"),
    "action_helping": _("Second helping"),
    # Phases
    "phase_pass": _("passing cards"),
    "phase_play": _("play"),
    "phase_over": _("over"),
    "phase_place": _("placing cards"),
    "phase_auction": _("auction"),
    "phase_mark": _("markers"),
    "phase_feed": _("feeding"),
    "phase_more": _("feeding"),
    # Names of event fields
    "k_points": _("points"),
    "k_winner": _("winner"),
    "k_cards": _("cards"),
    "k_card": _("card"),
    "k_losers": _("lost by"),
    "k_reason": _("reason"),
    "k_amount": _("amount"),
    "k_price": _("price"),
    "k_letter": _("letter"),
    "k_letters": _("letters"),
    "k_delta": _("change"),
    "k_deal": _("deal"),
    "k_dealer": _("dealer"),
    "k_round": _("round"),
    "k_first": _("first"),
    "k_leader": _("leader"),
    "k_scores": _("scores"),
    "k_ranks": _("places"),
    "k_position": _("position"),
    "k_returned": _("returned"),
    "k_took": _("took"),
    "k_mouse_card": _("mouse card"),
    "k_cat_points": _("cat points"),
    "k_bank": _("bank"),
    "k_need": _("needed"),
    "k_paid": _("paid"),
    "k_animal": _("animal"),
    "k_tokens": _("tokens"),
}


def cache_key(game: Game) -> str:
    return f"web:replay:v1:{game.pk}:{game.version}:{game.status}"


def payload(game: Game) -> dict[str, Any] | None:
    """The replay of ``game`` (None for a game that never started), cached per version and
    status: a running game's replay is built once per move however many watch it, and a
    finished one once."""
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
    n = len(game.seats.all())  # prefetched by the view
    out_steps: list[dict] = []
    previous_public: dict = {}
    previous_private: list[dict] = [{} for _ in range(n)]
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
            previous_public = public
            out_steps.append(step)
    except Exception:  # an engine that cannot replay its own log: show what we have
        log.exception("game %s: replay failed at step %s", game.pk, len(out_steps))
        return {"game": game.game_type, "reveal": reveal, "steps": out_steps, "broken": True}
    return {"game": game.game_type, "reveal": reveal, "steps": out_steps, "broken": False}


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

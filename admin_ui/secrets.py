"""What staff may see of an open game in the admin.

While a game is open (a lobby, or running) its seed rebuilds every hand and the whole deck
order, its options may deal the cards, its state holds every hand (and its legal actions
name the cards each waiting seat may play), and its move log holds face-down cards (a
card placed or cards passed face down, ``place:<card>``, ``pass:<cards>``), private events
and rejection reasons that name a seat's cards or mice. Only staff with
``games.view_secrets`` (superusers have it) see those; everyone else sees what a spectator
sees: the public events, and a placeholder for the rest. Finished and aborted games show
everything: their replay is public anyway.
"""

from __future__ import annotations

import json

from django.db.models import BooleanField, Value
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from games.play.models import OPEN_STATUSES, Game
from games.play.table import seen_by

PERMISSION = "games.view_secrets"
HIDDEN = _("hidden while the game is open")

# Fields (and path parts of lookups) that carry a game's secrets: the game's seed, state,
# legal actions, options and result; a move's action, events and rejection reason.
SECRET_FIELDS = frozenset(
    {"seed", "state", "legal", "options", "result", "action", "events", "reason"}
)


def may_see_secrets(user) -> bool:
    return bool(user is not None and user.is_active and user.has_perm(PERMISSION))


# The admins' querysets mark each row with whether the request's user may see secrets
# (``with_clearance``): a ModelAdmin is shared by every request, so the display methods,
# which get only the row, read the user's clearance from the row itself.
CLEARANCE = "staff_sees_secrets"


def with_clearance(queryset, user):
    return queryset.annotate(**{CLEARANCE: Value(may_see_secrets(user), BooleanField())})


def hidden(obj, game: Game | None) -> bool:
    """Whether ``game``'s secrets are hidden on ``obj``, a row of a queryset marked by
    ``with_clearance`` (unmarked rows of open games: hidden)."""
    if game is None:
        return True
    return game.status in OPEN_STATUSES and not getattr(obj, CLEARANCE, False)


def placeholder():
    return format_html('<span class="hidden-secret">{}</span>', HIDDEN)


def pretty_json(value):
    if value in (None, "", [], {}):
        return "–"
    text = json.dumps(value, indent=2, ensure_ascii=False, sort_keys=True, default=str)
    return format_html("<pre>{}</pre>", text)


def public_events(events: list[dict]) -> list[dict]:
    """The events everyone may see (what a spectator's table shows)."""
    return seen_by(events or [], None)


def secret_lookup(lookup: str) -> bool:
    """Whether a changelist lookup (``seed__lt``, ``action__startswith``, ``game__seed``)
    touches a secret field."""
    return any(part in SECRET_FIELDS for part in lookup.split("__"))

"""Each game's card sprite: every face and back of its deck in one SVG document
(``games.art.sprite``), which the table's cards draw from (``<use>``). A table then
carries a few dozen bytes a card instead of the card's drawing (17 of the 20 KB of a table
showing five cards were those cards, sent again to every spectator at every change, issue
24), and a page fetches the deck once: its address names the drawing's digest, so it is
kept a year.
"""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_safe

from games import art

YEAR = 365 * 24 * 3600
# A sprite asked for without its current digest (an old page): kept briefly.
UNVERSIONED_SECONDS = 300


def sprite_url(game_slug: str) -> str:
    """The sprite's address: a new drawing is a new address."""
    return reverse("web:card-sprite", args=[game_slug]) + f"?v={art.sprite_version(game_slug)}"


@require_safe
def sprite(request, slug: str):
    if slug not in art.GAMES:
        raise Http404
    response = HttpResponse(art.sprite(slug), content_type="image/svg+xml")
    if request.GET.get("v") == art.sprite_version(slug):
        patch_cache_control(response, public=True, max_age=YEAR, immutable=True)
    else:
        patch_cache_control(response, public=True, max_age=UNVERSIONED_SECONDS)
    return response

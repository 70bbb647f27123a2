"""Small formatting helpers for the public pages."""

from django import template
from django.utils.formats import number_format
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.text import get_text_list
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import art, catalog
from games.art import svg as art_svg
from games.capabilities import Scoring
from games.ratings import display
from web import icons
from web.card_art import sprite_url

register = template.Library()


@register.filter
def rating(shown) -> str:
    """A shown rating (``games.ratings.display.Shown``) in the page's locale; a
    provisional one is marked with a question mark, explained on hover and to screen
    readers."""
    if shown is None:
        return "–"
    value = number_format(shown.value, 0)
    if not shown.provisional:
        return value
    return format_html(
        '<span class="provisional" title="{}">{}?<span class="sr"> ({})</span></span>',
        _("Provisional: fewer than %(n)d rated games") % {"n": display.PROVISIONAL_GAMES},
        value,
        _("provisional"),
    )


@register.simple_tag
def rating_explained() -> str:
    """What the rating means, with the scale's numbers from ``games.ratings.display``."""
    return _(
        "The rating is a skill estimate: how well the results so far show a player plays."
        " Everyone starts at %(start)d. Finishing ahead of others raises it, more so against"
        " strong players; finishing behind lowers it. It is a cautious figure: while there"
        " are few games to go on it sits below the likely skill, and it settles as the games"
        " add up. A question mark marks a provisional rating, on fewer than %(n)d rated"
        " games."
    ) % {"start": display.CENTRE, "n": display.PROVISIONAL_GAMES}


@register.filter
def signed(value) -> str:
    """A change of a shown rating, in whole points with its sign."""
    if value is None:
        return ""
    return ("+" if value >= 0 else "−") + number_format(abs(round(value)), 0)


@register.filter
def place(rank) -> str:
    """A place as a small badge, coloured for the podium (ties share a place)."""
    if rank in (None, ""):
        return ""
    return format_html('<span class="place p{}">{}</span>', min(int(rank), 4), rank)


@register.filter
def by_rank(seats):
    """Seats best place first (unranked last), then by seat number."""
    return sorted(seats, key=lambda s: (s.rank is None, s.rank or 0, s.number))


@register.simple_tag
def word_marks(word, got):
    """A word with the first ``len(got)`` characters marked: how far a player has got
    through it, for a game whose progress reads as a word (``games.capabilities.Progress``)."""
    word, got = word or "", got or ""
    cells = [("got" if i < len(got) else "todo", ch) for i, ch in enumerate(word)]
    return format_html(
        '<span class="word-marks" aria-label="{} / {}">{}</span>',
        len(got),
        len(word),
        format_html_join("", '<span class="{}">{}</span>', cells),
    )


@register.simple_tag
def game_names(short: bool = False) -> str:
    """The catalog's games by name in the page's language: "A, B and C" (short names
    where space is short)."""
    names = [str(kind.short_name if short else kind.name) for kind in catalog.all_games()]
    # Translators: joins the last two names of a list ("A, B and C").
    return get_text_list(names, _("and"))


@register.simple_tag
def card(t, code, css: str = ""):
    """A card of the table's game, drawn from the game's sprite (``web.card_art``) with its
    name in the page's language as the picture's label."""
    slug = t.kind.slug
    svg = art.card_reference(slug, str(code), t.module.card_label(str(code)), sprite_url(slug))
    # games.art escapes the label it writes into the picture; the rest is its own markup.
    return format_html(
        '<span class="card art {}" data-code="{}">{}</span>',
        css,
        code,
        mark_safe(svg),  # noqa: S308
    )


@register.simple_tag
def card_back(t, variant: str = "", css: str = ""):
    """A face-down card; ``variant`` names a deck with backs of its own (a second deck's
    colour), anything else gets the game's usual back."""
    if variant not in art.back_variants(t.kind.slug):
        variant = ""
    svg = art.back_reference(t.kind.slug, variant, _("Face-down card"), sprite_url(t.kind.slug))
    # As in ``card``: games.art escapes the label.
    return format_html('<span class="card art back {}">{}</span>', css, mark_safe(svg))  # noqa: S308


@register.simple_tag
def card_name(t, code) -> str:
    """A card's name in the page's language (under a card, in a list)."""
    return t.module.card_label(str(code))


@register.filter
def index(items, i):
    """``items[i]``, or "" when there is no such item."""
    try:
        return items[int(i)]
    except (IndexError, TypeError, ValueError, KeyError):
        return ""


@register.filter
def scoring(game_type: str) -> Scoring:
    """How a game's scores read (``GameKind.scoring``): scores that are not points get
    headings of their own."""
    try:
        return catalog.get(game_type).scoring
    except catalog.UnknownGame:
        return Scoring()


@register.simple_tag
def pick(t, *parts):
    """A board button's attributes for the key ``parts`` joined by ":" (``{% pick t
    "animal" place %}``): see ``TableContext.pick_attributes``."""
    return t.pick_attributes(":".join(str(p) for p in parts))


@register.simple_tag
def icon(name: str, label: str = "", css: str = ""):
    """One of the web's own icons (``web.icons``), which stand in for emoji: decorative
    without a label, an image named by ``label`` with one."""
    return icons.svg(name, str(label), css)


@register.filter
def iconize(text):
    """A shared text (a summary, a move's label) with its emoji drawn as the web's icons."""
    return icons.iconize(text)


@register.simple_tag
def player_count(kind) -> str:
    """How many play a game: "4 players" when the count is fixed, "2–6 players" when it
    is a range (never "4–4")."""
    low, high = kind.min_players, kind.max_players
    if low == high:
        return ngettext("%(n)s player", "%(n)s players", low) % {"n": low}
    return _("%(min)s–%(max)s players") % {"min": low, "max": high}


@register.simple_tag
def game_cover(kind):
    """A game's cover card drawn from its sprite, a small picture beside the game's name
    (a heading, a list): decorative, the name says it; nothing for a game without art."""
    if not kind.cover or kind.slug not in art.GAMES or catalog.WEB not in kind.renderers:
        return ""
    return format_html(
        '<svg class="cover-icon" viewBox="0 0 {} {}" aria-hidden="true" focusable="false">'
        '<use href="{}#{}"/></svg>',
        art_svg.W,
        art_svg.H,
        sprite_url(kind.slug),
        art.symbol_id(kind.cover),
    )

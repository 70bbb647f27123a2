"""Small formatting helpers for the public pages."""

from django import template
from django.utils.formats import number_format
from django.utils.html import format_html, format_html_join

register = template.Library()


@register.filter
def rating(value) -> str:
    """A rating ordinal with one decimal, in the page's locale."""
    if value is None:
        return "–"
    return number_format(round(float(value), 1), 1)


@register.filter
def signed(value) -> str:
    if value is None:
        return ""
    return ("+" if value >= 0 else "−") + number_format(abs(round(float(value), 1)), 1)


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
def word_letters(word, got):
    """The game word with the letters a player has received marked (S15)."""
    word, got = word or "", got or ""
    cells = [("got" if i < len(got) else "todo", ch) for i, ch in enumerate(word)]
    return format_html(
        '<span class="word-letters" aria-label="{} / {}">{}</span>',
        len(got),
        len(word),
        format_html_join("", '<span class="{}">{}</span>', cells),
    )

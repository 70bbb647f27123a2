"""The rules pages' one piece of formatting: a clause that names another clause ("after
the dogs, F18-F20") links to it."""

import re

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe

register = template.Library()

_ID = re.compile(r"\b([A-Z]\d+[a-z]?)\b")


@register.filter
def clause_links(text: str, doc) -> str:
    """``text`` escaped, each ID of a clause of ``doc`` a link to that clause."""
    ids = set(doc.ids())

    def link(match: re.Match) -> str:
        cid = match[1]
        return f'<a href="#{cid}">{cid}</a>' if cid in ids else cid

    # IDs are alphanumeric only: linking after escaping cannot open any markup.
    return mark_safe(_ID.sub(link, str(conditional_escape(text))))  # noqa: S308

"""What a page says about itself in its head: its title and description, captured once and
used for ``<title>``, the description and the Open Graph tags a shared link's preview
(Telegram's, for one) is built from."""

from django import template
from django.templatetags.static import static
from django.utils.html import strip_tags
from django.utils.safestring import mark_safe

from server import links

register = template.Library()

# og:locale wants language_TERRITORY; the Portuguese translation is Brazilian ("você").
OG_LOCALES = {"en": "en_GB", "it": "it_IT", "pt": "pt_BR"}


class CaptureNode(template.Node):
    # ``nodelist`` is searched for blocks, so a page overrides a block captured here.
    def __init__(self, nodelist, name):
        self.nodelist, self.name = nodelist, name

    def render(self, context):
        # Already escaped by the template; tags and runs of blanks go, so the text suits
        # an attribute.
        text = " ".join(strip_tags(self.nodelist.render(context)).split())
        context[self.name] = mark_safe(text)  # noqa: S308
        return ""


@register.tag
def capture(parser, token):
    """``{% capture as name %}…{% endcapture %}``: render the body into ``name``."""
    bits = token.split_contents()
    if len(bits) != 3 or bits[1] != "as":
        raise template.TemplateSyntaxError("usage: {% capture as name %}…{% endcapture %}")
    nodelist = parser.parse(("endcapture",))
    parser.delete_first_token()
    return CaptureNode(nodelist, bits[2])


@register.simple_tag(takes_context=True)
def page_url(context) -> str:
    """This page's full address (without its query: the page itself, for previews)."""
    request = context.get("request")
    return links.absolute_path(request.path if request else "/")


@register.simple_tag
def static_url(path: str) -> str:
    """A static file's full address (og:image must be absolute)."""
    url = static(path)
    return url if url.startswith(("http://", "https://")) else links.absolute_path(url)


@register.filter
def og_locale(language: str) -> str:
    return OG_LOCALES.get(language, language)

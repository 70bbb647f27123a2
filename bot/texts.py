"""Longer texts: the command list (also for setMyCommands), help, and the rules in short.

Functions, not constants, so that each call is translated in the active language.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from bot.render.common import esc, title
from games import catalog
from server.links import absolute


def commands() -> list[tuple[str, str]]:
    return [
        ("new", _("Start a new game in this group")),
        ("rules", _("How to play")),
        ("help", _("What I can do")),
        ("stats", _("Your games and results")),
        ("standings", _("The league standings")),
        ("lang", _("Your language")),
        ("settings", _("Group settings (administrators)")),
        ("tournament", _("Organise a tournament in this group (administrators)")),
        ("cancel", _("Cancel this group's game (creator or administrators)")),
        ("report", _("Report a player to the moderators (reply to their message)")),
    ]


def help_text() -> str:
    lines = [
        "🐾 <b>catclub</b> — " + _("four cat card games for Telegram groups."),
        _("Add me to a group and send /new; everyone joins with a tap."),
        _("Your cards come here, in private: press Start once so that I may write to you."),
        "",
    ]
    lines += [f"/{name} — {esc(text)}" for name, text in commands()]
    return "\n".join(lines)


def rules_text(slug: str) -> str:
    """A game's rules in short (from its catalog entry), with a link to its full rules on
    the site."""
    kind = catalog.get(slug)
    more = _("The full rules, and how catclub reads them: %(url)s") % {
        "url": esc(absolute("web:rules-game", slug))
    }
    return "\n".join([title(slug), *("• " + str(t) for t in kind.summary), more])

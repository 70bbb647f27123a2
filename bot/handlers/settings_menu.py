"""/settings: a group's language, turn time, linked league, enabled games, auto flip."""

from __future__ import annotations

from django.utils import translation
from django.utils.translation import gettext as _

from bot import callbacks
from bot.keyboard import Button
from bot.models import ChatSettings
from bot.render.common import esc
from games import catalog
from games.languages import Language, native_name
from games.leagues.services import join_with_code, league_for_chat, link_chat
from games.play import services

TURN_CHOICES = (0, 30, 60, 90, 120, 300)


def _button(label: str, op: str, arg: object = "") -> Button:
    return Button(label, callbacks.plain("s", f"{op}:{arg}"))


def settings_screen(cs: ChatSettings):
    with translation.override(cs.language):
        league = league_for_chat(cs.chat_id)
        turn = (
            _("%(seconds)d s") % {"seconds": cs.turn_seconds} if cs.turn_seconds else _("default")
        )
        # The games whose forced moves a table may play itself (``GameKind.auto_play``).
        automatic = [g for g in catalog.all_games() if g.auto_play]
        state = _("on") if cs.auto_play else _("off")
        lines = [
            "⚙️ <b>" + _("Group settings") + "</b>",
            _("Language: %(language)s") % {"language": native_name(cs.language)},
            _("Time per turn: %(turn)s") % {"turn": turn},
            _("League: %(league)s") % {"league": esc(league.name) if league else _("none")},
        ]
        if automatic:
            names = ", ".join(str(g.short_name) for g in automatic)
            lines.append(
                _("Automatic forced moves in %(games)s: %(state)s")
                % {"games": names, "state": state}
            )
        rows = [
            [
                _button(("✓ " if code == cs.language else "") + native_name(code), "lang", code)
                for code in Language.values
            ],
            [
                _button(
                    ("✓ " if (cs.turn_seconds or 0) == s else "")
                    + (f"{s}s" if s else _("default")),
                    "turn",
                    s,
                )
                for s in TURN_CHOICES
            ],
        ]
        games = [
            _button(
                ("✅ " if cs.game_enabled(g.slug) else "❌ ") + f"{g.emoji} {g.short_name}",
                "game",
                g.slug,
            )
            for g in catalog.all_games()
        ]
        rows += [games[i : i + 2] for i in range(0, len(games), 2)]
        if automatic:
            emoji = "".join(g.emoji for g in automatic)
            label = _("Automatic forced moves: %(state)s") % {"state": state}
            rows.append([_button(f"{emoji} {label}", "flip", 0 if cs.auto_play else 1)])
        rows.append([_button("🏆 " + _("League…"), "leagues", 0)])
        return "\n".join(lines), rows


def leagues_screen(cs: ChatSettings):
    """The group's league: a league accepts a group by its join code, which an
    administrator sends as ``/settings <code>``; here the group can only leave it."""
    with translation.override(cs.language):
        current = league_for_chat(cs.chat_id)
        lines = [
            _("League: %(league)s") % {"league": esc(current.name) if current else _("none")},
            _(
                "To join a league, ask its organisers for the league's join code and send "
                "it here: /settings CODE"
            ),
        ]
        rows = []
        if current is not None:
            rows.append([_button("🚪 " + _("Leave the league"), "league", 0)])
        rows.append([_button("‹ " + _("Back"), "main", 0)])
        return "\n".join(lines), rows


def join_league(cs: ChatSettings, code: str, title: str = ""):
    """``/settings <code>``: the group joins the league whose join code it is. Returns
    the settings screen with a first line saying what happened."""
    league = join_with_code(cs.chat_id, code, title)
    text, rows = settings_screen(cs)
    with translation.override(cs.language):
        if league is None:
            note = "⚠️ " + _("No league has this join code. Ask the league's organisers for it.")
        else:
            note = "🏆 " + _("This group now plays in %(league)s.") % {"league": esc(league.name)}
    return note + "\n\n" + text, rows


def apply(cs: ChatSettings, op: str, arg: str, title: str = ""):
    """Change one setting; returns the screen to show next, or None for bad input."""
    if op == "lang" and arg in Language.values:
        cs.language = arg
    elif op == "turn" and arg.isdigit() and int(arg) in TURN_CHOICES:
        cs.turn_seconds = int(arg) or None
    elif op == "game" and arg in catalog.slugs():
        enabled = [s for s in catalog.slugs() if cs.game_enabled(s) != (s == arg)]
        cs.enabled_games = enabled
    elif op == "flip" and arg in ("0", "1"):
        cs.auto_play = arg == "1"
        services.set_auto_play(cs.chat_id, cs.auto_play)
    elif op == "league" and arg == "0":
        # Leaving needs no approval; joining does (``join_league``, by the league's code).
        link_chat(cs.chat_id, None)
        return settings_screen(cs)
    elif op == "leagues":
        return leagues_screen(cs)
    elif op == "main":
        return settings_screen(cs)
    else:
        return None
    cs.save()
    return settings_screen(cs)

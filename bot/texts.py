"""Longer texts: the command list (also for setMyCommands), help, and the rules in short.

Functions, not constants, so that each call is translated in the active language.
"""

from __future__ import annotations

from django.conf import settings
from django.utils.translation import gettext as _

from bot.render.common import EMOJI, esc, game_name


def commands() -> list[tuple[str, str]]:
    return [
        ("new", _("Start a new game in this group")),
        ("rules", _("How to play")),
        ("help", _("What I can do")),
        ("stats", _("Your games and results")),
        ("standings", _("The league standings")),
        ("lang", _("Your language")),
        ("settings", _("Group settings (administrators)")),
        ("cancel", _("Cancel this group's game (creator or administrators)")),
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
    texts = {
        "felix": [
            _(
                "3 to 5 players, 9 rounds. Everyone has the same 9 cards: cats worth -8 to 15,"
                " a rabbit and two dogs."
            ),
            _(
                "Each round everyone places a card face down; the first card of the row turns"
                " up. Then bid mice for the whole row, or pass: a pass takes back your bid plus"
                " the mice on the lowest mouse card, and turns the next card up."
            ),
            _(
                "The last bidder pays and takes the row. A lone dog chases a cat away (the big"
                " dog the best, the small dog the worst); two dogs chase each other."
            ),
            _("Score: your cats plus your mice. Your mice are secret: only you see them."),
        ],
        "smoking_cat": [
            _(
                "4 players, 32 cards in four suits (🍃 leaves, ❤️ hearts, 🔔 bells, 🌰 acorns),"
                " ranked 7 8 9 10 U O K A."
            ),
            _(
                "Each deal: pass 3 cards to your left, then play 8 tricks; follow suit when you"
                " can. Hearts and the Ober of Leaves (🍃O, 10) are penalty points; the last trick"
                " adds 5."
            ),
            _(
                "The deal ends when the cards run out or someone reaches 17 points; a player may"
                " throw down to concede it. The loser gets the next letter of the word."
            ),
            _("Whoever spells the whole word loses the match."),
        ],
        "bon_appetit": [
            _(
                "2 to 6 players. Everyone has a face-down pile; in turn, flip your top card onto"
                " the common pile."
            ),
            _(
                "A mouse (🐭1–3 paws) must be caught: the next player flips that many cards. A cat"
                " 🐱 catches it and wins the pile and a 🏅; only cheese 🧀 and the mouse's owner"
                " wins the pile. Another mouse passes the chase on."
            ),
            _("The game ends with the last 🏅 or when someone cannot flip. Most cards wins."),
        ],
        "cats_and_dogs": [
            _("2 to 6 players, twice as many animals on the table."),
            _(
                "Your turn: place a marker on an animal (if you can), then feed — draw food and"
                " put it on any animal, draw more for the same one, or stop — or play one of your"
                " 3 secret action cards."
            ),
            _(
                "Dogs like bones 🦴, cats like fish 🐟: the favourite food adds, the other"
                " subtracts. An animal with 5 cards is sated."
            ),
            _("At the end each of your markers scores its animal's total. Highest total wins."),
        ],
    }
    title = f"{EMOJI[slug]} <b>{esc(game_name(slug))}</b>"
    more = _("Where the rule book is silent, how catclub decided: %(url)s") % {
        "url": esc(f"{settings.SITE_URL}/rules/#{slug}")
    }
    return "\n".join([title, *("• " + t for t in texts[slug]), more])

"""The leak check: nothing sent to the group, and nothing sent to a player, shows a card
or an amount that audience may not know at that moment.

Every message the bot sent while rendering a game carries the state it was rendered from
(``Recorder.context``). From that state and the public events of the recent moves, each
audience's knowledge is computed here, independently of the bot's renderers, and the card
tokens in the message (text and buttons) must stay within it:

- Felix: other seats' hands, face-down row cards, score piles, the removed cards and the
  mice each seat owns (F4, F10, F17);
- Smoking Cat: every card in another hand or passed face down (S6);
- Bon Appétit: nothing but the common pile and the flips is ever known (B4);
- Come Cani e Gatti: other seats' action cards and the face-down food pile (C6, C7).
"""

from __future__ import annotations

import re
from collections import Counter

from django.utils import translation

from bot.models import ChatSettings
from bot.screens import RECENT_MOVES
from games import catalog
from games.engines import visible_to
from games.kinds.cats_and_dogs import telegram as cd_render
from games.play.models import Move, MoveStatus, Player, Seat

TOKENS = {
    "felix": re.compile(r"\[(?:-8|-5|3|5|8|11|15|🐰|🐕|🐶)\]"),
    "smoking_cat": re.compile(r"(?:🍃|❤️|🔔|🌰)(?:10|[789UOKA])"),
    "bon_appetit": re.compile(r"🧀|🐱|🐭[123]"),
    "cats_and_dogs": re.compile(r"(?:🦴|🐟)[1-6]"),
}
FELIX_SYMBOL = {"R": "🐰", "D": "🐕", "d": "🐶"}
SC_SUIT = {"L": "🍃", "H": "❤️", "B": "🔔", "A": "🌰"}
BA_SYMBOL = {"C": "🧀", "K": "🐱", "1": "🐭1", "2": "🐭2", "3": "🐭3"}
BA_NAME = {"cheese": "🧀", "cat": "🐱", "mouse1": "🐭1", "mouse2": "🐭2", "mouse3": "🐭3"}


def felix_token(card: str) -> str:
    return f"[{FELIX_SYMBOL.get(card, card)}]"


def sc_token(code: str) -> str:
    return SC_SUIT[code[0]] + ("10" if code[1] == "X" else code[1])


def cd_token(code: str) -> str:
    return ("🦴" if code[0] == "b" else "🐟") + code[1:]


def recent_events(game_id: int, version: int, seat: int | None) -> list[dict]:
    moves = Move.objects.filter(
        game_id=game_id, status=MoveStatus.APPLIED, seq__lte=version, seq__gt=version - RECENT_MOVES
    )
    return [e for m in moves for e in m.events or [] if visible_to(e, seat)]


class Knowledge:
    """What one audience may know of one game at one version."""

    def __init__(self, context: dict, seat: int | None, language: str):
        self.ctx = context
        self.state = context["state"]
        self.seat = seat
        self.language = language
        self.events = recent_events(context["game_id"], context["version"], seat)
        self.allowed = Counter()  # token -> how often it may appear in the text
        self.forbidden: set[str] = set()  # tokens that must not appear at all
        self.forbidden_text: list[str] = []
        check = getattr(self, context["game_type"], None)
        if check is None:
            # A game these checks do not know (a test's own) may hold no secret at all.
            assert not catalog.get(context["game_type"]).private_hands, context["game_type"]
        else:
            check()

    # -- per game ---------------------------------------------------------------------
    def felix(self) -> None:
        st, s = self.state, self.seat
        self.allowed.update(felix_token(c) for c in st["row"][: st["shown"]])
        for ev in self.events:
            for key in ("card", "dog", "cat"):
                if ev.get(key):
                    self.allowed[felix_token(ev[key])] += 1
            self.allowed.update(felix_token(c) for c in ev.get("cards") or [])
        if s is not None:
            self.allowed.update(felix_token(c) for c in st["hands"][s])
            self.allowed.update(felix_token(c) for c in st["piles"][s])
            self.allowed[felix_token(st["removed"][s])] += 1
            mine = st["placed"][s]
            if st["phase"] == "auction":
                n = st["n"]
                mine = st["row"][(s - st["first"]) % n + (1 if n == 3 else 0)]
            if mine:
                self.allowed[felix_token(mine)] += 2  # in the row and as "your card"
        # Nobody but the owner learns how many mice a seat holds (F17).
        with translation.override(self.language):
            own = st["mice"][s] if s is not None else None
            for other, mice in enumerate(st["mice"]):
                if other != s and mice != own:
                    self.forbidden_text.append(
                        translation.gettext("Your mice: %(mice)d") % {"mice": mice}
                    )

    def smoking_cat(self) -> None:
        from games.kinds.smoking_cat.engine import mask_codes

        st, s = self.state, self.seat
        hidden = set()
        for other in range(4):
            if other != s:
                hidden |= set(mask_codes(st["hands"][other]))
                hidden |= set(mask_codes(st["passes"][other])) if st["phase"] == 0 else set()
        if s is not None and st["phase"] == 0:
            right = (s - 1) % 4
            if st["passed"] >> s & 1 and st["passed"] >> right & 1:
                hidden -= set(mask_codes(st["passes"][right]))  # received, after one's own pass
        if s is not None:
            hidden -= set(mask_codes(st["hands"][s]))
        self.forbidden = {sc_token(c) for c in hidden}

    def bon_appetit(self) -> None:
        self.allowed.update(BA_SYMBOL[c] for c in self.state["common"])
        self.allowed.update(BA_NAME[ev["card"]] for ev in self.events if ev["type"] == "flip")

    def cats_and_dogs(self) -> None:
        st, s = self.state, self.seat
        for plate in st["food"]:
            self.allowed.update(cd_token(c) for c in plate)
        if st["drawn"]:
            self.allowed[cd_token(st["drawn"])] += 2  # on the table and in the prompt
        for ev in self.events:
            for key in ("card", "food", "other_food"):
                value = ev.get(key)
                for code in value if isinstance(value, list) else [value]:
                    if isinstance(code, str) and code[:1] in ("b", "f") and code[1:].isdigit():
                        self.allowed[cd_token(code)] += 1
        # Action cards: one's own hand, and cards played in view.
        own = set(st["hands"][s]) if s is not None else set()
        played = {ev["card"] for ev in self.events if ev["type"] == "action"}
        hidden = set()
        for other, hand in enumerate(st["hands"]):
            if other != s:
                hidden |= set(hand)
        with translation.override(self.language):
            self.forbidden = {cd_render.action_card(c) for c in hidden - own - played}

    # -- the check --------------------------------------------------------------------
    def leaks(self, text: str, buttons: list[str]) -> list[str]:
        found = []
        if self.ctx["game_type"] not in TOKENS:
            return found  # a game without secrets (checked when this audience was built)
        pattern = TOKENS[self.ctx["game_type"]]
        everything = "\n".join([text, *buttons])
        if self.ctx["game_type"] in ("smoking_cat",):
            found += sorted(t for t in self.forbidden if t in everything)
        else:
            counts = Counter(pattern.findall(text))
            found += [
                f"{t}×{n} (may: {self.allowed[t]})"
                for t, n in counts.items()
                if n > self.allowed[t]
            ]
            found += [t for b in buttons for t in pattern.findall(b) if not self.allowed[t]]
        if self.ctx["game_type"] == "cats_and_dogs":
            found += sorted(t for t in self.forbidden if t in everything)
        found += [t for t in self.forbidden_text if re.search(re.escape(t) + r"(?!\d)", everything)]
        return found


def audience(context: dict, chat_id: int) -> tuple[int | None, str] | None:
    """(seat, language) of a chat for a game; None when the chat is not part of it."""
    if chat_id == context["chat_id"]:
        chat = ChatSettings.objects.filter(chat_id=chat_id).first()
        return None, chat.language if chat else "en"
    player = Player.objects.filter(telegram_id=chat_id).first()
    seat = (
        Seat.objects.filter(game_id=context["game_id"], player=player).first() if player else None
    )
    if seat is None:
        return None
    return seat.number, player.language


def check_calls(calls) -> int:
    """Check every game message among ``calls``; returns how many were checked."""
    checked = 0
    cache: dict = {}
    for call in calls:
        ctx = call.context
        if not call.ok or ctx is None or ctx["state"] is None:
            continue
        if call.method not in ("sendMessage", "editMessageText"):
            continue
        who = audience(ctx, call.chat_id)
        if who is None:
            continue
        key = (ctx["game_id"], ctx["version"], who)
        if key not in cache:
            cache[key] = Knowledge(ctx, *who)
        text = call.params.get("text", "")
        buttons = [
            "\n".join([b.get("text", ""), b.get("callback_data", ""), b.get("url", "")])
            for b in call.buttons
        ]
        leaks = cache[key].leaks(text, buttons)
        assert not leaks, (
            f"game {ctx['game_id']} v{ctx['version']}: message to "
            f"{'the group' if who[0] is None else f'seat {who[0]}'} leaks {leaks}:\n{text}"
        )
        checked += 1
    return checked


def context_of(game) -> dict:
    """What the leak check needs to know of the game a message was drawn from (recorded
    when its screens are built)."""
    return {
        "game_id": game.pk,
        "chat_id": game.chat_id,
        "game_type": game.game_type,
        "state": game.state,
        "version": game.version,
        "status": game.status,
    }

"""Hostile clients that try to take over other people's tables: start, join (bare address,
forged and guessed invite links), add computers and move there, and in Telegram lobbies."""

from __future__ import annotations

import json
import random
import re
import secrets
import time
import urllib.parse
import uuid

from bench.abuse.client import Client, Page, local, table_id
from bench.abuse.common import GAME, TELEGRAM_BASE, Response
from bench.table import offered_actions
from web import miniapp


class Takeover:
    """The ``takeover`` kind of ``Hostile``."""

    # d) start, join, add computers and move at other people's tables
    def takeover(self, h: int, client: Client, rng: random.Random) -> None:
        own = self.own_invite(client, h)
        seated: set[int] = set()  # tables this client got a seat at (a success already)
        attempts = [self.start, self.join, self.join, self.computer, self.move, self.move_as]
        while self.run.playing():
            target = self.target(rng)
            if target is not None:
                attempt = rng.choice(attempts)
                if attempt is self.start or rng.random() < 0.5:
                    client.fresh()  # a stranger: no seat, no player
                    seated.clear()
                attempt(client, target, rng, h=h, own=own, seated=seated)
                for table in seated:
                    self.move(client, table, rng, seated=seated)
            self.pause(0.2)

    def target(self, rng: random.Random) -> int | None:
        run = self.run
        with run.lock:
            lobbies, tables = list(run.open_lobbies), list(run.normal_tables)
        roll = rng.random()
        if lobbies and roll < 0.5:
            return rng.choice(lobbies)
        if run.telegram_lobbies and roll < 0.7:
            return rng.choice(run.telegram_lobbies)
        return rng.choice(tables) if tables else None

    def own_invite(self, client: Client, h: int) -> tuple[int, str] | None:
        """A lobby of its own, for its invite link: forged onto other tables later."""
        fields = {"game": GAME, "name": f"Hostile {h}", "computers": 0, "friends": "1"}
        r = client.post("takeover", "/play/new/", fields)
        table = table_id(r.url) if r.status == 200 else None
        if table is None:
            return None
        found = Page(r.body)
        return table, local(found.invite or found.share or r.url)

    def start(self, client: Client, target: int, rng, **_kw) -> None:
        client.post("takeover", f"/play/{target}/start/", {})

    def join(self, client: Client, target: int, rng, *, h: int, own, seated: set, **_kw):
        """Through the bare table address, or an invite link of its own table forged onto
        this one, or one with a guessed token."""
        bare = f"/play/{target}/"
        how = rng.choice(("bare", "forged", "guessed"))
        link = bare
        if own is not None and how != "bare":
            mine, invite = own
            link = invite.replace(f"/play/{mine}/", bare)
            if how == "guessed":
                link = re.sub(
                    r"(?<![/\d])[A-Za-z0-9_-]{12,}",
                    lambda m: secrets.token_urlsafe(len(m[0])),
                    link,
                )
                if link == bare:
                    link = f"{bare}?invite={secrets.token_urlsafe(16)}"
        page = client.get("takeover", link)
        join = Page(page.body).form("join") or {"action": f"{bare}join/", "fields": {}}
        r = client.post("takeover", join["action"], {**join["fields"], "name": f"Hostile {h}"})
        if r.status == 200 and not r.refused:
            seated.add(target)

    def computer(self, client: Client, target: int, rng, **_kw) -> None:
        client.post("takeover", f"/play/{target}/computer/", {"level": "hard"})

    def move(self, client: Client, target: int, rng, seated=frozenset(), **_kw) -> None:
        """A move: the table's own choices when the client sees any, with a key a person
        at that table sent (forged) or a fresh one."""
        state = client.get("takeover", f"/play/{target}/state/?wait=0").json()
        actions = offered_actions(state.get("html", "")) or ["0"]
        with self.run.lock:
            keys = list(self.run.normal_keys)[-50:]
        key = rng.choice(keys) if keys and rng.random() < 0.5 else uuid.uuid4().hex
        fields = {"action": rng.choice(actions), "version": state.get("version", ""), "key": key}
        self.judge_move(client.post("takeover", f"/play/{target}/move/", fields), target, seated)

    def move_as(self, client: Client, target: int, rng, seated=frozenset(), **_kw) -> None:
        """A move as a Telegram user, with ``initData`` signed by a token not the bot's."""
        user = json.dumps({"id": TELEGRAM_BASE, "first_name": "Telegram 0"})
        fields = {"user": user, "auth_date": str(int(time.time()))}
        raw = urllib.parse.urlencode({**fields, "hash": miniapp.sign(fields, "1:NOT-THE-TOKEN")})
        move = {"action": "0", "version": "", "key": uuid.uuid4().hex}
        r = client.post(
            "takeover", f"/play/{target}/move/", move, headers={"X-Telegram-Init-Data": raw}
        )
        self.judge_move(r, target, seated)

    def judge_move(self, r: Response, target: int, seated) -> None:
        if r.json().get("ok") and target not in seated:
            self.run.tally.success("move_answered_ok", f"a stranger's move at table {target}")

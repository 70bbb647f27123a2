"""B13a in words: a game that ends because its table went round in a circle says so, on
the web table and in Telegram, in the reader's language."""

from django.utils import translation

from bot.render.common import Ctx
from games.kinds.bon_appetit import telegram
from web.tables import event_text


def test_B13a_the_end_of_a_looping_table_is_told_in_words():
    ended = {"type": "game_end", "reason": "repeat", "seat": 0, "to": None}
    capped = {**ended, "reason": "flip_limit"}
    ctx = Ctx(1, 1, "bon_appetit", ["Ann", "Bea"])
    for ev in (ended, capped):
        assert "B13a" in event_text("bon_appetit", ev, ["Ann", "Bea"], {})
        assert "B13a" in telegram.event_line(ev, ctx)
    with translation.override("it"):
        assert event_text("bon_appetit", ended, ["Ann", "Bea"], {}).startswith("Le carte girano")
    assert event_text("bon_appetit", {**ended, "reason": "tokens"}, ["Ann", "Bea"], {}) is None

"""A seat handed to a computer (its player timed out, left or was banned) is not theirs any
more: their private message stops showing its cards."""

from games.play import services
from tests.bot.play import felix_table


def test_a_replaced_player_no_longer_sees_the_seats_cards(telegram, recorder):
    table, game, (anna, *_others) = felix_table(telegram, recorder)
    assert "Your hand" in table.private(anna).text
    services.replace_with_computer(game, table.seat_of(anna), by=services.SYSTEM)
    text = table.private(anna).text
    assert "A computer plays your seat now." in text
    assert "Your hand" not in text and "Your mice" not in text
    assert table.private(anna).buttons == []

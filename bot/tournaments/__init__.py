"""The bot's tournaments (issue 26), in one place: the Telegram side of
``games.tournaments``.

- ``handlers``: /tournament (organising in a group) and the announcement's buttons, added
  to the application by ``register`` (``bot.application``);
- ``posts``: the tournament's news told in its group and in private (the rounds' tables,
  the seats, the end), queued by ``games.tournaments.signals`` (connected in ``bot.apps``);
- ``render``: the texts and buttons of those messages.
"""

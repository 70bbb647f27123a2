"""What the play layer tells the layers above it, after the transaction that changed a
game has committed. Receivers: the bot brings its messages up to date on ``game_updated``
(``bot.sync.on_game_updated``, connected in ``bot.apps``), the web moves the table's marker
and announces the change (``web.apps``: ``changes.mark``, ``notify.publish``); the ratings
decide a game on ``game_ended`` (``games.ratings.receivers``).
"""

from django.dispatch import Signal

# kwargs: game_id, chat_id (None: a table in the browser), version (None: the lobby or the
# seats changed), events (engine events applied in this step, oldest first)
game_updated = Signal()
# kwargs: game_id, status (finished or aborted). Sent once per game, by ``games.play.finish``.
game_ended = Signal()
# kwargs: game_id. A finished game's post-game review was stored (``games.play.reviews``):
# an open page of the game shows it (``web.apps``: the table's marker moves and the change
# is announced, as on ``game_updated``; the bot has nothing to redo).
review_stored = Signal()
# kwargs: league (None: no league), player. Sent before a player takes a seat (a lobby's
# creator, a joiner); a receiver refuses the seat by raising a ``GameError``. Issue 48:
# a league that reviews names (``games.moderation.reports.check_name``, connected in
# ``games.apps``).
seating = Signal()

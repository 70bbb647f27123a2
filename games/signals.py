"""Hooks between the game processor and the front-ends.

Sent after the transaction that changed the game has committed. The bot connects to them
to bring its messages up to date; the leagues code to rate finished games.
"""

from django.dispatch import Signal

# kwargs: game_id, version, events (list of engine events applied in this step)
game_updated = Signal()
# kwargs: game_id
game_finished = Signal()

"""Tournaments' pure core (issue 26, part 1): who sits with whom, and who leads.

Pure Python like the engines: no Django, no Celery, no I/O, so the pairing can be proved by
property tests and timed by the bench without a database. A player is any hashable value
the caller chooses (a Player id); the functions never look inside it.

- ``results``: a table's result and the points per place (the app's ``game_places``
  reads a finished game's places into one);
- ``ranking``: players ordered by points, then the tie-breaks announced in advance (the
  app's ``games.tournaments.standings`` turns it into a stored tournament's rows);
- ``swiss``: the table sizes of a round, its byes and its tables;
- ``arena``: the continuous lobby of an arena tournament (streaks, pause);
- ``knockout``: seeded tables whose top players go on, down to a final;
- ``duplicate``: the shared deal of a duplicate round and the comparison with the field.
"""

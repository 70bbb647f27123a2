"""Tournaments in the database (issue 26, part 1): the Django side of ``games.tournaments``.

``games.tournaments`` is pure (no Django) and decides who sits with whom and who leads;
this app stores tournaments, their entries, rounds and tables, forms each round's tables
as league games through the play layer, and reads their results back. A Django app of its
own (label ``tourneys``), so its migrations never collide with the ``games`` app's.

- ``models``: Tournament, Entry, Round, RoundTable;
- ``entries``: sign-up, withdrawal, pause;
- ``table_results``: a finished table's places, forfeits counted last;
- ``rounds``: starting a tournament, its next round, finishing it (``advance``);
- ``standings``: the tournament's standings, from the pure functions;
- ``tasks`` / ``receivers``: the beat task, and a round moving on when its last game ends.
"""

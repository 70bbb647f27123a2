"""Tournaments (issues 26 and 45): one package, two floors.

``pairing`` is the pure core: who sits with whom and who leads, in plain Python (no
Django, Celery or Telegram), proved by property tests and timed by the bench without a
database. The rest is the Django app (label ``tourneys``, kept from its first name so the
tables, migrations, content types and permissions stay as they are): it stores
tournaments, their entries, rounds and tables, seats each round's tables as league games
through the play layer, and reads their places back for the pairing.

- ``models``: Tournament, Entry, Round, RoundTable;
- ``entries``: sign-up, withdrawal, pause; ``entry_guard``: who may sign up at all, and
  how many sign-ups an address or a tournament takes in a while (issue 46);
- ``game_places``: the places a finished game gives its tournament table, forfeits last;
- ``rounds``: starting a tournament, its next round, finishing it (``advance``);
- ``standings``: a stored tournament's standings rows, from ``pairing.ranking``;
- ``live``: the change token its open pages ask for;
- ``signals``: what the front-ends are told (a round started, the end);
- ``tasks`` / ``receivers``: the beat task, and a round moving on when its last game ends.

The pairing is imported by this app and by the tests and benches that prove and time it;
the front-ends read tournaments through the app's modules.
"""

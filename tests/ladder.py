"""A measured ladder for the tests of the computers' levels (issue 47): fixed ratings for
Felix at four seats, so that the lobbies' labels and "Play at my level" are checked against
known numbers, not the fit the repository ships."""

import pytest

from games.computers import ladder

FELIX = {
    "beginner": [1100, 1050, 1150],
    "easy": [1300, 1260, 1340],
    "normal": [1500, 1500, 1500],
    "strong": [1640, 1600, 1680],
    "hard": [1720, 1670, 1770],
}


@pytest.fixture
def measured(monkeypatch):
    monkeypatch.setattr(ladder, "table", lambda: {"felix": {"4": FELIX}})

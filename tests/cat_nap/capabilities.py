"""What Cat Nap can add to the generic code (``games.capabilities``), declared by the club's
entry (``test_a_fifth_game.CAT_NAP_CLUB``)."""

from __future__ import annotations

from games.capabilities import LeagueOption, ModeratorMove, Progress, Refused, Scoring


class NotNapping(Refused):
    code = "not_napping"
    message = "Seat %(seat)d is not napping."


class Wake(ModeratorMove):
    value = "wake"
    label = "cat woken"
    description = "Wake a napping cat (N2)"
    permission = "wake_cats"
    permission_label = "Can wake cats"

    def apply(self, rules, state, seat, note):
        return rules.wake(state, seat)

    def audit(self, view, seat):
        if not view["naps"][seat]:
            raise NotNapping(seat=seat)
        return {"naps_before": view["naps"][seat]}


WAKE = Wake()
SCORING = Scoring(lower_is_better=True, heading="Naps (fewer is better)", average="Naps per game")
LEAGUE_OPTIONS = (LeagueOption("lullaby", "word", "Lullaby"),)
PROGRESS = Progress("Cat naps in progress", lambda view: ("ZZZ", ["Z" * n for n in view["naps"]]))

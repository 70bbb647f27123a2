"""How catclub reads the rule books: where the printed rules are silent, what we decided.

The rules specification marks these clauses **Interpretation**; the engines implement them
and this is where players read them (``/rules/``). A changed interpretation changes the
engine, its test and this text together.
"""

from django.utils.translation import gettext_lazy as _

INTERPRETATIONS = {
    "felix": [
        (
            "F10",
            _(
                "Everyone chooses their card at the same time; the row is laid out by seat, "
                "starting with the first player."
            ),
        ),
        (
            "F21",
            _(
                "After an auction each mouse card is topped up to its printed number; mice "
                "still on a card stay there."
            ),
        ),
    ],
    "smoking_cat": [
        (
            "S2",
            _(
                "Inside a suit the cards rank 7, 8, 9, 10, Unter, Ober, King, Ace. There are "
                "no trumps."
            ),
        ),
        (
            "S12",
            _(
                "Throwing down concedes the deal: the thrower takes every card still to be "
                "played, the trick on the table and the 5 points of the last trick, and "
                "receives the letter."
            ),
        ),
        (
            "S14",
            _(
                "When players tie for the most points and none of them took the Ober of "
                "Leaves, all of them lose the deal; the first of them clockwise after the "
                "previous dealer deals next."
            ),
        ),
        (
            "S17",
            _(
                "Reneges cannot happen here, so the table's penalty letter becomes a "
                "moderator's power: a moderator may award or remove a letter, with a reason "
                "that is recorded."
            ),
        ),
    ],
    "bon_appetit": [
        (
            "B2",
            _("The 18 mouse cards: six each with 1, 2 and 3 paw prints."),
        ),
        (
            "B3",
            _(
                "With 2 or 3 players the red-backed deck is used: 29 cheese, 9 mice (three of"
                " each paw count) and 7 cats, with 5 tokens."
            ),
        ),
        (
            "B5",
            _("A random player starts."),
        ),
        (
            "B10",
            _(
                "A won pile goes under the winner's own pile as a whole, so its bottom card "
                "is the first of them to come up again."
            ),
        ),
        (
            "B12",
            _(
                "If the card that starts the game is a mouse, the starting player chases it; "
                "if that chase ends in cheese, nobody wins the pile."
            ),
        ),
    ],
    "cats_and_dogs": [
        (
            "C1",
            _(
                "Each species has three animals with 1 marker square, three with 2 and three "
                "with 3."
            ),
        ),
        (
            "C19",
            _("Players tied for the highest total share the victory."),
        ),
        (
            "C20",
            _(
                "The nine action cards, two of each: Shoo (remove any marker), Wander (move "
                "your marker to another animal), Switch seats (swap your marker with another "
                "player's), Snatch (discard one food card), Pass the bowl (move a food card "
                "to another animal), Trade a bite (swap two food cards), Swap dinners (swap "
                "all food of two animals), Clean the bowl (discard all food of an animal) and"
                " Second helping (feed twice this turn)."
            ),
        ),
    ],
}

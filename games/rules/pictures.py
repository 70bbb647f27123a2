"""Which cards illustrate the rules: card codes of ``games.art``, the same in every
language, so they live here once rather than in each document.

``COVER``: the card that stands for a game in the index of rules.
``CLAUSES``: the cards drawn beside a clause, by game and clause ID.
"""

COVER = {
    "felix": "sack",
    "smoking_cat": "LO",
    "bon_appetit": "mouse2",
    "cats_and_dogs": "animal:0",
}

CLAUSES: dict[str, dict[str, tuple[str, ...]]] = {
    "felix": {
        "F1": ("-8", "-5", "3", "5", "8", "11", "15", "R", "D", "d"),
        "F2": ("sack", "mouse:2", "mouse:3", "mouse:4", "mouse:6"),
        "F19": ("D", "d"),
    },
    "smoking_cat": {
        "S1": ("LA", "HA", "BA", "AA"),
        "S2": ("H7", "H8", "H9", "HX", "HU", "HO", "HK", "HA"),
        "S3": ("LO", "HA"),
    },
    "bon_appetit": {
        "B1": ("cheese", "mouse1", "mouse2", "mouse3", "cat"),
    },
    "cats_and_dogs": {
        "C1": ("animal:0", "animal:9"),
        "C2": ("b1", "b6", "f1", "f6"),
        "C20a": ("shoo",),
        "C20b": ("wander",),
        "C20c": ("switch",),
        "C20d": ("snatch",),
        "C20e": ("bowl",),
        "C20f": ("trade",),
        "C20g": ("swap",),
        "C20h": ("clean",),
        "C20i": ("helping",),
    },
}

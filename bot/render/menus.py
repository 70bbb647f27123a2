"""Step-by-step choice of an action with many targets, from the legal actions alone.

Engine actions are ":"-separated tokens, so the actions starting with a prefix group by
their next token: one button per token, leading either to the next step (a menu button)
or, when the token completes a legal action, to the move itself.
"""

from __future__ import annotations


def next_steps(legal: list[str], prefix: str) -> list[tuple[str, str | None]]:
    """(token, complete action or None) for each next token after ``prefix``, in the
    order the engine lists them."""
    legal_set = set(legal)
    head = prefix + ":"
    seen: dict[str, str | None] = {}
    for action in legal:
        if not action.startswith(head):
            continue
        token = action[len(head) :].split(":", 1)[0]
        if token in seen:
            continue
        full = head + token
        seen[token] = full if full in legal_set else None
    return list(seen.items())

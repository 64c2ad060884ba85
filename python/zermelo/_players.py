"""Players: a name, a program (`cmd:...`) or a Python function."""

from __future__ import annotations

import functools
import inspect
from typing import Any, Callable, Union

Player = Union[str, Callable[..., str]]
"""A player's name (`"perfect"`, `"random"`, `"cmd:python3 bot.py"`, ...), or a function
`f(position, moves) -> move` (or `f(position, moves, turn)`)."""


def seated(p: Player) -> Player:
    """A name as it is; a function taking (position, moves) called with the turn too."""
    if isinstance(p, str) or not callable(p):
        return p
    try:
        params = inspect.signature(p).parameters.values()
    except (TypeError, ValueError):
        return p
    positional = [q for q in params if q.kind in (q.POSITIONAL_ONLY, q.POSITIONAL_OR_KEYWORD)]
    if any(q.kind == q.VAR_POSITIONAL for q in params) or len(positional) >= 3:
        return p

    @functools.wraps(p)
    def two(position: str, moves: Any, turn: Any) -> str:
        return p(position, moves)

    return two

"""Studies of a whole family: is a game fair (`balance`), how each seat fares by
self-play (`estimate`)."""

from __future__ import annotations

import itertools
import time
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Union

from . import _native
from ._game import open, own, run_study
from ._own import GameProtocol, name_of
from ._options import Bar, Memory, PathLike, data_folder, to_bytes
from ._players import Player
from ._record import load
from ._results import Balance, BalanceMap, Estimate, printed


def balance(
    spec: Union[str, Callable[..., GameProtocol]],
    *,
    seconds: float = 60.0,
    memory: Memory = None,
    data: PathLike = None,
    progress: bool = True,
    max_positions: int = 10_000_000,
    **keys: Any,
) -> Union[Balance, BalanceMap]:
    """Is a game fair? For a family of boards, a spec whose values may be ranges `A..B`
    or alternatives `A|B` (`"mnk:m=3..5,n=3..5,k=3|4"`, `"pawns:cols=1..4,rows=3..6"`):
    every member solved exactly within `seconds` and `memory` each, as a `BalanceMap`.
    For a game whose family has a balance study of its own (`zermelo.games()` lists its
    keys), that study run with `keys` as its keywords, as a `Balance`. Both are the
    `balance` document `zermelo balance` prints. For a family of games of your own, `spec`
    is a callable of keyword parameters and each parameter's values are given as keywords
    (`balance(MyGame, rows=range(3, 7), cols=range(3, 7))`): every member made, explored
    (at most `max_positions` positions) and solved, as a `BalanceMap`."""
    if not isinstance(spec, str):
        return own_family(spec, keys, data=data, max_positions=max_positions)
    if _native.has_study(spec, "balance"):
        study = run_study(spec, "balance", keys, data=data, memory=memory, progress=progress)
        return printed(Balance, study.document, study.text)
    if keys:
        raise ValueError(
            f"{', '.join(keys)}: a family of {spec} is mapped member by member; keywords are a balance study's "
            "keys (`zermelo.games()` lists them) or the ranges of a family of games of your own"
        )
    with Bar(progress) as bar:
        document, text = _native.balance_map(spec, float(seconds), data_folder(data), to_bytes(memory), bar)
    return printed(BalanceMap, load(document)["map"], text)


def estimate(
    spec: str,
    players: Union[Player, Sequence[Player]],
    games: int = 1000,
    *,
    until: Optional[float] = None,
    seed: int = 0,
    progress: bool = True,
) -> Estimate:
    """How each seat of the game `spec` fares by self-play, for games too big to solve:
    `zermelo.open(spec).selfplay(...)`, as `zermelo balance SPEC --players ...` prints it."""
    return open(spec).selfplay(players, games, until=until, seed=seed, progress=progress)


def own_family(
    make: Callable[..., GameProtocol], family: Dict[str, Iterable[Any]], *, data: PathLike, max_positions: int
) -> BalanceMap:
    """Every member `make(**values)` of a family of games of your own, solved: its map."""
    keys = list(family)
    members: List[Dict[str, Any]] = []
    began = time.monotonic()
    for values in itertools.product(*(list(v) for v in family.values())):
        params = {k: str(v) for k, v in zip(keys, values)}
        start = time.monotonic()
        member: Dict[str, Any] = {"keys": params, "details": [], "status": "solved", "first_moves": []}
        member.update(dict.fromkeys(("value", "remoteness", "margin", "scores", "to_move", "positions", "solver", "estimate", "reason")))
        try:
            game = make(**dict(zip(keys, values)))
            member["game"] = name_of(game) + ":" + ",".join(f"{k}={v}" for k, v in params.items())
            opened = own(game, data, max_positions, name=member["game"])
            member.update(opened.solve(progress=False))
            member["first_moves"] = [dict(m) for m in opened.moves(remoteness=True, progress=False).moves]
        except _native.ZermeloError as e:
            member.update(status="skipped", reason=str(e))
        except ValueError as e:
            member.update(status="refused", reason=str(e))
        member.setdefault("game", ",".join(f"{k}={v}" for k, v in params.items()))
        member["seconds"] = time.monotonic() - start
        members.append(member)
    value = [m.get("value") for m in members]
    return BalanceMap(
        {
            "family": getattr(make, "__name__", "games"),
            "keys": keys,
            "member_seconds": 0.0,
            "member_bytes": 0,
            "first_wins": value.count("win"),
            "draws": value.count("draw"),
            "second_wins": value.count("lose"),
            "skipped": sum(m["status"] == "skipped" for m in members),
            "refused": sum(m["status"] == "refused" for m in members),
            "seconds": time.monotonic() - began,
            "members": members,
        }
    )

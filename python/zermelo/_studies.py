"""Studies of a whole family: is a game fair (`balance`), how each seat fares by
self-play (`estimate`)."""

from __future__ import annotations

from typing import Optional, Sequence, Union

from . import _native
from ._game import open, run_study
from ._options import Bar, Memory, PathLike, data_folder, to_bytes
from ._players import Player
from ._record import load
from ._results import Balance, BalanceMap, Estimate


def balance(
    spec: str = "bigpoints",
    configs: Optional[Sequence[str]] = None,
    *,
    seconds: float = 60.0,
    memory: Memory = None,
    data: PathLike = None,
    every_board: bool = False,
    sample: Optional[int] = None,
    progress: bool = True,
) -> Union[Balance, BalanceMap]:
    """Is a game fair? For a family of boards, a spec whose values may be ranges `A..B`
    or alternatives `A|B` (`"mnk:m=3..5,n=3..5,k=3|4"`, `"pawns:cols=1..4,rows=3..6"`):
    every member solved exactly within `seconds` and `memory` each, as a `BalanceMap`.
    For Big Points (`"bigpoints:colors=2..3,discs=2"`; or, with `configs` such as
    `["2x2", "3x2"]`, of each configuration): every arrangement of the reduced boards
    solved, and how often the first player wins, draws or loses, as a `Balance`. Both are
    the `balance` document `zermelo balance` prints."""
    if _native.has_study(spec, "balance"):
        args: dict[str, object] = {"configs": list(configs or []), "every_board": every_board}
        if sample is not None:
            args["sample"] = sample
        return Balance(run_study(spec, "balance", args, memory=memory, progress=progress).document)
    with Bar(progress) as bar:
        if configs or every_board or sample is not None:
            raise ValueError("configs, every_board and sample are for a game's own balance study (bigpoints:colors=..,discs=..)")
        text = _native.balance_map(spec, float(seconds), data_folder(data), to_bytes(memory), bar)
    return BalanceMap(load(text)["map"])


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

"""The native module: the catalog and sessions of the library, answering in the JSON
documents of `docs/schema.json` (as text)."""

from os import PathLike
from typing import Any, Callable, Iterable, List, Mapping, Optional, Sequence, Tuple, Union, final

_Progress = Callable[[str, int, int], object]
"""Called as work goes: what is done, how much of it, out of how much (0: not known)."""

_Player = Union[str, Callable[..., str]]
"""A player's name, or a function `f(position, moves, turn) -> move`."""

_Path = Union[str, "PathLike[str]"]

__all__ = ["cli", "data_folder", "games", "palette", "offer_own", "study", "has_study", "balance_map", "set_threads", "install_graph", "save_graph", "read_graph", "parse_memory", "declared", "Game", "Search", "Explorer", "Packer", "Spill", "ZermeloError"]

class ZermeloError(Exception):
    """A job zermelo could not finish: too big for its budget, a damaged table, a failed read."""

def cli(argv: List[str]) -> int: ...
def data_folder(data: Optional[str] = None) -> "PathLike[str]": ...
def games() -> str: ...
def palette() -> str: ...
def offer_own(spec: str, name: str, how_to_play: str) -> None: ...
def study(
    spec: str,
    name: str,
    args: Mapping[str, str],
    data: _Path,
    memory: Optional[int] = None,
    progress: Optional[_Progress] = None,
    force: bool = False,
) -> Tuple[str, str, Optional[str], Optional[str], Optional[str]]: ...
def has_study(spec: str, name: str) -> bool: ...
def balance_map(
    spec: str, seconds: float, data: _Path, memory: Optional[int] = None, progress: Optional[_Progress] = None
) -> Tuple[str, str]: ...
def set_threads(threads: int) -> None: ...
def save_graph(name: str, path: Union[str, PathLike[str]], source: str, boards: bool) -> None: ...
def read_graph(
    path: Union[str, PathLike[str]], version: str, source: str, memory: Optional[int] = None, board_from_key: bool = False
) -> Optional[Tuple[str, Tuple[List[str], List[int], List[Any], List[int], List[int], List[str]]]]: ...
def install_graph(
    name: str,
    texts: Sequence[str],
    movers: Sequence[int],
    ends: Sequence[Union[None, int, str, Sequence[int]]],
    firsts: Sequence[int],
    targets: Sequence[int],
    labels: Sequence[str],
    seat_names: Optional[Sequence[str]] = None,
    version: Optional[str] = None,
    boards: Optional[Sequence[str]] = None,
    heuristics: Optional[Sequence[int]] = None,
    pictures: Optional[Sequence[Sequence[Sequence[Tuple[Optional[str], Optional[str], Optional[str]]]]]] = None,
    board_from_key: bool = False,
) -> str: ...
def parse_memory(text: str) -> int: ...
def declared() -> str: ...
@final
class Game:
    """One opened game."""

    def __new__(cls, spec: str, data: _Path) -> Game: ...
    @property
    def spec(self) -> str: ...
    @property
    def seats(self) -> int: ...
    def describe(self) -> str: ...
    def solvers(self) -> List[str]: ...
    def default_players(self) -> List[str]: ...
    def solve(
        self,
        progress: Optional[_Progress] = None,
        # options: solve
        *,
        position: Optional[str] = None,
        solver: Optional[str] = None,
        force: bool = False,
        save: bool = True,
        memory: Union[None, int, str] = None,
        seconds: Optional[float] = None,
        remoteness: bool = False,
        mover_only: bool = False,
        book: Optional[int] = None,
        # end of options
    ) -> Tuple[str, str]: ...
    def position(
        self,
        progress: Optional[_Progress] = None,
        # options: moves
        *,
        position: Optional[str] = None,
        moves: Optional[Sequence[str]] = None,
        all: bool = False,
        memory: Union[None, int, str] = None,
        seconds: Optional[float] = None,
        remoteness: bool = False,
        # end of options
    ) -> Tuple[str, Optional[str], str]: ...
    def rules(
        self,
        # options: rules
        *,
        position: Optional[str] = None,
        moves: Optional[Sequence[str]] = None,
        # end of options
    ) -> Optional[Tuple[str, Optional[str], str]]: ...
    def report(
        self,
        progress: Optional[_Progress] = None,
        # options: report
        *,
        depth: int = 1,
        compensate: Optional[str] = None,
        selfplay: Optional[int] = None,
        player: Optional[str] = None,
        memory: Union[None, int, str] = None,
        seconds: Optional[float] = None,
        # end of options
    ) -> Tuple[str, Optional[str], str, Optional[str]]: ...
    def graph(
        self,
        progress: Optional[_Progress] = None,
        # options: graph
        *,
        symmetry: bool = False,
        max_positions: int = 100000,
        memory: Union[None, int, str] = None,
        seconds: Optional[float] = None,
        # end of options
    ) -> Tuple[str, str]: ...
    def count(
        self,
        progress: Optional[_Progress] = None,
        # options: count
        *,
        symmetry: bool = False,
        # end of options
    ) -> Tuple[str, str]: ...
    def bot_move(
        self,
        moves: Sequence[str],
        player: _Player,
        # options: bot_move
        *,
        position: Optional[str] = None,
        seed: int = 0,
        memory: Union[None, int, str] = None,
        seconds: Optional[float] = None,
        # end of options
    ) -> str: ...
    def play(
        self,
        players: Sequence[_Player],
        # options: play
        *,
        position: Optional[str] = None,
        seed: int = 0,
        move_time: float = 10.0,
        # end of options
    ) -> Tuple[str, str]: ...
    def tournament(
        self,
        players: Sequence[_Player],
        progress: Optional[_Progress] = None,
        # options: tournament
        *,
        position: Optional[str] = None,
        games: int = 100,
        seed: int = 0,
        move_time: float = 10.0,
        # end of options
    ) -> Tuple[str, str]: ...
    def selfplay(
        self,
        players: Sequence[_Player],
        progress: Optional[_Progress] = None,
        # options: selfplay
        *,
        games: int = 1000,
        until: Optional[float] = None,
        seed: int = 0,
        position: Optional[str] = None,
        move_time: float = 10.0,
        # end of options
    ) -> Tuple[str, str]: ...
@final
class Search:
    """A game of one's own searched through its methods, its table kept between questions."""

    def __new__(
        cls,
        to_move: Callable[[Any], int],
        moves: Callable[[Any], Iterable[Any]],
        play: Callable[[Any, Any], Any],
        outcome: Callable[[Any], object],
        key: Callable[[Any], object],
        heuristic: Optional[Callable[[Any], int]] = None,
        memory: Optional[int] = None,
        over: Optional[Callable[[Any], bool]] = None,
    ) -> Search: ...
    def solve(
        self, state: Any, seconds: Optional[float] = None, remoteness: bool = True
    ) -> Tuple[int, Optional[int], Optional[int]]: ...
    @property
    def searched(self) -> int: ...
    @property
    def table_size(self) -> int: ...

@final
class Packer:
    """A worker process's side of exploring on several processes: children packed for `Explorer.merge`."""

    def __new__(cls, text: Callable[[Any], str]) -> Packer: ...
    def pack(self, keys: List[Any], moves: List[Any]) -> Tuple[bytes, List[Tuple[int, str]]]: ...
    @property
    def failed_at(self) -> Optional[int]: ...

@final
class Explorer:
    """A game of one's own explored at the floor: fingerprints of its keys, flat arrays."""

    def __new__(cls, key: Any, text: Callable[[Any], str], checked: bool) -> Explorer: ...
    def batch(
        self, movers: List[int], ends: List[Any], counts: List[int], keys: List[Any], moves: List[Any]
    ) -> Tuple[List[int], List[Tuple[int, int, int]]]: ...
    @property
    def positions(self) -> int: ...
    @property
    def moves(self) -> int: ...
    @property
    def failed_at(self) -> Optional[int]: ...
    def find(self, key: Any) -> Optional[int]: ...
    def text(self, node: int) -> str: ...
    def node(self, node: int) -> Tuple[int, Any, List[str], List[int]]: ...
    def movers(self) -> bytes: ...
    def lists(self) -> Tuple[List[str], List[int], List[Any], List[int], List[int], List[str]]: ...
    def comes_back(self) -> bool: ...
    def identity(self) -> str: ...
    def held_bytes(self) -> int: ...
    def merge(
        self, order: bytes, parts: Sequence[Tuple[List[int], List[Any], List[int], bytes, List[Tuple[int, str]]]]
    ) -> Tuple[List[Tuple[int, int]], List[Tuple[int, int, int, int]]]: ...
    def owners(self, from_: int, workers: int) -> bytes: ...
    def install(
        self,
        name: str,
        seat_names: Optional[Sequence[str]] = None,
        version: Optional[str] = None,
        boards: Optional[Sequence[str]] = None,
        heuristics: Optional[Sequence[int]] = None,
        pictures: Optional[Sequence[Sequence[Sequence[Tuple[Optional[str], Optional[str], Optional[str]]]]]] = None,
        board_from_key: bool = False,
    ) -> str: ...

@final
class Spill:
    """A game of one's own explored into a folder: fingerprints in a table and sorted runs on disk, moves in files."""

    created: int
    processed: int
    edges: int
    frontier: str
    done: bool
    failed_at: Optional[int]
    due: bool
    waiting: int
    runs: int

    def __new__(cls, folder: str, budget: int, key: Any, text: Callable[[Any], str]) -> Spill: ...
    def batch(
        self, movers: List[int], ends: List[Any], counts: List[int], keys: List[Any], moves: List[Any]
    ) -> Tuple[List[int], List[int]]: ...
    def settle(self) -> List[int]: ...
    def commit(self, frontier: str, done: bool) -> None: ...
    def held_bytes(self) -> int: ...
    def disk_bytes(self) -> int: ...
    def install(self, name: str, seat_names: Optional[List[str]] = None, version: Optional[str] = None) -> str: ...

"""What a call's options become for the native module: memory in bytes, the data folder,
moves as a list and progress as a bar."""

from __future__ import annotations

import json
import os
import warnings
from types import TracebackType
from typing import Any, Dict, Iterable, List, Mapping, Optional, Type, Union

from . import _native

Memory = Union[None, int, str]
"""Bytes, or a size like `"512M"` or `"8G"`."""

Moves = Union[None, str, Iterable[str]]
"""A list of moves, or text `a1,b2`."""

PathLike = Union[None, str, "os.PathLike[str]"]


_DECLARED: Dict[str, List[str]] = {
    c["command"]: [o["name"] for o in c["options"] if o["python"]] for c in json.loads(_native.declared())["commands"]
}
"""Each command's keywords, as the library declares them (docs/options.json)."""


def given(command: str, values: Mapping[str, Any], **changed: Any) -> Dict[str, Any]:
    """The keywords the library declares for `command`, valued from `values` (a method's
    `locals()`), those in `changed` from there instead."""
    return {name: changed[name] if name in changed else values[name] for name in _DECLARED[command]}


def to_bytes(memory: Memory) -> Optional[int]:
    """Bytes from `1073741824`, `"512M"` or `"8G"` (read as `--memory` reads it)."""
    if memory is None or isinstance(memory, int):
        return memory
    return _native.parse_memory(str(memory))


def to_moves(moves: Moves) -> List[str]:
    """A list of moves from a list or from text `a1,b2`."""
    if moves is None:
        return []
    if isinstance(moves, str):
        return [m.strip() for m in moves.split(",") if m.strip()]
    return [str(m) for m in moves]


def data_folder(data: PathLike) -> str:
    """The folder of solved tables: `data`, else `$ZERMELO_DATA`, else `./zermelo-data`,
    as the library decides it for every front end; an empty one raises `ValueError`."""
    return os.fspath(_native.data_folder(None if data is None else os.fspath(data)))


class Bar:
    """Shows long work as a tqdm bar, when tqdm is installed."""

    def __init__(self, show: bool) -> None:
        self.tqdm: Any = None
        if show:
            with warnings.catch_warnings():
                # tqdm.auto warns when a notebook lacks ipywidgets, then draws text.
                warnings.simplefilter("ignore")
                try:
                    from tqdm.auto import tqdm

                    self.tqdm = tqdm
                except ImportError:
                    pass
        self.bar: Any = None
        self.what: Optional[str] = None

    def __call__(self, what: str, done: int, total: int) -> None:
        if self.tqdm is None:
            return
        if what != self.what:
            self.close()
            self.what = what
            self.bar = self.tqdm(total=total or None, desc=what, delay=0.5, leave=False)
        self.bar.update(done - self.bar.n)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None

    def __enter__(self) -> Optional[Bar]:
        return self if self.tqdm else None

    def __exit__(
        self, kind: Optional[Type[BaseException]], error: Optional[BaseException], trace: Optional[TracebackType]
    ) -> None:
        self.close()

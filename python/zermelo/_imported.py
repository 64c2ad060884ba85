"""Games of your own named by their import path, as the command line takes them:
`my_games:Race` (a module Python finds) or `path/games.py:Race` (a file)."""

from __future__ import annotations

import importlib
import importlib.util
import os
import re
import sys
from typing import Any, Optional

PATTERN = re.compile(r"^(?P<module>[^:]+):(?P<name>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)$")
"""`MODULE:NAME` or `FILE.py:NAME`, the name perhaps dotted (`Boards.Small`)."""


def is_import_path(spec: str) -> bool:
    """Whether `spec` names a game by its import path: `MODULE:NAME` where the module is
    a `.py` file that exists or a module Python finds (so that a catalog spec, such as
    `nim:heaps=3`, or a player, such as `soft:T`, is never taken for one)."""
    found = PATTERN.match(spec)
    if found is None:
        return False
    module = found["module"]
    if module.endswith(".py"):
        return os.path.isfile(module)
    if not re.fullmatch(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*", module):
        return False
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def load_game(spec: str) -> Any:
    """The game `spec` names by its import path (see `is_import_path`): the object, or an
    instance of the class, made with no arguments. A module that cannot be imported, a
    name it lacks, or a class that needs arguments raise `ValueError`."""
    found = PATTERN.match(spec)
    if found is None:
        raise ValueError(f"{spec!r} is not MODULE:NAME or FILE.py:NAME")
    module_name, name = found["module"], found["name"]
    try:
        if module_name.endswith(".py"):
            where = importlib.util.spec_from_file_location(os.path.splitext(os.path.basename(module_name))[0], module_name)
            if where is None or where.loader is None:
                raise ValueError(f"{spec}: {module_name} is not a Python file")
            module = importlib.util.module_from_spec(where)
            sys.modules.setdefault(where.name, module)
            where.loader.exec_module(module)
        else:
            module = importlib.import_module(module_name)
    except ValueError:
        raise
    except Exception as e:
        raise ValueError(f"{spec}: importing {module_name} failed: {type(e).__name__}: {e}") from None
    game: Any = module
    for part in name.split("."):
        try:
            game = getattr(game, part)
        except AttributeError:
            raise ValueError(f"{spec}: {module_name} has no {name}") from None
    if isinstance(game, type):
        try:
            game = game()
        except TypeError as e:
            raise ValueError(f"{spec}: {name}() needs arguments ({e}): name an instance instead") from None
    return game


def resolved(spec: str) -> Optional[Any]:
    """The game of your own `spec` names by its import path, else `None`."""
    return load_game(spec) if is_import_path(spec) else None

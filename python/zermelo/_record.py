"""The base of every result: a dict of its JSON document's fields, also read as
attributes, whose declared fields (class annotations) give each nested object its type."""

from __future__ import annotations

import functools
import json
from typing import Any, ClassVar, Dict, Type, TypeVar, Union, get_args, get_origin, get_type_hints

R = TypeVar("R", bound="Record")


class Record(Dict[str, Any]):
    """A result: a dict of the fields of its JSON document, also read as attributes.

    A subclass declares its fields as annotations, named and typed as in
    `docs/schema.json`; a nested object of a declared `Record` type becomes one. Fields
    whose names a dict takes for its methods (`keys`, `values`) are read by index only and
    declared, with their types, in `by_index`."""

    by_index: ClassVar[Dict[str, Any]] = {}

    def __init__(self, fields: Any = (), **more: Any) -> None:
        super().__init__(fields, **more)
        for name, hint in _fields(type(self)).items():
            if name in self:
                self[name] = _typed(hint, self[name])

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None

    def __dir__(self) -> list[str]:
        return sorted(set(super().__dir__()) | set(self))

    @classmethod
    def fields(cls) -> Dict[str, Any]:
        """The declared fields, with their types: the attributes, then those read by index."""
        return dict(_fields(cls))


@functools.lru_cache(maxsize=None)
def _fields(cls: Type[Record]) -> Dict[str, Any]:
    """The declared fields of `cls`, with their types."""
    hints = get_type_hints(cls)
    attributes = {name: hint for name, hint in hints.items() if not name.startswith("_") and name != "by_index"}
    return {**attributes, **cls.by_index}


def _typed(hint: Any, value: Any) -> Any:
    """`value` (parsed JSON) as the declared type `hint`: each object of a `Record` type
    becomes one, through lists, dicts and optional fields; anything else as it is."""
    if isinstance(hint, type) and issubclass(hint, Record):
        return hint(value) if isinstance(value, dict) and type(value) is not hint else value
    origin, args = get_origin(hint), get_args(hint)
    if origin is Union:
        records = [a for a in args if isinstance(a, type) and issubclass(a, Record)]
        return _typed(records[0], value) if len(records) == 1 else value
    if origin is list and isinstance(value, list):
        return [_typed(args[0], v) for v in value]
    if origin is dict and isinstance(value, dict) and args:
        return {k: _typed(args[1], v) for k, v in value.items()}
    return value


def load(text: str) -> Any:
    """A JSON document, every object in it a `Record`."""
    return json.loads(text, object_hook=Record)


def load_as(cls: Type[R], text: str) -> R:
    """The JSON document `text` as a `cls`."""
    return cls(load(text))

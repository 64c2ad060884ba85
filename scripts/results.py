"""The fields of the Python results, from the schema: each `Record` class of
python/zermelo/_results.py declares the properties of one definition of docs/schema.json,
typed as there; this writes those declarations anew (`--check`: says which class differs,
and fails). The schema itself is derived from the Rust result types (scripts/schema)."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = ROOT / "docs" / "schema.json"
RESULTS = ROOT / "python" / "zermelo" / "_results.py"

# Each result class and the schema definition it declares, where the names differ: a
# document's by its command, a nested object's by its Rust type.
DEFINITION = {
    "Solution": "solve",
    "Move": "MoveValue",
    "Position": "moves",
    "Counts": "count",
    "GameRecord": "play",
    "Standing": "StandingRow",
    "Seat": "SeatRow",
    "Rating": "RatingRow",
    "Standings": "tournament",
    "Node": "GraphNode",
    "Edge": "GraphEdge",
    "Graph": "graph",
    "Rare": "RareReport",
    "Grundy": "grundy",
    "Balance": "balance_sweep",
    "MemberEstimate": "Cost",
    "Member": "MapRow",
    "Estimate": "estimate",
    "KeyInfo": "Key",
    "GameInfo": "Description",
    "Report": "report",
    "SeatsReport": "report_seats",
}

# Definitions that are no class of their own: a count, which may be a string of digits;
# a self-play estimate inside a report, the `estimate` document less its command.
ALIASES = {"Big": "Big", "Estimate": "Estimate"}

# Fields the package adds to a document: the values a `grundy` document plots.
EXTRA = {"Grundy": {"series": "Series"}}

CLASS = re.compile(r"^class (\w+)\(([^)]*)\):$")
FIELD = re.compile(r"^    (\w+): ")


def definition(name: str, defs: dict) -> str | None:
    """The schema definition the class `name` declares, if any."""
    key = DEFINITION.get(name, name)
    return key if key in defs else None


def hint(node: dict, defs: dict, classes: dict) -> str:
    """The Python type of the values the schema node `node` allows."""
    alternatives = kinds(node, defs, classes)
    rest = [k for k in alternatives if k != "None"]
    if "Big" in rest:
        rest = [k for k in rest if k not in ("int", "str")]
    one = rest[0] if len(rest) == 1 else f"Union[{', '.join(rest)}]"
    return f"Optional[{one}]" if "None" in alternatives else one


def kinds(node: dict, defs: dict, classes: dict) -> list[str]:
    """The Python types of the values `node` allows, each once, `None` for null."""
    if "$ref" in node:
        key = node["$ref"].rsplit("/", 1)[1]
        if key in ALIASES or key in classes:
            return [ALIASES.get(key) or classes[key]]
        return kinds(defs[key], defs, classes)
    for many in ("oneOf", "anyOf"):
        if many in node:
            return once([k for part in node[many] for k in kinds(part, defs, classes)])
    if "enum" in node or "const" in node:
        values = node.get("enum", [node.get("const")])
        names = {str: "str", bool: "bool", int: "int", float: "float", type(None): "None"}
        return once([names[type(v)] for v in values])
    types = node.get("type", "object")
    return once([kind(t, node, defs, classes) for t in ([types] if isinstance(types, str) else types)])


def kind(json_type: str, node: dict, defs: dict, classes: dict) -> str:
    """The Python type of the JSON type `json_type` of `node`."""
    if json_type == "array":
        items = node.get("items")
        return f"List[{hint(items, defs, classes)}]" if items else "List[Any]"
    if json_type == "object":
        extra = node.get("additionalProperties")
        if isinstance(extra, dict) and not node.get("properties"):
            return f"Dict[str, {hint(extra, defs, classes)}]"
        return "Record"
    return {"string": "str", "integer": "int", "number": "float", "boolean": "bool", "null": "None"}[json_type]


def once(items: list[str]) -> list[str]:
    """`items` without repeats, in order."""
    return list(dict.fromkeys(items))


def properties(key: str, defs: dict) -> dict:
    """The properties of the definition `key`, less `command`, with those of the parts it
    takes in (a flattened enum's: a field two parts name takes either's values): those it
    requires in their order (the order of the document's fields), then the others."""
    node = defs[key]
    found = {name: [value] for name, value in node.get("properties", {}).items()}
    for many in ("allOf", "anyOf", "oneOf"):
        for part in node.get(many, []) if found else []:
            for name, value in properties(part["$ref"].rsplit("/", 1)[1], defs).items():
                found.setdefault(name, []).append(value)
    required = [n for n in node.get("required", []) if n in found]
    order = required + sorted(set(found) - set(required))
    return {n: found[n][0] if len(found[n]) == 1 else {"anyOf": found[n]} for n in order if n != "command"}


def declarations(source: str, schema: dict) -> dict[str, list[str]]:
    """The lines declaring each class's fields, by class."""
    defs = schema["$defs"]
    bases = {m.group(1): [b.strip() for b in m.group(2).split(",")] for m in map(CLASS.match, source.splitlines()) if m}
    classes = {definition(name, defs): name for name in bases if definition(name, defs)}
    out = {}
    for name in bases:
        key = definition(name, defs)
        if key is None:
            continue
        inherited = set()
        for base in bases[name]:
            if definition(base, defs):
                inherited |= set(properties(definition(base, defs), defs))
        fields = {f: hint(v, defs, classes) for f, v in properties(key, defs).items() if f not in inherited}
        fields.update(EXTRA.get(name, {}))
        by_index = {f: h for f, h in fields.items() if hasattr(dict, f)}
        lines = []
        if by_index:
            lines.append("    by_index = {" + ", ".join(f'"{f}": {h}' for f, h in by_index.items()) + "}")
        lines += [f"    {f}: {h}" for f, h in fields.items() if f not in by_index]
        out[name] = lines
    return out


def rewritten(source: str, schema: dict) -> tuple[str, list[str]]:
    """`source` with every declared class's field lines (after its docstring and a blank
    line) those of the schema, and the classes whose lines were not."""
    fields = declarations(source, schema)
    lines = source.splitlines()
    out: list[str] = []
    stale = []
    i = 0
    while i < len(lines):
        m = CLASS.match(lines[i])
        out.append(lines[i])
        i += 1
        if not m or m.group(1) not in fields:
            continue
        first = lines[i].strip()
        one_line = first.startswith('"""') and first.endswith('"""') and len(first) >= 6
        while not one_line and not lines[i].rstrip().endswith('"""'):
            out.append(lines[i])
            i += 1
        out += [lines[i], ""]
        i += 2
        start = i
        while i < len(lines) and (FIELD.match(lines[i]) or lines[i].startswith("    by_index = ")):
            i += 1
        if lines[start:i] != fields[m.group(1)]:
            stale.append(m.group(1))
        out += fields[m.group(1)]
    return "\n".join(out) + "\n", stale


def main() -> int:
    schema = json.loads(SCHEMA.read_text())
    source = RESULTS.read_text()
    new, stale = rewritten(source, schema)
    if "--check" in sys.argv:
        if new != source:
            said = ", ".join(stale) or "its layout"
            print(f"{RESULTS.relative_to(ROOT)} is not the schema's fields ({said}): run scripts/schema", file=sys.stderr)
            return 1
        return 0
    RESULTS.write_text(new)
    return 0


if __name__ == "__main__":
    sys.exit(main())

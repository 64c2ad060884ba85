"""Python's signatures of the commands, from their one declaration: each block between
`# options: COMMAND` and `# end of options` in python/zermelo/_native.pyi and
python/zermelo/_game.py lists the keywords docs/options.json declares for COMMAND (the
dump of the library's `zermelo::command`), typed as there; this writes those blocks anew
(`--check`: says which block differs, and fails). scripts/schema writes the dump first."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OPTIONS = ROOT / "docs" / "options.json"
STUB = ROOT / "python" / "zermelo" / "_native.pyi"
GAME = ROOT / "python" / "zermelo" / "_game.py"

BLOCK = re.compile(r"^( *)# options: (\w+)\n(.*?)^ *# end of options\n", re.M | re.S)


def typed(option: dict, stub: bool) -> str:
    """`name: type = default` of one option, for the stub or for the package."""
    kind, default = option["kind"], option["default"]
    if kind == "flag":
        return f"{option['name']}: bool = {default!r}"
    if kind == "memory":
        hint = "Union[None, int, str]" if stub else "Memory"
        return f"{option['name']}: {hint} = None"
    if kind in ("moves", "texts"):
        hint = "Optional[Sequence[str]]" if stub or kind == "texts" else "Moves"
        return f"{option['name']}: {hint} = None"
    if kind == "path":
        return f"{option['name']}: {'Optional[_Path]' if stub else 'PathLike'} = None"
    base = {"whole": "int", "seconds": "float", "number": "float", "text": "str", "word": "str"}[kind]
    if default is None:
        return f"{option['name']}: Optional[{base}] = None"
    if kind == "seconds":
        default = float(default)
    return f"{option['name']}: {base} = {default!r}"


def block(command: dict, indent: str, stub: bool) -> str:
    """The parameters of `command` Python takes: those taken by position first, then the
    keywords (every one a keyword in the stub: the native methods take `**kw`)."""
    taken = [o for o in command["options"] if o["python"]]
    first = [] if stub else [o for o in taken if o["python"] == "first"]
    rest = [o for o in taken if o not in first]
    lines = [typed(o, stub) for o in first] + ["*"] + [typed(o, stub) for o in rest]
    return "".join(f"{indent}{line},\n" for line in lines)


def written(text: str, commands: dict, stub: bool) -> str:
    """`text` with every block written anew."""

    def one(match: re.Match) -> str:
        indent, name = match.group(1), match.group(2)
        return f"{indent}# options: {name}\n{block(commands[name], indent, stub)}{indent}# end of options\n"

    return BLOCK.sub(one, text)


def main() -> int:
    commands = {c["command"]: c for c in json.loads(OPTIONS.read_text())["commands"]}
    check = "--check" in sys.argv[1:]
    stale = []
    for path, stub in ((STUB, True), (GAME, False)):
        old = path.read_text()
        new = written(old, commands, stub)
        if new == old:
            continue
        named = [m.group(2) for m in BLOCK.finditer(old) if m.group(0) not in new]
        stale.append(f"{path.relative_to(ROOT)}: {', '.join(named)}")
        if not check:
            path.write_text(new)
    if check and stale:
        print("stale signatures (run scripts/schema): " + "; ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

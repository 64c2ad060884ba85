"""The README's Python examples and the package's docstring examples run as shown."""

import doctest
import re
from pathlib import Path

import zermelo

ROOT = Path(__file__).resolve().parents[2]


def test_readme_python_blocks_run(tmp_path, monkeypatch):
    blocks = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(), re.S)
    assert blocks
    monkeypatch.chdir(tmp_path)
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})


def test_docstring_examples(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    failures, tried = doctest.testmod(zermelo)
    assert tried > 0 and failures == 0

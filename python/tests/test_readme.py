"""The Python examples of the README and the guide, and the package's docstring examples, run as shown."""

import doctest
import re
from pathlib import Path

import pytest

import zermelo

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs" / "guide").glob("*.md"))]


def python_blocks(page):
    return re.findall(r"```python\n(.*?)```", page.read_text(), re.S)


def test_the_guide_has_python_examples():
    assert any(python_blocks(page) for page in PAGES)


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_python_blocks_run(page, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    names = {}  # a page's blocks run in order, each seeing what the ones before defined
    for block in python_blocks(page):
        exec(compile(block, str(page.relative_to(ROOT)), "exec"), names)


def test_docstring_examples(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    failures, tried = doctest.testmod(zermelo)
    assert tried > 0 and failures == 0

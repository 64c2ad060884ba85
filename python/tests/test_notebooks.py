"""The notebooks of examples/notebooks/ run from top to bottom without an error (their
own cells assert what they show), each in a fresh folder; the executed copies are written
to target/notebooks/."""

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "examples" / "notebooks").glob("*.ipynb"))


def test_there_are_notebooks():
    names = {p.stem for p in NOTEBOOKS}
    assert {"pawns", "tictactoe", "impartial", "dots", "bigpoints", "your-own-game"} <= names


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs(path, tmp_path, monkeypatch):
    monkeypatch.delenv("ZERMELO_DATA", raising=False)
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    out = ROOT / "target" / "notebooks"
    out.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, out / path.name)
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []) if o.output_type == "error"]
    assert not errors

"""Shared fixtures: every test works in a data folder of its own."""

import pytest


@pytest.fixture
def data(tmp_path):
    """A fresh data folder for solved tables."""
    return tmp_path / "zermelo-data"

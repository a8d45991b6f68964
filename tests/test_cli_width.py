"""Console output never cuts a figure: every command rendered at 60, 80 and 120 columns
shows every number it shows on a wide terminal, whole (no ellipsis)."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from accord.cli import main
from tests.test_cli_json import RUNS

NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:e[+-]?\d+)?%?")


def _render(args: tuple[str, ...], width: int) -> str:
    result = CliRunner(env={"COLUMNS": str(width), "LINES": "50"}).invoke(main, list(args))
    assert result.exit_code == 0, result.stderr
    return result.stdout


def _figures(text: str) -> list[str]:
    """Numbers as printed, in order (paths and rater names hold none in these runs)."""
    return NUMBER.findall(re.sub(r"\S*/\S*", " ", text))


@pytest.mark.parametrize("width", [60, 80, 120])
@pytest.mark.parametrize("name", sorted(RUNS))
def test_no_figure_is_cut_at_any_width(name: str, width: int) -> None:
    wide = _figures(_render(RUNS[name], 400))
    out = _render(RUNS[name], width)
    assert "…" not in out, f"accord {name} at {width} columns cut a cell:\n{out}"
    narrow = _figures(out)
    missing = [x for x in dict.fromkeys(wide) if wide.count(x) > narrow.count(x)]
    assert not missing, f"accord {name} at {width} columns lost {missing}:\n{out}"

"""Console output never cuts a figure: every command rendered at 60, 80 and 120 columns
shows every number it shows on a wide terminal, whole (no ellipsis)."""

from __future__ import annotations

import io
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


def test_a_table_too_wide_is_stacked_whole() -> None:
    from rich.table import Table

    from accord.cli._safe_console import SafeConsole

    table = Table(title="figures")
    for head in ("coefficient", "estimate", "95% CI"):
        table.add_column(head, no_wrap=head != "coefficient")
    table.add_row("Krippendorff's alpha", "-0.123456789", "[-0.987654321, 0.123456789]")
    headless = Table(show_header=False)
    headless.add_column()
    headless.add_column(no_wrap=True)
    headless.add_row("p_o", "0.12345678901234567890123456789")
    console = SafeConsole(width=30, record=True, file=io.StringIO(), soft_wrap=True)
    console.print(table)
    console.print(headless)
    text = console.export_text()
    assert text.splitlines() == [
        "figures", "coefficient: Krippendorff's alpha", "  estimate: -0.123456789",
        "  95% CI: [-0.987654321, 0.123456789]", "p_o", "  0.12345678901234567890123456789"]


def test_the_console_writes_colon_names_as_written() -> None:
    """A ``:name:`` in a header or a note (rich's emoji code) stays text."""
    from rich.table import Table

    from accord.cli._common import console

    out = console()
    out.file = io.StringIO()
    table = Table(":cat: \\\\ :smile:")
    table.add_row(":smile:")
    out.print(table)
    out.print("note: :thumbs_up:")
    text = out.file.getvalue()
    assert ":cat:" in text and ":smile:" in text and ":thumbs_up:" in text

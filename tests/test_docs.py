"""The README's examples run and print what the README says they print."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)


def _expected(block: str) -> list[str]:
    """Comment lines right after a print(...) line are that print's expected output."""
    out, after_print = [], False
    for line in block.splitlines():
        if line.startswith("# ") and after_print:
            out.append(line[2:])
            continue
        after_print = line.lstrip().startswith("print(")
    return out


@pytest.mark.parametrize("block", BLOCKS, ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_readme_python_block_runs_and_prints_what_it_says(block: str) -> None:
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        exec(compile(block, str(README), "exec"), {})  # noqa: S102 - our own README
    printed = buf.getvalue().splitlines()
    expected = _expected(block)
    it = iter(printed)
    for line in expected:
        assert any(p.strip() == line.strip() for p in it), (
            f"README promises {line!r}; got {printed}"
        )


def test_readme_has_the_two_setup_commands() -> None:
    text = README.read_text(encoding="utf-8")
    assert "make demo" in text and "make test" in text


def test_readme_has_python_examples() -> None:
    assert len(BLOCKS) >= 3

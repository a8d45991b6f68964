"""docs/guide/reports.md: its commands run from the repository root, its Python blocks
print what they say, and the verdict it quotes is the one the report writes."""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
from pathlib import Path

import pytest

import accord
from tests.conftest import run_cli

ROOT = Path(__file__).resolve().parents[1]
GUIDE = ROOT / "docs" / "guide" / "reports.md"
TEXT = GUIDE.read_text(encoding="utf-8")
COMMANDS = re.findall(r"^\$ (accord .*)$", TEXT, re.M)
BLOCKS = re.findall(r"```python\n(.*?)```", TEXT, re.S)


@pytest.mark.parametrize("line", COMMANDS)
def test_guide_command_runs(line: str, tmp_path: Path) -> None:
    args = [a.replace("/tmp/", f"{tmp_path}/") for a in shlex.split(line)[1:]]
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        code, _, err = run_cli(*args)
    finally:
        os.chdir(cwd)
    assert code == 0, err
    assert any(p.stat().st_size > 0 for p in tmp_path.iterdir())


@pytest.mark.parametrize("block", BLOCKS, ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_guide_python_block_prints_what_it_says(block: str,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        exec(compile(block, str(GUIDE), "exec"), {})  # noqa: S102 - our own guide
    expected = [x[2:] for x in block.splitlines() if x.startswith("# ")]
    assert expected and buf.getvalue().splitlines() == expected


def test_the_quoted_model_card_verdict_is_the_report_s(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    quoted = " ".join(x[2:] for x in TEXT.splitlines() if x.startswith("> "))
    ann = accord.read("examples/preds.csv", kinds={"gold": "gold", "model": "model",
                                                   "llm": "llm"})
    job = accord.report(ann).job
    assert job is not None and quoted == job.verdict

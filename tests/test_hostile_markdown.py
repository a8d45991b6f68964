"""A Markdown report of labels and rater names built to run in a terminal or reorder the
text (issue 40): BEL, the OSC 52 clipboard sequence and U+202E are spelled out, in the
report the library renders and in the file the command writes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import accord
from tests.conftest import run_cli as run

CLIPBOARD = "\x1b]52;c;ZWNobyBwd25lZA==\x07"
RLO = "\u202e"
RAW = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def _csv(tmp_path: Path) -> Path:
    labels = [("pos" + CLIPBOARD, "pos" + CLIPBOARD), ("neg" + RLO + "soq", "neg"),
              ("neg", "neg\x07"), ("pos" + CLIPBOARD, "neg")] * 5
    rows = ["unit,rater" + RLO + "a,bob\x07"] + [f"u{i},{a},{b}" for i, (a, b) in
                                                  enumerate(labels)]
    path = tmp_path / "evil.csv"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def test_the_markdown_report_spells_out_control_and_bidi_characters(tmp_path: Path) -> None:
    ann = accord.read(_csv(tmp_path))
    text = accord.report(ann).to_markdown()
    assert not RAW.search(text), RAW.findall(text)
    assert "\\u202e" in text and "\\x1b" in text


@pytest.mark.parametrize("name", ["report.md"])
def test_the_written_markdown_report_holds_no_control_character(tmp_path: Path,
                                                                name: str) -> None:
    out = tmp_path / name
    code, _, err = run("report", str(_csv(tmp_path)), "-o", str(out))
    assert code == 0, err
    text = out.read_text(encoding="utf-8")
    assert not RAW.search(text), RAW.findall(text)
    assert "\\u202e" in text

"""Golden-output tests of the Markdown and console renderers.

The reports are built from published tables (Feinstein & Cicchetti 1990, skewed
table: p_o .85, kappa .32) and the bundled synthetic pilot, so every figure in
the golden files is checked elsewhere against its source; these tests lock the
layout (including the sentences other modules supply: scale caveats and
citations). After an intended change, regenerate with
``ACCORD_UPDATE_GOLDEN=1 pytest tests/test_report_golden.py`` and review the diff.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from rich.console import Console

import accord

GOLDEN = Path(__file__).resolve().parent / "golden"
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def skewed_report() -> accord.Report:
    table = accord.datasets.load("feinstein_cicchetti_1990_b").data
    cats = ["present", "absent"]
    a, b, units = [], [], []
    for i, row in enumerate(table):
        for j, n in enumerate(row):
            a += [cats[i]] * n
            b += [cats[j]] * n
    units = [f"case-{k:03d}" for k in range(len(a))]
    ann = accord.Annotations.from_wide({"case": units, "reader_1": a, "reader_2": b},
                                       unit="case", raters=["reader_1", "reader_2"])
    study = accord.Study.from_dict({
        "title": "Screening readers, pilot",
        "annotators": {"names": ["reader_1", "reader_2"], "independent": True},
        "task": {"categories": ["present", "absent"], "missing": "not-allowed"},
        "metric": {"coefficient": "cohen_kappa"},
        "acceptance": {"rule": "kappa >= 0.6", "on": "estimate"},
    })
    return accord.report(ann, study, top_units=5)


def pilot_report() -> accord.Report:
    # the coefficients are named so that a new default does not change this layout test
    return accord.report(accord.read(EXAMPLES / "pilot.csv"), top_units=5,
                         coefficients=["percent_agreement", "fleiss_kappa", "gwet_ac1"])


def console_text(report: accord.Report) -> str:
    console = Console(width=100, record=True, color_system=None, file=io.StringIO())
    console.print(report)
    return console.export_text()


def check(name: str, text: str) -> None:
    path = GOLDEN / name
    if os.environ.get("ACCORD_UPDATE_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"missing golden file {path}; run with ACCORD_UPDATE_GOLDEN=1"
    assert text == path.read_text(encoding="utf-8")


@pytest.mark.parametrize(("name", "build"), [("skewed.md", skewed_report),
                                             ("pilot.md", pilot_report)])
def test_markdown_golden(name: str, build: object) -> None:
    check(name, build().to_markdown())  # type: ignore[operator]


@pytest.mark.parametrize(("name", "build"), [("skewed_console.txt", skewed_report),
                                             ("pilot_console.txt", pilot_report)])
def test_console_golden(name: str, build: object) -> None:
    check(name, console_text(build()))  # type: ignore[operator]

"""Long labels are shortened for display, the same way in every renderer (HTML, Markdown,
the console, the charts), and listed in full once; the data and the JSON keep them whole.

Before: one 1 MB label made a 10 MB HTML report (the label repeated in the worksheet, the
per-category table, the units, the charts and the sentences), and a 200-character label
was printed whole in every table cell that showed it.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from rich.console import Console

import accord
from accord.report.labels import ELLIPSIS, LIMIT, for_display, short

BIG = "x" * 1_000_000
LONG = " ".join(f"word{i}" for i in range(40))[:199] + "z"  # 200 characters


def _table(tmp_path: Path, label: str, n: int = 40) -> Path:
    """Two raters, ``n`` units, labels pos/neg and ``label`` on a few units."""
    rng = np.random.default_rng(4)
    labels = np.array(["pos", "neg"], dtype=object)
    a = rng.choice(labels, n)
    b = np.where(rng.random(n) < 0.8, a, rng.choice(labels, n))
    a[:3], b[:2], b[3] = label, label, label  # agreed twice, disagreed twice
    path = tmp_path / "long.csv"
    path.write_text("item,a,b\n" + "".join(f"u{i},{x},{y}\n" for i, (x, y) in
                                            enumerate(zip(a, b))), encoding="utf-8")
    return path


def _report(path: Path) -> accord.Report:
    return accord.report(accord.read(path, raters=["a", "b"]), seed=1)


def test_a_one_megabyte_label_makes_a_page_of_about_one_megabyte(tmp_path: Path) -> None:
    rep = _report(_table(tmp_path, BIG))
    html, md = rep.to_html(), rep.to_markdown()
    assert len(html.encode()) < 1_500_000 and len(md.encode()) < 1_500_000
    assert html.count(BIG) == 1 and md.count(BIG) == 1  # the glossary, once
    assert BIG in rep.to_dict()["data"]["categories"]


def test_a_long_label_is_shortened_wherever_it_is_shown_and_whole_in_json(
        tmp_path: Path) -> None:
    rep = _report(_table(tmp_path, LONG))
    shown = short(LONG)
    assert len(shown) == LIMIT and shown.endswith(ELLIPSIS) and LONG.startswith(shown[:-1])
    html, md = rep.to_html(), rep.to_markdown()
    svg = "".join(part.split("</svg>")[0] for part in html.split("<svg")[1:])
    assert LONG not in svg and "word0 word1" in html
    assert html.count(LONG) == 1 and 'id="labels"' in html  # the glossary
    assert html.count(shown) > 3  # the data summary, the worksheet, the per-category rows
    assert md.count(LONG) == 1 and md.count(shown) > 3
    import io

    console = Console(width=200, record=True, file=io.StringIO())
    console.print(rep)
    text = console.export_text()
    assert LONG not in text and shown in text and "shortened with" in text
    doc = rep.to_dict()
    assert LONG in doc["data"]["categories"]
    assert any(LONG in u["labels"] for u in doc["units"]["rows"])
    assert LONG in json.dumps(doc)


def test_labels_that_begin_alike_stay_apart(tmp_path: Path) -> None:
    one, two = "same start " * 10 + "one", "same start " * 10 + "two"
    path = tmp_path / "alike.csv"
    rows = [f"u{i},{x},{y}" for i, (x, y) in enumerate(
        [(one, one), (two, two), (one, two), ("pos", "pos"), ("neg", "pos"), ("pos", "neg"),
         ("neg", "neg"), (two, two)])]
    path.write_text("item,a,b\n" + "\n".join(rows) + "\n", encoding="utf-8")
    rep = _report(path)
    _, pairs = for_display(rep)
    shown = [s for s, _ in pairs]
    assert len(set(shown)) == 2 and all(len(s) <= LIMIT for s in shown)
    assert shown[1].endswith(f"{ELLIPSIS} #2")


def test_a_report_without_long_labels_is_shown_as_it_is(tmp_path: Path) -> None:
    rep = _report(_table(tmp_path, "mixed"))
    shown, pairs = for_display(rep)
    assert shown is rep and pairs == []
    assert 'id="labels"' not in rep.to_html()


def test_the_command_line_worksheet_shortens_a_long_label(tmp_path: Path) -> None:
    from tests.conftest import run_cli

    path = _table(tmp_path, LONG)
    code, out, err = run_cli("table", str(path), "--raters", "a", "b")
    assert code == 0, err
    assert LONG not in out and short(LONG) in out
    code, out, err = run_cli("table", str(path), "--raters", "a", "b", "--json")
    assert code == 0 and LONG in out  # the JSON keeps it whole

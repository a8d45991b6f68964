"""A header cell with doubled quotes is read as RFC 4180 says: the quotes halved."""

from __future__ import annotations

import csv
from pathlib import Path

import accord


def test_doubled_quotes_in_a_header_are_halved(tmp_path: Path) -> None:
    names = ['"><img src=x onerror=alert(1)>', 'quote " back']
    path = tmp_path / "header.csv"
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)  # writes each " in a name as "" (RFC 4180)
        w.writerow(["item", *names])
        w.writerows([[1, "a", "a"], [2, "b", "a"], [3, "b", "b"]])
    assert '"""><img' in path.read_text(encoding="utf-8")
    ann = accord.read(path, raters=names)
    assert list(ann.raters) == names  # the names csv.reader gives back, not '""><img ...'
    assert accord.cohen_kappa(ann).estimate == accord.cohen_kappa(
        ["a", "b", "b"], ["a", "a", "b"]).estimate

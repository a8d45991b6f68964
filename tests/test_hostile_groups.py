"""Groups (``--by``) built to trip the homogeneity test: a group whose estimate has no
sampling spread (kappa 1, every unit agreeing: SE 0)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from tests.conftest import run_cli as run


def _groups(tmp_path: Path) -> Path:
    """Three groups of 30 units: 'same' agrees on every unit (kappa 1, SE 0 by Fleiss,
    Cohen & Everitt 1969), 'half' and 'some' disagree on some."""
    path = tmp_path / "groups.csv"
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["item", "batch", "a", "b"])
        for i in range(30):
            x = "pos" if i % 2 else "neg"
            w.writerow([f"s{i}", "same", x, x])
            w.writerow([f"h{i}", "half", x, x if i % 3 else ("neg" if i % 2 else "pos")])
            w.writerow([f"o{i}", "some", x, x if i % 5 else ("neg" if i % 2 else "pos")])
    return path


def test_a_group_of_se_zero_is_left_out_of_the_test_and_named(tmp_path: Path) -> None:
    code, out, err = run("compute", str(_groups(tmp_path)), "--raters", "a", "b", "--by",
                         "batch", "--coefficient", "cohen_kappa")
    assert code == 0, err
    line = next(x for x in out.splitlines() if x.startswith("groups equal?"))
    assert "nan" not in line and "df = 1" in line
    assert line.endswith("(1 group(s) left out, without an estimate or a positive SE: same)")


def test_the_json_names_the_group_left_out(tmp_path: Path) -> None:
    code, out, _ = run("compute", str(_groups(tmp_path)), "--raters", "a", "b", "--by",
                       "batch", "--coefficient", "cohen_kappa", "--json")
    assert code == 0
    doc = json.loads(out)
    pooled = next(r for r in doc["results"] if r.get("group") is None)
    test = pooled["homogeneity"]
    assert test["left_out"] == ["same"] and test["groups"] == ["half", "some"]
    assert test["test"]["df"] == 1 and test["test"]["statistic"] is not None


def test_the_report_says_which_coefficients_were_not_tested(tmp_path: Path) -> None:
    out = tmp_path / "r.md"
    code, _, err = run("report", str(_groups(tmp_path)), "--raters", "a", "b", "--by", "batch",
                       "-o", str(out))
    assert code == 0, err
    lines = [x for x in out.read_text().splitlines() if "groups equal? cohen_kappa" in x]
    assert len(lines) == 1 and "nan" not in lines[0]
    assert lines[0].endswith("(1 group(s) left out, without an estimate or a positive SE: "
                             "same)")

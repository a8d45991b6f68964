"""``--by`` on thousands of groups (issue 40): the table is read once and its groups cut
out of the pooled reading, with the same annotations as reading each group alone; the
homogeneity test and the printed grids stay linear in the number of groups."""

from __future__ import annotations

import csv
import math
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import accord
from accord.cli._by import _homogeneity
from accord.history.split import split_files
from accord.inference.results import AgreementResult
from tests.conftest import run_cli as run


def _long(tmp_path: Path, seed: int) -> Path:
    """Long rows: 12 groups, units rated by 2-4 of 6 raters, some values missing, some
    groups using fewer labels, one group only of integer-looking unit ids."""
    rng = np.random.default_rng(seed)
    path = tmp_path / f"long{seed}.csv"
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["batch", "item", "coder", "label"])
        for g in range(12):
            labels = ["x", "y", "z"][: 1 + g % 3] + ["w"]
            for u in range(int(rng.integers(2, 6))):
                unit = str(100 * g + u) if g == 5 else f"g{g}u{u}"
                for r in rng.choice(6, size=int(rng.integers(2, 5)), replace=False):
                    value = "" if rng.random() < 0.1 else str(rng.choice(labels))
                    w.writerow([f"b{g % 7}" if g < 10 else "", unit, f"r{r}", value])
    return path


def _wide(tmp_path: Path, seed: int) -> Path:
    """Wide rows with no unit column (units are row numbers)."""
    rng = np.random.default_rng(seed)
    path = tmp_path / f"wide{seed}.csv"
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["a", "batch", "b", "c"])
        for i in range(60):
            row = ["" if rng.random() < 0.15 else str(rng.choice(["p", "q", "s"]))
                   for _ in range(3)]
            w.writerow([row[0], f"t{i % 5}", row[1], row[2]])
    return path


def _loader(**options: Any) -> Any:
    calls: list[str] = []

    def load(path: str) -> accord.Annotations:
        calls.append(path)
        return accord.read(path, **options)

    load.calls = calls  # type: ignore[attr-defined]
    return load


def _same(a: accord.Annotations, b: accord.Annotations) -> None:
    assert a.units == b.units and a.raters == b.raters
    assert a.categories == b.categories and a.level == b.level
    assert sorted(map(repr, a.records())) == sorted(map(repr, b.records()))


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("layout", ["long", "wide"])
def test_groups_cut_from_the_pooled_reading_equal_each_group_read_alone(
        tmp_path: Path, seed: int, layout: str) -> None:
    if layout == "long":
        path, options = _long(tmp_path, seed), {"unit": "item", "rater": "coder",
                                                "value": "label"}
    else:
        path, options = _wide(tmp_path, seed), {"raters": ["a", "b", "c"]}
    once = _loader(**options)
    groups, pooled, notes = split_files([str(path)], "batch", once, once=True)
    alone, pooled_alone, notes_alone = split_files([str(path)], "batch", _loader(**options))
    assert len(once.calls) == 1  # one reading, however many groups
    assert [g for g, _ in groups] == [g for g, _ in alone] and notes == notes_alone
    _same(pooled, pooled_alone)
    for (name, a), (_, b) in zip(groups, alone):
        _same(a, b)
        assert str(path) in a.audit.source and name in a.audit.source
        fa, fb = accord.fleiss_kappa(a), accord.fleiss_kappa(b)
        assert fa.estimate == fb.estimate or math.isnan(fa.estimate) and math.isnan(fb.estimate)


def test_a_unit_in_two_groups_is_read_group_by_group(tmp_path: Path) -> None:
    path = tmp_path / "mixed.csv"
    path.write_text("batch,item,coder,label\n1,u1,a,x\n1,u1,b,x\n2,u1,c,y\n2,u2,a,y\n"
                    "2,u2,b,y\n1,u3,a,x\n1,u3,b,y\n")
    load = _loader(unit="item", rater="coder", value="label")
    groups, _, _ = split_files([str(path)], "batch", load, once=True)
    assert len(load.calls) == 1 + 2  # the pooled reading, then each group alone
    assert [g.units for _, g in groups] == [("u1", "u3"), ("u1", "u2")]


def _result(se: float) -> AgreementResult:
    return AgreementResult("cohen_kappa", 0.5, 0.75, 0.5, se, 10, 2)


def test_the_homogeneity_test_of_many_groups_is_linear() -> None:
    results = [(f"g{i}", _result(0.1 if i % 10 else 0.0)) for i in range(20_000)]
    start = time.process_time()
    test, tested, left = _homogeneity(accord, results)
    assert time.process_time() - start < 2.0  # quadratic before: 2 x 10^8 comparisons
    assert len(tested) == 18_000 and len(left) == 2_000 and test is not None


def test_compute_by_prints_many_groups_as_the_table_would(tmp_path: Path) -> None:
    path = tmp_path / "many.csv"
    rng = np.random.default_rng(3)
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["batch", "item", "a", "b"])
        for i in range(300):
            w.writerow([f"g{i // 3}", f"i{i}", *rng.choice(["p", "q"], 2)])
    code, out, err = run("compute", str(path), "--raters", "a", "b", "--by", "batch",
                         "--coefficient", "percent_agreement")
    assert code == 0, err
    lines = out.splitlines()
    head = lines.index("percent_agreement")
    assert lines[head + 1].split() == ["group", "units", "raters", "estimate", "SE", "CI"]
    assert lines[head + 2].startswith("g0 ") and len(lines[head + 2]) == len(lines[head + 3])
    assert lines[head + 102].startswith("(pooled)  ")

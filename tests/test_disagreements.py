"""Every unit where raters differ, and a CSV that a spreadsheet cannot run.

The per-unit agreement is checked against a direct count of agreeing rater pairs
(Fleiss 1971, P_i); the neutralisation follows OWASP's CSV-injection advice
(prefix a quote to cells starting with = + - @, tab or carriage return), extended
to formula starts after leading blanks and to full-width forms (OWASP ASVS 5.0, 1.2.10).
"""

from __future__ import annotations

import csv
import io
from dataclasses import replace
from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import accord
from accord.interpret.disagreements import FORMULA_STARTS, neutralise_cell


def brute_force(rows: list[list[str | None]]) -> list[tuple[int, float]]:
    """(unit, share of agreeing pairs) for units rated twice or more whose labels differ."""
    out = []
    for i, row in enumerate(rows):
        labels = [x for x in row if x is not None]
        if len(labels) < 2 or len(set(labels)) == 1:
            continue
        pairs = list(combinations(labels, 2))
        out.append((i, sum(a == b for a, b in pairs) / len(pairs)))
    return out


ROWS: list[list[str | None]] = [
    ["a", "a", "a"],
    ["a", "b", "b"],
    ["a", None, None],
    ["a", "b", "c"],
    [None, "c", "b"],
    ["b", "b", None],
]


def test_every_disagreement_with_all_labels() -> None:
    ann = accord.Annotations.from_wide([list(r) for r in ROWS])
    found = accord.disagreements(ann)
    expected = brute_force(ROWS)
    assert [u.unit for u in found] == [i for i, _ in expected]
    assert [u.agreement for u in found] == pytest.approx([a for _, a in expected], abs=1e-15)
    assert [u.labels for u in found] == [tuple(ROWS[i]) for i, _ in brute_force(ROWS)]
    assert found.n_compared == 5 and found.n_disagreements == 3 and len(found) == 3
    assert [u.n_ratings for u in found] == [3, 3, 2]
    assert [u.n_distinct for u in found] == [2, 3, 2]


def test_most_disagreement_first_and_limit() -> None:
    ann = accord.Annotations.from_wide([list(r) for r in ROWS])
    ordered = accord.disagreements(ann, order="disagreement")
    # share 0 (3 labels, 3 distinct), share 0 (2 labels), share 1/3
    assert [u.unit for u in ordered] == [3, 4, 1]
    top = accord.disagreements(ann, order="disagreement", limit=1)
    assert [u.unit for u in top] == [3] and top.n_disagreements == 3


def test_select_raters() -> None:
    ann = accord.Annotations.from_wide({"x": ["a", "b"], "y": ["a", "a"], "z": ["b", "b"]})
    found = accord.disagreements(ann, raters=["x", "y"])
    assert found.raters == ("x", "y") and [u.unit for u in found] == [1]


@pytest.mark.parametrize("bad", [{"order": "random"}, {"limit": 0}])
def test_bad_arguments(bad: dict[str, object]) -> None:
    ann = accord.Annotations.from_pairs(["a"], ["b"])
    with pytest.raises(accord.AccordError, match="parameter of disagreements"):
        accord.disagreements(ann, **bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("start", FORMULA_STARTS)
def test_formula_cells_are_neutralised(start: str) -> None:
    assert neutralise_cell(start + "1+1") == "'" + start + "1+1"


def test_plain_cells_are_untouched() -> None:
    for text in ("spam", "1", "", "a =not at start", "'quoted", "-1", "-2.5", "+3", "1e-3"):
        assert neutralise_cell(text) == text


def test_csv_is_spreadsheet_safe_and_reads_back(tmp_path: Path) -> None:
    evil = '=HYPERLINK("http://x.invalid","click")'
    ann = accord.Annotations.from_wide({
        "unit": ["u1", "@u2", "u3"], "+ann": [evil, "pos", "-1"], "bob": ["neg", "neg", "-1"],
    }, unit="unit", raters=["+ann", "bob"])
    path = tmp_path / "review.csv"
    text = accord.disagreements(ann).to_csv(path)
    assert path.read_bytes().decode("utf-8") == text
    rows = list(csv.reader(io.StringIO(text, newline="")))
    assert rows[0] == ["unit", "'+ann", "bob", "n_ratings", "agreement", "adjudicated", "comment"]
    assert rows[1] == ["u1", "'" + evil, "neg", "2", "0.0", "", ""]
    assert rows[2][:3] == ["'@u2", "pos", "neg"]
    assert len(rows) == 3  # u3: both said -1, no disagreement
    for row in rows:
        for cell in row:
            assert not cell.startswith(FORMULA_STARTS)


def test_csv_to_a_stream() -> None:
    ann = accord.Annotations.from_pairs(["a", "b"], ["a", "a"])
    buf = io.StringIO()
    text = accord.disagreements(ann).to_csv(buf)
    assert buf.getvalue() == text == (
        "unit,rater_1,rater_2,n_ratings,agreement,adjudicated,comment\r\n1,b,a,2,0.0,,\r\n")


labels = st.one_of(st.none(), st.sampled_from(["a", "b", "c"]))


@given(st.lists(st.lists(labels, min_size=3, max_size=3), min_size=1, max_size=30))
def test_matches_brute_force(rows: list[list[str | None]]) -> None:
    rated_twice = [r for r in rows if sum(x is not None for x in r) >= 2]
    if not rated_twice:
        return
    ann = accord.Annotations.from_wide([list(r) for r in rows])
    found = accord.disagreements(ann)
    expected = brute_force(rows)  # unit ids of a wide table are its row numbers
    assert [u.unit for u in found] == [i for i, _ in expected]
    assert [u.agreement for u in found] == pytest.approx([a for _, a in expected], abs=1e-15)
    columns = [int(str(r).split("_")[1]) - 1 for r in found.raters]  # raters who rated anything
    assert [u.labels for u in found] == [tuple(rows[i][c] for c in columns) for i, _ in expected]
    assert found.n_compared == len(rated_twice)


def test_agrees_with_unit_agreement() -> None:
    ann = accord.read(Path(__file__).resolve().parents[1] / "examples" / "pilot.csv")
    ua = accord.unit_agreement(ann)
    found = accord.disagreements(ann)
    by_unit = {u: a for u, a in zip(ua.units, ua.agreement)}
    assert found.n_disagreements == int(((ua.n_ratings >= 2) & (ua.agreement < 1)).sum())
    for u in found:
        assert u.agreement == pytest.approx(by_unit[u.unit], abs=1e-15)


def test_many_categories_without_a_units_by_categories_matrix() -> None:
    import tracemalloc

    import numpy as np

    rng = np.random.default_rng(1)
    n, k = 50_000, 20_000
    a = rng.integers(0, k, n)
    b = np.where(rng.random(n) < 0.6, a, rng.integers(0, k, n))
    ann = accord.Annotations.from_pairs(a, b)
    tracemalloc.start()
    found = accord.disagreements(ann, limit=3)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert found.n_disagreements == int((a != b).sum())
    assert peak < 100 * 2**20  # a dense 50,000 x 20,000 count matrix would need 8 GB


def _crowd(seed: int = 0, n_units: int = 120, n_raters: int = 80) -> accord.Annotations:
    """Units rated by 3-7 of many raters; a few rater names and labels that look like
    formulas."""
    import random

    rng = random.Random(seed)
    names = [f"w{j}" for j in range(n_raters - 2)] + ["=evil", "-3x"]
    labels = ["a", "b", "c", "@bad"]
    rows = []
    for u in range(n_units):
        for r in rng.sample(names, rng.randint(3, 7)):
            rows.append((f"u{u}", r, rng.choice(labels) if rng.random() < 0.5 else "a"))
    rows += [("u-last", "=evil", "a"), ("u-last", "-3x", "@bad")]
    return accord.Annotations.from_long(rows, unit=0, rater=1, value=2)


def test_a_crowd_lists_each_units_ratings() -> None:
    """Above 50 raters each unit keeps the ratings it has (checked against the records),
    with the same units, order and shares as the one-column-per-rater layout."""
    from accord.interpret._disagreements_long import WIDE_RATERS

    ann = _crowd()
    assert ann.n_raters > WIDE_RATERS
    got = accord.disagreements(ann, order="disagreement")
    assert got.listed
    given_by_unit: dict[object, dict[object, object]] = {}
    for unit, rater, label in ann.records():
        given_by_unit.setdefault(unit, {})[rater] = label
    want = brute_force([[given_by_unit[u].get(r) for r in ann.raters] for u in ann.units])
    assert [(ann.units.index(u.unit), u.agreement) for u in got] == sorted(
        want, key=lambda t: (t[1], -len({x for x in given_by_unit[ann.units[t[0]]].values()}),
                             t[0]))
    for u in got:
        assert u.raters is not None and dict(zip(u.raters, u.labels)) == given_by_unit[u.unit]
        assert list(u.raters) == [r for r in ann.raters if r in given_by_unit[u.unit]]
        assert u.n_ratings == len(u.labels)
    assert got.units[-1] == list(got)[-1] and got.units[1:3] == list(got)[1:3]


def test_a_crowds_csv_is_safe_and_complete(tmp_path: Path) -> None:
    ann = _crowd(1)
    got = accord.disagreements(ann)
    text = got.to_csv()
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == ["unit", "n_ratings", "agreement", "labels", "ratings", "adjudicated",
                       "comment"]
    assert len(rows) == len(got) + 1
    for row, u in zip(rows[1:], got):
        assert row[0] == str(u.unit) and int(row[1]) == u.n_ratings
        assert float(row[2]) == u.agreement and row[5:] == ["", ""]
        counts = {}
        for x in u.labels:
            counts[str(x)] = counts.get(str(x), 0) + 1
        assert row[3] == neutralise_cell("; ".join(
            f"{x} x{n}" for x, n in sorted(counts.items(), key=lambda t: (-t[1], t[0]))))
        pairs = "; ".join(f"{r}={x}" for r, x in zip(u.raters or (), u.labels))
        assert row[4] == neutralise_cell(pairs)
        for cell in row:
            assert not cell or cell[0] not in "=+-@" or neutralise_cell(cell) == cell
    assert any(row[4].startswith("'") for row in rows[1:])  # '=evil=...' or '-3x=...'
    # the pieces, the whole text and the streamed file are the same bytes
    pieces = list(got.units.csv_chunks(neutralise_cell, size=7))  # type: ignore[attr-defined]
    assert len(pieces) > 2 and "".join(pieces) == text
    path = tmp_path / "review.csv"
    got.write_csv(path)
    assert path.read_bytes() == text.encode()
    plain = got.rows()  # the same cells before neutralising
    assert plain[0] == rows[0] and len(plain) == len(rows)
    assert all(neutralise_cell(a) == b for p, r in zip(plain[1:], rows[1:])
               for a, b in zip(p[:2] + p[3:], r[:2] + r[3:]))


def test_the_cli_says_when_ratings_are_listed(tmp_path: Path) -> None:
    from tests.conftest import run_cli

    ann = _crowd(2)
    path = tmp_path / "crowd.csv"
    path.write_text("item,worker,label\n" + "".join(
        f"{u},{r if not r.startswith(('=', '-')) else 'x' + r},{x}\n"
        for u, r, x in ann.records() if u != "u-last"))
    code, out, err = run_cli("disagreements", str(path), "--unit", "item", "--rater",
                             "worker", "--value", "label")
    assert code == 0, err
    assert out.startswith("item,n_ratings,agreement,labels,ratings")
    assert "each unit's ratings are listed in the 'ratings' column" in err
    target = tmp_path / "review.csv"
    code, out, err = run_cli("disagreements", str(path), "--unit", "item", "--rater",
                             "worker", "--value", "label", "-o", str(target))
    assert code == 0, err
    read_back = accord.read(path, unit="item", rater="worker", value="label")
    expected = replace(accord.disagreements(read_back), unit_name="item").to_csv()
    assert target.read_text() == expected.replace("\r\n", "\n")

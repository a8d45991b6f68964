"""Krippendorff's alpha_U against the published examples DKPro Agreement tests
(dkpro-statistics, org.dkpro.statistics.agreement.unitizing: Krippendorff2004Test,
Krippendorff1995Test, UnitizingAgreementTest), with their tolerances."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

import accord
from accord.errors import DataError, DegenerateDataWarning
from accord.readers.spans import Span, SpanTable


def _table(
    rows: list[tuple[str, int, int, str]], unit: str = "d", raters: tuple[str, ...] = ()
) -> SpanTable:
    """Rows of (rater, begin, length, category), as DKPro's addUnit(offset, length, rater, cat);
    ``raters`` annotated the unit whether or not they marked a span."""
    cov = {(unit, r): "annotated" for r in raters}
    return SpanTable(tuple(Span(unit, r, b, b + n, c) for r, b, n, c in rows), cov)


# Krippendorff (2004, p. 254): continuum 150-450, moved to 0-300
K2004 = [("i", 75, 70, "c"), ("i", 220, 30, "c"), ("j", 70, 80, "c"), ("j", 205, 20, "c"),
         ("j", 250, 20, "c"), ("i", 30, 60, "k"), ("i", 150, 50, "k"), ("j", 30, 60, "k"),
         ("j", 150, 50, "k")]  # fmt: skip


def test_krippendorff_2004() -> None:
    res = accord.unitizing_alpha(_table(K2004), lengths={"d": 300})
    c, k = res.per_category["c"], res.per_category["k"]
    assert c["d_o"] == pytest.approx(0.0144, abs=1e-4)
    assert c["d_e"] == pytest.approx(0.0532, abs=1e-4)
    assert c["alpha"] == pytest.approx(0.7286, abs=1e-4)
    assert k["d_o"] == 0.0 and k["d_e"] == pytest.approx(0.0490, abs=1e-4)
    assert k["alpha"] == 1.0
    assert res.estimate == pytest.approx(0.8591, abs=5e-4)


def test_dkpro_unitizing_example() -> None:
    # r0: -11111111-   r1: --1-1-1---
    t = _table([("r0", 1, 8, "A"), ("r1", 2, 1, "A"), ("r1", 4, 1, "A"), ("r1", 6, 1, "A")])
    a = accord.unitizing_alpha(t, lengths={"d": 10}).per_category["A"]
    assert a["d_o"] == pytest.approx(0.9100, abs=1e-4)
    assert a["d_e"] == pytest.approx(0.5351, abs=1e-4)
    assert a["alpha"] == pytest.approx(-0.7003, abs=1e-4)


# Krippendorff (1995, p. 57): four pairs of observers on a continuum of 24
K1995 = [(2, 8, 0, "A"), (14, 6, 0, "A"), (4, 4, 1, "A"), (15, 2, 1, "A"), (0, 18, 0, "B"),
         (0, 2, 1, "B"), (2, 1, 1, "B"), (3, 1, 1, "B"), (4, 1, 1, "B"), (5, 1, 1, "B"),
         (6, 3, 1, "B"), (9, 1, 1, "B"), (2, 6, 0, "C"), (10, 2, 0, "C"), (14, 4, 0, "C"),
         (20, 2, 0, "C"), (0, 2, 1, "C"), (4, 4, 1, "C"), (10, 4, 1, "C"), (16, 2, 1, "C"),
         (20, 2, 1, "C"), (0, 2, 0, "D"), (2, 8, 0, "D"), (10, 4, 0, "D"), (14, 6, 0, "D"),
         (20, 4, 0, "D"), (0, 4, 1, "D"), (4, 4, 1, "D"), (8, 7, 1, "D"), (15, 2, 1, "D"),
         (17, 7, 1, "D")]  # fmt: skip


def _k1995(stretch: float, only: str | None = None) -> accord.AgreementResult:
    rows = [(str(r), int(b * stretch), int(n * stretch), c) for b, n, r, c in K1995
            if only in (None, c)]  # fmt: skip
    return accord.unitizing_alpha(_table(rows), lengths={"d": int(24 * stretch)})


def test_krippendorff_1995_observed() -> None:
    per = _k1995(1).per_category
    want = {"A": 0.03125, "B": 2.26736, "C": 0.02777, "D": 0.38715}
    for cat, d_o in want.items():
        assert per[cat]["d_o"] == pytest.approx(d_o, abs=1e-5)


def test_krippendorff_1995_category_c_at_half_length() -> None:
    c = _k1995(12 / 24, "C").per_category["C"]
    assert c["d_o"] == pytest.approx(0.02777, abs=1e-5)
    assert c["d_e"] == pytest.approx(0.05494, abs=1e-5)
    assert c["alpha"] == pytest.approx(0.494, abs=0.02)


def test_krippendorff_1995_expected_on_a_fine_grid() -> None:
    """DKPro's values (Krippendorff's published ones, which DKPro notes carry a small
    error in D_e) at its tolerances: 0.005 for D_e, 0.02 for alpha."""
    per = _k1995(1_200_000 // 24).per_category
    want = {"A": (0.06990, 0.553), "B": (1.17731, -0.926), "C": (0.08642, 0.679),
            "D": (0.41445, 0.066)}  # fmt: skip
    for cat, (d_e, alpha) in want.items():
        assert per[cat]["d_e"] == pytest.approx(d_e, abs=0.005)
        assert per[cat]["alpha"] == pytest.approx(alpha, abs=0.02)


def test_two_documents_form_one_continuum_with_gaps_cut_at_the_boundary() -> None:
    one = accord.unitizing_alpha(_table(K2004), lengths={"d": 300})
    rows = [(r, b, n, c) for r, b, n, c in K2004 if b < 150]
    later = [(r, b - 150, n, c) for r, b, n, c in K2004 if b >= 150]
    spans = _table(rows, "d1").spans + _table(later, "d2").spans
    two = accord.unitizing_alpha(SpanTable(spans), lengths={"d1": 150, "d2": 150})
    # D_o is the same; D_e of "c" differs because rater i's gap 145-220 is two gaps
    # (145-150 and 150-220) when the documents end at 150; "k" has no gap across 150.
    assert two.per_category["c"]["d_o"] == pytest.approx(one.per_category["c"]["d_o"])
    assert two.per_category["c"]["d_e"] != pytest.approx(one.per_category["c"]["d_e"])
    assert two.per_category["k"]["d_e"] == pytest.approx(one.per_category["k"]["d_e"])


def test_lengths_default_to_the_last_span_end_and_say_so() -> None:
    res = accord.unitizing_alpha(_table(K2004))
    assert res.details["continuum_length"] == 270
    assert res.details["note"] == "unit lengths: the end of each unit's last span"


spans = st.lists(st.tuples(st.sampled_from("AB"), st.integers(0, 40), st.integers(1, 5)),
                 max_size=8)  # fmt: skip


def _disjoint(rows):  # type: ignore[no-untyped-def]
    out, ends = [], {}
    for cat, b, n in sorted(rows, key=lambda x: (x[0], x[1])):
        if b >= ends.get(cat, 0):
            out.append((cat, b, n))
            ends[cat] = b + n
    return out


@given(spans, spans, st.integers(0, 1000))
def test_shifting_and_swapping_change_nothing(a, b, k) -> None:  # type: ignore[no-untyped-def]
    rows = [("x", s, n, c) for c, s, n in _disjoint(a)]
    rows += [("y", s, n, c) for c, s, n in _disjoint(b)]
    if not rows:
        return
    base = accord.unitizing_alpha(_table(rows, raters=("x", "y")), lengths={"d": 50})
    moved = [(r, s + k, n, c) for r, s, n, c in rows]
    shifted = accord.unitizing_alpha(_table(moved, raters=("x", "y")), lengths={"d": 50 + k})
    swapped = accord.unitizing_alpha(_table(rows, raters=("y", "x")), raters=["y", "x"],
                                     lengths={"d": 50})  # fmt: skip
    assert swapped.estimate == pytest.approx(base.estimate, abs=1e-12, nan_ok=True)
    # a longer continuum with the same cuts only adds shared gap: D_o shrinks, alpha changes,
    # but moving every offset and the length together keeps D_o * L^2 fixed
    assert shifted.observed * (50 + k) ** 2 == pytest.approx(base.observed * 50**2, rel=1e-9)


@given(spans)
def test_identical_raters_give_one(a) -> None:  # type: ignore[no-untyped-def]
    rows = _disjoint(a)
    if not rows:
        return
    both = [(r, s, n, c) for c, s, n in rows for r in ("x", "y")]
    assert accord.unitizing_alpha(_table(both), lengths={"d": 50}).estimate == 1.0


def test_bad_input() -> None:
    overlapping = _table([("x", 0, 5, "A"), ("x", 3, 5, "A"), ("y", 0, 5, "A")])
    with pytest.raises(DataError, match="overlapping spans of category 'A'"):
        accord.unitizing_alpha(overlapping)
    with pytest.raises(DataError, match="ends after its length"):
        accord.unitizing_alpha(_table(K2004), lengths={"d": 100})
    with pytest.warns(DegenerateDataWarning, match="no rater marked a span"):
        res = accord.unitizing_alpha(_table([], raters=("x", "y")))
    assert math.isnan(res.estimate)

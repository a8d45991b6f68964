"""Memory grows with the ratings, not with units x raters (a crowd of many workers).

Not timed: tracemalloc's peak of Python and numpy allocations is compared with the
units x raters x 8 bytes that a dense code matrix would take.
"""

from __future__ import annotations

import numpy as np
import pytest

import accord
from accord.tables import CoincidenceMatrix
from tests.conftest import traced_peak

UNITS, RATERS, PER_UNIT = 100_000, 10_000, 3
DENSE_BYTES = UNITS * RATERS * 8  # 8 GB


def _crowd(values: np.ndarray) -> accord.Annotations:
    rng = np.random.default_rng(3)
    unit = np.repeat(np.arange(UNITS), PER_UNIT)
    start = rng.integers(0, RATERS, UNITS)
    rater = (np.repeat(start, PER_UNIT) + np.tile(np.arange(PER_UNIT), UNITS)) % RATERS
    rows = {"unit": unit, "rater": rater, "value": values}
    import polars as pl

    return accord.Annotations.from_long(pl.DataFrame(rows), unit="unit", rater="rater",
                                        value="value")



@pytest.mark.parametrize(
    ("kind", "level"), [("categories", "nominal"), ("categories", "ordinal"),
                        ("continuous", "interval")],
)
def test_alpha_of_a_crowd_never_builds_units_x_raters(kind: str, level: str) -> None:
    rng = np.random.default_rng(4)
    n = UNITS * PER_UNIT
    values = rng.integers(0, 5, n) if kind == "categories" else rng.normal(size=n).round(6)
    ann = _crowd(values)
    assert ann.n_raters == RATERS and ann.n_units == UNITS
    result: list[accord.AgreementResult] = []
    peak = traced_peak(lambda: result.append(accord.krippendorff_alpha(ann, level=level)))
    assert peak < DENSE_BYTES / 50, f"peak {peak / 2**20:.0f} MiB"
    assert -1.0 < result[0].estimate < 1.0


def test_sparse_and_dense_patterns_give_the_same_alpha() -> None:
    """The long-codes path (many raters and many values) against the units x raters path,
    on data small enough for both: the same coincidences, pattern sizes and alpha."""
    from accord.tables._coincidence_build import _sparse_patterns

    rng = np.random.default_rng(5)
    for _ in range(50):
        n, r, k = rng.integers(2, 40), rng.integers(2, 9), rng.integers(2, 15)
        x = rng.integers(0, k, (n, r)).astype(float)
        x[rng.random((n, r)) < 0.3] = np.nan
        x[0, :2] = [0.0, 1.0]  # at least one pairable unit
        ann = accord.Annotations.from_wide(x.tolist())
        units, _, values = ann.codes
        nums = np.asarray(ann.categories, dtype=float)
        dense = CoincidenceMatrix._from_codes(ann.wide(), ann.categories, values=nums)
        ptr, codes, mult, n_per, inverse, m = _sparse_patterns(
            units, values, ann.n_units, len(ann.categories))
        sparse = CoincidenceMatrix(ann.categories, ptr, codes, mult, n_per,
                                   unit_patterns=inverse, n_unpairable=int(np.sum(m == 1)),
                                   values=nums)
        np.testing.assert_allclose(sparse.coincidences, dense.coincidences, rtol=0, atol=1e-12)
        np.testing.assert_array_equal(sparse.pattern_sizes[sparse.unit_patterns],
                                      dense.pattern_sizes[dense.unit_patterns])
        assert sparse.n_unpairable == dense.n_unpairable
        for level in ("nominal", "interval"):
            a = accord.krippendorff_alpha(sparse, level=level).estimate
            b = accord.krippendorff_alpha(dense, level=level).estimate
            assert a == pytest.approx(b, abs=1e-12) or (np.isnan(a) and np.isnan(b))


def test_a_crowd_report_lists_the_most_active_raters_and_counts_the_rest() -> None:
    """200 workers, 3 per unit: the HTML and Markdown rater tables list 100 rows and say
    how many are left out; the summary names 30 raters and counts the rest; the units
    table has a column only for raters who rated a listed unit; JSON keeps every rater."""
    rng = np.random.default_rng(6)
    n_units, n_workers = 400, 200
    unit = np.repeat(np.arange(n_units), 3)
    rater = (np.repeat(rng.integers(0, n_workers, n_units), 3)
             + np.tile([0, 1, 2], n_units)) % n_workers
    ann = accord.Annotations.from_long(
        {"u": unit.tolist(), "r": [f"w{x:03d}" for x in rater],
         "v": rng.integers(0, 3, unit.shape[0]).tolist()},
        unit="u", rater="r", value="v")
    rep = accord.report(ann)
    from accord.report.html import render_html
    from accord.report.markdown import render_markdown

    html = render_html(rep)
    section = html[html.index('<section id="raters"'):]
    section = section[:section.index("</section>")]
    assert section.count("<tr") == 101  # a header and 100 raters
    assert "200 raters: the 100 with most ratings are listed; 100 more" in section
    assert "and 170 more" in html
    md = render_markdown(rep)
    assert "200 raters: the 100 with most ratings are listed" in md
    assert len(rep.raters) == 200
    listed = {u.unit for u in rep.units.rows}
    used = {r for u, r, _ in ann.records() if str(u) in listed}
    assert set(rep.units.raters) == {str(r) for r in used}

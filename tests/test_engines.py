"""accord.engines: the sufficient statistics counted by a dataframe engine.

Sources: Cohen (1960, p. 45) and Fleiss (1971, Table 1) through
:mod:`accord.datasets` (published p_o, p_e, kappa); statsmodels 0.15.0
``aggregate_raters`` / ``fleiss_kappa`` and scikit-learn 1.9.1
``confusion_matrix`` / ``cohen_kappa_score`` run here; everything else is checked
against accord's in-memory path on the same data (``Annotations`` ->
``ContingencyTable.from_annotations`` / ``RaterCounts.from_annotations``), on
polars (eager and lazy), pandas and pyarrow frames, with the coefficients
computed from both statistics compared to 1e-12. DuckDB, Dask and Spark are in
test_engines_distributed.py (the ``engines`` lane).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import accord
from accord import Annotations, ContingencyTable, RaterCounts
from accord.engines import EngineResult, contingency_table, rater_counts
from accord.errors import (
    DataError,
    DuplicateRatingError,
    InsufficientDataError,
    InvalidParameterError,
    UnknownCategoryError,
)
from accord.readers._base import MISSING_MARKERS

Columns = dict[str, list[Any]]

BACKENDS: dict[str, Callable[[Columns], Any]] = {
    "polars": lambda c: pl.DataFrame(c, strict=False),
    "polars-lazy": lambda c: pl.DataFrame(c, strict=False).lazy(),
    "pandas": pd.DataFrame,
    "pyarrow": pa.table,
}
EAGER: dict[str, Callable[[Columns], Any]] = {**BACKENDS, "polars-lazy": BACKENDS["polars"]}
TOL = 1e-12
#: Each example runs an engine query per backend; 15 keep the default suite fast
#: (these properties were also run with 60 examples on several seeds).
FAST = settings(max_examples=15)


@pytest.fixture(params=list(BACKENDS))
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def _frames(columns: Columns, backend: str) -> tuple[Any, Any]:
    """The frame for the engine and an eager frame of the same backend for accord in memory."""
    return BACKENDS[backend](columns), EAGER[backend](columns)


def _by_unit(rc: RaterCounts) -> dict[Any, list[int]]:
    assert rc.unit_ids is not None
    return {u: row.tolist() for u, row in zip(rc.unit_ids, rc.counts)}


def _sorted_rows(counts: np.ndarray) -> list[list[int]]:
    return sorted(counts.tolist())


def _fleiss_rows(ds: Any) -> Columns:
    return {r: [row[j] for row in ds.data] for j, r in enumerate(ds.raters)}


# --------------------------------------------------------------------- published examples
class TestPublished:
    def test_cohen_1960_wide(self, backend: str) -> None:
        ds = accord.datasets.load("cohen_1960")
        a = [ds.categories[i] for i, row in enumerate(ds.data) for j, n in enumerate(row)
             for _ in range(n)]
        b = [ds.categories[j] for i, row in enumerate(ds.data) for j, n in enumerate(row)
             for _ in range(n)]
        frame, eager = _frames({"A": a, "B": b}, backend)
        table, audit = contingency_table(frame, raters=("A", "B"))
        assert table.counts.tolist() == [list(map(float, row)) for row in ds.data]
        assert table.categories == tuple(ds.categories)
        assert table.p_o == pytest.approx(ds.published["p_o"], abs=TOL)
        assert table.p_e == pytest.approx(ds.published["p_e"], abs=TOL)
        kappa = accord.cohen_kappa(table).estimate
        assert kappa == pytest.approx(ds.published["cohen_kappa"], abs=5e-4)
        assert kappa == pytest.approx(accord.cohen_kappa(eager, raters=["A", "B"]).estimate,
                                      abs=TOL)
        assert (audit.rows_read, audit.ratings_used, dict(audit.dropped)) == (200, 200, {})

    def test_fleiss_1971_wide_and_long(self, backend: str) -> None:
        ds = accord.datasets.load("fleiss_1971_wide")
        published = RaterCounts(accord.datasets.load("fleiss_1971").data)
        wide, eager = _frames(_fleiss_rows(ds), backend)
        rc, audit = rater_counts(wide, raters=list(ds.raters), categories=ds.categories)
        assert _sorted_rows(rc.counts) == _sorted_rows(published.counts)
        assert (audit.rows_read, audit.ratings_used) == (180, 180)
        kappa = accord.fleiss_kappa(rc).estimate
        assert kappa == pytest.approx(ds.published["fleiss_kappa"], abs=5e-4)
        assert kappa == pytest.approx(accord.fleiss_kappa(eager).estimate, abs=TOL)
        long = {"patient": [], "psychiatrist": [], "diagnosis": []}
        for i, row in enumerate(ds.data):
            for r, x in zip(ds.raters, row):
                long["patient"].append(i)
                long["psychiatrist"].append(r)
                long["diagnosis"].append(x)
        rc_long, _ = rater_counts(BACKENDS[backend](long), unit="patient",
                                  rater="psychiatrist", value="diagnosis")
        assert rc_long.counts.tolist() == published.counts.tolist()
        assert rc_long.unit_ids == tuple(range(30))


# --------------------------------------------------------------------- random data
LABELS = ["a", "b", "c", "NA", "", None, "  "]


@st.composite
def long_tables(draw: st.DrawFn) -> Columns:
    """Long rows with missing values, identical repeats and an unused fourth rater."""
    cells = draw(st.dictionaries(
        st.tuples(st.integers(0, 7), st.sampled_from(["r1", "r2", "r3"])),
        st.sampled_from(LABELS), min_size=1, max_size=24,
    ))
    rows = [(u, r, x) for (u, r), x in cells.items()]
    repeats = draw(st.lists(st.sampled_from(rows), max_size=4))
    rows = draw(st.permutations(rows + repeats))
    return {"unit": [u for u, _, _ in rows], "rater": [r for _, r, _ in rows],
            "value": [x for _, _, x in rows]}


def _in_memory(eager: Any, **columns: Any) -> Annotations:
    return Annotations.from_long(eager, missing=(*MISSING_MARKERS, "  "), **columns)


def _same_outcome(engine: Callable[[], Any], memory: Callable[[], Any]) -> tuple[Any, Any] | None:
    """Both succeed (return both), or both raise a DataError (return None)."""
    try:
        expected = memory()
    except DataError:
        with pytest.raises(DataError):
            engine()
        return None
    return engine(), expected


def _check_audit(audit: accord.Audit) -> None:
    assert audit.rows_read == audit.ratings_used + sum(audit.dropped.values())


def _assert_same_coefficients(rc: RaterCounts, ann: Annotations) -> None:
    """Count-based coefficients from the engine's counts equal accord's in memory.

    Fleiss' kappa and Krippendorff's alpha are compared with the raw annotations.
    With exactly two raters, accord's AC1, Brennan-Prediger and percent agreement
    take the two-rater definitions on raw data (units rated by both only), while
    RaterCounts always gives the many-rater ones; those are then compared with
    the in-memory RaterCounts.
    """
    memory = RaterCounts.from_annotations(ann)
    for name in ("fleiss_kappa", "krippendorff_alpha", "gwet_ac1", "brennan_prediger",
                 "percent_agreement"):
        fn = getattr(accord, name)
        raw = name in ("fleiss_kappa", "krippendorff_alpha") or ann.n_raters > 2
        want = _quiet(fn, ann if raw else memory)
        assert _quiet(fn, rc) == pytest.approx(want, abs=TOL, nan_ok=True), name


def _quiet(fn: Callable[..., Any], data: Any, **kw: Any) -> float:
    """The estimate; a degenerate case must warn (and both paths then agree on nan)."""
    import warnings

    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        est = float(fn(data, **kw).estimate)
    assert np.isnan(est) == any(issubclass(w.category, accord.DegenerateDataWarning)
                                for w in seen)
    return est


class TestLongAgainstMemory:
    @FAST
    @given(columns=long_tables(), name=st.sampled_from(list(BACKENDS)))
    def test_rater_counts(self, columns: Columns, name: str) -> None:
        frame, eager = _frames(columns, name)

        def memory() -> Annotations:
            return _in_memory(eager)

        both = _same_outcome(lambda: rater_counts(frame, unit="unit", rater="rater",
                                                  value="value"), memory)
        if both is None:
            return
        (rc, audit), ann = both
        assert _by_unit(rc) == _by_unit(RaterCounts.from_annotations(ann))
        assert rc.categories == ann.categories
        assert audit.ratings_used == ann.audit.ratings_used
        assert audit.dropped.get("missing value", 0) == ann.audit.dropped.get("missing value", 0)
        _check_audit(audit)
        _assert_same_coefficients(rc, ann)
        patterns, audit_p = rater_counts(frame, unit="unit", rater="rater", value="value",
                                         by_unit=False)
        assert patterns.unit_ids is None and audit_p == audit
        assert patterns.counts.tolist() == _sorted_rows(rc.counts)
        _assert_same_coefficients(patterns, ann)

    @FAST
    @given(columns=long_tables(), name=st.sampled_from(list(BACKENDS)))
    def test_contingency_table(self, columns: Columns, name: str) -> None:
        frame, eager = _frames(columns, name)
        keep = [i for i, r in enumerate(columns["rater"]) if r in ("r1", "r2")]
        pair = {k: [col[i] for i in keep] for k, col in columns.items()}

        def memory() -> ContingencyTable:
            ann = _in_memory(EAGER[name](pair))
            return ContingencyTable.from_annotations(ann, ["r1", "r2"])

        both = _same_outcome(lambda: contingency_table(
            frame, unit="unit", rater="rater", value="value", raters=("r1", "r2")), memory)
        if both is None:
            return
        (table, audit), expected = both
        assert table == expected
        _check_audit(audit)
        assert audit.ratings_used == 2 * table.n
        kappa = _quiet(accord.cohen_kappa, table)
        ann = _in_memory(eager)
        assert kappa == pytest.approx(_quiet(accord.cohen_kappa, ann, raters=["r1", "r2"]),
                                      abs=TOL, nan_ok=True)


@st.composite
def wide_tables(draw: st.DrawFn) -> Columns:
    n = draw(st.integers(1, 12))
    pool = draw(st.sampled_from([[1, 2, 3, None], ["x", "y", "NA", "", None],
                                 [1.5, 2.5, float("nan"), None]]))
    labels = st.sampled_from(pool)
    return {f"c{j}": draw(st.lists(labels, min_size=n, max_size=n)) for j in range(3)}


class TestWideAgainstMemory:
    @FAST
    @given(columns=wide_tables(), name=st.sampled_from(list(BACKENDS)))
    def test_rater_counts_patterns(self, columns: Columns, name: str) -> None:
        frame, eager = _frames(columns, name)
        both = _same_outcome(lambda: rater_counts(frame, raters=["c0", "c1", "c2"]),
                             lambda: Annotations.from_wide(eager, raters=["c0", "c1", "c2"],
                                                           missing=MISSING_MARKERS))
        if both is None:
            return
        (rc, audit), ann = both
        expected = RaterCounts.from_annotations(ann)
        assert _sorted_rows(rc.counts) == _sorted_rows(expected.counts)
        assert rc.categories == ann.categories
        assert (audit.rows_read, audit.ratings_used) == (ann.audit.rows_read,
                                                         ann.audit.ratings_used)
        assert dict(audit.dropped) == dict(ann.audit.dropped)
        _assert_same_coefficients(rc, ann)

    @FAST
    @given(columns=wide_tables(), name=st.sampled_from(list(BACKENDS)))
    def test_contingency_table(self, columns: Columns, name: str) -> None:
        frame, eager = _frames(columns, name)

        def memory() -> ContingencyTable:
            return ContingencyTable.from_annotations(
                Annotations.from_wide(eager, raters=["c0", "c1"], missing=MISSING_MARKERS))

        both = _same_outcome(lambda: contingency_table(frame, raters=("c0", "c1")), memory)
        if both is None:
            return
        (table, audit), expected = both
        assert table == expected
        _check_audit(audit)
        assert audit.ratings_used == table.n
        ann = Annotations.from_wide(eager, raters=["c0", "c1"], missing=MISSING_MARKERS)
        # weights need the order declared when the labels are text, on both paths alike
        assert table.ordered == ann.ordered
        order = {"categories": list(table.categories)}
        assert _quiet(accord.cohen_kappa, table, weights="quadratic", **order) == pytest.approx(
            _quiet(accord.cohen_kappa, ann, weights="quadratic", **order), abs=TOL, nan_ok=True)

    def test_wide_with_unit_column_matches_long(self, backend: str) -> None:
        columns = {"id": ["u1", "u2", "u3", "u4"], "x": ["a", "b", None, "a"],
                   "y": ["a", "a", "b", "NA"], "z": ["b", "b", "b", "a"]}
        rc, audit = rater_counts(BACKENDS[backend](columns), raters=["x", "y", "z"], unit="id")
        ann = Annotations.from_wide(EAGER[backend](columns), raters=["x", "y", "z"], unit="id",
                                    missing=MISSING_MARKERS)
        assert _by_unit(rc) == _by_unit(RaterCounts.from_annotations(ann))
        assert (audit.rows_read, audit.ratings_used, dict(audit.dropped)) == (
            12, 10, {"missing value": 2})


class TestAgainstPeers:
    def test_counts_equal_statsmodels_aggregate_raters(self, backend: str) -> None:
        from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa

        rng = np.random.default_rng(11)
        data = rng.integers(0, 4, size=(300, 5))
        columns = {f"r{j}": data[:, j].tolist() for j in range(5)}
        rc, _ = rater_counts(BACKENDS[backend](columns), raters=list(columns))
        table, cats = aggregate_raters(data)  # statsmodels 0.15.0
        assert rc.categories == tuple(cats.tolist())
        assert _sorted_rows(rc.counts) == _sorted_rows(table)
        assert accord.fleiss_kappa(rc).estimate == pytest.approx(fleiss_kappa(table), abs=TOL)

    def test_table_equals_sklearn_confusion_matrix(self, backend: str) -> None:
        from sklearn.metrics import cohen_kappa_score, confusion_matrix

        rng = np.random.default_rng(12)
        a = rng.choice(["neg", "neu", "pos"], size=400)
        b = np.where(rng.random(400) < 0.7, a, rng.choice(["neg", "neu", "pos"], size=400))
        table, _ = contingency_table(BACKENDS[backend]({"a": a.tolist(), "b": b.tolist()}),
                                     raters=("a", "b"))
        # scikit-learn 1.9.1: rows are y_true (a), columns y_pred (b), labels sorted
        assert table.counts.tolist() == confusion_matrix(a, b).astype(float).tolist()
        # weighted: scikit-learn uses the sorted text labels as the scale; accord does too
        # but warns that nobody declared that order
        order = ["neg", "neu", "pos"]
        assert accord.cohen_kappa(table, weights="linear", categories=order).estimate == (
            pytest.approx(cohen_kappa_score(a, b, weights="linear", labels=order), abs=TOL))
        with pytest.warns(accord.UndeclaredOrderWarning, match="sorted text labels"):
            accord.cohen_kappa(table, weights="linear")


# --------------------------------------------------------------------- behaviour
class TestDuplicates:
    COLUMNS: Columns = {"unit": [1, 1, 1, 2, 2, 2], "rater": ["a", "b", "a", "a", "b", "b"],
                        "value": ["x", "y", "z", "x", "x", "x"]}

    def _memory_message(self) -> str:
        with pytest.raises(DuplicateRatingError) as info:
            Annotations.from_long(self.COLUMNS)
        return str(info.value)

    def test_rater_counts_raises_the_in_memory_sentence(self, backend: str) -> None:
        with pytest.raises(DuplicateRatingError) as info:
            rater_counts(BACKENDS[backend](self.COLUMNS), unit="unit", rater="rater",
                         value="value")
        head = self._memory_message().split(";")[0]
        assert head == "1 unit(s) were rated twice by the same rater with different values " \
                       "(unit 1 by rater 'a')"
        assert str(info.value).startswith(head + ";")
        assert "no order" in str(info.value)

    def test_contingency_table_raises_the_in_memory_sentence(self, backend: str) -> None:
        with pytest.raises(DuplicateRatingError) as info:
            contingency_table(BACKENDS[backend](self.COLUMNS), unit="unit", rater="rater",
                              value="value", raters=("a", "b"))
        assert str(info.value).startswith(self._memory_message().split(";")[0] + ";")

    def test_many_clashes_counted_and_three_shown(self) -> None:
        cols = {"unit": [u for u in range(5) for _ in range(2)], "rater": ["a"] * 10,
                "value": ["x", "y"] * 5}
        with pytest.raises(DuplicateRatingError, match=r"^5 unit\(s\).*unit 2 by rater 'a' "
                                                       r"and 2 more\);"):
            rater_counts(pl.DataFrame(cols), unit="unit", rater="rater", value="value")

    def test_identical_repeats_collapse_and_are_audited(self, backend: str) -> None:
        cols = {"unit": [1, 1, 1, 2, 2], "rater": ["a", "a", "b", "a", "b"],
                "value": ["x", "x", "x", "y", "x"]}
        rc, audit = rater_counts(BACKENDS[backend](cols), unit="unit", rater="rater",
                                 value="value")
        assert rc.counts.tolist() == [[2, 0], [1, 1]]
        assert dict(audit.dropped) == {"identical repeated rating": 1}
        table, audit2 = contingency_table(BACKENDS[backend](cols), unit="unit", rater="rater",
                                          value="value", raters=("a", "b"))
        assert table.counts.tolist() == [[1.0, 0.0], [1.0, 0.0]]
        assert dict(audit2.dropped) == {"identical repeated rating": 1}


    def test_wide_with_unit_column_finds_duplicates(self) -> None:
        cols = {"id": ["u1", "u1", "u2"], "x": ["a", "b", "a"], "y": ["a", "a", "b"]}
        message = r"^1 unit\(s\).*\(unit 'u1' by rater 'x'\);"
        with pytest.raises(DuplicateRatingError, match=message):
            rater_counts(pl.LazyFrame(cols), raters=["x", "y"], unit="id")


class TestMissingAndCategories:
    def test_markers_nan_and_custom_numeric_marker(self, backend: str) -> None:
        cols = {"a": [1.0, 2.0, float("nan"), -9.0, 1.0], "b": [1.0, 1.0, 2.0, 2.0, -9.0]}
        table, audit = contingency_table(BACKENDS[backend](cols), raters=("a", "b"),
                                         missing=[-9])
        assert table.categories == (1.0, 2.0)
        assert table.counts.tolist() == [[1.0, 0.0], [1.0, 0.0]]
        assert dict(audit.dropped) == {"missing value in either column": 3}

    def test_integer_labels_stay_integers_when_missing_values_are_nulled(
        self, backend: str
    ) -> None:
        # pandas turns an integer column into floats once the engine nulls the -9
        cols = {"u": [1, 1, 2, 2, 3], "r": ["a", "b", "a", "b", "a"], "v": [3, 3, 1, -9, 2]}
        rc, audit = rater_counts(BACKENDS[backend](cols), unit="u", rater="r", value="v",
                                 missing=[-9])
        assert audit.dropped == {"missing value": 1}
        assert rc.categories == (1, 2, 3)
        assert all(type(c) is int for c in rc.categories)
        assert all(type(u) is int for u in (rc.unit_ids or ()))

    def test_declared_categories_keep_unused_ones(self, backend: str) -> None:
        cols = {"a": ["lo", "hi", "lo"], "b": ["lo", "hi", "hi"]}
        table, _ = contingency_table(BACKENDS[backend](cols), raters=("a", "b"),
                                     categories=["lo", "mid", "hi"])
        assert table.categories == ("lo", "mid", "hi")
        assert table.counts.tolist() == [[1, 0, 1], [0, 0, 0], [0, 0, 1]]
        expected = accord.cohen_kappa(EAGER[backend](cols), raters=["a", "b"],
                                      categories=["lo", "mid", "hi"], weights="linear")
        assert accord.cohen_kappa(table, weights="linear").estimate == pytest.approx(
            expected.estimate, abs=TOL)

    def test_undeclared_label_raises_the_in_memory_sentence(self) -> None:
        cols = {"a": ["lo", "hi"], "b": ["lo", "top"]}
        with pytest.raises(UnknownCategoryError) as memory:
            Annotations.from_wide(cols, categories=["lo", "hi"])
        with pytest.raises(UnknownCategoryError) as engine:
            contingency_table(pl.DataFrame(cols), raters=("a", "b"), categories=["lo", "hi"])
        assert str(engine.value) == str(memory.value)

    def test_categorical_columns_are_read_as_text(self) -> None:
        frame = pl.DataFrame({"a": ["x", "y", "x"], "b": ["x", "y", "y"]},
                             schema={"a": pl.Categorical, "b": pl.Categorical})
        table, _ = contingency_table(frame.lazy(), raters=("a", "b"))
        assert table.categories == ("x", "y")
        assert table.counts.tolist() == [[1, 1], [0, 1]]

    def test_missing_ids_are_dropped_and_counted(self) -> None:
        cols = {"u": [1, 1, None, 2, 2, 3], "r": ["a", "b", "a", "a", "", "b"],
                "v": ["x", "x", "y", "y", "x", None]}
        rc, audit = rater_counts(pl.DataFrame(cols), unit="u", rater="r", value="v")
        assert rc.counts.tolist() == [[2, 0], [0, 1]]
        assert rc.unit_ids == (1, 2)
        assert audit.dropped == {"missing unit or rater id": 2, "missing value": 1}
        ann = Annotations.from_long(cols, unit="u", rater="r", value="v")
        assert dict(ann.audit.dropped) == dict(audit.dropped)


class TestScale:
    def test_many_categories_give_a_sparse_table(self) -> None:
        rng = np.random.default_rng(7)
        a = rng.integers(0, 3000, size=6000)
        b = np.where(rng.random(6000) < 0.6, a, rng.integers(0, 3000, size=6000))
        table, _ = contingency_table(pl.LazyFrame({"a": a, "b": b}), raters=("a", "b"))
        assert table.is_sparse
        expected = accord.cohen_kappa(a, b).estimate
        assert accord.cohen_kappa(table).estimate == pytest.approx(expected, abs=TOL)

    def test_parquet_scan_on_the_streaming_engine(self, tmp_path: Any) -> None:
        rng = np.random.default_rng(3)
        n = 4000
        frame = pl.DataFrame({
            "item": np.repeat(np.arange(n // 4), 4),
            "coder": np.tile(["p", "q", "r", "s"], n // 4),
            "label": rng.choice(["neg", "neu", "pos", "NA"], size=n, p=[0.3, 0.3, 0.3, 0.1]),
        })
        path = tmp_path / "long.parquet"
        frame.write_parquet(path)
        rc, audit = rater_counts(pl.scan_parquet(path), unit="item", rater="coder",
                                 value="label")
        ann = Annotations.from_long(frame, unit="item", rater="coder", value="label",
                                    missing=["NA"])
        assert _by_unit(rc) == _by_unit(RaterCounts.from_annotations(ann))
        assert audit.dropped == ann.audit.dropped
        assert accord.fleiss_kappa(rc).estimate == pytest.approx(
            accord.fleiss_kappa(ann).estimate, abs=TOL)

    def test_inference_runs_on_engine_statistics(self) -> None:
        cols = {"a": list("xxyyzzxyzx"), "b": list("xxyzzzxyyx")}
        table, _ = contingency_table(pl.DataFrame(cols), raters=("a", "b"))
        res = accord.cohen_kappa(table)
        assert res.resampling is not None
        assert res.resampling().full() == pytest.approx(res.estimate, abs=TOL)
        ci = res.confidence_interval(method=accord.Bootstrap(n_resamples=200, rng=1))
        assert ci.low <= res.estimate <= ci.high


def _assert_same_intervals(engine: Any, memory: Any, fn: Callable[..., Any]) -> None:
    """Estimate, SE and the asymptotic, jackknife and bootstrap (same seed) intervals agree."""
    a, b = fn(engine), fn(memory)
    assert (a.estimate, a.se, a.n_units) == pytest.approx((b.estimate, b.se, b.n_units), abs=TOL)
    for method in ("asymptotic", "jackknife", accord.Bootstrap(n_resamples=300, rng=11)):
        ci, want = a.confidence_interval(method=method), b.confidence_interval(method=method)
        assert (ci.low, ci.high) == pytest.approx((want.low, want.high), abs=TOL), method
        assert ci.low < a.estimate < ci.high


class TestIntervalsFromPatterns:
    """Intervals from the engine's pattern counts equal those from the raw rows in memory."""

    def _fleiss_long(self) -> Columns:
        ds = accord.datasets.load("fleiss_1971_wide")
        rows = [(i, r, x) for i, row in enumerate(ds.data) for r, x in zip(ds.raters, row)]
        return {"patient": [u for u, _, _ in rows], "psychiatrist": [r for _, r, _ in rows],
                "diagnosis": [x for _, _, x in rows]}

    def test_rater_count_patterns(self, backend: str) -> None:
        cols = self._fleiss_long()
        names = {"unit": "patient", "rater": "psychiatrist", "value": "diagnosis"}
        rc, audit = rater_counts(BACKENDS[backend](cols), **names, by_unit=False)
        ann = Annotations.from_long(cols, **names)
        memory = RaterCounts.from_annotations(ann)
        assert rc.unit_ids is None and (audit.rows_read, audit.ratings_used) == (180, 180)
        for got, want in zip(rc.patterns()[:2], memory.patterns()[:2]):
            assert got.tolist() == want.tolist()
        assert len(rc.patterns()[1]) < rc.n_units  # 30 patients, fewer distinct patterns
        for fn in (accord.fleiss_kappa, accord.gwet_ac1, accord.brennan_prediger):
            _assert_same_intervals(rc, ann, fn)

    def test_patterns_keep_declared_categories_in_their_order(self, backend: str) -> None:
        cols = {"unit": [1, 1, 2, 2, 3, 3, 4, 4], "rater": list("abababab"),
                "value": ["y", "y", "x", "y", "y", "y", "NA", "x"]}
        rc, audit = rater_counts(BACKENDS[backend](cols), unit="unit", rater="rater",
                                 value="value", categories=["z", "y", "x"], by_unit=False)
        assert rc.categories == ("z", "y", "x") and rc.unit_ids is None
        assert rc.counts.tolist() == [[0, 0, 1], [0, 1, 1], [0, 2, 0], [0, 2, 0]]
        assert dict(audit.dropped) == {"missing value": 1}
        with pytest.raises(InsufficientDataError, match="no unit was rated by two"):
            rater_counts(BACKENDS[backend]({k: v[:1] for k, v in cols.items()}), unit="unit",
                         rater="rater", value="value", by_unit=False)
        with pytest.raises(InsufficientDataError, match="no unit was rated by two"):
            rater_counts(BACKENDS[backend]({**cols, "value": ["NA"] * 8}), unit="unit",
                         rater="rater", value="value", by_unit=False)

    def test_contingency_table_cells(self, backend: str) -> None:
        cols = self._fleiss_long()
        names = {"unit": "patient", "rater": "psychiatrist", "value": "diagnosis"}
        pair = ("rater1", "rater2")
        table, _ = contingency_table(BACKENDS[backend](cols), raters=pair, **names)
        ann = Annotations.from_long(cols, **names)

        def kappa(data: Any) -> Any:
            if isinstance(data, Annotations):
                return accord.cohen_kappa(data, raters=list(pair))
            return accord.cohen_kappa(data)

        _assert_same_intervals(table, ann, kappa)


class TestErrors:
    def test_not_a_frame(self) -> None:
        with pytest.raises(InvalidParameterError, match="'frame' parameter of accord.engines"):
            rater_counts([[1, 2]], raters=["a", "b"])

    def test_absent_columns(self) -> None:
        with pytest.raises(DataError, match=r"column\(s\) \['z'\] not found"):
            contingency_table(pl.DataFrame({"a": [1], "b": [1]}), raters=("a", "z"))

    @pytest.mark.parametrize("raters", ["ab", ("a",), ("a", "a"), ("a", "b", "c")])
    def test_bad_pair(self, raters: Any) -> None:
        with pytest.raises(InvalidParameterError, match="'raters' parameter"):
            contingency_table(pl.DataFrame({"a": [1], "b": [1]}), raters=raters)

    @pytest.mark.parametrize("option", ["categories", "missing"])
    def test_a_bare_string_is_not_split(self, option: str) -> None:
        frame = pl.DataFrame({"a": ["NA", "x"], "b": ["x", "x"]})
        with pytest.raises(InvalidParameterError, match=f"'{option}' parameter.*a list"):
            contingency_table(frame, raters=("a", "b"), **{option: "NA"})
        with pytest.raises(InvalidParameterError, match=f"'{option}' parameter.*a list"):
            rater_counts(frame, raters=["a", "b"], **{option: "NA"})
        with pytest.raises(InvalidParameterError, match="'raters' parameter.*a list"):
            rater_counts(frame, raters="ab")

    def test_layout_must_be_named(self) -> None:
        frame = pl.DataFrame({"u": [1], "r": ["a"], "v": [1]})
        with pytest.raises(InvalidParameterError, match="'raters' parameter"):
            rater_counts(frame)
        with pytest.raises(InvalidParameterError, match="'unit' parameter"):
            rater_counts(frame, rater="r", value="v")
        with pytest.raises(InvalidParameterError, match="'raters' parameter"):
            rater_counts(frame, unit="u", rater="r", value="v", raters=["a", "b"])

    def test_rater_ids_of_the_wrong_type(self) -> None:
        frame = pl.DataFrame({"u": [1, 1], "r": [1, 2], "v": ["x", "y"]})
        with pytest.raises(InvalidParameterError, match="ids of the 'r' column's type"):
            contingency_table(frame, unit="u", rater="r", value="v", raters=("1", "2"))

    def test_absent_rater_id(self) -> None:
        frame = pl.DataFrame({"u": [1, 1], "r": ["a", "b"], "v": ["x", "y"]})
        with pytest.raises(DataError, match=r"rater\(s\) \['c'\] not found in the 'r' column"):
            contingency_table(frame, unit="u", rater="r", value="v", raters=("a", "c"))

    def test_no_unit_rated_by_both(self) -> None:
        cols = {"a": ["x", None], "b": [None, "y"]}
        with pytest.raises(DataError, match="no unit was rated by both 'a' and 'b'"):
            contingency_table(pd.DataFrame(cols), raters=("a", "b"))

    def test_no_unit_rated_twice(self) -> None:
        frame = pa.table({"u": [1, 2], "r": ["a", "b"], "v": ["x", "y"]})
        with pytest.raises(InsufficientDataError, match="no unit was rated by two or more"):
            rater_counts(frame, unit="u", rater="r", value="v")
        with pytest.raises(InsufficientDataError, match="at least two raters"):
            rater_counts(frame, raters=["v"])


def test_result_unpacks_and_is_frozen() -> None:
    res = rater_counts(pl.DataFrame({"a": [1, 2], "b": [1, 1]}), raters=["a", "b"])
    assert isinstance(res, EngineResult)
    statistic, audit = res
    assert statistic is res.statistic and audit is res.audit
    with pytest.raises(AttributeError):
        res.statistic = None  # type: ignore[misc]

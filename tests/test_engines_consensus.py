"""accord.engines.consensus: majority, Wawa, one-coin, Dawid-Skene and MACE run by an engine.

The oracle is accord's in-memory :func:`accord.consensus` (itself checked against
crowd-kit 1.4 in tests/test_annotators_crowdkit.py: the posteriors of ``MajorityVote``,
``Wawa``, ``OneCoinDawidSkene`` and ``DawidSkene``; ``MACE``, which starts from a random
draw by design, on accuracy) on the same rows, read by ``Annotations.from_long``: labels
equal, posteriors, the fitted parameters (prior, confusion matrices, accuracies, skills,
competences and strategies) and the log-likelihood to 1e-9, and the same number of
iterations (plain EM, or E steps under SQUAREM with ``accelerate=True``). Data:
examples/crowd.csv and a seeded synthetic crowd. Here the frames are polars
(eager and lazy), pandas and pyarrow; DuckDB, Dask and Spark run the same
checks in test_engines_distributed.py (the ``engines`` lane).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

import accord
from accord.engines import EngineResult, consensus
from accord.errors import (
    ConvergenceWarning,
    DuplicateRatingError,
    InsufficientDataError,
    InvalidParameterError,
)
from tests.test_engines import BACKENDS

Columns = dict[str, list[Any]]
TOL = 1e-9
CROWD = Path(__file__).resolve().parents[1] / "examples" / "crowd.csv"
CROWD_COLS = {"unit": "image", "rater": "worker", "value": "label"}
COLS = {"unit": "unit", "rater": "rater", "value": "value"}
ACCELERATED = ("one_coin", "dawid_skene")
EM = (*ACCELERATED, "mace")
#: Every way the engines fit a consensus: (method, options); the in-memory
#: accord.consensus with the same options is the oracle.
FITS = [
    *(pytest.param(m, {}, id=m) for m in ("majority", "wawa", *EM)),
    *(pytest.param(m, {"accelerate": True}, id=f"{m}-accelerated") for m in ACCELERATED),
]
#: The EM fits, plain and accelerated.
EM_FITS = [f for f in FITS if f.values[0] in EM]


def crowd_columns() -> Columns:
    """examples/crowd.csv as columns."""
    df = pd.read_csv(CROWD)
    return {c: df[c].tolist() for c in df.columns}


def synthetic_crowd(n_units: int = 300, n_raters: int = 12, seed: int = 7) -> Columns:
    """A seeded crowd: 3 classes, 3 to 5 raters per unit, each rater with a confusion matrix."""
    rng = np.random.default_rng(seed)
    k, labels = 3, np.array(["cat", "dog", "fox"])
    truth = rng.choice(k, size=n_units, p=[0.5, 0.3, 0.2])
    skill = rng.uniform(0.45, 0.95, size=n_raters)
    units, raters, values = [], [], []
    for u in range(n_units):
        for r in rng.choice(n_raters, size=int(rng.integers(3, 6)), replace=False):
            right = rng.random() < skill[r]
            given = truth[u] if right else rng.choice([c for c in range(k) if c != truth[u]])
            units.append(int(u) + 1000)
            raters.append(f"w{int(r):02d}")
            values.append(str(labels[given]))
    return {"unit": units, "rater": raters, "value": values}


def in_memory(columns: Columns, cols: dict[str, str], method: str, **kw: Any) -> Any:
    ann = accord.Annotations.from_long(pd.DataFrame(columns), **cols, missing=["NA"])
    return accord.consensus(ann, method=method, **kw)


def assert_same(got: Any, want: Any) -> None:
    """Engine and in-memory results agree, matching units and raters by id."""
    assert got.method == want.method and got.categories == want.categories
    assert sorted(got.units) == sorted(want.units) and list(got.units) == sorted(got.units)
    assert sorted(got.raters) == sorted(want.raters)
    u = [want.units.index(x) for x in got.units]
    r = [want.raters.index(x) for x in got.raters]
    assert dict(got.labels) == dict(want.labels)
    np.testing.assert_allclose(got.posterior, want.posterior[u], rtol=0, atol=TOL)
    assert got.n_ratings.tolist() == want.n_ratings[u].tolist()
    assert (got.n_iter, got.converged, got.notes) == (want.n_iter, want.converged, want.notes)
    assert set(got.parameters) == set(want.parameters)
    for name, value in got.parameters.items():
        expected = np.asarray(want.parameters[name])
        expected = expected if name == "prior" else expected[r]
        np.testing.assert_allclose(value, expected, rtol=0, atol=TOL, err_msg=name)
    if want.method in ("majority", "wawa"):  # no model, no likelihood
        assert np.isnan(got.log_likelihood) and np.isnan(want.log_likelihood)
    else:
        assert got.log_likelihood == pytest.approx(want.log_likelihood, rel=TOL, abs=0)
        assert got.last_change == pytest.approx(want.last_change, rel=1e-6, abs=1e-12)


@pytest.fixture(params=list(BACKENDS))
def make(request: pytest.FixtureRequest) -> Callable[[Columns], Any]:
    return BACKENDS[str(request.param)]


class TestSameAsInMemory:
    @pytest.mark.parametrize(("method", "options"), FITS)
    def test_crowd_csv(self, make: Callable[[Columns], Any], method: str,
                       options: dict[str, Any]) -> None:
        columns = crowd_columns()
        got, audit = consensus(make(columns), **CROWD_COLS, method=method, **options)
        assert_same(got, in_memory(columns, CROWD_COLS, method, **options))
        assert (audit.rows_read, audit.ratings_used, dict(audit.dropped)) == (800, 800, {})

    @pytest.mark.parametrize(("method", "options"), EM_FITS)
    def test_synthetic_crowd(self, method: str, options: dict[str, Any]) -> None:
        columns = synthetic_crowd()
        want = in_memory(columns, COLS, method, **options)
        assert want.n_iter > 5  # a real run, not a start that already meets tol
        for name in ("polars-lazy", "pandas"):
            got, _ = consensus(BACKENDS[name](columns), **COLS, method=method, **options)
            assert_same(got, want)

    @pytest.mark.parametrize("method", ACCELERATED)
    def test_acceleration_takes_fewer_passes_to_the_same_labels(self, method: str) -> None:
        columns = synthetic_crowd()
        frame = BACKENDS["polars-lazy"](columns)
        plain, _ = consensus(frame, **COLS, method=method)
        fast, _ = consensus(frame, **COLS, method=method, accelerate=True)
        assert fast.n_iter < plain.n_iter and dict(fast.labels) == dict(plain.labels)

    def test_integer_ids_and_number_labels(self) -> None:
        """Labels keep the frame's dtype; narrow integer ids still join with the codes."""
        import polars as pl

        crowd = synthetic_crowd(n_units=80)
        codes = {"cat": 1, "dog": 2, "fox": 3}
        columns = {"unit": crowd["unit"], "rater": [int(r[1:]) for r in crowd["rater"]],
                   "value": [codes[x] for x in crowd["value"]]}
        halves = {**columns, "value": [x / 2 + 0.25 for x in columns["value"]]}
        narrow = {"unit": pl.Int16, "rater": pl.Int32}
        for cols in (columns, halves):
            want = in_memory(cols, COLS, "dawid_skene")
            for frame in (pl.DataFrame(cols, schema_overrides=narrow).lazy(),
                          pd.DataFrame(cols)):
                got, _ = consensus(frame, **COLS)
                assert_same(got, want)
        assert got.categories == (0.75, 1.25, 1.75) and got.raters[:2] == (0, 1)
        assert got.notes[-1].startswith("The labels are non-integer numbers (0.75, 1.25")

    @pytest.mark.parametrize("method", ["dawid_skene", "mace"])
    def test_declared_categories_keep_an_unused_one(self, method: str) -> None:
        columns, cats = crowd_columns(), ["cat", "dog", "other", "zebra"]
        got, _ = consensus(BACKENDS["polars-lazy"](columns), **CROWD_COLS, categories=cats,
                           method=method)
        assert got.categories == tuple(cats) and got.posterior[:, 3].max() == 0  # zebra
        assert_same(got, in_memory(columns, CROWD_COLS, method, categories=cats))

    def test_mace_runs_plain_em_when_asked_to_accelerate_as_in_memory(self) -> None:
        columns = crowd_columns()
        got, _ = consensus(pd.DataFrame(columns), **CROWD_COLS, method="mace", accelerate=True)
        assert_same(got, in_memory(columns, CROWD_COLS, "mace"))

    @pytest.mark.parametrize(("method", "accelerate"), [("dawid_skene", False),
                                                        ("dawid_skene", True), ("mace", False)])
    def test_the_iteration_cap_warns_as_in_memory(self, method: str, accelerate: bool) -> None:
        columns = synthetic_crowd(n_units=60)
        with pytest.warns(ConvergenceWarning, match=rf"^{method} did not converge in 5 "):
            got, _ = consensus(pd.DataFrame(columns), **COLS, tol=0, max_iter=5, method=method,
                               accelerate=accelerate)
        with pytest.warns(ConvergenceWarning):
            want = in_memory(columns, COLS, method, tol=0, max_iter=5, accelerate=accelerate)
        assert (got.n_iter, got.converged) == (5, False)
        assert_same(got, want)


#: Wawa's corner cases: units 3, 4 and 5 have a tied majority, so raters d and e (who
#: rated only unit 4) weigh 0, and unit 4 keeps its vote shares (a tie).
TIED: Columns = {
    "unit": [1, 1, 1, 2, 2, 2, 3, 3, 4, 4, 5, 5],
    "rater": ["a", "b", "c", "a", "b", "c", "a", "c", "d", "e", "b", "c"],
    "value": ["x", "x", "y", "y", "y", "y", "x", "y", "x", "y", "x", "y"],
}


def test_wawa_weighs_raters_without_a_majority_label_zero(make: Callable[[Columns], Any]
                                                          ) -> None:
    got, _ = consensus(make(TIED), **COLS, method="wawa")
    want = in_memory(TIED, COLS, "wawa")
    assert_same(got, want)
    assert got.notes[-1].startswith("2 annotator(s) rated only units whose majority is tied")
    assert got.tied == (4,) and got.parameters["skill"].tolist()[3:] == [0.0, 0.0]


MESSY: Columns = {
    "unit": [1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, None, 6, 6],
    "rater": ["a", "b", "c", "a", "b", "c", "a", "b", "c", "a", "b", "c", "a", "a", "c",
              "b", "a", "b"],
    "value": ["x", "x", "y", "y", "NA", "y", "z", "x", "", "x", "x", "x", "y", "y", "z",
              "x", None, "y"],
}


class TestMessyRatings:
    @pytest.mark.parametrize("method", ["majority", "wawa", *EM])
    def test_missing_values_and_repeats_in_the_audit(self, make: Callable[[Columns], Any],
                                                     method: str) -> None:
        got, audit = consensus(make(MESSY), **COLS, method=method)
        assert dict(audit.dropped) == {"missing value": 3, "missing unit or rater id": 1,
                                       "identical repeated rating": 1}
        assert (audit.rows_read, audit.ratings_used) == (18, 13)
        kept = pd.DataFrame(MESSY).dropna(subset=["unit"])
        kept = kept[~kept["value"].isin(["NA", ""])]
        want = in_memory({c: kept[c].tolist() for c in kept}, COLS, method)
        assert_same(got, want)
        assert got.single_rated == (6,)

    def test_a_duplicate_rating_raises_the_in_memory_sentence(
        self, make: Callable[[Columns], Any]
    ) -> None:
        cols = {k: [*v, x] for (k, v), x in zip(MESSY.items(), (4, "a", "y"))}
        with pytest.raises(DuplicateRatingError, match=r"^1 unit\(s\) were rated twice by "
                                                       r"the same rater with different values "
                                                       r"\(unit 4(\.0)? by rater 'a'\);"):
            consensus(make(cols), **COLS)  # pandas: the null unit id makes the ids floats


class TestRefused:
    def test_a_method_that_runs_in_memory_only(self) -> None:
        with pytest.raises(InvalidParameterError, match=r"must be one of \['majority', "
                           r"'wawa', 'one_coin', 'dawid_skene', 'mace'\]\. Got 'glad' instead: "
                           r"it runs in memory only \(accord\.consensus\)\.$"):
            consensus(pd.DataFrame(crowd_columns()), **CROWD_COLS, method="glad")  # type: ignore[arg-type]

    def test_an_unknown_method(self) -> None:
        with pytest.raises(InvalidParameterError, match=r"^The 'method' parameter of "
                           r"accord\.engines\.consensus must be one of"):
            consensus(pd.DataFrame(crowd_columns()), **CROWD_COLS, method="em")

    @pytest.mark.parametrize(("param", "value"), [("tol", -1.0), ("max_iter", 0),
                                                  ("threshold", 0.0), ("accelerate", 1)])
    def test_bad_options(self, param: str, value: Any) -> None:
        with pytest.raises(InvalidParameterError, match=rf"^The '{param}' parameter of "):
            consensus(pd.DataFrame(crowd_columns()), **CROWD_COLS, **{param: value})

    def test_one_category_in_use(self) -> None:
        cols = {"unit": [1, 1, 2], "rater": ["a", "b", "a"], "value": ["x", "x", "x"]}
        with pytest.raises(InsufficientDataError, match=r"every rating is 'x', so every "):
            consensus(pd.DataFrame(cols), **COLS)

    def test_no_ratings(self) -> None:
        cols = {"unit": [1, 2], "rater": ["a", "b"], "value": ["NA", None]}
        with pytest.raises(InsufficientDataError, match=r"the data hold no ratings"):
            consensus(pd.DataFrame(cols), **COLS)

    def test_a_missing_column(self) -> None:
        with pytest.raises(accord.errors.DataError, match=r"column\(s\) \['labels'\] not found"):
            consensus(pd.DataFrame(crowd_columns()), unit="image", rater="worker",
                      value="labels")


def test_returns_an_engine_result_and_degenerate_data_warns() -> None:
    cols = {"unit": [1, 1, 2, 2], "rater": ["a", "b", "a", "b"], "value": ["x", "y", "x", "y"]}
    with pytest.warns(accord.DegenerateDataWarning, match="the same label to all their units"):
        result = consensus(pd.DataFrame(cols), **COLS, method="majority")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", accord.DegenerateDataWarning)
        want = in_memory(cols, COLS, "majority")
    assert isinstance(result, EngineResult)
    assert result.statistic.notes == want.notes and result.statistic.tied == (1, 2)


@pytest.mark.parametrize(("method", "accelerate"), [("dawid_skene", False),
                                                    ("dawid_skene", True), ("mace", False)])
def test_only_small_tables_are_collected(monkeypatch: pytest.MonkeyPatch, method: str,
                                         accelerate: bool) -> None:
    """Per iteration (per E step, accelerated) one (rater, label) x classes table; the
    units' posteriors once, at the end."""
    from accord.engines import _frame

    heights: list[int] = []
    collect = _frame.collect

    def counted(lf: Any) -> Any:
        out = collect(lf)
        heights.append(len(out))
        return out

    monkeypatch.setattr(_frame, "collect", counted)
    columns = synthetic_crowd()
    got, audit = consensus(pl_lazy(columns), **COLS, method=method, accelerate=accelerate)
    n_keys = len({(r, x) for r, x in zip(columns["rater"], columns["value"])})
    assert audit.ratings_used == len(columns["unit"]) > 3 * len(got.units)
    assert heights.count(len(got.units)) == 1  # the posteriors, once
    assert max(h for h in heights if h != len(got.units)) <= n_keys < len(got.units)
    # the checks and coding, the start from the vote shares, one query per iteration, the end
    assert len(heights) == 4 + 1 + got.n_iter + 1


def pl_lazy(columns: Columns) -> Any:
    return BACKENDS["polars-lazy"](columns)

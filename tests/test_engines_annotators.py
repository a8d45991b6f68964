"""accord.engines.annotators: the per-annotator figures counted by an engine.

The oracle is accord's in-memory :func:`accord.annotators` on the same rows (read by
``Annotations.from_long``; a gold column given as ``reference=``, the mapping of unit to
gold label), itself checked against crowd-kit and cleanlab in tests/test_annotators_*.py:
every figure (accuracy, agreement with the consensus, kappa against the others with its
p_o and p_e, per-class recall, confusion matrix, competence, spammer score, label share,
bias, the pool's accuracy and share, the flags and their intervals) equal to 1e-9. Data:
Fleiss (1971, Table 1) as six ratings per patient, a seeded synthetic crowd (with and
without gold), a crowd with tied majorities, and a rater with one rating. Frames: polars
lazy, DuckDB, Dask and PySpark ``local[2]`` (the ``engines`` lane).
"""

from __future__ import annotations

import json
import math
import re
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import accord
from accord.engines import annotators
from accord.errors import DataError, InvalidParameterError
from tests.conftest import run_cli
from tests.test_engines_consensus import TIED, synthetic_crowd
from tests.test_engines_distributed import (  # noqa: F401 - fixtures used by _maker
    _fleiss_long,
    _maker,
    dask_cluster,
    spark,
)

pytestmark = [
    pytest.mark.engines,
    # narwhals 2.x announces that Dask support moves to a separate package (not yet released)
    pytest.mark.filterwarnings("ignore:Dask support is moving out of Narwhals:FutureWarning"),
]

Columns = dict[str, list[Any]]
TOL = 1e-9
COLS = {"unit": "unit", "rater": "rater", "value": "value"}
FLEISS = {"unit": "patient", "rater": "psychiatrist", "value": "diagnosis"}
ENGINES = ["polars-lazy", "duckdb", "dask", "spark"]
ROOT = Path(__file__).resolve().parents[1]
CROWD = str(ROOT / "examples" / "crowd.csv")
LONG = ("--unit", "image", "--rater", "worker", "--value", "label")


#: The fits Dask and Spark run (each EM iteration is a job there, seconds on a shared
#: machine): each code path once per engine, the vote, a fit read through its
#: confusion matrices (Dawid-Skene) and one read through its posterior mass (one-coin);
#: polars and DuckDB run every fit.
DISTRIBUTED = {
    "dask": {("majority", "fleiss"), ("majority", "synthetic"), ("one_coin", "synthetic"),
             ("dawid_skene", "gold"), ("majority", "gold"), ("majority", "ties"),
             ("wawa", "ties")},
    "spark": {("majority", "fleiss"), ("one_coin", "synthetic"), ("majority", "gold"),
              ("wawa", "ties")},
}


@pytest.fixture(params=ENGINES)
def engine(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def fits(data: str, methods: list[Any]) -> list[Any]:
    """``(engine, method, options)`` for every engine, where Dask and Spark run only the
    fits :data:`DISTRIBUTED` names for ``data`` (a method or a ``(method, options)``)."""
    out = []
    for name in ENGINES:
        for item in methods:
            method, options = item if isinstance(item, tuple) else (item, {})
            chosen = DISTRIBUTED.get(name)
            if chosen is None or (not options and (method, data) in chosen):
                suffix = "-" + "-".join(options) if options else ""
                out.append(pytest.param(name, method, options, id=f"{name}-{method}{suffix}"))
    return out


def frame_of(request: pytest.FixtureRequest, name: str, columns: Columns) -> Any:
    if name == "polars-lazy":
        return pl.DataFrame(columns, strict=False).lazy()
    return _maker(request, name)(columns)


def in_memory(columns: Columns, cols: dict[str, str], method: str, gold: str | None = None,
              **kw: Any) -> Any:
    df = pd.DataFrame(columns)
    ann = accord.Annotations.from_long(df[list(cols.values())], **cols, missing=["NA"])
    reference = None if gold is None else {
        u: g for u, g in zip(df[cols["unit"]], df[gold]) if isinstance(g, str)}
    return accord.annotators(ann, method=method,  # type: ignore[arg-type]
                             reference=reference, **kw)


def both(request: pytest.FixtureRequest, name: str, columns: Columns,
         cols: dict[str, str], method: str, **kw: Any) -> tuple[Any, Any, list[str], list[str]]:
    """The engine's and the in-memory figures, and the warnings each gave."""
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        warnings.filterwarnings("ignore", "Dask support is moving", FutureWarning)
        # PySpark 4's own warning, once, when its pandas bridge is first imported
        warnings.filterwarnings("ignore", "PySpark does not yet fully support pandas")
        got, audit = annotators(frame_of(request, name, columns), **cols, method=method,
                                **kw)
    with warnings.catch_warnings(record=True) as told:
        warnings.simplefilter("always")
        want = in_memory(columns, cols, method, **kw)
    assert audit.ratings_used == sum(r.n_units for r in got)
    return got, want, warned(said), warned(told)


def warned(caught: list[warnings.WarningMessage]) -> list[str]:
    """The warnings' sentences, the annotators each names in sorted order (the engine
    lists annotators sorted, memory in the order first read)."""
    def names_sorted(m: re.Match[str]) -> str:
        return "(" + ", ".join(sorted(m.group(1).split(", "))) + ")"

    return sorted(w.category.__name__ + ": " + re.sub(r"[(]([^()]*)[)]", names_sorted,
                                                      str(w.message)) for w in caught)


def close(a: float, b: float, what: str) -> None:
    assert (math.isnan(a) and math.isnan(b)) or abs(a - b) <= TOL, (what, a, b)


def assert_same(got: Any, want: Any) -> None:
    """Every figure of every annotator equal to the in-memory one (matched by name)."""
    assert (got.against, got.categories, got.interval) == (want.against, want.categories,
                                                           want.interval)
    assert got.consensus.method == want.consensus.method
    assert list(got.names) == sorted(want.names)
    close(got.pool_accuracy, want.pool_accuracy, "pool accuracy")
    np.testing.assert_allclose(got.pool_share, want.pool_share, rtol=0, atol=TOL)
    assert [r.name for r in got.flagged] == [r.name for r in want.flagged]
    for g in got:
        w = want[g.name]
        assert (g.n_units, g.flag) == (w.n_units, w.flag), g.name
        for figure in ("accuracy", "consensus_agreement", "agreement"):
            a, b = getattr(g, figure), getattr(w, figure)
            for part in ("estimate", "observed", "expected"):
                close(getattr(a, part), getattr(b, part), f"{g.name} {figure} {part}")
            assert (a.n_units, a.undefined_reason) == (b.n_units, b.undefined_reason)
        assert g.accuracy.per_category == w.accuracy.per_category
        if g.accuracy.defined:
            for fig in ("accuracy", "consensus_agreement"):
                a, b = getattr(g, fig), getattr(w, fig)
                assert a.confidence_interval(0.9) == b.confidence_interval(0.9)
                boot = accord.Bootstrap(n_resamples=200, rng=3)
                ga, wa = a.confidence_interval(method=boot), b.confidence_interval(method=boot)
                assert (ga.low, ga.high) == (wa.low, wa.high)
        if g.flag_interval is not None:
            assert (g.flag_interval.low, g.flag_interval.high) == (
                w.flag_interval.low, w.flag_interval.high)
        np.testing.assert_allclose(g.confusion, w.confusion, rtol=0, atol=TOL,
                                   err_msg=str(g.name))
        for part in ("competence", "spammer_score", "bias"):
            close(getattr(g, part), getattr(w, part), f"{g.name} {part}")
        np.testing.assert_allclose(g.label_share, w.label_share, rtol=0, atol=TOL)
        close(g.competence_figure.estimate, w.competence_figure.estimate, "competence")
        close(g.spammer_figure.estimate, w.spammer_figure.estimate, "spammer")
        assert list(g.confusion_figures) == list(w.confusion_figures)
        for cell, result in g.confusion_figures.items():
            close(result.estimate, w.confusion_figures[cell].estimate, f"cell {cell}")


def gold_crowd(seed: int = 11) -> Columns:
    """The synthetic crowd with a gold column: the true class of 80% of the units (the
    same on every row of the unit), missing on the others."""
    columns = synthetic_crowd(n_units=200, n_raters=8, seed=seed)
    rng = np.random.default_rng(seed)
    labels = ["cat", "dog", "fox"]
    truth = {u: (labels[int(rng.integers(3))] if rng.random() < 0.8 else None)
             for u in sorted(set(columns["unit"]))}
    # the gold agrees with the crowd's majority more often than chance: take the first
    # rating as the gold where one is drawn, so the accuracies spread
    first: dict[Any, str] = {}
    for u, x in zip(columns["unit"], columns["value"]):
        first.setdefault(u, x)
    gold = {u: (first[u] if t is not None and rng.random() < 0.7 else t)
            for u, t in truth.items()}
    return {**columns, "gold": [gold[u] for u in columns["unit"]]}


# --------------------------------------------------------------------- the same as in memory
class TestSameAsInMemory:
    @pytest.mark.parametrize(("engine", "method", "options"),
                             fits("fleiss", ["majority", "dawid_skene"]))
    def test_fleiss_1971(self, request: pytest.FixtureRequest, engine: str,
                         method: str, options: dict[str, Any]) -> None:
        got, want, said, told = both(request, engine, _fleiss_long(), FLEISS, method)
        assert_same(got, want)
        assert said == told
        assert len(got) == 6 and got.categories == (1, 2, 3, 4, 5)

    @pytest.mark.parametrize(("engine", "method", "options"), fits("synthetic", [
        "majority", "wawa", "one_coin", "dawid_skene", "mace",
        ("dawid_skene", {"accelerate": True}),
    ]))
    def test_synthetic_crowd(self, request: pytest.FixtureRequest, engine: str, method: str,
                             options: dict[str, Any]) -> None:
        got, want, said, told = both(request, engine, synthetic_crowd(), COLS, method,
                                     **options)
        assert_same(got, want)
        assert said == told

    @pytest.mark.parametrize(("engine", "method", "options"),
                             fits("gold", ["majority", "wawa", "one_coin", "dawid_skene"]))
    def test_with_gold(self, request: pytest.FixtureRequest, engine: str,
                       method: str, options: dict[str, Any]) -> None:
        got, want, said, told = both(request, engine, gold_crowd(), COLS, method,
                                     gold="gold")
        assert got.against == "reference"
        assert_same(got, want)
        assert said == told

    @pytest.mark.parametrize(("engine", "method", "options"),
                             fits("ties", ["majority", "wawa"]))
    def test_tied_majorities(self, request: pytest.FixtureRequest, engine: str,
                             method: str, options: dict[str, Any]) -> None:
        got, want, said, told = both(request, engine, TIED, COLS, method)
        assert got.consensus.tied == want.consensus.tied == ((3, 4, 5) if method == "majority"
                                                             else (4,))
        assert_same(got, want)
        assert said == told

    def test_a_rater_with_one_rating(self, request: pytest.FixtureRequest,
                                     engine: str) -> None:
        columns = synthetic_crowd(n_units=60, n_raters=6, seed=3)
        columns = {c: [*x, y] for (c, x), y in zip(columns.items(), [1000, "solo", "dog"])}
        got, want, said, told = both(request, engine, columns, COLS, "majority")
        assert got["solo"].n_units == 1
        assert_same(got, want)
        assert said == told

    @pytest.mark.parametrize(("engine", "method", "options"),
                             fits("declared", ["majority", "one_coin", "dawid_skene"]))
    def test_a_declared_category_no_one_used(self, request: pytest.FixtureRequest,
                                             engine: str, method: str,
                                             options: dict[str, Any]) -> None:
        cats = ["cat", "dog", "emu", "fox"]
        columns = synthetic_crowd(n_units=100, n_raters=6, seed=2)
        with warnings.catch_warnings(record=True):
            warnings.simplefilter("always")  # the unused category is noted by both
            got, _ = annotators(frame_of(request, engine, columns), **COLS, method=method,
                                categories=cats)
            ann = accord.Annotations.from_long(pd.DataFrame(columns), **COLS, categories=cats)
            want = accord.annotators(ann, method=method)  # type: ignore[arg-type]
        assert got.categories == tuple(cats)
        assert_same(got, want)

    def test_bootstrap_flags(self, request: pytest.FixtureRequest) -> None:
        got, want, _, _ = both(request, "duckdb", synthetic_crowd(), COLS, "majority",
                               n_resamples=300, rng=5, confidence_level=0.9)
        assert got.interval == "bootstrap" and got.flagged
        assert_same(got, want)


@st.composite
def crowds(draw: st.DrawFn) -> Columns:
    """Small crowds: 4 to 12 units, 2 to 5 raters each of 5, labels of 3 categories, at
    least two categories in use (else there is no consensus to measure against)."""
    n = draw(st.integers(4, 12))
    units, raters, values = [], [], []
    for u in range(n):
        who = draw(st.lists(st.sampled_from("abcde"), min_size=2, max_size=5, unique=True))
        for r in who:
            units.append(u)
            raters.append(r)
            values.append(draw(st.sampled_from("xyz")))
    if len(set(values)) < 2:
        values[0] = "y" if values[0] == "x" else "x"
    return {"unit": units, "rater": raters, "value": values}


@settings(max_examples=20, deadline=None)
@given(columns=crowds(), method=st.sampled_from(["majority", "wawa", "dawid_skene"]),
       with_gold=st.booleans())
def test_any_small_crowd_gives_the_in_memory_figures(columns: Columns, method: str,
                                                     with_gold: bool) -> None:
    """On polars: ties, raters who rated once, classes a rater never met and undefined
    figures included; the same warnings too."""
    gold = None
    if with_gold:
        first = columns["value"][0]  # a category in use
        columns = {**columns, "gold": [(first if u % 3 else None) for u in columns["unit"]]}
        gold = "gold"
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        got, _ = annotators(pl.LazyFrame(columns), **COLS, method=method,  # type: ignore[arg-type]
                            gold=gold)
    with warnings.catch_warnings(record=True) as told:
        warnings.simplefilter("always")
        want = in_memory(columns, COLS, method, gold=gold)
    assert_same(got, want)
    assert warned(said) == warned(told)


class TestNotOnAnEngine:
    """The figures whose intervals need the units are given without them, saying why."""

    def test_kappa_and_model_figures_have_no_interval(self) -> None:
        q, _ = annotators(pl.LazyFrame(synthetic_crowd()), **COLS, method="dawid_skene")
        row = q[q.names[0]]
        with pytest.raises(InvalidParameterError, match="its bootstrap resamples the "
                           "annotator's units through their vote patterns"):
            row.agreement.confidence_interval()
        with pytest.raises(InvalidParameterError, match="cannot be resampled"):
            row.agreement.confidence_interval(method=accord.Bootstrap(n_resamples=20))
        for figure in (row.competence_figure, row.spammer_figure,
                       next(iter(row.confusion_figures.values()))):
            assert "refits the model" in figure.details["interval_note"]
            with pytest.raises(InvalidParameterError, match="refits the model"):
                figure.confidence_interval()
        with pytest.raises(DataError, match="needs the ratings the figures came from"):
            q.competence_interval(q.names[0])
        assert q.to_dict()["annotators"][0]["agreement"]["estimate"] == row.agreement.estimate


# --------------------------------------------------------------------- bad input
class TestBadInput:
    def frame(self, **changes: list[Any]) -> Any:
        return pl.LazyFrame({**gold_crowd(), **changes}, strict=False)

    def test_a_gold_label_outside_the_categories(self) -> None:
        columns = gold_crowd()
        unit = columns["unit"][0]  # every row of the unit: one gold label, not a category
        gold = ["wolf" if u == unit else g for u, g in zip(columns["unit"], columns["gold"])]
        with pytest.raises(DataError, match=r"the gold column 'gold' uses label\(s\) "
                           r"\['wolf'\] that no annotator used; the annotators' labels are "
                           r"\['cat', 'dog', 'fox'\]"):
            annotators(self.frame(gold=gold), **COLS, gold="gold", method="majority")

    def test_two_gold_labels_for_one_unit(self) -> None:
        columns = gold_crowd()
        unit = columns["unit"][0]
        gold = [("cat" if i == 0 else "dog") if u == unit else g
                for i, (u, g) in enumerate(zip(columns["unit"], columns["gold"]))]
        with pytest.raises(DataError, match=f"gives 1 unit\\(s\\) two different labels "
                           f"\\(unit\\(s\\) {unit}\\); a unit has one reference label"):
            annotators(self.frame(gold=gold), **COLS, gold="gold", method="majority")

    def test_a_gold_column_with_no_label(self) -> None:
        gold = ["NA"] * len(gold_crowd()["gold"])
        with pytest.raises(DataError, match="labels none of the annotators' units"):
            annotators(self.frame(gold=gold), **COLS, gold="gold", method="majority")

    @pytest.mark.parametrize(("gold", "said"), [
        ("value", "The 'gold' parameter of accord.engines.annotators must be a column other "
                  "than unit=, rater= and value="),
        ("expert", r"column\(s\) \['expert'\] not found"),
    ])
    def test_a_gold_column_that_is_not_one(self, gold: str, said: str) -> None:
        with pytest.raises((InvalidParameterError, DataError), match=said):
            annotators(self.frame(), **COLS, gold=gold, method="majority")

    def test_glad_runs_in_memory_only(self) -> None:
        with pytest.raises(InvalidParameterError, match=r"Got 'glad' instead: it runs in "
                           r"memory only \(accord.annotators\)"):
            annotators(self.frame(), **COLS, method="glad")  # type: ignore[arg-type]

    def test_a_bad_confidence_level(self) -> None:
        with pytest.raises(InvalidParameterError, match="confidence_level"):
            annotators(self.frame(), **COLS, confidence_level=95)


# --------------------------------------------------------------------- the command
def _cli(*args: str) -> tuple[int, str, str]:
    return run_cli("annotators", CROWD, *LONG, *args)


class TestCommand:
    @pytest.mark.parametrize("method", ["majority", "dawid_skene"])
    def test_prints_what_the_in_memory_command_prints(self, method: str) -> None:
        code, got, err = _cli("--method", method, "--engine", "duckdb")
        assert code == 0, err
        _, want, _ = _cli("--method", method)
        first, *rest = got.splitlines()
        assert first == "examples/crowd.csv (counted by duckdb): 800 read, 800 used" or \
            first.endswith("crowd.csv (counted by duckdb): 800 read, 800 used")
        assert rest == want.splitlines()[1:]

    def test_json_equals_the_in_memory_figures(self) -> None:
        code, out, err = _cli("--engine", "duckdb", "--json")
        assert code == 0, err
        got = json.loads(out)
        want = json.loads(_cli("--json")[1])
        assert got["audit"]["source"].endswith("(counted by duckdb)")
        assert got["flagged"] == want["flagged"]
        theirs = {r["name"]: r for r in want["results"]}
        for row in got["results"]:
            for figure in ("accuracy", "agreement", "consensus_agreement"):
                assert row[figure]["estimate"] == pytest.approx(
                    theirs[row["name"]][figure]["estimate"], abs=TOL)
            assert row["competence"] == pytest.approx(theirs[row["name"]]["competence"],
                                                      abs=TOL)

    @pytest.mark.parametrize(("args", "said"), [
        (("--method", "glad"), "--method glad runs in memory only; with --engine use "
                               "majority, wawa, one_coin, dawid_skene or mace."),
        (("--model", CROWD), "--model runs in memory only: leave out --engine to use it."),
    ])
    def test_refused_as_consensus_refuses(self, args: tuple[str, ...], said: str) -> None:
        code, _, err = _cli("--engine", "duckdb", *args)
        assert code == 2 and said in " ".join(err.split()), err

    def test_bootstrap_flags_print_as_in_memory(self) -> None:
        args = ("--method", "majority", "--interval", "bootstrap", "--n-resamples", "300",
                "--seed", "4")
        code, got, err = _cli(*args, "--engine", "duckdb")
        assert code == 0, err
        want = _cli(*args)[1]
        assert "bootstrap CI" in got and got.splitlines()[1:] == want.splitlines()[1:]

    def test_needs_long_data(self) -> None:
        code, _, err = run_cli("annotators", CROWD, "--raters", "a", "b", "--engine", "duckdb")
        assert code == 2 and "--engine takes long data for annotators" in err

    def test_gold_is_a_column(self, tmp_path: Path) -> None:
        df = pd.read_csv(CROWD)
        df["expert"] = df.groupby("image")["label"].transform("first")
        path = tmp_path / "crowd_gold.csv"
        df.to_csv(path, index=False)
        code, out, err = run_cli("annotators", str(path), *LONG, "--gold", "expert",
                                 "--engine", "duckdb", "--json")
        assert code == 0, err
        got = json.loads(out)
        reference = dict(zip(df["image"], df["expert"]))
        ann = accord.Annotations.from_long(df, unit="image", rater="worker", value="label")
        want = accord.annotators(ann, reference=reference)
        assert got["against"] == "reference"
        for row in got["results"]:
            assert row["accuracy"]["estimate"] == pytest.approx(
                want[row["name"]].accuracy.estimate, abs=TOL)

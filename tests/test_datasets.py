"""accord.datasets: the bundled data reproduce the figures their sources print.

Each data set is checked against the figures printed in its source, rounded as
printed, computed by accord or by an established implementation run here
(statsmodels 0.15.0 ``fleiss_kappa``, pingouin 0.7.0 ``intraclass_corr``,
krippendorff 0.9.0 ``alpha``).
"""

from __future__ import annotations

import math
import subprocess
import sys
import warnings

import numpy as np
import pytest

import accord
from accord import datasets
from accord.errors import DataError, InvalidParameterError


def test_names_and_list() -> None:
    names = datasets.names()
    assert list(names) == sorted(names) and len(names) == 9
    loaded = datasets.list()
    assert [d.name for d in loaded] == list(names)
    for d in loaded:
        assert d.kind in ("wide", "table", "counts")
        assert d.title and len(d.description) > 40 and len(d.citation) > 40
        assert d.published
        assert repr(d).startswith(f"Dataset({d.name!r}")


def test_each_dataset_has_a_function_of_its_name() -> None:
    for name in datasets.names():
        assert getattr(datasets, name)() is datasets.load(name)


def test_load_validates_the_name() -> None:
    with pytest.raises(InvalidParameterError,
                       match="The 'name' parameter of accord.datasets.load must be one of"):
        datasets.load("fleiss1971")
    with pytest.raises(InvalidParameterError, match="'name' parameter"):
        datasets.load(["fleiss_1971"])  # type: ignore[arg-type]


def test_datasets_are_frozen() -> None:
    ds = datasets.cohen_1960()
    with pytest.raises(AttributeError):
        ds.data = ()  # type: ignore[misc]
    with pytest.raises(TypeError):
        ds.published["p_o"] = 1.0  # type: ignore[index]


def test_files_are_read_only_when_asked_for() -> None:
    code = ("import accord, accord.datasets as d; n0 = d._read.cache_info().currsize; "
            "d.cohen_1960(); print(n0, d._read.cache_info().currsize)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["0", "1"]


# --------------------------------------------------------------------------- the values
def test_cohen_1960() -> None:
    ds = datasets.cohen_1960()
    assert ds.kind == "table" and np.asarray(ds.data).sum() == 200
    res = accord.cohen_kappa(ds.as_table())
    assert res.observed == pytest.approx(ds.published["p_o"], abs=1e-12)
    assert res.expected == pytest.approx(ds.published["p_e"], abs=1e-12)
    assert round(res.estimate, 3) == ds.published["cohen_kappa"] == 0.492


def test_prevalence_paradox() -> None:
    a, b = datasets.prevalence_paradox()
    assert (a.name, b.name) == ("feinstein_cicchetti_1990_a", "feinstein_cicchetti_1990_b")
    for ds in (a, b):
        res = accord.cohen_kappa(ds.as_table())
        assert res.observed == pytest.approx(0.85, abs=1e-12) == ds.published["p_o"]
        assert round(res.expected, 2) == ds.published["p_e"]
        assert round(res.estimate, 2) == ds.published["cohen_kappa"]
    assert a.published["cohen_kappa"] == 0.70 and b.published["cohen_kappa"] == 0.32
    # the paradox-resistant coefficients do not halve
    assert accord.gwet_ac1(b.as_table()).estimate > 0.8


def test_fleiss_1971_counts() -> None:
    from statsmodels.stats.inter_rater import fleiss_kappa

    ds = datasets.fleiss_1971()
    counts = ds.as_array()
    assert counts.shape == (30, 5) and set(counts.sum(axis=1)) == {6}
    assert ds.category_labels is not None and ds.category_labels[3] == "Schizophrenia"
    kappa = fleiss_kappa(counts)  # statsmodels 0.15.0
    assert kappa == pytest.approx(0.4302445201, abs=1e-9)  # R irr kappam.fleiss, cases.json
    assert round(kappa, 3) == ds.published["fleiss_kappa"]


def test_fleiss_1971_counts_as_rater_counts() -> None:
    rater_counts = pytest.importorskip("accord.tables.rater_counts")
    table = datasets.fleiss_1971().as_table()
    assert isinstance(table, rater_counts.RaterCounts)
    assert table.categories == (1, 2, 3, 4, 5) and table.n_units == 30


def test_fleiss_1971_wide_has_the_same_counts() -> None:
    wide = datasets.fleiss_1971_wide()
    ann = wide.as_annotations()
    assert ann.n_units == 30 and ann.n_raters == 6 and ann.n_ratings == 180
    m = wide.as_array().astype(int)
    per_unit = np.stack([(m == c).sum(axis=1) for c in (1, 2, 3, 4, 5)], axis=1)
    assert per_unit.tolist() == [list(r) for r in datasets.fleiss_1971().data]


def test_shrout_fleiss_1979_icc_forms() -> None:
    pingouin = pytest.importorskip("pingouin")
    import pandas as pd

    ds = datasets.shrout_fleiss_1979()
    m = ds.as_array()
    assert m.shape == (6, 4)
    long = pd.DataFrame([(i, j, m[i, j]) for i in range(6) for j in range(4)],
                        columns=["target", "judge", "score"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        icc = pingouin.intraclass_corr(long, targets="target", raters="judge", ratings="score")
    got = dict(zip(["ICC1", "ICC2", "ICC3", "ICC1k", "ICC2k", "ICC3k"], icc["ICC"]))
    for form, printed in ds.published.items():
        assert round(got[form], 2) == printed, form  # Shrout & Fleiss (1979), Table 4


def test_shrout_fleiss_1979_as_annotations() -> None:
    ann = datasets.shrout_fleiss_1979().as_annotations()
    assert ann.level == "interval" and ann.raters == ("judge_1", "judge_2", "judge_3", "judge_4")
    assert ann.numeric_values().tolist() == sorted({x for row in datasets.shrout_fleiss_1979().data
                                                    for x in row})


@pytest.mark.parametrize("level", ["nominal", "ordinal", "interval", "ratio"])
def test_krippendorff_2011_alphas(level: str) -> None:
    import krippendorff

    ds = datasets.krippendorff_2011()
    m = ds.as_array()
    assert m.shape == (12, 4) and int(np.isnan(m).sum()) == 7
    alpha = krippendorff.alpha(reliability_data=m.T, level_of_measurement=level)
    assert round(alpha, 3) == ds.published[f"alpha_{level}"]


def test_krippendorff_2011_missing_values_are_counted() -> None:
    ann = datasets.krippendorff_2011().as_annotations()
    assert ann.audit.rows_read == 48 and ann.audit.dropped["missing value"] == 7
    assert ann.n_ratings == 41 and ann.raters == ("A", "B", "C", "D")


def test_gwet_2014_abstractors() -> None:
    ds = datasets.gwet_2014_abstractors()
    table = ds.as_table()
    assert table.categories == ("Ectopic", "AIU", "NIU") and table.n == 100
    for name in ("cohen_kappa", "scott_pi", "gwet_ac1", "brennan_prediger", "percent_agreement"):
        got = getattr(accord, name)(table).estimate
        assert got == pytest.approx(ds.published[name], abs=5e-8), name  # irrCAC vignette


def test_summaries_have_no_units_and_ratings_have_no_table() -> None:
    with pytest.raises(DataError, match="use as_table"):
        datasets.cohen_1960().as_annotations()
    with pytest.raises(DataError, match="use as_annotations"):
        datasets.krippendorff_2011().as_table()
    assert datasets.cohen_1960().as_array().dtype == np.int64
    assert math.isnan(datasets.krippendorff_2011().as_array()[11, 0])

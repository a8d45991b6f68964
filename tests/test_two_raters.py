"""Two-rater coefficients against published values and established implementations.

The reference cases are copied from ../shared/reference/cases.json with their
sources, so this file stands on its own. Cross-checks run scikit-learn 1.9.1
(``cohen_kappa_score``) and statsmodels 0.15.0 (``cohens_kappa``) here, on
random data, and compare at 1e-12; the Gwet (2014) variances of every weighted
coefficient are checked against values printed by Python irrCAC 0.4.4 (the port
of R irrCAC 1.0), copied below at full precision.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from scipy import stats

import accord
from accord.errors import DataError, InvalidParameterError, UnknownCategoryError

# --------------------------------------------------------------------------- reference cases
SK_Y1 = [0] * 46 + [1] * 44 + [2] * 10  # scikit-learn test_cohen_kappa "weighting example"
SK_Y2 = [0] * 50 + [1] * 40 + [2] * 10
ABSTRACTORS = [[13, 0, 0], [0, 20, 7], [0, 4, 56]]  # irrCAC cont3x3abstractors (Gwet 2014)
ABSTRACT_CATS = ["Ectopic", "AIU", "NIU"]
IRRCAC_VIGNETTE = (
    "R irrCAC 1.0 vignette '{}' on cont3x3abstractors (100 ectopic-pregnancy abstractions; "
    "Gwet 2014 Handbook); Python irrCAC 0.4.4 identical. CI uses t(0.975, n-1=99), upper limit "
    "capped at 1."
)


def _case(cid: str, func: str, data: Any, *, cats: Any = None, weights: Any = None,
          fmt: str = "table", tol: float = 1e-6, tol_by_key: dict[str, float] | None = None,
          ci: str | None = None, source: str, **expected: float) -> Any:
    return pytest.param(
        {"func": func, "data": data, "cats": cats, "weights": weights, "fmt": fmt, "tol": tol,
         "tol_by_key": tol_by_key or {}, "ci": ci, "source": source, "expected": expected},
        id=cid,
    )


def _disagreement(v: list[list[float]]) -> list[list[float]]:
    """Disagreement weights V as agreement weights 1 - V / max V (same kappa_w, Cohen 1968)."""
    arr = np.asarray(v, dtype=float)
    return (1.0 - arr / arr.max()).tolist()


CASES = [
    _case("cohen_artstein_poesio_2008_t1", "cohen_kappa", [[20, 10], [20, 50]],
          cats=["STAT", "IReq"], kappa=0.347826087, po=0.7, pe=0.54, se=0.09500818052,
          source="Artstein & Poesio (2008) Comput. Linguist. 34(4) p.558 Table 1; se statsmodels"),
    _case("scott_pi_artstein_poesio_2008_t1", "scott_pi", [[20, 10], [20, 50]],
          cats=["STAT", "IReq"], pi=0.3406593407, po=0.7, pe=0.545,
          source="Artstein & Poesio (2008) Table 1; exact value R irrCAC 1.0 scott2.table"),
    _case("brennan_prediger_artstein_poesio_2008_t1", "brennan_prediger", [[20, 10], [20, 50]],
          cats=["STAT", "IReq"], tol=1e-9, bp=0.4, po=0.7, pe=0.5,
          source="Artstein & Poesio (2008) Table 1: Bennett et al. S = 0.4; irrCAC bp2.table"),
    _case("weighted_kappa_artstein_poesio_2008_custom", "cohen_kappa",
          [[46, 0, 0], [6, 32, 6], [0, 0, 10]], cats=["STAT", "IReq", "Chck"],
          weights=[[1, 0, 0.5], [0, 1, 0.5], [0.5, 0.5, 1]], kappa=0.8163265306, po=0.91, pe=0.51,
          source="Artstein & Poesio (2008) p.568 weighted example (DKPro ArtsteinPoesio2008Test)"),
    _case("cohen_1960_p45", "cohen_kappa", [[88, 14, 18], [10, 40, 10], [2, 6, 12]],
          cats=[1, 2, 3], ci="normal", kappa=0.4915254237, po=0.7, pe=0.41, se=0.05100181558,
          se0=0.05197893636, ci_low=0.3915637021, ci_high=0.5914871454,
          source="Cohen (1960) p.45; se/ci psych 2.5.3 cohen.kappa == statsmodels 0.15 (FCE 1969)"),
    _case("cohen_1960_p37_negative", "cohen_kappa", [[25, 12, 3], [13, 2, 15], [12, 16, 2]],
          cats=[1, 2, 3], kappa=-0.09230769231, po=0.29, pe=0.35, se=0.05664143688,
          source="Cohen (1960) p.37 (less-than-chance agreement); statsmodels, irrCAC agree"),
    _case("gwet_ac1_cohen_1960_p37", "gwet_ac1", [[25, 12, 3], [13, 2, 15], [12, 16, 2]],
          cats=[1, 2, 3], ac1=-0.0479704797, po=0.29, pe=0.3225,
          source="Cohen (1960) p.37 table; AC1 per Gwet (2008): DKPro Gwet2008Test, irrCAC 1.0"),
    _case("weighted_kappa_cohen_1968_nonsymmetric", "cohen_kappa",
          [[88, 14, 18], [10, 40, 10], [2, 6, 12]], cats=[1, 2, 3],
          weights=_disagreement([[0, 1, 4], [1, 0, 6], [2, 2, 0]]), kappa=0.3533834586,
          source="Cohen (1968) non-symmetric weights (psych docs 'kw = .353'); psych, statsmodels"),
    _case("cohen_fce_1969_unweighted", "cohen_kappa", [[106, 10, 4], [22, 28, 10], [2, 12, 6]],
          cats=[1, 2, 3], ci="normal", kappa=0.4285714286, se=0.05371100487, se0=0.05551245494,
          ci_low=0.3232997935, ci_high=0.5338430637,
          source="Fleiss, Cohen & Everitt (1969) example (psych::cohen.kappa docs), statsmodels"),
    _case("weighted_kappa_fce_1969_similarity_weights", "cohen_kappa",
          [[106, 10, 4], [22, 28, 10], [2, 12, 6]], cats=[1, 2, 3], ci="normal",
          weights=[[1, 0, 0.4444], [0, 1, 0.6667], [0.4444, 0.6667, 1]], kappa=0.5070699649,
          se=0.0569938847, ci_low=0.3953640035, ci_high=0.6187759262,
          source="Fleiss, Cohen & Everitt (1969) weighted example, weights as in psych docs"),
    _case("cohen_sas_procfreq_3x3", "cohen_kappa", [[0, 4, 1], [0, 8, 0], [0, 1, 5]],
          cats=[1, 2, 3], ci="normal", tol=1e-4, tol_by_key={k: 6e-5 for k in
          ("kappa", "se", "ci_low", "ci_high", "se0", "z")}, kappa=0.4842, se=0.138,
          ci_low=0.2137, ci_high=0.7547, se0=0.1484, z=3.2626,
          source="SAS PROC FREQ AGREE printout in statsmodels test_inter_rater.py (table10)"),
    _case("cohen_sas_procfreq_3x3_statsmodels_exact", "cohen_kappa",
          [[0, 4, 1], [0, 8, 0], [0, 1, 5]], cats=[1, 2, 3], tol=1e-12,
          kappa=0.48416289592760187, se=0.1380135783058146, se0=0.1483982818901329,
          source="cases.json 'also': statsmodels 0.15 exact values for the SAS table"),
    _case("weighted_kappa_sas_procfreq_3x3_linear", "cohen_kappa",
          [[0, 4, 1], [0, 8, 0], [0, 1, 5]], cats=[1, 2, 3], weights="linear", ci="normal",
          tol=6e-5, kappa=0.4701, se=0.1457, ci_low=0.1845, ci_high=0.7558, se0=0.1426, z=3.2971,
          source="SAS PROC FREQ weighted kappa (Cicchetti-Allison), statsmodels test_inter_rater"),
    _case("weighted_kappa_sas_procfreq_3x3_linear_statsmodels_exact", "cohen_kappa",
          [[0, 4, 1], [0, 8, 0], [0, 1, 5]], cats=[1, 2, 3], weights="linear", tol=1e-12,
          kappa=0.4701195219123506, se=0.14574604514192566, se0=0.14258507762473158,
          source="cases.json 'also': statsmodels 0.15 exact values for the SAS table"),
    _case("cohen_sklearn_test_unweighted", "cohen_kappa", [SK_Y1, SK_Y2], fmt="pairs",
          kappa=0.9315068493, source="scikit-learn test_cohen_kappa weighting example (1.9.1)"),
    _case("weighted_kappa_sklearn_test_linear", "cohen_kappa", [SK_Y1, SK_Y2], fmt="pairs",
          weights="linear", kappa=0.9411764706,
          source="scikit-learn test_cohen_kappa weighting example (1.9.1)"),
    _case("weighted_kappa_sklearn_test_quadratic", "cohen_kappa", [SK_Y1, SK_Y2], fmt="pairs",
          weights="quadratic", kappa=0.9541284404,
          source="scikit-learn test_cohen_kappa weighting example (1.9.1)"),
    _case("pabak_2x2_balanced_41_9_9_41", "pabak", [[41, 9], [9, 41]], cats=["yes", "no"],
          tol=1e-9, pabak=0.64, po=0.82, prevalence_index=0.0, bias_index=0.0, kappa=0.64,
          source="Byrt, Bishop & Carlin (1993) definitions; exact arithmetic"),
    _case("cohen_edge_perfect_agreement", "cohen_kappa", [[30, 0, 0], [0, 40, 0], [0, 0, 30]],
          cats=[1, 2, 3], tol=1e-12, kappa=1.0, po=1.0, pe=0.34,
          source="Definition; statsmodels, scikit-learn give 1.0"),
    _case("cohen_kappa_irrCAC_cont3x3abstractors", "cohen_kappa", ABSTRACTORS, cats=ABSTRACT_CATS,
          ci="t", tol_by_key={"ci_low": 6e-4, "ci_high": 6e-4}, kappa=0.7964094022,
          se=0.05891071833, ci_low=0.68, ci_high=0.913, source=IRRCAC_VIGNETTE.format("overview")),
    _case("scott_pi_irrCAC_cont3x3abstractors", "scott_pi", ABSTRACTORS, cats=ABSTRACT_CATS,
          ci="t", tol_by_key={"ci_low": 6e-4, "ci_high": 6e-4}, pi=0.7962396962, se=0.05905473331,
          ci_low=0.679, ci_high=0.913, source=IRRCAC_VIGNETTE.format("overview")),
    _case("gwet_ac1_irrCAC_cont3x3abstractors", "gwet_ac1", ABSTRACTORS, cats=ABSTRACT_CATS,
          ci="t", tol_by_key={"ci_low": 6e-4, "ci_high": 6e-4}, ac1=0.8493305482, se=0.04321746752,
          ci_low=0.764, ci_high=0.935, source=IRRCAC_VIGNETTE.format("overview")),
    _case("brennan_prediger_irrCAC_cont3x3abstractors", "brennan_prediger", ABSTRACTORS,
          cats=ABSTRACT_CATS, ci="t", tol_by_key={"ci_low": 6e-4, "ci_high": 6e-4}, bp=0.835,
          se=0.04693346354, ci_low=0.742, ci_high=0.928, source=IRRCAC_VIGNETTE.format("overview")),
    _case("percent_agreement_irrCAC_cont3x3abstractors", "percent_agreement", ABSTRACTORS,
          cats=ABSTRACT_CATS, ci="t", tol_by_key={"ci_low": 6e-4, "ci_high": 6e-4}, pa=0.89,
          se=0.03128897569, ci_low=0.828, ci_high=0.952, source=IRRCAC_VIGNETTE.format("overview")),
    _case("weighted_kappa_irrCAC_cont3x3abstractors_quadratic", "cohen_kappa", ABSTRACTORS,
          cats=ABSTRACT_CATS, weights="quadratic", ci="t",
          tol_by_key={"ci_low": 6e-4, "ci_high": 6e-4}, kappa=0.8921568627, se=0.03535150758,
          ci_low=0.822, ci_high=0.962, source=IRRCAC_VIGNETTE.format("weighting")),
    _case("gwet_ac2_irrCAC_cont3x3abstractors_quadratic", "gwet_ac1", ABSTRACTORS,
          cats=ABSTRACT_CATS, weights="quadratic", ci="t",
          tol_by_key={"ci_low": 6e-4, "ci_high": 6e-4}, ac1=0.9402368793, se=0.0179201885,
          ci_low=0.905, ci_high=0.976, source=IRRCAC_VIGNETTE.format("weighting")),
    _case("gwet_ac1_paradox_2x2", "gwet_ac1", [[80, 7], [8, 5]], cats=[1, 2], tol=1e-9,
          ac1=0.808, po=0.85, pe=0.21875,
          source="DKPro Agreement gwet fixture_01_paradox_2x2 (R irrCAC 1.4 gwet.ac1.raw)"),
    _case("gwet_ac1_paradox_2x2_cohen", "cohen_kappa", [[80, 7], [8, 5]], cats=[1, 2], tol=1e-12,
          kappa=0.314442413162706, source="cases.json 'also' for gwet_ac1_paradox_2x2"),
]

ESTIMATE_KEYS = {"kappa", "pi", "ac1", "bp", "pa", "pabak"}


def _compute(case: dict[str, Any]) -> accord.AgreementResult:
    func = getattr(accord, case["func"])
    kwargs = {} if case["weights"] is None else {"weights": case["weights"]}
    if case["fmt"] == "pairs":
        return func(case["data"][0], case["data"][1], **kwargs)  # type: ignore[no-any-return]
    return func(accord.ContingencyTable(case["data"], case["cats"]), **kwargs)  # type: ignore[no-any-return]


def _value(res: accord.AgreementResult, key: str, case: dict[str, Any]) -> float:
    if key in ESTIMATE_KEYS and not (case["func"] == "pabak" and key == "kappa"):
        return res.estimate
    if key == "po":
        return res.observed
    if key == "pe":
        return res.expected
    if key == "se":
        return res.se
    if key in ("ci_low", "ci_high"):
        low, high = _interval(res, case["ci"])
        return low if key == "ci_low" else high
    return float(res.details[key])


def _interval(res: accord.AgreementResult, method: str) -> tuple[float, float]:
    if method == "normal":
        ci = res.confidence_interval(0.95)
        return ci.low, ci.high
    # irrCAC: estimate +- t(0.975, n - 1) * se, the upper limit capped at 1, from our se
    t = stats.t.ppf(0.975, res.n_units - 1)
    return res.estimate - t * res.se, min(1.0, res.estimate + t * res.se)


@pytest.mark.parametrize("case", CASES)
def test_reference_case(case: dict[str, Any]) -> None:
    res = _compute(case)
    assert res.defined
    for key, expected in case["expected"].items():
        tol = case["tol_by_key"].get(key, case["tol"])
        got = _value(res, key, case)
        assert got == pytest.approx(expected, abs=tol), (key, case["source"])


@pytest.mark.parametrize("case", CASES)
def test_reference_case_resampling_reproduces_estimate(case: dict[str, Any]) -> None:
    res = _compute(case)
    assert res.resampling is not None
    assert res.resampling().full() == pytest.approx(res.estimate, abs=1e-12)


def test_nonsymmetric_weights_are_reported() -> None:
    res = accord.cohen_kappa(accord.ContingencyTable([[88, 14, 18], [10, 40, 10], [2, 6, 12]]),
                             weights=_disagreement([[0, 1, 4], [1, 0, 6], [2, 2, 0]]))
    assert res.details["weights_symmetric"] is False


def test_cohen_z_and_pvalue_follow_from_null_se() -> None:
    # SAS PROC FREQ table (statsmodels test_inter_rater.py): z = kappa / se0, two-sided normal p
    res = accord.cohen_kappa(accord.ContingencyTable([[0, 4, 1], [0, 8, 0], [0, 1, 5]]))
    z = 0.48416289592760187 / 0.1483982818901329
    assert res.details["z"] == pytest.approx(z, abs=1e-12)
    assert res.details["pvalue"] == pytest.approx(2 * stats.norm.sf(z), rel=1e-12)


# --------------------------------------------------------------------------- scikit-learn
def _random_pairs(seed: int, n: int = 300, k: int = 5) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    a = rng.integers(0, k, n)
    b = np.where(rng.random(n) < 0.6, a, rng.integers(0, k, n))
    return a, b


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("weights", [None, "linear", "quadratic"])
def test_matches_sklearn_on_random_labels(seed: int, weights: str | None) -> None:
    from sklearn.metrics import cohen_kappa_score

    a, b = _random_pairs(seed)
    expected = cohen_kappa_score(a, b, weights=weights)  # scikit-learn 1.9.1
    assert accord.cohen_kappa(a, b, weights=weights).estimate == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("seed", range(3))
def test_matches_sklearn_with_sample_weight_and_string_labels(seed: int) -> None:
    from sklearn.metrics import cohen_kappa_score

    a, b = _random_pairs(seed, n=200, k=4)
    labels = np.array(["w", "x", "y", "z"], dtype=object)
    w = np.random.default_rng(seed + 10).random(200)
    # scikit-learn weights text labels in sorted order; accord needs that order declared
    expected = cohen_kappa_score(labels[a], labels[b], sample_weight=w, weights="quadratic",
                                 labels=list(labels))
    got = accord.cohen_kappa(list(labels[a]), list(labels[b]), sample_weight=w, weights="quadratic",
                             categories=list(labels))
    assert got.estimate == pytest.approx(expected, abs=1e-12)
    with pytest.warns(accord.UndeclaredOrderWarning, match="sorted text labels"):
        undeclared = accord.cohen_kappa(list(labels[a]), list(labels[b]), sample_weight=w,
                                        weights="quadratic")
    assert undeclared.estimate == pytest.approx(expected, abs=1e-12)


# --------------------------------------------------------------------------- statsmodels
@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("wt", [None, "linear", "quadratic"])
def test_fce_standard_errors_match_statsmodels(seed: int, wt: str | None) -> None:
    from statsmodels.stats.inter_rater import cohens_kappa

    rng = np.random.default_rng(100 + seed)
    table = rng.integers(0, 15, size=(4, 4)) + np.diag(rng.integers(5, 30, 4))
    ref = cohens_kappa(table, wt=wt)  # statsmodels 0.15.0
    res = accord.cohen_kappa(accord.ContingencyTable(table), weights=wt)
    assert res.estimate == pytest.approx(ref.kappa, abs=1e-12)
    assert res.se == pytest.approx(ref.std_kappa, abs=1e-12)
    assert res.details["se0"] == pytest.approx(ref.std_kappa0, abs=1e-12)


# --------------------------------------------------------------------------- irrCAC variances
IRRCAC_TABLE = [[11, 8, 1, 2], [3, 10, 10, 9], [10, 11, 5, 1], [10, 0, 1, 10]]
# Python irrCAC 0.4.4 CAC(table, weights=w, digits=17).<method>(): (estimate, se)
IRRCAC_VALUES: dict[str, dict[str, tuple[float, float]]] = {
    "identity": {
        "cohen_kappa": (0.13769693864480592, 0.06270536104001581),
        "scott_pi": (0.13062568605927544, 0.0639028263269471),
        "gwet_ac1": (0.13944223107569714, 0.0629454311353705),
        "brennan_prediger": (0.13725490196078427, 0.06309016992469363),
        "percent_agreement": (0.3529411764705882, 0.04731762744352021),
    },
    "linear": {
        "cohen_kappa": (0.12398500936914413, 0.0781053729379803),
        "scott_pi": (0.11618747538400914, 0.08086491466802287),
        "gwet_ac1": (0.14636775167061833, 0.08059835498620854),
        "brennan_prediger": (0.1372549019607841, 0.07974297389172912),
        "percent_agreement": (0.6405228758169934, 0.03322623912155379),
    },
    "quadratic": {
        "cohen_kappa": (0.10164246607950506, 0.10628789759066432),
        "scott_pi": (0.09445733024074202, 0.11023506662972028),
        "gwet_ac1": (0.14633625293740615, 0.11572292512838123),
        "brennan_prediger": (0.12941176470588228, 0.11384871818784113),
        "percent_agreement": (0.7581699346405228, 0.03162464394106698),
    },
    "ordinal": {
        "cohen_kappa": (0.10917030567685608, 0.09593810879993232),
        "scott_pi": (0.10177448874035185, 0.0994661824430927),
        "gwet_ac1": (0.14634668952217728, 0.10298914294660429),
        "brennan_prediger": (0.13202614379084993, 0.10136823120793072),
        "percent_agreement": (0.7287581699346406, 0.03167757225247835),
    },
    "radical": {
        "cohen_kappa": (0.1321309307224647, 0.06771715868781249),
        "scott_pi": (0.1245464498512067, 0.0697453476518115),
        "gwet_ac1": (0.14369215362611473, 0.06770035001105734),
        "brennan_prediger": (0.13825469680247368, 0.06750878409213064),
        "percent_agreement": (0.5298054826372371, 0.0368348513605655),
    },
    "ratio": {
        "cohen_kappa": (0.10888105946349126, 0.09452837454699214),
        "scott_pi": (0.09763774235955038, 0.1001729757670546),
        "gwet_ac1": (0.12106312579469843, 0.1089301898686798),
        "brennan_prediger": (0.10614136674611407, 0.10795055674113084),
        "percent_agreement": (0.7229564665372321, 0.0334583149574406),
    },
    "circular": {
        "cohen_kappa": (0.1575105647330003, 0.06932412081822678),
        "scott_pi": (0.14727325750947776, 0.07266165705073455),
        "gwet_ac1": (0.1632432432432431, 0.07172415342812619),
        "brennan_prediger": (0.1568627450980391, 0.07170293339389036),
        "percent_agreement": (0.5784313725490196, 0.03585146669694518),
    },
    "bipolar": {
        "cohen_kappa": (0.1370082477897112, 0.09477029118333181),
        "scott_pi": (0.12943757163052644, 0.09834688098441166),
        "gwet_ac1": (0.17256288935456054, 0.10336500743233976),
        "brennan_prediger": (0.15877147319104648, 0.10201269321802284),
        "percent_agreement": (0.7359477124183006, 0.03202065092676828),
    },
}


@pytest.mark.parametrize("weights", list(IRRCAC_VALUES))
@pytest.mark.parametrize("name", list(IRRCAC_VALUES["identity"]))
def test_weighted_coefficients_and_gwet_variances_match_irrcac(weights: str, name: str) -> None:
    est, se = IRRCAC_VALUES[weights][name]
    table = accord.ContingencyTable(IRRCAC_TABLE, list("abcd"))
    res = getattr(accord, name)(table, weights=weights)
    assert res.estimate == pytest.approx(est, abs=1e-12)
    assert res.se == pytest.approx(se, abs=1e-12)


# --------------------------------------------------------------------------- input forms
@pytest.mark.parametrize("name", ["cohen_kappa", "scott_pi", "gwet_ac1", "brennan_prediger",
                                  "percent_agreement", "pabak", "kappa_max"])
def test_pairs_wide_annotations_and_table_agree(name: str) -> None:
    a, b = _random_pairs(7, n=120, k=3)
    func = getattr(accord, name)
    ann = accord.Annotations.from_pairs(a, b)
    forms = [func(a, b), func(np.column_stack([a, b])), func({"x": a, "y": b}), func(ann),
             func(accord.ContingencyTable.from_annotations(ann))]
    for res in forms[1:]:
        assert res.estimate == pytest.approx(forms[0].estimate, abs=1e-15)
        assert res.n_units == 120


def test_annotations_with_more_raters_need_named_pair() -> None:
    ann = accord.Annotations.from_wide([["a", "a", "b"], ["b", "b", "b"], ["a", "b", "a"]])
    res = accord.cohen_kappa(ann, raters=["rater_1", "rater_3"])
    ref = accord.cohen_kappa(["a", "b", "a"], ["b", "b", "a"])
    assert res.estimate == pytest.approx(ref.estimate, abs=1e-15)


def test_pairs_with_a_missing_label_are_left_out() -> None:
    res = accord.cohen_kappa(["a", None, "b", "a", "b"], ["a", "b", "b", float("nan"), "a"])
    ref = accord.cohen_kappa(["a", "b", "b"], ["a", "b", "a"])
    assert res.n_units == 3
    assert res.estimate == pytest.approx(ref.estimate, abs=1e-15)


def test_declared_categories_keep_unused_ones_for_weights() -> None:
    # Positions 1, 2 and 4 of four declared categories: linear weights change
    y1, y2 = ["lo", "mid", "hi", "mid"], ["lo", "hi", "hi", "mid"]
    cats = ["lo", "mid", "x", "hi"]
    res = accord.cohen_kappa(y1, y2, weights="linear", categories=cats)
    w = 1 - np.abs(np.subtract.outer(np.arange(4), np.arange(4))) / 3
    t = np.zeros((4, 4))
    for u, v in zip(y1, y2):
        t[cats.index(u), cats.index(v)] += 1
    p = t / t.sum()
    po, pe = (w * p).sum(), (w * np.outer(p.sum(1), p.sum(0))).sum()
    assert res.estimate == pytest.approx((po - pe) / (1 - pe), abs=1e-15)


# --------------------------------------------------------------------------- edge cases
@pytest.mark.parametrize("name", ["cohen_kappa", "scott_pi"])
def test_constant_labels_are_undefined_not_one(name: str) -> None:
    with pytest.warns(accord.DegenerateDataWarning, match="p_e = 1"):
        res = getattr(accord, name)(["a"] * 6, ["a"] * 6)
    assert math.isnan(res.estimate) and math.isnan(res.se)
    assert "single category" in (res.undefined_reason or "")
    assert res.observed == 1.0 and res.expected == 1.0
    assert res.to_dict()["estimate"] is None
    ci = res.confidence_interval()
    assert math.isnan(ci.low) and math.isnan(ci.high)


def test_constant_labels_with_two_declared_categories_give_ac1_one() -> None:
    # Gwet (2008): p_e = 0 when both raters use one of two declared categories
    res = accord.gwet_ac1(["a"] * 6, ["a"] * 6, categories=["a", "b"])
    assert res.estimate == 1.0 and res.expected == 0.0


def test_ac1_with_one_declared_category_is_undefined() -> None:
    with pytest.warns(accord.DegenerateDataWarning, match="two categories"):
        res = accord.gwet_ac1(["a"] * 4, ["a"] * 4, categories=["a"])
    assert math.isnan(res.estimate)
    assert "two categories" in (res.undefined_reason or "")


@pytest.mark.parametrize("name", ["cohen_kappa", "scott_pi", "gwet_ac1", "brennan_prediger",
                                  "percent_agreement", "pabak", "kappa_max"])
def test_empty_table_is_undefined(name: str) -> None:
    with pytest.warns(accord.DegenerateDataWarning, match="empty"):
        res = getattr(accord, name)(accord.ContingencyTable([[0, 0], [0, 0]], ["a", "b"]))
    assert math.isnan(res.estimate)
    assert res.n_units == 0
    assert "empty" in (res.undefined_reason or "")


def test_unknown_category_when_categories_are_declared() -> None:
    with pytest.raises(UnknownCategoryError, match="'c'"):
        accord.cohen_kappa(["a", "c"], ["a", "b"], categories=["a", "b"])


def test_different_lengths() -> None:
    with pytest.raises(DataError, match="same length.*3 and 2"):
        accord.cohen_kappa(["a", "b", "a"], ["a", "b"])


def test_set_valued_labels_are_refused() -> None:
    with pytest.raises(DataError, match="sets of labels.*multilabel_agreement"):
        accord.cohen_kappa([["a"], "b"], ["a", "b"])


def test_all_pairs_missing() -> None:
    with pytest.raises(accord.errors.InsufficientDataError, match="no unit"):
        accord.cohen_kappa(["a", None], [None, "b"])


def test_bad_weight_name_uses_the_standard_message() -> None:
    with pytest.raises(InvalidParameterError,
                       match="The 'weights' parameter of cohen_kappa must be one of"):
        accord.cohen_kappa([1, 2, 3], [1, 2, 2], weights="quadratc")


def test_table_rejects_y2_and_mismatched_categories() -> None:
    t = accord.ContingencyTable([[1, 2], [3, 4]], ["a", "b"])
    with pytest.raises(DataError, match="neither y2"):
        accord.cohen_kappa(t, [1, 2])
    with pytest.raises(DataError, match="differ from the table"):
        accord.cohen_kappa(t, categories=["b", "a"])


def test_sparse_path_with_many_distinct_labels() -> None:
    # 10^5 distinct labels: unweighted kappa from the diagonal and marginals only
    rng = np.random.default_rng(3)
    n, k = 200_000, 100_000
    a = rng.integers(0, k, n)
    b = np.where(rng.random(n) < 0.7, a, rng.integers(0, k, n))
    res = accord.cohen_kappa(a, b)
    rows = np.bincount(a, minlength=k) / n
    cols = np.bincount(b, minlength=k) / n
    po, pe = float(np.mean(a == b)), float(rows @ cols)
    assert res.estimate == pytest.approx((po - pe) / (1 - pe), abs=1e-12)
    assert res.observed == pytest.approx(po, abs=1e-12)
    ann = accord.Annotations.from_pairs(a[:5000], b[:5000])
    table = accord.ContingencyTable.from_annotations(ann)
    assert table.k > 2000 and table.is_sparse
    with pytest.raises(InvalidParameterError, match="'weights' parameter"):
        accord.cohen_kappa(a, b, weights="linear")


def test_raters_option_is_kept_when_many_raters_are_forwarded() -> None:
    """gwet_ac1/brennan_prediger/percent_agreement with raters=[3 names] use only those raters."""
    data = {"a": [1, 2, 1, 1], "b": [1, 2, 2, 1], "c": [1, 1, 2, 1], "d": [2, 2, 2, 2]}
    only = {k: data[k] for k in "abc"}
    for func in (accord.gwet_ac1, accord.brennan_prediger, accord.percent_agreement):
        assert func(data, raters=["a", "b", "c"]).estimate == func(only).estimate


# --------------------------------------------------------------------------- units rated once
# Two raters, ten units, two of them rated by one rater only (units 5 and 6).
ONCE_A = [1, 1, 2, 2, None, 1, 3, 3, 2, 1]
ONCE_B = [1, 2, 2, 2, 3, None, 3, 1, 2, 1]


def _irrcac_raw(a: list[Any], b: list[Any], coefficient: str) -> tuple[float, float]:
    """R irrCAC 1.0 ``gwet.ac1.raw`` / ``bp.coeff.raw`` / ``pa.coeff.raw`` (unweighted),
    transcribed unit by unit from agree.coeff3.raw.r: p_a over the units rated at least
    twice, pi_k averaged over every rated unit, and the linearised variance with
    divisor n (n - 1)."""
    cats = sorted({x for x in a + b if x is not None})
    q = len(cats)
    agree = np.array([[(x == c) + (y == c) for c in cats] for x, y in zip(a, b)], dtype=float)
    agree = agree[agree.sum(axis=1) > 0]
    n = agree.shape[0]
    r = agree.sum(axis=1)
    n2 = int((r >= 2).sum())
    den = r * (r - 1)
    den[den == 0] = -1  # as irrCAC: units rated once contribute p_a,i = 0
    pa_i = (agree * (agree - 1)).sum(axis=1) / den
    pa = pa_i[r >= 2].sum() / n2
    pi = (agree / r[:, None]).mean(axis=0)
    if coefficient == "percent_agreement":
        pa_i_scaled = (n / n2) * pa_i
        var = ((pa_i_scaled - pa) ** 2).sum() / (n * (n - 1))
        return pa, math.sqrt(var)
    if coefficient == "gwet_ac1":
        pe = (pi * (1 - pi)).sum() / (q - 1)
        pe_i = (agree @ (1 - pi)) / r / (q - 1)
    else:  # brennan_prediger
        pe = 1 / q
        pe_i = np.full(n, pe)
    est = (pa - pe) / (1 - pe)
    est_i = (n / n2) * (pa_i - pe * (r >= 2)) / (1 - pe)
    est_i_x = est_i - 2 * (1 - est) * (pe_i - pe) / (1 - pe)
    var = ((est_i_x - est) ** 2).sum() / (n * (n - 1))
    return est, math.sqrt(var)


@pytest.mark.parametrize("name", ["gwet_ac1", "brennan_prediger", "percent_agreement"])
def test_units_rated_once_follow_gwet_raw_formulas(name: str) -> None:
    """Raw two-rater data with units rated once: the same value as R irrCAC's *.raw function,
    whether given as two sequences or a two-column table; the contingency table (units
    rated by both) gives the complete-case value instead."""
    func = getattr(accord, name)
    est, se = _irrcac_raw(ONCE_A, ONCE_B, name)
    for res in (func(ONCE_A, ONCE_B), func({"a": ONCE_A, "b": ONCE_B})):
        assert res.estimate == pytest.approx(est, abs=1e-12)
        assert res.se == pytest.approx(se, abs=1e-12)
        assert res.n_units == 10
    table = accord.ContingencyTable.from_annotations(accord.Annotations.from_pairs(ONCE_A, ONCE_B))
    assert func(table).n_units == 8


def test_units_rated_once_ac1_by_hand() -> None:
    # p_a = 6/8 over the 8 units rated twice; pi = (4, 3.5, 2.5) / 10 over all 10 units;
    # p_e = (0.4*0.6 + 0.35*0.65 + 0.25*0.75) / 2 = 0.3275; AC1 = 0.4225 / 0.6725.
    res = accord.gwet_ac1(ONCE_A, ONCE_B)
    assert res.observed == pytest.approx(0.75, abs=1e-15)
    assert res.expected == pytest.approx(0.3275, abs=1e-15)
    assert res.estimate == pytest.approx(0.4225 / 0.6725, abs=1e-15)


@pytest.mark.parametrize("name", ["cohen_kappa", "scott_pi", "gwet_ac1", "brennan_prediger",
                                  "percent_agreement"])
def test_a_table_of_proportions_has_an_estimate_but_no_se(name: str) -> None:
    """Proportions hide n: their sum (1) as the number of units would give SE 0.8."""
    res = getattr(accord, name)(accord.ContingencyTable([[0.4, 0.1], [0.1, 0.4]]))
    assert res.defined and math.isnan(res.se)
    assert "proportions" in res.details["se_note"]
    with pytest.raises(InvalidParameterError, match="no confidence interval here: the table "
                                                    "holds proportions"):
        res.confidence_interval()
    counts = getattr(accord, name)(accord.ContingencyTable([[40, 10], [10, 40]]))
    assert res.estimate == pytest.approx(counts.estimate, abs=1e-15)

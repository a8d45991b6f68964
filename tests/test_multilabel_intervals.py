"""Intervals of evaluate_multilabel: every figure as a function of summed per-unit
label-indicator counts, checked against scikit-learn on the full data and on each
resample rebuilt unit by unit (a brute-force bootstrap); Wilson's limits against
statsmodels' ``proportion_confint(method="wilson")``."""

from __future__ import annotations

import math
import warnings
from pathlib import Path

import numpy as np
import pytest

import accord
from accord.errors import DegenerateDataWarning, InvalidParameterError
from accord.inference.bootstrap import draw_weights, unit_patterns
from accord.multilabel._intervals import all_figures, statistics, unit_features

sk = pytest.importorskip("sklearn.metrics")
smp = pytest.importorskip("statsmodels.stats.proportion")


def _sklearn(t: np.ndarray, p: np.ndarray, labels: list[str]) -> dict[str, float]:
    """Every figure of the evaluation, by the keys of ``intervals()``, from scikit-learn."""
    out: dict[str, float] = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pr, rc, f1, _ = sk.precision_recall_fscore_support(t, p, zero_division=np.nan)
        for j, label in enumerate(labels):
            for key, x in zip(("precision", "recall", "f1"), (pr, rc, f1)):
                out[f"per_label.{label}.{key}"] = float(x[j])
        for avg in ("micro", "macro", "weighted", "samples"):
            a = sk.precision_recall_fscore_support(t, p, average=avg, zero_division=np.nan)
            for key, x in zip(("precision", "recall", "f1"), a[:3]):
                out[f"{avg}.{key}"] = float(x)
    out["hamming_loss"] = float(sk.hamming_loss(t, p))
    out["subset_accuracy"] = float(sk.accuracy_score(t, p))
    return out


def _same(a: float, b: float) -> bool:
    return (math.isnan(a) and math.isnan(b)) or a == pytest.approx(b, abs=1e-12)


def _data(seed: int) -> tuple[np.ndarray, np.ndarray, list[str]]:
    rng = np.random.default_rng(seed)
    n, k = int(rng.integers(8, 60)), int(rng.integers(2, 7))
    t = (rng.random((n, k)) < rng.uniform(0.1, 0.6)).astype(int)
    p = (rng.random((n, k)) < rng.uniform(0.1, 0.6)).astype(int)
    if seed % 3 == 0:
        t[:, 0] = 0  # a label absent from the reference: its recall is undefined
    return t, p, [f"l{j}" for j in range(k)]


@pytest.mark.parametrize("seed", range(25))
def test_statistics_on_the_full_sums_equal_sklearn(seed: int) -> None:
    t, p, labels = _data(seed)
    uf = unit_features(t.astype(bool), p.astype(bool))
    assert int(uf.counts.sum()) == t.shape[0]
    sums = (uf.counts.astype(float) @ uf.features)[None, :]
    want = _sklearn(t, p, labels)
    at_once = all_figures(sums, len(labels), tuple(labels))
    for key, stat in statistics(len(labels), tuple(labels)).items():
        assert _same(float(stat(sums)[0]), want[key]), key
        assert _same(float(at_once[key][0]), want[key]), key


@pytest.mark.parametrize("seed", [1, 4, 9])
def test_bootstrap_replicates_equal_sklearn_on_each_resample(seed: int) -> None:
    """Brute force: rebuild every resample unit by unit and score it with scikit-learn."""
    t, p, labels = _data(seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        ev = accord.evaluate_multilabel(t, p, labels=labels)
    boot = accord.Bootstrap(n_resamples=40, rng=seed)
    cis = ev.intervals(method=boot)
    uf = ev.units
    assert uf is not None
    k = len(labels)
    tp, fp, fn = (uf.features[:, i * k:(i + 1) * k] > 0 for i in range(3))
    rows_t, rows_p = tp | fn, tp | fp  # each distinct unit's reference and prediction
    weights = draw_weights(uf.counts, 40, boot.generator(), units=unit_patterns(uf.counts))
    brute: dict[str, list[float]] = {key: [] for key in cis}
    for w in weights:
        rt, rp = np.repeat(rows_t, w, axis=0), np.repeat(rows_p, w, axis=0)
        for key, x in _sklearn(rt.astype(int), rp.astype(int), labels).items():
            brute[key].append(x)
    for key, ci in cis.items():
        want = np.asarray(brute[key])
        if math.isnan(ev.estimates()[key]):
            assert math.isnan(ci.low) and math.isnan(ci.high)
            continue
        finite = want[np.isfinite(want)]
        assert ci.replicates is not None and ci.n_excluded == want.size - finite.size, key
        np.testing.assert_allclose(ci.replicates, finite, rtol=0, atol=1e-12, err_msg=key)
        low, high = np.quantile(finite, [0.025, 0.975])
        assert ci.low == pytest.approx(max(low, 0.0), abs=1e-12)
        assert ci.high == pytest.approx(min(high, 1.0), abs=1e-12)


def test_wilson_for_unit_proportions_equals_statsmodels() -> None:
    t, p, labels = _data(2)
    ev = accord.evaluate_multilabel(t, p, labels=labels)
    cis = ev.intervals(0.9)
    n = t.shape[0]
    exact = int((t == p).all(axis=1).sum())
    low, high = smp.proportion_confint(exact, n, alpha=0.1, method="wilson")
    assert cis["subset_accuracy"].method == "wilson"
    assert (cis["subset_accuracy"].low, cis["subset_accuracy"].high) == pytest.approx(
        (low, high), abs=1e-12)
    for j, label in enumerate(labels):
        tp = int((t[:, j] & p[:, j]).sum())
        for key, m in (("precision", int(p[:, j].sum())), ("recall", int(t[:, j].sum()))):
            ci = cis[f"per_label.{label}.{key}"]
            assert ci.method == "wilson"
            want = smp.proportion_confint(tp, m, alpha=0.1, method="wilson")
            assert (ci.low, ci.high) == pytest.approx(want, abs=1e-12)
    # micro figures count (unit, label) cells, not independent: bootstrapped by unit
    assert cis["micro.precision"].method == "bootstrap-percentile"
    assert cis["hamming_loss"].method == "bootstrap-percentile"


def test_bad_method_and_undefined_figures() -> None:
    with pytest.warns(DegenerateDataWarning):
        ev = accord.evaluate_multilabel([("a",), ("a",), ()], [("a",), (), ()], labels=["a", "b"])
    cis = ev.intervals()
    assert math.isnan(cis["per_label.b.recall"].low)  # b is in no reference set
    assert cis["per_label.a.precision"].method == "wilson"
    with pytest.raises(InvalidParameterError):
        ev.intervals(method="jackknife")  # type: ignore[arg-type]
    with pytest.raises(InvalidParameterError):
        ev.intervals(1.5)


def test_evaluate_routes_label_sets_to_evaluate_multilabel() -> None:
    """accord.evaluate on set-valued Annotations scores each system as scikit-learn does."""
    from pathlib import Path

    from accord.multilabel.metrics import MultilabelEvaluation

    path = Path(__file__).resolve().parents[1] / "examples" / "toxicity_multilabel.csv"
    ann = accord.read(path, label_separator=";")
    one = accord.evaluate(ann, reference="annotator_a", systems="annotator_c")
    assert isinstance(one, MultilabelEvaluation)
    codes = ann.wide()
    both = (codes[:, 0] >= 0) & (codes[:, 2] >= 0)
    labels = list(ann.labels)
    t = np.array([[lab in ann.categories[c] for lab in labels] for c in codes[both, 0]], int)
    p = np.array([[lab in ann.categories[c] for lab in labels] for c in codes[both, 2]], int)
    want = _sklearn(t, p, [str(x) for x in labels])
    got = one.estimates()
    assert set(got) == set(want)
    for key, x in want.items():
        assert _same(got[key], x), key
    assert one.n_units == int(both.sum()) and one.n_left_out == int((~both).sum())
    many = accord.evaluate(ann, reference="annotator_a", systems=["annotator_b", "annotator_c"])
    assert isinstance(many, dict) and many["annotator_c"].estimates() == one.estimates()
    kinds = accord.read(path, label_separator=";",
                        kinds={"annotator_a": "gold", "annotator_b": "model"})
    by_kind = accord.evaluate(kinds)
    assert isinstance(by_kind, dict) and list(by_kind) == ["annotator_b"]
    assert by_kind["annotator_b"].ceiling is not None  # annotator_c is a human
    with pytest.raises(InvalidParameterError, match="positive"):
        accord.evaluate(ann, reference="annotator_a", systems="annotator_b", positive="toxic")
    with pytest.raises(InvalidParameterError, match="ceiling_figure"):
        accord.evaluate(ann, reference="annotator_a", systems="annotator_b",
                        ceiling_figure="accuracy")


@pytest.mark.parametrize("figure,sklearn_name", [
    ("micro.f1", "f1"), ("micro.precision", "precision"), ("micro.recall", "recall"),
    ("subset_accuracy", "accuracy")])
def test_label_set_systems_get_their_human_ceiling(figure: str, sklearn_name: str,
                                                  tmp_path: Path) -> None:
    """Each human's figure against the reference on the system's units equals
    scikit-learn's on those units' indicator rows; the differences are compare() of the
    unit-labelled results (units resampled with all their labels)."""
    from sklearn import metrics

    rng = np.random.default_rng(7)
    labels = ["a", "b", "c", "d"]
    raters = ["gold", "sys", "h1", "h2"]
    rows = []
    truth = rng.random((80, 4)) < 0.4
    for u in range(80):
        for r in raters:
            if r != "gold" and rng.random() < 0.15:
                continue  # not rated
            flip = rng.random(4) < (0.25 if r == "sys" else 0.15)
            chosen = [x for x, on in zip(labels, truth[u] ^ flip) if on]
            rows.append(f"u{u},{r},{';'.join(chosen) if chosen else 'nil'}")
    path = tmp_path / "sets.csv"
    path.write_text("unit,rater,labels\n" + "\n".join(rows) + "\n")
    ann = accord.read(path, unit="unit", rater="rater", value="labels", label_separator=";",
                      kinds={"gold": "gold", "sys": "model"})
    boot = accord.Bootstrap(n_resamples=300, rng=5)
    ev = accord.evaluate(ann, systems="sys", ceiling_figure=figure, method=boot)
    c = ev.ceiling
    assert c is not None and c.figure == figure and set(c.humans) == {"h1", "h2"}
    cols = {r: ann.wide()[:, ann.raters.index(r)] for r in raters}
    all_labels = ["a", "b", "c", "d", "nil"]

    def ind(codes: np.ndarray) -> np.ndarray:
        return np.array([[x in ann.categories[k] for x in all_labels] for k in codes], int)

    scope = (cols["gold"] >= 0) & (cols["sys"] >= 0)
    fn = getattr(metrics, f"{sklearn_name}_score")
    kw = {} if sklearn_name == "accuracy" else {"average": "micro"}
    for who, res in [("sys", c.system_result), *c.humans.items()]:
        keep = scope & (cols[who] >= 0)
        want = fn(ind(cols["gold"][keep]), ind(cols[who][keep]), **kw)
        assert res.estimate == pytest.approx(want, abs=1e-12), who
        assert res.n_units == int(keep.sum())
    assert c.system_result.estimate == pytest.approx(
        ev.estimates()["subset_accuracy" if figure == "subset_accuracy" else figure],
        abs=1e-12)
    for h, res in c.humans.items():
        want_cmp = accord.compare(c.system_result, res, method=boot)
        assert c.comparisons[h].interval.low == want_cmp.interval.low
        assert c.comparisons[h].difference == pytest.approx(
            c.system_result.estimate - res.estimate, abs=1e-15)
    assert ev.to_dict()["ceiling"]["figure"] == figure


def test_bca_intervals_hold_the_estimate() -> None:
    t, p, labels = _data(5)
    ev = accord.evaluate_multilabel(t, p, labels=labels)
    cis = ev.intervals(method=accord.Bootstrap(n_resamples=500, kind="bca", rng=0))
    for key in ("micro.f1", "macro.f1", "samples.f1", "hamming_loss"):
        ci = cis[key]
        assert ci.method == "bootstrap-bca" and ci.low <= ev.estimates()[key] <= ci.high, key

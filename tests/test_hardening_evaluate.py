"""evaluate on hostile or unusual input: scikit-learn's averages, missing units, many classes.

Oracles: scikit-learn (``precision_recall_fscore_support`` with ``zero_division=np.nan``)
run in the test.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.metrics import precision_recall_fscore_support

import accord
from accord.errors import DegenerateDataWarning


@pytest.mark.parametrize(("ref", "pred"), [
    (["a"], ["b"]),
    (["a", "a", "c"], ["b", "b", "b"]),
    (["a", "b", "a"], ["c", "c", "b"]),
])
def test_weighted_average_of_unpredicted_classes_is_scikit_learns(ref: list[str],
                                                                   pred: list[str]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        ev = accord.evaluate(ref, pred)
        ml = accord.evaluate_multilabel([[x] for x in ref], [[x] for x in pred])
    want = precision_recall_fscore_support(ref, pred, average="weighted", zero_division=np.nan)
    for got, sk in zip((ev.weighted.precision, ev.weighted.recall, ev.weighted.f1), want):
        assert got.estimate == pytest.approx(sk, abs=1e-15, nan_ok=True)
    assert ev.weighted.precision.estimate == pytest.approx(
        ml.averages["weighted"]["precision"], abs=1e-15, nan_ok=True)



def _many(n: int) -> tuple[list[str], list[str]]:
    rng = np.random.default_rng(0)
    return [f"l{i}" for i in range(n)], [f"l{(i + int(rng.random() < 0.3)) % n}"
                                         for i in range(n)]


def test_many_classes_are_evaluated_without_a_dense_table() -> None:
    import time

    from tests.conftest import traced_peak

    ref, pred = _many(5000)
    start = time.perf_counter()
    with pytest.warns(DegenerateDataWarning, match="undefined"):
        ev = accord.evaluate(ref, pred)
    out = ev.to_dict(method="asymptotic")
    # the dense 5000 x 5000 table as a nested list took 38 s and 25 million objects
    assert time.perf_counter() - start < 20.0
    assert "counts" not in out["confusion_matrix"]
    cells = out["confusion_matrix"]["cells"]
    assert len(cells) <= 5000 and sum(c[2] for c in cells) == 5000
    assert any("look like free text or ids" in note for note in out["notes"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        assert traced_peak(lambda: accord.evaluate(ref, pred)) < 100 * 2**20


def test_a_few_classes_keep_the_k_by_k_counts_and_no_note() -> None:
    ev = accord.evaluate(["a", "b", "a"], ["a", "b", "b"])
    out = ev.to_dict(method="asymptotic")
    assert out["confusion_matrix"]["counts"] == [[1.0, 1.0], [0.0, 1.0]]
    assert not any("free text" in note for note in out["notes"])


def test_units_missing_on_both_sides_count_as_in_the_list_api(tmp_path: object) -> None:
    from pathlib import Path

    path = Path(str(tmp_path)) / "m.csv"
    path.write_text("item,gold,sys\n1,a,a\n2,b,a\n3,,b\n4,,\n5,a,\n6,N/A,n/a\n",
                    encoding="utf-8")
    gold = ["a", "b", None, None, "a", None]
    sys_ = ["a", "a", "b", None, None, None]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        listed = accord.evaluate(gold, sys_)
        read = accord.evaluate(accord.read(path), reference="gold", systems="sys")
    assert (read.n_units, read.n_unreferenced, read.n_unpredicted) == (2, 3, 1)
    assert (listed.n_units, listed.n_unreferenced, listed.n_unpredicted) == (2, 3, 1)

"""Batches on the command line, second part: the homogeneity test in ``compute --by``,
the pooling caveat on ``check`` and ``report``, per-annotator trends and ``--by`` on
``report`` and ``evaluate``.

Figures are checked against statsmodels (Cochran's Q of ``combine_effects``, the
fixed-effect chi-square test of homogeneity of Fleiss 1981) and against the library,
itself checked against scikit-learn and statsmodels in test_batches_compare.py.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from scipy import stats
from statsmodels.stats.meta_analysis import combine_effects

import accord
from tests.conftest import run_cli

ROOT = Path(__file__).resolve().parents[1]
BATCHES = ROOT / "examples" / "batches"
RATERS = ("--raters", "annotator_a", "annotator_b")
POOLING = "caveat: pooled: 3 files analysed as one data set (--by file analyses each on its own)"


def _kappa(path: Path) -> accord.AgreementResult:
    return accord.cohen_kappa(accord.read(path, raters=["annotator_a", "annotator_b"]))


def test_compute_by_json_carries_the_homogeneity_test_on_the_pooled_row() -> None:
    code, out, err = run_cli("compute", str(ROOT / "examples" / "batches.csv"), *RATERS,
                             "--by", "batch", "--coefficient", "cohen_kappa", "--json")
    assert code == 0, err
    rows = json.loads(out)
    assert all("homogeneity" not in r for r in rows[:-1])
    hom = rows[-1]["homogeneity"]
    assert hom["groups"] == ["pilot", "batch2", "batch3"] and hom["left_out"] == []
    results = [_kappa(BATCHES / f"{g}.csv") for g in hom["groups"]]
    ref = combine_effects(np.array([r.estimate for r in results]),
                          np.array([r.se**2 for r in results]))  # statsmodels, Cochran's Q
    assert hom["test"]["statistic"] == pytest.approx(ref.q, rel=1e-12)
    assert hom["test"]["pooled"] == pytest.approx(ref.mean_effect_fe, rel=1e-12)
    assert hom["test"]["df"] == 2
    assert hom["test"]["pvalue"] == pytest.approx(stats.chi2.sf(ref.q, 2), rel=1e-12)


def test_compute_by_says_when_homogeneity_cannot_be_tested(tmp_path: Path) -> None:
    src = tmp_path / "b.csv"
    rows = [f"x,{i},{'pos' if i % 3 else 'neg'},{'pos' if i % 4 else 'neg'}" for i in range(30)]
    src.write_text("\n".join(["batch,item,a,b", *rows, "z,99,pos,neg"]) + "\n")
    code, out, err = run_cli("compute", str(src), "--raters", "a", "b", "--by", "batch",
                             "--coefficient", "cohen_kappa")
    assert code == 0, err
    assert ("groups equal? not tested: 1 group(s) have an estimate with a standard error, "
            "two needed (1 group(s) left out, without an estimate or SE: z)") in out
    code, out, err = run_cli("compute", str(src), "--raters", "a", "b", "--by", "batch",
                             "--coefficient", "cohen_kappa", "--json")
    hom = json.loads(out)[-1]["homogeneity"]
    assert hom["test"] is None and hom["left_out"] == ["z"] and "needs two" in hom["reason"]


def test_check_and_report_say_pooling_on_their_first_line() -> None:
    code, out, err = run_cli("check", str(BATCHES), *RATERS, "--coefficient", "cohen_kappa",
                             "--min", "0.6")
    assert code == 0, err
    assert out.splitlines()[0] == POOLING
    code, out, err = run_cli("check", str(BATCHES), *RATERS, "--coefficient", "cohen_kappa",
                             "--min", "0.6", "--json")
    assert POOLING.removeprefix("caveat: ") in json.loads(out)["caveats"]
    code, out, err = run_cli("report", str(BATCHES), *RATERS)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "Agreement report" and lines[1] == POOLING
    code, out, _ = run_cli("check", str(BATCHES / "pilot.csv"), *RATERS, "--coefficient",
                           "cohen_kappa", "--min", "0.4")
    assert code == 0 and "pooled" not in out

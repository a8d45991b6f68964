"""span_f1 in the registry: the figure of span_agreement (checked against bratiaa and
nervaluate), routed by compute, a study protocol and ``accord check``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import accord
from accord.errors import InvalidParameterError, StudyError
from accord.interpret.selection import compute
from accord.spans import MODES
from tests.conftest import run_cli

from ._oracle import bratiaa_figures
from .test_agreement import _brat_project
from .test_report_spans import NER, NERVALUATE_MODE, SPAN_OPTS, _random_rows, _write

BRAT = Path(__file__).resolve().parents[1] / "readers" / "data" / "brat_project"


def _ner() -> accord.Annotations:
    return accord.read(NER, unit="doc", rater="annotator", value="label", start="start",
                       end="end")


@pytest.mark.parametrize("seed", range(3))
def test_strict_span_f1_is_bratiaa_s_mean_pairwise_f1(tmp_path: Path, seed: int) -> None:
    bratiaa = pytest.importorskip("bratiaa")
    root = _brat_project(tmp_path, seed)
    total = bratiaa_figures(bratiaa, root).total
    res = accord.span_f1(accord.read(root))
    assert res.coefficient == "span_f1" and res.details["mode"] == "strict"
    assert res.estimate == pytest.approx(total, abs=1e-12)


@pytest.mark.parametrize("mode", MODES)
def test_every_mode_is_the_mean_of_nervaluate_pair_f1(tmp_path: Path, mode: str) -> None:
    nervaluate = pytest.importorskip("nervaluate")
    rows = _random_rows(5)
    ann = accord.read(_write(tmp_path / "s.csv", rows), unit="doc", rater="annotator",
                      value="label", start="start", end="end")
    docs = sorted({r[0] for r in rows})

    def side(rater: str) -> list[list[dict[str, object]]]:
        return [[{"label": lab, "start": s, "end": e - 1} for d, r, s, e, lab in rows
                 if d == doc and r == rater] for doc in docs]  # nervaluate: inclusive ends

    pairs = [("ann", "bob"), ("ann", "cy"), ("bob", "cy")]
    theirs = [nervaluate.Evaluator(side(a), side(b), tags=["A", "B"], loader="dict")
              .evaluate()["overall"][NERVALUATE_MODE[mode]].f1 for a, b in pairs]
    ours = compute(ann, ["span_f1"], mode=mode)[0]
    assert ours.estimate == pytest.approx(sum(theirs) / 3, abs=1e-12)


def test_the_interval_resamples_units_like_span_agreement() -> None:
    ann = _ner()
    boot = accord.Bootstrap(n_resamples=300, rng=4)
    ours = accord.span_f1(ann, mode="type").confidence_interval(0.9, method=boot)
    ref = accord.span_agreement(ann, mode="type").f1.confidence_interval(0.9, method=boot)
    assert (ours.low, ours.high) == (ref.low, ref.high)
    assert ours.low < accord.span_f1(ann, mode="type").estimate < ours.high


def test_selected_raters_restrict_the_pairs() -> None:
    ann = _ner()
    two = accord.span_f1(ann.select(["ana", "ben"]))
    assert two.estimate == accord.span_agreement(ann).pairs[("ana", "ben")].f1.estimate
    assert two.n_raters == 2


def test_mode_goes_only_to_span_f1() -> None:
    labels = accord.Annotations.from_pairs(list("aab"), list("abb"))
    with pytest.raises(InvalidParameterError, match="cohen_kappa does not take mode"):
        compute(labels, ["cohen_kappa"], mode="exact")
    with pytest.raises(accord.DataError, match="hold no spans"):
        compute(labels, ["span_f1"])


def test_a_study_declares_the_mode() -> None:
    study = accord.Study.from_dict({
        "metric": {"coefficient": "span_f1", "mode": "partial", "interval": "bootstrap",
                   "n_resamples": 400, "seed": 2},
        "acceptance": {"rule": "span_f1 >= 0.5", "on": "lower-ci"}})
    ev = study.evaluate(_ner())
    assert ev.result.estimate == accord.span_f1(_ner(), mode="partial").estimate
    assert ev.decision.status == "accepted" and ev.interval is not None
    assert "mode partial" in study.metric.describe()
    with pytest.raises(StudyError, match=r"\[metric\]\.mode must be one of"):
        accord.Study.from_dict({"metric": {"coefficient": "span_f1", "mode": "loose"},
                                "acceptance": {"rule": "span_f1 >= 0.5"}})


def test_cli_check_on_span_data(tmp_path: Path) -> None:
    base = ["check", str(NER), *SPAN_OPTS, "--coefficient", "span_f1"]
    code, out, _ = run_cli(*base, "--min", "0.6", "--json")
    assert code == 0
    (row,) = json.loads(out)["results"]
    assert row["estimate"] == accord.span_f1(_ner()).estimate  # 0.6148..., strict
    code, out, _ = run_cli(*base, "--min", "0.6", "--on", "lower-ci", "--ci", "bootstrap",
                           "--seed", "1")
    assert code == 1 and out.startswith("REJECTED: span_f1 lower 95% limit")
    code, out, _ = run_cli(*base, "--min", "0.6", "--on", "lower-ci")  # asymptotic: no SE
    assert code == 1 and out.startswith("UNDEFINED") and "use --ci jackknife or --ci bootstrap" \
        in out
    code, out, _ = run_cli(*base, "--min", "0.78", "--mode", "partial")
    assert code == 0 and "0.7889" in out  # partial: (0.8333 + 0.8667 + 0.6667) / 3
    code, out, _ = run_cli("check", str(BRAT), "--coefficient", "span_f1", "--min", "0.3")
    assert code == 0 and "(n = 2 units)" in out
    study = tmp_path / "study.toml"
    study.write_text('[metric]\ncoefficient = "span_f1"\nmode = "type"\n'
                     '[acceptance]\nrule = "span_f1 >= 0.9"\n')
    code, out, _ = run_cli("check", str(NER), *SPAN_OPTS, "--study", str(study))
    assert code == 1 and out.startswith("REJECTED: span_f1 estimate 0.7852")


def test_cli_check_refuses_mismatched_data() -> None:
    code, _, err = run_cli("check", str(BRAT), "--coefficient", "cohen_kappa", "--min", "0.3")
    assert code == 2 and "spans only" in err
    code, _, err = run_cli("check", "examples/pilot.csv", "--raters", "annotator_a",
                           "annotator_b", "--coefficient", "span_f1", "--min", "0.3")
    assert code == 2 and "hold no spans" in err

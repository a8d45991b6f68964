"""Reproducible by default: every resampling nobody seeded uses ``DEFAULT_SEED`` (0).

The same data and options give the same figures on every run, in the library and on the
command line; the seed is said where the figures are; and a figure computed once is
shown the same everywhere (``accord spans``: the headline and the table).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

import accord
from accord.data._names import DEFAULT_SEED
from tests.conftest import run_cli as run

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def test_the_default_bootstrap_is_seeded() -> None:
    """Two default Bootstraps give one interval (before, fresh entropy gave two)."""
    res = accord.cohen_kappa([1, 1, 0, 1, 0, 0, 1, 1, 0, 1], [1, 0, 0, 1, 0, 1, 1, 1, 0, 1])
    assert accord.Bootstrap().rng == DEFAULT_SEED == 0
    first = res.confidence_interval(method=accord.Bootstrap(n_resamples=499))
    second = res.confidence_interval(method=accord.Bootstrap(n_resamples=499))
    assert (first.low, first.high) == (second.low, second.high)
    seeded = res.confidence_interval(method=accord.Bootstrap(n_resamples=499, rng=0))
    assert (seeded.low, seeded.high) == (first.low, first.high)


def test_the_calibration_split_is_seeded() -> None:
    rng = np.random.default_rng(4)
    scores = rng.uniform(0, 1, 200)
    labels = (rng.uniform(0, 1, 200) < scores).astype(int)
    a = accord.judge_calibration(scores, labels)
    b = accord.judge_calibration(scores, labels)
    assert a.to_dict() == b.to_dict()


def test_the_cli_bootstrap_is_the_same_on_every_run() -> None:
    args = ("compute", str(EXAMPLES / "pilot.csv"), "--raters", "annotator_a", "annotator_b",
            "--coefficient", "cohen_kappa", "--ci", "bootstrap", "--n-resamples", "300",
            "--json")
    first, second = run(*args), run(*args)
    assert first[0] == 0, first[2]
    assert json.loads(first[1])["results"] == json.loads(second[1])["results"]
    code, out, _ = run("compute", "--help")
    assert "default 0: the same figures on every run" in " ".join(out.split())


def test_the_report_says_its_seed() -> None:
    rep = accord.report(accord.read(EXAMPLES / "pilot.csv",
                                    raters=["annotator_a", "annotator_b"]),
                        method="bootstrap", n_resamples=200)
    assert rep.settings.seed == 0
    again = accord.report(accord.read(EXAMPLES / "pilot.csv",
                                      raters=["annotator_a", "annotator_b"]),
                          method="bootstrap", n_resamples=200)
    assert [(r.ci_low, r.ci_high) for r in rep.coefficients] == \
        [(r.ci_low, r.ci_high) for r in again.coefficients]


def _conll(path: Path, tags: list[list[str]]) -> Path:
    path.write_text("\n\n".join("\n".join(f"w{i} {t}" for i, t in enumerate(doc))
                                for doc in tags) + "\n", encoding="utf-8")
    return path


def test_spans_show_one_interval_for_one_figure(tmp_path: Path) -> None:
    """Two files, one rater pair: the mean pairwise F1 of the headline is the pair's F1,
    with the pair's interval (before: [0.7194, 0.8521] above a table's [0.7184, 0.8509])."""
    rng = np.random.default_rng(5)
    kinds = ["B-PER", "B-LOC", "B-ORG"]
    a, b = [], []
    for _ in range(40):
        doc_a = [str(rng.choice(kinds)) if rng.random() < 0.3 else "O" for _ in range(10)]
        doc_b = [t if rng.random() < 0.85 else "O" for t in doc_a]
        a.append(doc_a)
        b.append(doc_b)
    fa, fb = _conll(tmp_path / "a.conll", a), _conll(tmp_path / "b.conll", b)
    code, out, err = run("spans", str(fa), str(fb), "--n-resamples", "300", "--json")
    assert code == 0, err
    got = json.loads(out)
    (f1,) = (r for r in got["results"] if r["figure"] == "f1")
    assert f1["confidence_interval"] == got["pairs"][0]["f1"]["confidence_interval"]
    code, text, _ = run("spans", str(fa), str(fb), "--n-resamples", "300")
    ci = f1["confidence_interval"]
    shown = f"[{ci['low']:.4f}, {ci['high']:.4f}]"
    assert text.count(shown) == 2  # the headline and the table


def test_the_json_of_a_resampling_command_records_its_seed() -> None:
    args = ("compute", str(EXAMPLES / "pilot.csv"), "--raters", "annotator_a", "annotator_b",
            "--json")
    assert json.loads(run(*args)[1])["seed"] == DEFAULT_SEED
    assert json.loads(run(*args, "--seed", "7")[1])["seed"] == 7
    assert "seed" not in json.loads(run("inspect", str(EXAMPLES / "pilot.csv"), "--json")[1])

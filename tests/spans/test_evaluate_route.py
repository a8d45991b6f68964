"""accord.evaluate on span data: each system against the reference rater through
evaluate_spans, checked against nervaluate in the four modes; label options refused."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

import accord
from accord.errors import DataError, DegenerateDataWarning, InvalidParameterError
from accord.spans import MODES

from .test_report_spans import NERVALUATE_MODE, _random_rows, _write

BRAT = Path(__file__).resolve().parents[1] / "readers" / "data" / "brat_project"


def _read(path: Path, kinds: dict[str, str] | None = None) -> accord.Annotations:
    return accord.read(path, unit="doc", rater="annotator", value="label", start="start",
                       end="end", kinds=kinds)


def _same(ours: float, theirs: float) -> None:
    # nervaluate reports 0 where the figure is 0/0; accord reports nan
    assert (theirs == 0.0) if ours != ours else ours == pytest.approx(theirs, abs=1e-12)


@pytest.mark.parametrize("mode", MODES)
def test_each_system_matches_nervaluate(tmp_path: Path, mode: str) -> None:
    nervaluate = pytest.importorskip("nervaluate")
    rows = _random_rows(11)
    ann = _read(_write(tmp_path / "s.csv", rows),
                kinds={"ann": "gold", "bob": "model", "cy": "llm"})
    docs = sorted({r[0] for r in rows})

    def side(rater: str) -> list[list[dict[str, object]]]:
        return [[{"label": lab, "start": s, "end": e - 1} for d, r, s, e, lab in rows
                 if d == doc and r == rater] for doc in docs]  # nervaluate: inclusive ends

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        evs = accord.evaluate(ann, mode=mode)  # reference and systems from the kinds
    assert isinstance(evs, dict) and list(evs) == ["bob", "cy"]
    for system, ev in evs.items():
        out = nervaluate.Evaluator(side("ann"), side(system), tags=["A", "B"],
                                   loader="dict").evaluate()
        want = out["overall"][NERVALUATE_MODE[mode]]
        assert ev.mode == mode and ev.n_units == len(docs)
        for k in ("precision", "recall", "f1"):
            _same(getattr(ev, k).estimate, getattr(want, k))
        for k in ("correct", "incorrect", "partial", "missed", "spurious"):
            assert getattr(ev.counts, k) == getattr(want, k)
        for label, by_mode in out["entities"].items():
            _same(ev.per_label[label].f1.estimate, by_mode[NERVALUATE_MODE[mode]].f1)


def test_named_raters_one_system_and_a_span_table() -> None:
    ann = accord.read(BRAT)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        one = accord.evaluate(ann, reference="Maria", systems="Max")
        table = accord.evaluate(ann.spans, reference="Maria", systems=["Max", "Peter"])
        direct = accord.evaluate_spans(ann, ann, reference_rater="Maria", predicted_rater="Max")
    assert isinstance(one, accord.SpanEvaluation)
    assert one.f1.estimate == direct.f1.estimate == pytest.approx(2 * 2 / (5 + 2))
    assert one.precision.estimate == 1.0  # Max's 2 spans are both Maria's
    assert table["Peter"].n_units == 1  # Peter annotated doc1 only
    assert table["Max"].f1.estimate == one.f1.estimate


def test_what_does_not_apply_to_spans_is_refused() -> None:
    ann = accord.read(BRAT)
    for option in ({"categories": ["PER"]}, {"positive": "PER"}, {"level": "nominal"},
                   {"method": accord.Bootstrap(n_resamples=10)}):
        with pytest.raises(DataError, match=f"{next(iter(option))} apply to labels"):
            accord.evaluate(ann, reference="Maria", systems="Max", **option)
    with pytest.raises(InvalidParameterError, match="'mode' parameter of evaluate must be"):
        accord.evaluate(ann, reference="Maria", systems="Max", mode="loose")
    with pytest.raises(InvalidParameterError, match="None for labels"):
        accord.evaluate([1, 2], [1, 2], mode="strict")
    with pytest.raises(DataError, match="no rater is of kind 'gold'"):
        accord.evaluate(ann)
    with pytest.raises(DataError, match="a SpanTable has no rater kinds"):
        accord.evaluate(ann.spans, systems="Max")
    with pytest.raises(DataError, match=r"\['Nobody'\] not found"):
        accord.evaluate(ann.spans, reference="Maria", systems="Nobody")
    with pytest.raises(InvalidParameterError, match="'predicted' parameter"):
        accord.evaluate(ann, ann, reference="Maria", systems="Max")

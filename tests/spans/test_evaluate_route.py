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
    # method= is the human ceiling's bootstrap, for spans as for labels
    for option in ({"categories": ["PER"]}, {"positive": "PER"}, {"level": "nominal"}):
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


CEILING_ROWS = """doc,annotator,start,end,label
d1,gold,0,5,PER
d1,gold,10,15,LOC
d1,sys,0,5,PER
d1,h1,0,5,PER
d1,h1,10,15,LOC
d1,h2,0,5,PER
d1,h2,10,14,LOC
d2,gold,0,3,ORG
d2,sys,0,3,ORG
d2,sys,5,8,PER
d2,h1,0,3,ORG
d2,h2,0,3,ORG
d3,gold,2,4,PER
d3,sys,2,4,LOC
d3,h1,2,4,PER
d3,h2,2,4,PER
d4,gold,0,2,LOC
d4,sys,0,2,LOC
d4,h2,0,2,LOC
"""


def test_span_system_gets_its_human_ceiling(tmp_path: Path) -> None:
    """Strict F1 worked by hand (SemEval-2013 counts): the system has C=3, I=1 (d3's
    label), M=1, S=1, so P = R = F1 = 3/5; h1 on d1-d3 (it never saw d4) matches all 4
    reference spans, F1 = 1; h2 has C=4, I=1 (d1's LOC boundary), F1 = 4/5; h1 and h2
    match 3 of their 4 + 4 spans on d1-d3, pairwise F1 = 2*3/8 = 0.75."""
    path = tmp_path / "c.csv"
    path.write_text(CEILING_ROWS)
    ann = _read(path, kinds={"gold": "gold", "sys": "model"})
    boot = accord.Bootstrap(n_resamples=999, rng=3)
    ev = accord.evaluate(ann, systems="sys", method=boot)
    assert isinstance(ev, accord.SpanEvaluation) and ev.ceiling is not None
    c = ev.ceiling
    assert ev.f1.estimate == pytest.approx(0.6, abs=1e-15)
    assert {h: r.estimate for h, r in c.humans.items()} == pytest.approx(
        {"h1": 1.0, "h2": 0.8}, abs=1e-15)
    assert c.human_agreement is not None
    assert c.human_agreement.estimate == pytest.approx(0.75, abs=1e-15)
    assert c.figure == "f1" and c.n_units == 4 and c.human_range == pytest.approx((0.8, 1.0))
    # the paired differences are compare() of the system's and each human's F1, by unit
    for h in ("h1", "h2"):
        want = accord.compare(ev.f1, c.humans[h], method=boot)
        got = c.comparisons[h]
        assert got.difference == pytest.approx(0.6 - c.humans[h].estimate, abs=1e-15)
        assert (got.interval.low, got.interval.high) == (want.interval.low, want.interval.high)
        assert got.n_shared == (3 if h == "h1" else 4)
    assert c.outcome in ("near", "below") and "0.80-1.00" in c.sentence
    assert ev.to_dict()["ceiling"]["humans"]["h1"]["estimate"] == 1.0
    # no human besides the reference and the system: no ceiling
    lone = _read(path, kinds={"gold": "gold", "sys": "model", "h1": "model", "h2": "llm"})
    assert all(e.ceiling is None for e in accord.evaluate(lone).values())  # type: ignore[union-attr]

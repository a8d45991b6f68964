"""evaluate_spans against nervaluate (all four modes) and seqeval (tag sequences), at 1e-12.

nervaluate 1.2 (SemEval-2013 task 9.1 scheme; ends inclusive, so end - 1 here) and
seqeval 1.2 (conlleval's lenient reading, and its strict mode per scheme) are the oracles.
The random spans are laid out in slots (at most one span per side per slot) so that no
span overlaps two of the other side: there every one-to-one rule gives the same counts,
and nervaluate's (each prediction, in list order, takes the first free overlap) is one.
"""

from __future__ import annotations

import math
import warnings

import pytest
from hypothesis import given
from hypothesis import strategies as st

import accord
from accord.errors import DegenerateDataWarning
from accord.readers.tags import entities

nervaluate = pytest.importorskip("nervaluate")
seqeval_metrics = pytest.importorskip("seqeval.metrics")
seqeval_scheme = pytest.importorskip("seqeval.scheme")
from seqeval.metrics.sequence_labeling import get_entities  # noqa: E402

NERVALUATE_MODE = {"strict": "strict", "exact": "exact", "partial": "partial", "type": "ent_type"}


@st.composite
def slotted_unit(draw: st.DrawFn) -> tuple[list[tuple[int, int, str]], list[tuple[int, int, str]]]:
    ref, pred = [], []
    for slot in range(draw(st.integers(0, 5))):
        base = 20 * slot
        for side in (ref, pred):
            if draw(st.booleans()):
                start = base + draw(st.integers(0, 8))
                side.append((start, start + draw(st.integers(1, 8)), draw(st.sampled_from("AB"))))
    return ref, pred


slotted = st.lists(slotted_unit(), min_size=1, max_size=6)


def _dicts(side: list[list[tuple[int, int, str]]]) -> list[list[dict[str, object]]]:
    return [[{"label": lab, "start": s, "end": e - 1} for s, e, lab in unit] for unit in side]


def _quiet(*args, **kwargs):  # type: ignore[no-untyped-def]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        return accord.evaluate_spans(*args, **kwargs)


def _same(ours: float, theirs: float) -> None:
    # nervaluate reports 0 where the figure is 0/0; accord reports nan
    assert (theirs == 0.0) if math.isnan(ours) else ours == pytest.approx(theirs, abs=1e-12)


def _same_counts(ours: accord.spans.SpanCounts, theirs: object) -> None:
    for k in ("correct", "incorrect", "partial", "missed", "spurious"):
        assert getattr(ours, k) == getattr(theirs, k), k


@given(slotted, st.sampled_from(list(NERVALUATE_MODE)))
def test_nervaluate_overall_and_per_label(units, mode) -> None:  # type: ignore[no-untyped-def]
    ref = [r for r, _ in units]
    pred = [p for _, p in units]
    theirs = nervaluate.Evaluator(_dicts(ref), _dicts(pred), tags=["A", "B"], loader="dict")
    out = theirs.evaluate()
    ours = _quiet(ref, pred, mode=mode)
    name = NERVALUATE_MODE[mode]
    want = out["overall"][name]
    _same_counts(ours.counts, want)
    for k in ("precision", "recall", "f1"):
        _same(getattr(ours, k).estimate, getattr(want, k))
    for label, by_mode in out["entities"].items():
        _same_counts(ours.per_label[label].counts, by_mode[name])
        _same(ours.per_label[label].f1.estimate, by_mode[name].f1)


def test_nervaluate_readme_example() -> None:
    # nervaluate's README: true PER [0,0], LOC [1,2]; pred PER [0,0], LOC [1,1] (inclusive ends)
    ref = [[(0, 1, "PER"), (1, 3, "LOC")]]
    pred = [[(0, 1, "PER"), (1, 2, "LOC")]]
    theirs = nervaluate.Evaluator(_dicts(ref), _dicts(pred), tags=["PER", "LOC"], loader="dict")
    out = theirs.evaluate()["overall"]
    for mode, name in NERVALUATE_MODE.items():
        ours = accord.evaluate_spans(ref, pred, mode=mode)
        _same_counts(ours.counts, out[name])
        assert ours.f1.estimate == pytest.approx(out[name].f1, abs=1e-12)


TAGS = {
    None: ["O", "B-X", "I-X", "B-Y", "I-Y", "E-X", "S-Y"],
    "IOB1": ["O", "B-X", "I-X", "B-Y", "I-Y"],
    "IOB2": ["O", "B-X", "I-X", "B-Y", "I-Y"],
    "IOE1": ["O", "I-X", "E-X", "I-Y", "E-Y"],
    "IOE2": ["O", "I-X", "E-X", "I-Y", "E-Y"],
    "IOBES": ["O", "B-X", "I-X", "E-X", "S-X", "B-Y", "E-Y", "S-Y"],
    "BILOU": ["O", "B-X", "I-X", "L-X", "U-X", "B-Y", "L-Y", "U-Y"],
}


def _sentences(tags: list[str]) -> st.SearchStrategy[list[list[str]]]:
    return st.lists(st.lists(st.sampled_from(tags), max_size=10), min_size=1, max_size=5)


def _seqeval_entities(sentences: list[list[str]], scheme: str | None) -> list[list[tuple]]:
    if scheme is None:
        out = []
        for s in sentences:
            out.append(sorted((b, e + 1, t) for t, b, e in get_entities(list(s))))
        return out
    ents = seqeval_scheme.Entities(sentences, getattr(seqeval_scheme, scheme)).entities
    return [sorted((x.start, x.end, x.tag) for x in sent) for sent in ents]


@pytest.mark.parametrize("scheme", list(TAGS))
@given(data=st.data())
def test_seqeval_entities(scheme, data) -> None:  # type: ignore[no-untyped-def]
    sentences = data.draw(_sentences(TAGS[scheme]))
    ours = [sorted(entities(s, scheme)) for s in sentences]
    assert ours == _seqeval_entities(sentences, scheme)


@pytest.mark.parametrize("scheme", [None, "IOB2", "IOBES"])
@given(data=st.data())
def test_seqeval_f1(scheme, data) -> None:  # type: ignore[no-untyped-def]
    tags = TAGS[scheme]
    n = data.draw(st.integers(1, 5))
    lengths = data.draw(st.lists(st.integers(0, 10), min_size=n, max_size=n))
    ref = [data.draw(st.lists(st.sampled_from(tags), min_size=k, max_size=k)) for k in lengths]
    pred = [data.draw(st.lists(st.sampled_from(tags), min_size=k, max_size=k)) for k in lengths]
    kw = {} if scheme is None else {"mode": "strict", "scheme": getattr(seqeval_scheme, scheme)}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = {
            k: getattr(seqeval_metrics, f"{k}_score")(ref, pred, **kw)
            for k in ("precision", "recall", "f1")
        }
    ours = _quiet(ref, pred, mode="strict", scheme=scheme)
    for k, theirs in want.items():
        _same(getattr(ours, k).estimate, theirs)

"""relation_agreement: hand-derived counts, F1 and kappa; kappa checked against
scikit-learn's cohen_kappa_score and statsmodels' fleiss_kappa on the label vectors
derived by hand; strict against lenient argument matching; bad relations."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats.inter_rater import fleiss_kappa

import accord
from accord.errors import DataError, InvalidParameterError
from accord.readers.relations import Relation, RelationTable
from accord.readers.spans import Span, SpanTable

MARKS = {"T1": (0, 5, "PER"), "T2": (10, 15, "ORG"), "T3": (20, 25, "LOC")}
NONE = "(no relation)"


def _spans(rater: str, marks: dict[str, tuple[int, int, str]], unit: str = "d1") -> list[Span]:
    return [Span(unit, rater, s, e, lab, id=i) for i, (s, e, lab) in marks.items()]


def _rel(rater: str, rid: str, head: str, tail: str, typ: str, unit: str = "d1") -> Relation:
    return Relation(unit, rater, rid, head, tail, typ)


def _example(shift_b: int = 0) -> tuple[SpanTable, list[Relation]]:
    """A and B mark T1..T3 (B's T3 may start ``shift_b`` characters later); B also marks T4."""
    b_marks = dict(MARKS, T3=(20 + shift_b, 25, "LOC"), T4=(30, 35, "PER"))
    spans = SpanTable((*_spans("A", MARKS), *_spans("B", b_marks)))
    rels = [
        _rel("A", "R1", "T1", "T2", "works_for"),   # B: the same -> correct
        _rel("A", "R2", "T2", "T3", "located_in"),  # B: works_for -> incorrect
        _rel("A", "R3", "T1", "T3", "lives_in"),    # B: nothing -> missed
        _rel("B", "R1", "T1", "T2", "works_for"),
        _rel("B", "R2", "T2", "T3", "works_for"),
        _rel("B", "R3", "T4", "T2", "works_for"),   # T4 has no partner -> spurious
    ]
    return spans, rels


def test_strict_counts_f1_and_kappa_by_hand():
    spans, rels = _example()
    res = accord.relation_agreement(spans, rels)
    c = res.counts
    assert (c.correct, c.incorrect, c.missed, c.spurious) == (1, 1, 1, 1)
    assert (c.missed_unmatched_arguments, c.spurious_unmatched_arguments) == (0, 1)
    # F1 = 2 C / (n_A + n_B) = 2 / (3 + 3)
    assert res.f1.estimate == pytest.approx(1 / 3, abs=1e-15)
    assert res.f1.details["correct"] == 1
    # items: (T1,T2) (T2,T3) (T1,T3) (T4,T2)
    a = ["works_for", "located_in", "lives_in", NONE]
    b = ["works_for", "works_for", NONE, "works_for"]
    assert res.kappa.estimate == pytest.approx(cohen_kappa_score(a, b), abs=1e-12)
    assert res.kappa.details["n_items"] == 4
    # per type: works_for has C=1, n_A + n_B = 1 + 3
    assert res.per_type["works_for"].estimate == pytest.approx(0.5)
    assert res.per_type["lives_in"].estimate == 0.0


def test_one_character_shift_strict_and_lenient():
    spans, rels = _example(shift_b=1)
    strict = accord.relation_agreement(spans, rels, mode="strict").counts
    # B's T3 no longer matches A's: A's R2 and R3 and B's R2 lose their arguments
    assert (strict.correct, strict.incorrect, strict.missed, strict.spurious) == (1, 0, 2, 2)
    assert strict.missed_unmatched_arguments == 2
    assert strict.spurious_unmatched_arguments == 2
    for mode in ("type", "partial"):
        lenient = accord.relation_agreement(spans, rels, mode=mode).counts
        assert (lenient.correct, lenient.incorrect, lenient.missed, lenient.spurious) == (
            1, 1, 1, 1)
    exact = accord.relation_agreement(spans, rels, mode="exact").counts
    assert exact.missed_unmatched_arguments == 2


def test_raters_swapped_give_the_same_figures():
    spans, rels = _example()
    ab = accord.relation_agreement(spans, rels, raters=["A", "B"])
    ba = accord.relation_agreement(spans, rels, raters=["B", "A"])
    assert ab.f1.estimate == ba.f1.estimate
    assert ab.kappa.estimate == pytest.approx(ba.kappa.estimate, abs=1e-15)
    assert (ba.counts.missed, ba.counts.spurious) == (ab.counts.spurious, ab.counts.missed)


def test_fleiss_kappa_for_three_raters_against_statsmodels():
    marks = dict(MARKS, T4=(30, 35, "PER"))
    spans = SpanTable(tuple(sp for r in "ABC" for sp in _spans(r, marks)))
    rels = [
        _rel("A", "R1", "T1", "T2", "works_for"), _rel("B", "R1", "T1", "T2", "works_for"),
        _rel("C", "R1", "T1", "T2", "works_for"),
        _rel("A", "R2", "T2", "T3", "located_in"), _rel("B", "R2", "T2", "T3", "located_in"),
        _rel("C", "R2", "T2", "T3", "works_for"),
        _rel("A", "R3", "T4", "T3", "lives_in"), _rel("C", "R3", "T4", "T3", "lives_in"),
        _rel("B", "R4", "T1", "T3", "lives_in"),
    ]  # fmt: skip
    res = accord.relation_agreement(spans, rels)
    # items x (lives_in, located_in, works_for, none)
    table = np.array([[0, 0, 3, 0], [0, 2, 1, 0], [2, 0, 0, 1], [1, 0, 0, 2]])
    assert res.kappa.estimate == pytest.approx(fleiss_kappa(table), abs=1e-12)
    assert res.kappa.details["kind"] == "fleiss_kappa"
    assert len(res.pairs) == 3
    # F1 is the mean over the three pairs: AB 2*2/6, AC 2*2/6, BC 2*1/6
    assert res.f1.estimate == pytest.approx((2 / 3 + 2 / 3 + 1 / 3) / 3)


def test_symmetric_types_ignore_direction():
    spans = SpanTable((*_spans("A", MARKS), *_spans("B", MARKS)))
    rels = [_rel("A", "R1", "T1", "T2", "sibling"), _rel("B", "R1", "T2", "T1", "sibling")]
    assert accord.relation_agreement(spans, rels).f1.estimate == 0.0
    with pytest.warns(accord.DegenerateDataWarning, match="relation_kappa .strict. is undefined"):
        res = accord.relation_agreement(spans, rels, symmetric=["sibling"])
    assert res.f1.estimate == 1.0 and math.isnan(res.kappa.estimate)
    undirected = [Relation("d1", r, "R1", h, t, "sibling", directed=False)
                  for r, h, t in (("A", "T1", "T2"), ("B", "T2", "T1"))]
    with pytest.warns(accord.DegenerateDataWarning):
        assert accord.relation_agreement(spans, undirected).f1.estimate == 1.0


def test_bootstrap_over_documents_is_seeded_and_agrees_with_the_estimate():
    marks = dict(MARKS)
    spans, rels = [], []
    for d in range(12):
        unit = f"d{d}"
        spans += _spans("A", marks, unit) + _spans("B", marks, unit)
        rels += [_rel("A", "R1", "T1", "T2", "x", unit),
                 _rel("B", "R1", "T1", "T2", "x" if d % 3 else "y", unit),
                 _rel("A", "R2", "T2", "T3", "y", unit)]  # fmt: skip
        if d % 4 == 0:
            rels.append(_rel("B", "R2", "T2", "T3", "y", unit))
    res = accord.relation_agreement(SpanTable(tuple(spans)), rels)
    for fig in (res.f1, res.kappa):
        assert fig.resampling is not None
        assert fig.resampling().full() == pytest.approx(fig.estimate, abs=1e-12)
        assert fig.resampling().n_units == 12
        one = fig.confidence_interval(method=accord.Bootstrap(n_resamples=200))
        two = fig.confidence_interval(method=accord.Bootstrap(n_resamples=200))
        assert one == two and one.low <= fig.estimate <= one.high


def test_undefined_f1_is_nan_with_a_reason():
    spans = SpanTable((*_spans("A", MARKS), *_spans("B", MARKS)))
    with pytest.warns(accord.DegenerateDataWarning):
        res = accord.relation_agreement(spans, RelationTable(()))
    assert math.isnan(res.f1.estimate) and res.f1.undefined_reason


@pytest.mark.parametrize(
    ("rel", "message"),
    [
        (_rel("A", "R9", "T1", "T7", "x"), "names span 'T7', which 'A' did not mark there"),
        (_rel("A", "R9", "T1", "T1", "x"), "links span 'T1' to itself"),
        (_rel("A", "R9", "T1", "T5", "x"), "of document 'd2'"),
        (_rel("A", "R9", "T1", "T2", "works_for"), "are the same relation"),
    ],
)
def test_bad_relations_are_refused_with_a_sentence(rel, message):
    spans, rels = _example()
    extra = Span("d2", "A", 0, 3, "PER", id="T5")
    table = SpanTable((*spans.spans, extra))
    with pytest.raises(DataError, match=message.replace("(", r"\(")):
        accord.relation_agreement(table, [*rels, rel])


def test_relations_are_needed():
    spans, _ = _example()
    with pytest.raises(DataError, match="no relations"):
        accord.relation_agreement(spans)
    with pytest.raises(InvalidParameterError, match="'relations' parameter"):
        accord.relation_agreement(spans, "R1")


def test_disputes_name_the_text_and_every_rater():
    spans, rels = _example()
    res = accord.relation_agreement(spans, rels, n_disputes=2)
    assert len(res.disputes) == 2
    d = res.disputes[0]
    assert set(d.types) == {"A", "B"} and d.unit == "d1"
    assert "[" in d.head
    out = res.to_dict()
    assert out["counts"]["correct"] == 1 and out["kappa"]["coefficient"] == "relation_kappa"


@st.composite
def _two_raters(draw: st.DrawFn) -> tuple[SpanTable, list[Relation]]:
    """Random documents: each rater marks some of 6 spans (one may be shifted) and links
    some pairs of them."""
    spans, rels = [], []
    for d in range(draw(st.integers(1, 3))):
        unit = f"d{d}"
        for rater in ("A", "B"):
            marked = draw(st.lists(st.integers(0, 5), min_size=2, max_size=6, unique=True))
            shift = draw(st.integers(0, 1))
            for k in marked:
                spans.append(Span(unit, rater, 10 * k + (shift if k == 0 else 0), 10 * k + 5,
                                  "PER" if k % 2 else "LOC", id=f"T{k}"))
            pairs = draw(st.lists(st.tuples(st.sampled_from(marked), st.sampled_from(marked),
                                            st.sampled_from(["x", "y", "z"])),
                                  max_size=5, unique_by=lambda p: (p[0], p[1])))
            rels += [_rel(rater, f"R{i}", f"T{h}", f"T{t}", ty, unit)
                     for i, (h, t, ty) in enumerate(pairs) if h != t]
    return SpanTable(tuple(spans)), rels


@settings(max_examples=40, deadline=None)
@given(_two_raters(), st.sampled_from(["strict", "exact", "partial", "type"]))
def test_properties_swap_relabel_and_identity(data, mode):
    spans, rels = data
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", accord.DegenerateDataWarning)
        ab = accord.relation_agreement(spans, rels, mode=mode, raters=["A", "B"])
        ba = accord.relation_agreement(spans, rels, mode=mode, raters=["B", "A"])
        rename = {"x": "q", "y": "x", "z": "y"}
        renamed = [Relation(r.unit, r.rater, r.id, r.head, r.tail, rename[r.type])
                   for r in rels]
        re = accord.relation_agreement(spans, renamed, mode=mode)
        same = [Relation(r.unit, "B", r.id, r.head, r.tail, r.type) for r in rels
                if r.rater == "A"] + [r for r in rels if r.rater == "A"]
        only_a = SpanTable(tuple([s for s in spans.spans if s.rater == "A"]
                                 + [Span(s.unit, "B", s.start, s.end, s.label, id=s.id)
                                    for s in spans.spans if s.rater == "A"]))
        ident = accord.relation_agreement(only_a, same, mode=mode)
    for x, y in ((ab.f1, ba.f1), (ab.kappa, ba.kappa), (ab.f1, re.f1), (ab.kappa, re.kappa)):
        assert x.estimate == pytest.approx(y.estimate, abs=1e-12, nan_ok=True)
    assert (ab.counts.missed, ab.counts.correct) == (ba.counts.spurious, ba.counts.correct)
    if any(r.rater == "A" for r in rels):
        assert ident.f1.estimate == 1.0
        assert ident.counts.missed == ident.counts.spurious == 0
    assert 0.0 <= ab.f1.estimate <= 1.0 or math.isnan(ab.f1.estimate)

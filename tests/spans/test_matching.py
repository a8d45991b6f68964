"""Span matching: the vectorised sweep against a pair-by-pair statement of the rule, and the
properties every mode must have."""

from __future__ import annotations

import math
import warnings

import pytest
from hypothesis import given
from hypothesis import strategies as st

import accord
from accord.errors import DataError, DegenerateDataWarning
from tests.spans._oracle import counts

MODES = ("strict", "exact", "partial", "type")


@st.composite
def span(draw: st.DrawFn, width: int = 30) -> tuple[int, int, str]:
    start = draw(st.integers(0, width - 1))
    end = draw(st.integers(start + 1, min(width, start + 8)))
    return start, end, draw(st.sampled_from("ABC"))


@st.composite
def discontinuous(draw: st.DrawFn) -> tuple[int, int, str, tuple[tuple[int, int], ...]]:
    a = draw(st.integers(0, 20))
    b = draw(st.integers(a + 1, a + 4))
    c = draw(st.integers(b + 1, b + 4))
    d = draw(st.integers(c + 1, c + 4))
    return a, d, draw(st.sampled_from("AB")), ((a, b), (c, d))


units = st.lists(st.lists(span(), max_size=6), min_size=1, max_size=4)


def two_sides(n: int, spans: st.SearchStrategy[object]) -> st.SearchStrategy[object]:
    return st.tuples(
        st.lists(st.lists(spans, max_size=6), min_size=n, max_size=n),
        st.lists(st.lists(spans, max_size=6), min_size=n, max_size=n),
    )


pairs = st.integers(1, 4).flatmap(lambda n: two_sides(n, span()))
mixed = st.integers(1, 3).flatmap(lambda n: two_sides(n, st.one_of(span(), discontinuous())))


def quiet(ref, pred, mode):  # type: ignore[no-untyped-def]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        return accord.evaluate_spans(ref, pred, mode=mode)


def as_list(c: accord.spans.SpanCounts) -> list[int]:
    return [c.correct, c.incorrect, c.partial, c.missed, c.spurious]


@given(pairs, st.sampled_from(MODES))
def test_sweep_matches_the_pairwise_rule(data, mode) -> None:  # type: ignore[no-untyped-def]
    ref, pred = data
    assert as_list(quiet(ref, pred, mode).counts) == counts(ref, pred, mode)


@given(mixed, st.sampled_from(MODES))
def test_discontinuous_spans_match_on_their_fragments(data, mode) -> None:  # type: ignore[no-untyped-def]
    ref, pred = data
    assert as_list(quiet(ref, pred, mode).counts) == counts(ref, pred, mode)


def test_fragments_that_share_no_character_do_not_match() -> None:
    # the hulls [0, 10) and [4, 6) overlap, the fragments (0-3, 7-10) and (4-6) do not
    res = accord.evaluate_spans([[(0, 10, "X", ((0, 3), (7, 10)))]], [[(4, 6, "X")]], mode="type")
    assert as_list(res.counts) == [0, 0, 0, 1, 1]
    same = accord.evaluate_spans(
        [[(0, 10, "X", ((0, 3), (7, 10)))]], [[(0, 10, "X", [(0, 3), (7, 10)])]]
    )
    assert same.f1.estimate == 1.0


@given(pairs, st.sampled_from(MODES))
def test_f1_is_symmetric(data, mode) -> None:  # type: ignore[no-untyped-def]
    ref, pred = data
    ab, ba = quiet(ref, pred, mode), quiet(pred, ref, mode)
    assert ab.f1.estimate == pytest.approx(ba.f1.estimate, abs=1e-12, nan_ok=True)
    assert ab.precision.estimate == pytest.approx(ba.recall.estimate, abs=1e-12, nan_ok=True)


@given(pairs)
def test_modes_are_ordered(data) -> None:  # type: ignore[no-untyped-def]
    ref, pred = data
    f = {m: quiet(ref, pred, m).f1.estimate for m in MODES}
    if math.isnan(f["strict"]):
        return
    assert f["strict"] <= f["exact"] + 1e-12
    assert f["exact"] <= f["partial"] + 1e-12
    assert f["strict"] <= f["type"] + 1e-12


def test_type_and_partial_are_not_ordered() -> None:
    # one overlap with the same label: correct in type mode, half in partial mode
    assert quiet([[(0, 10, "X")]], [[(0, 5, "X")]], "type").f1.estimate == 1.0
    assert quiet([[(0, 10, "X")]], [[(0, 5, "X")]], "partial").f1.estimate == 0.5
    # the same boundaries with another label: the other way round
    assert quiet([[(0, 10, "X")]], [[(0, 10, "Y")]], "type").f1.estimate == 0.0
    assert quiet([[(0, 10, "X")]], [[(0, 10, "Y")]], "partial").f1.estimate == 1.0


@given(units, st.sampled_from(MODES))
def test_identical_gives_one(ref, mode) -> None:  # type: ignore[no-untyped-def]
    if any(ref):
        assert quiet(ref, ref, mode).f1.estimate == 1.0


@given(units, st.sampled_from(MODES))
def test_disjoint_gives_zero(ref, mode) -> None:  # type: ignore[no-untyped-def]
    shifted = [[(s + 100, e + 100, lab) for s, e, lab in u] for u in ref]
    if any(ref):
        assert quiet(ref, shifted, mode).f1.estimate == 0.0


@given(pairs, st.sampled_from(MODES), st.integers(1, 10**6))
def test_shifting_every_offset_changes_nothing(data, mode, k) -> None:  # type: ignore[no-untyped-def]
    ref, pred = data

    def move(side):  # type: ignore[no-untyped-def]
        return [[(s + k, e + k, lab) for s, e, lab in u] for u in side]

    assert as_list(quiet(move(ref), move(pred), mode).counts) == as_list(
        quiet(ref, pred, mode).counts
    )


def test_largest_overlap_first() -> None:
    # one reference span, two overlapping predictions: the larger overlap is the match
    res = accord.evaluate_spans([[(0, 10, "X")]], [[(0, 3, "X"), (4, 10, "X")]], mode="partial")
    assert as_list(res.counts) == [0, 0, 1, 0, 1]
    assert res.f1.estimate == pytest.approx(2 * 0.5 / 3)


@pytest.mark.parametrize(
    ("bad", "needle"),
    [
        ([(5, 5, "X")], "end > start"),
        ([(6, 5, "X")], "end > start"),
        ([(-1, 5, "X")], "non-negative integers"),
        ([(1.5, 5, "X")], "non-negative integers"),
        ([(0, 9, "X", ((0, 5), (4, 9)))], "must be non-empty, in order and not overlap"),
    ],
)
def test_bad_spans_are_refused(bad, needle) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(DataError, match=needle):
        accord.evaluate_spans([bad], [[]])


def test_labels_differing_in_case_stay_apart_with_a_note() -> None:
    with pytest.warns(DegenerateDataWarning, match="label '(PER|per)'"):
        res = accord.evaluate_spans([[(0, 3, "PER")]], [[(0, 3, "per")]], mode="strict")
    assert res.f1.estimate == 0.0
    assert res.notes == (
        "labels ['PER', 'per'] differ only in case; they are compared as different labels",
    )


def test_tag_sequences_must_pair_up() -> None:
    with pytest.raises(DataError, match="sentence 0 must be two lists of tags of one length"):
        accord.evaluate_spans([["B-X", "O"]], [["B-X"]])
    with pytest.raises(DataError, match="sentence 0 must be two lists of tags"):
        accord.evaluate_spans([["B-X"]], [[(0, 1, "X")]])


def test_two_tables_and_their_coverage() -> None:
    from accord.readers.spans import Span, SpanTable

    gold = SpanTable(
        (Span("d1", "gold", 0, 4, "X"), Span("d2", "gold", 0, 2, "X")),
        {("d1", "gold"): "annotated", ("d2", "gold"): "annotated", ("d3", "gold"): "annotated"},
    )
    system = SpanTable((Span("d1", "sys", 0, 4, "X"), Span("d3", "sys", 5, 6, "X")))
    res = accord.evaluate_spans(gold, system)  # the system table records no coverage
    assert (res.n_units, res.counts.correct, res.counts.missed, res.counts.spurious) == (3, 1, 1, 1)
    seen = SpanTable(system.spans, {("d1", "sys"): "annotated", ("d3", "sys"): "annotated"})
    res = accord.evaluate_spans(gold, seen)
    assert res.n_units == 2 and res.left_out == {"skipped": 0, "not seen": 1}
    ann_like = SpanTable(gold.spans + seen.spans, {**gold.coverage, **seen.coverage})
    same = accord.evaluate_spans(ann_like, ann_like, reference_rater="gold", predicted_rater="sys")
    assert same.counts == res.counts
    with pytest.raises(DataError, match="choose one with reference_rater="):
        accord.evaluate_spans(ann_like, system)

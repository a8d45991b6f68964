"""span_disagreements and label_confusion: the spans behind span_agreement's counts."""

from __future__ import annotations

import warnings
from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

import accord
from accord.errors import DegenerateDataWarning
from accord.readers.spans import Span, SpanTable

rows = st.lists(
    st.tuples(
        st.sampled_from(["d1", "d2", "d3"]), st.sampled_from(["A", "B", "C"]),
        st.integers(0, 20), st.integers(1, 6), st.sampled_from(["X", "Y"]),
    ),
    max_size=25,
)  # fmt: skip


def _table(data):  # type: ignore[no-untyped-def]
    spans = tuple(Span(u, r, s, s + n, lab, text=f"{u}:{s}") for u, r, s, n, lab in data)
    cov = {(u, r): "annotated" for u in ("d1", "d2", "d3") for r in "ABC"}
    return SpanTable(spans, cov)


@given(rows, st.sampled_from(["strict", "exact", "partial", "type"]))
def test_the_listing_holds_every_count_but_correct(data, mode) -> None:  # type: ignore[no-untyped-def]
    t = _table(data)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        agr = accord.span_agreement(t, mode=mode)
    listed = Counter((d.raters, d.kind) for d in accord.spans.span_disagreements(t, mode=mode))
    confusion = accord.spans.label_confusion(t, mode=mode)
    for pair, p in agr.pairs.items():
        c = p.counts
        for kind in ("incorrect", "partial", "missed", "spurious"):
            assert listed[(pair, kind)] == getattr(c, kind)
        assert sum(confusion[pair].values()) == c.correct + c.incorrect + c.partial
    for d in accord.spans.span_disagreements(t, mode=mode):
        assert d.first is None or d.first in t.spans
        assert d.second is None or d.second in t.spans
        assert d.kind != "missed" or d.second is None
        assert d.kind != "spurious" or d.first is None


def test_rows_name_the_spans_as_read() -> None:
    t = SpanTable((Span("d1", "ann", 0, 5, "PER", text="Alice"),
                   Span("d1", "bob", 0, 4, "PER", text="Alic"),
                   Span("d2", "ann", 3, 8, "LOC", text="Paris")),
                  {("d1", "ann"): "annotated", ("d1", "bob"): "annotated",
                   ("d2", "ann"): "annotated", ("d2", "bob"): "annotated"})  # fmt: skip
    got = [d.to_dict() for d in accord.spans.span_disagreements(t, mode="strict")]
    assert got == [
        {"unit": "d1", "raters": ["ann", "bob"], "kind": "incorrect",
         "first": {"start": 0, "end": 5, "label": "PER", "fragments": [[0, 5]], "text": "Alice"},
         "second": {"start": 0, "end": 4, "label": "PER", "fragments": [[0, 4]], "text": "Alic"}},
        {"unit": "d2", "raters": ["ann", "bob"], "kind": "missed",
         "first": {"start": 3, "end": 8, "label": "LOC", "fragments": [[3, 8]], "text": "Paris"},
         "second": None},
    ]  # fmt: skip
    assert accord.spans.span_disagreements(t, mode="type")[0].kind == "missed"

"""Span families on hostile or unusual input: order, bounds, offsets, labels.

The reference for alpha_U is the formula of Krippendorff (1995; 2004, sec. 12.4) as
DKPro Agreement computes it on one continuum, transcribed below loop by loop with
each document's gaps ending at the document's end.
"""

from __future__ import annotations

import itertools

import pytest

import accord
from accord.readers.spans import Span, SpanTable

# three spans in two documents (the shape of issue 26's report)
ROWS = [Span("d1", "x", 2, 6, "A"), Span("d2", "y", 1, 4, "A"), Span("d1", "y", 3, 7, "A"),
        Span("d2", "x", 0, 4, "A")]
LENGTHS = {"d1": 10, "d2": 8}


def _reference(spans: list[Span], lengths: dict[str, int], raters: list[str]) -> float:
    """alpha_U of one category, loop by loop (documents laid out in sorted order)."""
    offset, total = {}, 0
    for doc in sorted(lengths):
        offset[doc], total = total, total + lengths[doc]
    by = {r: sorted((offset[s.unit] + s.start, offset[s.unit] + s.end) for s in spans
                    if s.rater == r) for r in raters}
    n_r = len(raters)
    acc = 0.0
    for a, b in itertools.combinations(raters, 2):
        for sa, sb in ((by[a], by[b]), (by[b], by[a])):
            for g in sa:
                over = [h for h in sb if h[0] < g[1] and g[0] < h[1]]
                acc += sum((g[0] - h[0]) ** 2 + (g[1] - h[1]) ** 2 for h in over) / 2
                acc += 0 if over else (g[1] - g[0]) ** 2
    d_o = 2 * acc / (n_r * (n_r - 1) * total**2)
    gaps = []
    for r in raters:
        for doc in lengths:
            lo, cut = offset[doc], []
            for s, e in [u for u in by[r] if offset[doc] <= u[0] < offset[doc] + lengths[doc]]:
                cut.append(s - lo)
                lo = e
            gaps += [g for g in [*cut, offset[doc] + lengths[doc] - lo] if g > 0]
    lens = [e - s for r in raters for s, e in by[r]]
    num = sum((len(lens) - 1) * (2 * ln**3 - 3 * ln**2 + ln) / 3
              + ln**2 * sum(g - ln + 1 for g in gaps if g >= ln) for ln in lens)
    d_e = 2 / total * num / (n_r * total * (n_r * total - 1) - sum(ln * (ln - 1) for ln in lens))
    return 1 - d_o / d_e


def test_unitizing_alpha_does_not_depend_on_the_order_of_spans() -> None:
    want = _reference(ROWS, LENGTHS, ["x", "y"])
    for perm in itertools.permutations(ROWS):
        res = accord.unitizing_alpha(SpanTable(tuple(perm)), lengths=LENGTHS)
        assert res.estimate == pytest.approx(want, rel=1e-12)


@pytest.mark.parametrize(("reference", "match"), [
    ([[(0, 10**30, "A")]], "at most 2\\*\\*53"),
    ([[(0, 2**63, "A")]], "at most 2\\*\\*53"),
    ([[(0, 5, "A", "x")]], "4th item"),
    ([[(0, 5, "A", [(0, 2), (8, 9)])]], "first fragment starts"),
    ([[(0, 5, None)]], "needs a label"),
    ([[(0, 5, " ")]], "needs a label"),
])
def test_span_lists_that_cannot_be_spans_are_one_sentence(reference: list[list[tuple[object, ...]]],
                                                          match: str) -> None:
    from accord.errors import AccordError

    with pytest.raises(AccordError, match=match):
        accord.evaluate_spans(reference, [[(0, 5, "A")]])


def test_fragments_that_agree_with_the_span_are_read() -> None:
    frag = [[(0, 9, "A", [(0, 2), (8, 9)])]]
    assert accord.evaluate_spans(frag, frag).f1.estimate == 1.0


@pytest.mark.parametrize(("tokens", "match"), [
    ({"A": 10}, "ending at 50, beyond its declared tokens"),
    ({"A": 10**9}, "declares 1,000,000,000 tokens"),
    ({"A": "short text"}, "beyond its declared tokens \\(which end at 10\\)"),
])
def test_token_agreement_refuses_spans_beyond_the_declared_tokens(tokens: dict[str, object],
                                                                  match: str) -> None:
    from accord.errors import DataError

    table = SpanTable((Span("A", "x", 0, 5, "L"), Span("A", "y", 40, 50, "L")))
    with pytest.raises(DataError, match=match):
        accord.token_agreement(table, tokens=tokens)


@pytest.mark.parametrize("offsets", ["0,9223372036854775808", "\u0660,\u0665", "\uff10,\uff15"])
def test_span_table_offsets_are_ascii_digits_below_2_53(tmp_path: object, offsets: str) -> None:
    from pathlib import Path

    from tests.conftest import run_cli

    path = Path(str(tmp_path)) / "s.csv"
    path.write_text(f"doc,ann,label,start,end\nd1,a,PER,{offsets}\nd1,b,PER,0,5\n",
                    encoding="utf-8")
    code, _, err = run_cli("spans", str(path), "--unit", "doc", "--rater", "ann", "--label",
                           "label", "--start", "start", "--end", "end")
    assert code == 1 and "ASCII digits" in err and "-9223372036854775808" not in err


def _docs_strategy():  # type: ignore[no-untyped-def]
    from hypothesis import strategies as st

    cuts = st.lists(st.integers(0, 30), min_size=0, max_size=6, unique=True)
    return st.lists(st.tuples(cuts, cuts), min_size=1, max_size=3)


def _spans_of(docs: list[tuple[list[int], list[int]]]) -> list[Span]:
    out = []
    for d, per_rater in enumerate(docs):
        for rater, cuts in zip(("x", "y"), per_rater):
            points = sorted(cuts)
            out += [Span(f"d{d}", rater, a, b, "A") for a, b in zip(points[::2], points[1::2])]
    return out


def test_unitizing_alpha_is_invariant_to_span_and_document_order() -> None:
    import warnings

    from hypothesis import given, settings
    from hypothesis import strategies as st

    from accord.errors import DegenerateDataWarning

    @settings(max_examples=60, deadline=None)
    @given(_docs_strategy(), st.randoms(use_true_random=False))
    def check(docs: list[tuple[list[int], list[int]]], rnd: object) -> None:
        spans = _spans_of(docs)
        lengths = {f"d{d}": 31 for d in range(len(docs))}
        coverage = {(f"d{d}", r): "annotated" for d in range(len(docs)) for r in ("x", "y")}
        shuffled = list(spans)
        rnd.shuffle(shuffled)  # type: ignore[attr-defined]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DegenerateDataWarning)
            a = accord.unitizing_alpha(SpanTable(tuple(spans), coverage), lengths=lengths)
            b = accord.unitizing_alpha(SpanTable(tuple(shuffled), dict(reversed(coverage.items()))),
                                       lengths=dict(reversed(lengths.items())))
        assert a.estimate == pytest.approx(b.estimate, rel=1e-12, abs=1e-12, nan_ok=True)

    check()

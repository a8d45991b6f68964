"""span_agreement: pairwise F1 (Hripcsak & Rothschild 2005) against bratiaa, coverage, the
bootstrap through per-unit counts, and its properties."""

from __future__ import annotations

import math
import random
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import accord
from accord.errors import DataError, DegenerateDataWarning, InsufficientDataError
from accord.readers.spans import Span, SpanTable

from ._oracle import bratiaa_figures

DATA = Path(__file__).parent.parent / "readers" / "data"
LABELS = ("LOC", "PER", "ORG")


def _brat_project(root: Path, seed: int, annotators: int = 3, docs: int = 4) -> Path:
    rng = random.Random(seed)
    (root / "annotation.conf").write_text(
        "[entities]\n" + "\n".join(LABELS) + "\n[relations]\n[events]\n[attributes]\n"
    )
    text = "".join(rng.choice("abc ") for _ in range(80))
    base = [_random_spans(rng) for _ in range(docs)]
    for a in range(annotators):
        folder = root / f"ann{a}"
        folder.mkdir()
        for d in range(docs):
            (folder / f"doc{d}.txt").write_text(text, encoding="utf-8")
            # each annotator keeps most of a shared set of spans and adds a few of their own
            spans = {s for s in base[d] if rng.random() < 0.7} | _random_spans(rng, 3)
            lines = [f"T{k + 1}\t{lab} {frag}\t{_cover(text, frag)}"
                     for k, (lab, frag) in enumerate(sorted(spans))]
            (folder / f"doc{d}.ann").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return root


def _random_spans(rng: random.Random, n: int = 8) -> set[tuple[str, str]]:
    out = set()
    for _ in range(rng.randint(0, n)):
        s = rng.randrange(0, 60)
        e = s + rng.randint(1, 6)
        frag = f"{s} {e}"
        if rng.random() < 0.2:
            frag += f";{e + 2} {e + 2 + rng.randint(1, 4)}"
        out.add((rng.choice(LABELS), frag))
    return out


def _cover(text: str, frag: str) -> str:
    pieces = [tuple(map(int, p.split())) for p in frag.split(";")]
    return " ".join(text[s:e] for s, e in pieces)


@pytest.mark.parametrize("seed", range(6))
def test_pairwise_f1_matches_bratiaa(tmp_path: Path, seed: int) -> None:
    bratiaa = pytest.importorskip("bratiaa")
    root = _brat_project(tmp_path, seed)
    theirs = bratiaa_figures(bratiaa, root)
    ours = accord.span_agreement(accord.read(root), mode="strict")
    assert ours.f1.estimate == pytest.approx(theirs.total, abs=1e-12)
    for (a, b), pair in ours.pairs.items():
        assert pair.f1.estimate == pytest.approx(theirs.pair(a, b), abs=1e-12)
    for label, value in theirs.by_label.items():
        if math.isfinite(value):  # bratiaa: nan when some pair has no span of the label
            assert ours.per_label[label].estimate == pytest.approx(value, abs=1e-12)


def test_bratiaa_keeps_only_documents_every_annotator_has() -> None:
    """The brat fixture: Peter has doc1 only. bratiaa drops doc2 for every pair (0.3556);
    accord keeps doc2 for the pair that annotated it (Maria, Max)."""
    res = accord.span_agreement(accord.read(DATA / "brat_project"))
    assert res.pairs[("Maria", "Max")].f1.estimate == pytest.approx(2 * 2 / (5 + 2))
    assert res.pairs[("Maria", "Peter")].f1.estimate == pytest.approx(2 * 1 / (4 + 1))
    assert res.pairs[("Maria", "Peter")].left_out == {"skipped": 0, "not seen": 1}
    assert res.f1.estimate == pytest.approx((4 / 7 + 0.4 + 0.0) / 3)


def _table(spans: list[tuple[str, str, int, int, str]], coverage: dict | None = None) -> SpanTable:
    return SpanTable(tuple(Span(u, r, s, e, lab) for u, r, s, e, lab in spans), coverage or {})


def test_a_unit_annotated_with_no_span_counts_and_a_skipped_one_does_not() -> None:
    spans = [("d1", "A", 0, 4, "X"), ("d1", "B", 0, 4, "X"), ("d2", "A", 0, 3, "X"),
             ("d3", "A", 5, 9, "X")]
    cov = {("d1", "A"): "annotated", ("d1", "B"): "annotated", ("d2", "A"): "annotated",
           ("d2", "B"): "annotated", ("d3", "A"): "annotated", ("d3", "B"): "skipped"}
    pair = accord.span_agreement(_table(spans, cov)).pairs[("A", "B")]
    # d2: B annotated and marked nothing, so A's span there is unmatched; d3 is left out
    assert pair.f1.estimate == pytest.approx(2 * 1 / (2 + 1))
    assert pair.n_units == 2
    assert pair.left_out == {"skipped": 1, "not seen": 0}
    assert pair.per_unit == {"d1": 1.0, "d2": 0.0}


def test_a_table_without_coverage_has_every_rater_annotate_every_unit() -> None:
    t = _table([("d1", "A", 0, 4, "X"), ("d2", "B", 0, 4, "X")])
    res = accord.span_agreement(t)
    assert res.f1.estimate == 0.0
    assert res.notes == ("no coverage recorded: every rater taken to have annotated every unit",)


raters_spans = st.lists(
    st.tuples(
        st.sampled_from(["d1", "d2", "d3", "d4"]), st.sampled_from(["A", "B", "C"]),
        st.integers(0, 20), st.integers(1, 6), st.sampled_from(["X", "Y"]),
    ),
    min_size=1, max_size=25,
)  # fmt: skip


def _spans(rows):  # type: ignore[no-untyped-def]
    return [(u, r, s, s + n, lab) for u, r, s, n, lab in rows]


def _quiet(t, **kw):  # type: ignore[no-untyped-def]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        return accord.span_agreement(t, **kw)


@given(raters_spans, st.sampled_from(["strict", "exact", "partial", "type"]))
def test_rater_order_does_not_matter(rows, mode) -> None:  # type: ignore[no-untyped-def]
    t = _table(_spans(rows) + [("d1", r, 30, 31, "Z") for r in "ABC"])
    ab = _quiet(t, mode=mode, raters=["A", "B", "C"])
    ba = _quiet(t, mode=mode, raters=["C", "B", "A"])
    assert ab.f1.estimate == pytest.approx(ba.f1.estimate, abs=1e-12)
    assert ab.macro_f1.estimate == pytest.approx(ba.macro_f1.estimate, abs=1e-12)
    for (a, b), pair in ab.pairs.items():
        assert pair.f1.estimate == pytest.approx(ba.pairs[(b, a)].f1.estimate, abs=1e-12)


@given(raters_spans)
def test_identical_raters_agree_perfectly(rows) -> None:  # type: ignore[no-untyped-def]
    one = [(u, "A", s, s + n, lab) for u, _, s, n, lab in rows]
    copies = one + [(u, r, s, e, lab) for u, _, s, e, lab in one for r in ("B", "C")]
    res = accord.span_agreement(_table(copies), mode="strict")
    assert res.f1.estimate == 1.0
    assert res.macro_f1.estimate == 1.0


@given(raters_spans, st.sampled_from(["strict", "partial"]), st.integers(0, 2**31))
def test_the_bootstrap_sums_per_unit_counts_as_rematching_would(rows, mode, seed) -> None:  # type: ignore[no-untyped-def]
    """A bootstrap replicate computed from the per-unit counts equals the estimate on the
    resampled documents, matched again."""
    spans = _spans(rows)
    units = sorted({u for u, *_ in spans})
    cov = {(u, r): "annotated" for u in units for r in "ABC"}
    res = _quiet(_table(spans, cov), mode=mode)
    if not res.f1.defined:
        return
    rs = res.f1.resampling()  # type: ignore[misc]
    assert sorted(rs.unit_ids) == units
    rng = np.random.default_rng(seed)
    draw = rng.integers(0, len(units), size=len(units))
    weights = np.bincount(rs.unit_patterns[draw], minlength=rs.counts.shape[0])[None, :]
    chosen = [rs.unit_ids[i] for i in draw]
    resampled = [(f"{c}#{k}", r, s, e, lab) for k, c in enumerate(chosen)
                 for u, r, s, e, lab in spans if u == c]
    cov2 = {(f"{c}#{k}", r): "annotated" for k, c in enumerate(chosen) for r in "ABC"}
    again = _quiet(_table(resampled, cov2), mode=mode).f1.estimate
    assert rs.evaluate(weights)[0] == pytest.approx(again, abs=1e-12, nan_ok=True)


def test_bootstrap_interval() -> None:
    spans = [(f"d{i}", r, 0, 5, "X") for i in range(30) for r in "AB"]
    spans += [(f"d{i}", "A", 10, 12, "Y") for i in range(0, 30, 3)]
    res = accord.span_agreement(_table(spans))
    ci = res.f1.confidence_interval(0.95, method=accord.Bootstrap(n_resamples=500, rng=3))
    assert 0 <= ci.low <= res.f1.estimate <= ci.high <= 1
    assert res.f1.estimate == pytest.approx(2 * 30 / (40 + 30))


def test_bad_input() -> None:
    with pytest.raises(InsufficientDataError, match="two raters or more"):
        accord.span_agreement(_table([("d1", "A", 0, 4, "X")]))
    with pytest.raises(DataError, match="hold no spans"):
        accord.span_agreement(accord.Annotations.from_wide([[1, 1], [0, 1]]))
    with pytest.raises(accord.AccordError, match="'mode' parameter of span_agreement"):
        accord.span_agreement(_table([("d1", "A", 0, 4, "X")]), mode="fuzzy")  # type: ignore[arg-type]


@given(raters_spans, st.integers(1, 10**6))
def test_shifting_every_offset_and_mode_order(rows, k) -> None:  # type: ignore[no-untyped-def]
    spans = _spans(rows)
    cov = {(u, r): "annotated" for u in ("d1", "d2", "d3", "d4") for r in "ABC"}
    moved = [(u, r, s + k, e + k, lab) for u, r, s, e, lab in spans]
    f = {}
    for mode in ("strict", "exact", "partial", "type"):
        base = _quiet(_table(spans, cov), mode=mode)
        shifted = _quiet(_table(moved, cov), mode=mode)
        assert shifted.f1.estimate == pytest.approx(base.f1.estimate, abs=1e-12, nan_ok=True)
        f[mode] = base.f1.estimate
    if not math.isnan(f["strict"]):
        assert f["strict"] <= f["exact"] + 1e-12 <= f["partial"] + 2e-12
        assert f["strict"] <= f["type"] + 1e-12

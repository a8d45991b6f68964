"""Token-level agreement on spans: the digitised Krippendorff (1995) examples DKPro Agreement
tests (Krippendorff1995Test.testDigitizedAgreement), and CoNLL columns read two ways."""

from __future__ import annotations

from pathlib import Path

import pytest

import accord
from accord.errors import DataError
from accord.readers.spans import Span, SpanTable

CONLL = Path(__file__).parent.parent / "readers" / "data" / "ner_two_systems.conll"


def _cuts(a: list[tuple[int, int]], b: list[tuple[int, int]]) -> SpanTable:
    spans = [Span("u", "r1", s, e, "x") for s, e in a] + [Span("u", "r2", s, e, "x") for s, e in b]
    return SpanTable(tuple(spans), {("u", "r1"): "annotated", ("u", "r2"): "annotated"})


# Krippendorff (1995, p. 57): A Bertha/Bill and C Gerret/Gill, 24 positions each
EXAMPLE_A = _cuts([(2, 10), (14, 20)], [(4, 8), (15, 17)])
EXAMPLE_C = _cuts([(2, 8), (10, 12), (14, 18), (20, 22)],
                  [(0, 2), (4, 8), (10, 14), (16, 18), (20, 22)])  # fmt: skip


@pytest.mark.parametrize(
    ("table", "coefficient", "value"),
    [
        (EXAMPLE_A, "cohen_kappa", 0.385),
        (EXAMPLE_A, "scott_pi", 0.314),
        (EXAMPLE_A, "krippendorff_alpha", 0.329),
        (EXAMPLE_C, "cohen_kappa", 0.314),
        (EXAMPLE_C, "scott_pi", 0.314),
    ],
)
def test_digitised_krippendorff_1995(table: SpanTable, coefficient: str, value: float) -> None:
    res = accord.token_agreement(table, tokens={"u": 24}, coefficient=coefficient)
    assert res.estimate == pytest.approx(value, abs=1e-3)


def _conll_columns() -> tuple[dict[str, int], list[str], list[str]]:
    lengths: dict[str, int] = {}
    gold: list[str] = []
    system: list[str] = []
    doc, sent, n = 0, 0, 0
    for line in [*CONLL.read_text(encoding="utf-8").splitlines(), ""]:
        cells = line.split()
        if cells and cells[0] == "-DOCSTART-":
            doc, sent = doc + 1, 0
            continue
        if not cells:
            if n:
                lengths[f"{doc}/{sent}"] = n
            n = 0
            continue
        if n == 0:
            sent += 1
        n += 1
        gold.append(cells[1].split("-")[-1])
        system.append(cells[2].split("-")[-1])
    return lengths, gold, system


def test_conll_spans_back_to_tokens_give_the_tag_columns_kappa() -> None:
    lengths, gold, system = _conll_columns()
    ann = accord.read(CONLL, columns=["gold", "system"])
    via_spans = accord.token_agreement(ann, tokens=lengths, coefficient="cohen_kappa")
    direct = accord.cohen_kappa(gold, system)
    assert via_spans.estimate == pytest.approx(direct.estimate, abs=1e-12)
    assert via_spans.n_units == len(gold)
    carried = accord.token_agreement(ann, coefficient="cohen_kappa")  # the file's own tokens
    assert carried.estimate == via_spans.estimate
    assert ann.meta["tokens"] == lengths


def test_exclude_keeps_only_tokens_someone_labelled() -> None:
    lengths, gold, system = _conll_columns()
    ann = accord.read(CONLL, columns=["gold", "system"])
    tok = accord.token_annotations(ann, tokens=lengths, unannotated="exclude")
    labelled = sum(1 for g, s in zip(gold, system) if g != "O" or s != "O")
    assert tok.n_units == labelled
    assert f"tokens no rater labelled: exclude ({len(gold) - labelled} left out)" in tok.audit.notes


def test_text_is_split_by_the_declared_pattern() -> None:
    t = SpanTable((Span("d", "a", 0, 3, "X"), Span("d", "b", 4, 7, "X")))
    words = accord.token_annotations(t, tokens={"d": "New-York is"}, pattern=r"\w+")
    assert words.n_units == 3  # New, York, is
    assert [r[2] for r in words.records() if r[1] == "a"] == ["X", "O", "O"]


def test_a_unit_a_rater_did_not_annotate_has_no_rating() -> None:
    spans = (Span("d1", "a", 0, 2, "X"), Span("d1", "b", 0, 2, "X"), Span("d2", "a", 0, 1, "X"))
    cov = {("d1", "a"): "annotated", ("d1", "b"): "annotated", ("d2", "a"): "annotated"}
    t = SpanTable(spans, cov)
    tok = accord.token_annotations(t, tokens={"d1": 2, "d2": 2})
    assert [r for r in tok.records() if str(r[0]).startswith("d2")] == [
        ("d2#0", "a", "X"), ("d2#1", "a", "O")]  # fmt: skip


def test_bad_input() -> None:
    clash = SpanTable(
        (Span("d", "a", 0, 4, "X"), Span("d", "a", 2, 6, "Y"), Span("d", "b", 0, 1, "X"))
    )
    with pytest.raises(DataError, match="both 'X' and 'Y'"):
        accord.token_annotations(clash, tokens={"d": 6})
    with pytest.raises(DataError, match="declare the tokens with tokens="):
        accord.token_annotations(clash)
    with pytest.raises(DataError, match="has spans but no entry in tokens"):
        accord.token_annotations(clash, tokens={})
    with pytest.raises(accord.AccordError, match="'unannotated' parameter"):
        accord.token_annotations(clash, tokens={"d": 6}, unannotated="drop")  # type: ignore[arg-type]


def test_labels_differing_in_case_are_noted() -> None:
    t = SpanTable((Span("d", "a", 0, 2, "per"), Span("d", "b", 0, 2, "PER")))
    tok = accord.token_annotations(t, tokens={"d": 3})
    assert "labels ['PER', 'per'] differ only in case; they are compared as different labels" in (
        tok.audit.notes
    )
    res = accord.unitizing_alpha(t, lengths={"d": 3})
    assert res.details["notes"][-1].startswith("labels ['PER', 'per'] differ only in case")

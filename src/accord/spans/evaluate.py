"""Spans of a system against a reference: precision, recall and F1 in one matching mode."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from accord.data import _validation as v
from accord.errors import DataError
from accord.inference.display import Tabular
from accord.inference.results import AgreementResult
from accord.readers.tags import entities
from accord.spans._inputs import Encoded, case_notes, encode_lists, encode_table, table_of
from accord.spans._scores import SpanCounts, score
from accord.spans._spanset import SpanSet
from accord.spans.matching import MODES, Events, Mode, candidates, match

if TYPE_CHECKING:
    from accord.inference.ceiling import HumanCeiling

__all__ = ["SpanEvaluation", "SpanScores", "evaluate_spans"]

FUNC = "evaluate_spans"


@dataclass(frozen=True)
class SpanScores:
    """Precision, recall and F1 with the counts behind them."""

    precision: AgreementResult
    recall: AgreementResult
    f1: AgreementResult
    counts: SpanCounts

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready figures."""
        return {
            "precision": self.precision.to_dict(),
            "recall": self.recall.to_dict(),
            "f1": self.f1.to_dict(),
            "counts": self.counts.to_dict(),
        }


@dataclass(frozen=True)
class SpanEvaluation(Tabular):
    """Spans against a reference in one mode (see :func:`evaluate_spans`).

    Attributes
    ----------
    mode : str
        ``"strict"``, ``"exact"``, ``"partial"`` or ``"type"``.
    precision, recall, f1 : AgreementResult
        Micro figures over all units compared.
    counts : SpanCounts
        correct, incorrect, partial, missed, spurious (and possible, actual).
    per_label : mapping of label to SpanScores
        Each label matched on its own spans only (as nervaluate's per-entity figures).
    n_units : int
        Units compared (annotated on both sides).
    left_out : mapping
        Units left out and why (``"skipped"``, ``"not seen"``).
    notes : tuple of str
        Choices made on the data, e.g. labels that differ only in case.
    """

    mode: str
    precision: AgreementResult
    recall: AgreementResult
    f1: AgreementResult
    counts: SpanCounts
    per_label: Mapping[str, SpanScores]
    n_units: int
    left_out: Mapping[str, int] = field(default_factory=dict)
    notes: tuple[str, ...] = ()
    ceiling: HumanCeiling | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready mapping at full precision."""
        return {
            "mode": self.mode,
            "precision": self.precision.to_dict(),
            "recall": self.recall.to_dict(),
            "f1": self.f1.to_dict(),
            "counts": self.counts.to_dict(),
            "per_label": {k: s.to_dict() for k, s in self.per_label.items()},
            "n_units": self.n_units,
            "left_out": {k.replace(" ", "_"): n for k, n in self.left_out.items()},
            "notes": list(self.notes),
            "ceiling": None if self.ceiling is None else self.ceiling.to_dict(),
        }


def evaluate_spans(
    reference: Any,
    predicted: Any,
    *,
    mode: Mode = "strict",
    scheme: str | None = None,
    reference_rater: str | None = None,
    predicted_rater: str | None = None,
) -> SpanEvaluation:
    """Precision, recall and F1 of predicted spans against reference spans.

    Parameters
    ----------
    reference, predicted
        Either one list per unit of ``(start, end, label)`` tuples (end exclusive;
        an optional 4th item lists the fragments of a discontinuous span), or a
        ``SpanTable`` / ``Annotations`` read from a span export, or one list of
        tags per sentence (``["B-PER", "I-PER", "O"]``), whose entities are found
        as seqeval finds them (see ``scheme``).
    mode : {"strict", "exact", "partial", "type"}
        When a matched pair counts as correct (SemEval-2013 task 9.1):
        same boundaries and label; same boundaries; same boundaries with
        overlaps counted half; overlap with the same label.
    scheme : {None, "IOB1", "IOB2", "IOE1", "IOE2", "IOBES", "BILOU"}
        For tag sequences only: ``None`` reads them leniently (conlleval,
        seqeval's default); a scheme reads them as seqeval's strict mode does.
    reference_rater, predicted_rater : str, optional
        The rater to take from a table that holds several.

    Returns
    -------
    SpanEvaluation
        With ``precision``, ``recall``, ``f1`` (AgreementResults that bootstrap
        over units), ``counts`` and ``per_label``.

    Notes
    -----
    With ``C`` correct and ``P`` partial matches, ``ACT`` predicted and ``POS``
    reference spans: precision ``(C + P/2) / ACT``, recall ``(C + P/2) / POS``,
    F1 ``2 (C + P/2) / (ACT + POS)``. The matching is one-to-one (see
    :mod:`accord.spans.matching` for the assignment rule). Precision is undefined
    (``nan``) when nothing was predicted, recall when the reference is empty
    (nervaluate reports 0 for both). Only units annotated on both sides are
    compared; a unit skipped or never seen by one side is left out and counted
    in ``left_out``. Labels are compared exactly: labels that differ only in case
    stay distinct, with a note.

    References
    ----------
    Segura-Bedmar, Martinez & Herrero-Zazo (2013). SemEval-2013 task 9:
    extraction of drug-drug interactions. *SemEval 2013*, 341-350.
    Chinchor & Sundheim (1993). MUC-5 evaluation metrics. *MUC-5*, 69-78.

    Examples
    --------
    The example of nervaluate's README (offsets end exclusive here):

    >>> import accord
    >>> ref = [[(0, 1, "PER")], [(1, 3, "LOC")]]
    >>> pred = [[(0, 1, "PER")], [(1, 2, "LOC")]]
    >>> res = accord.evaluate_spans(ref, pred, mode="partial")
    >>> res.counts
    SpanCounts(correct=1, incorrect=0, partial=1, missed=0, spurious=0)
    >>> res.f1.estimate
    0.75
    >>> accord.evaluate_spans([["B-PER", "I-PER", "O"]], [["B-PER", "O", "O"]]).f1.estimate
    0.0
    """
    v.choice(mode, MODES, param="mode", func=FUNC)
    enc = _encode(reference, predicted, scheme, reference_rater, predicted_rater)
    return evaluate_encoded(enc, "reference", "predicted", mode)


def _encode(
    reference: Any,
    predicted: Any,
    scheme: str | None,
    ref_rater: str | None,
    pred_rater: str | None,
) -> Encoded:
    if _is_nested_list(reference) and _is_nested_list(predicted):
        if _is_tags(reference) or _is_tags(predicted):
            _same_lengths(reference, predicted)
            return encode_lists(_entities(reference, scheme), _entities(predicted, scheme), FUNC)
        return encode_lists(reference, predicted, FUNC)
    ref = table_of(reference, FUNC, "reference")
    pred = table_of(predicted, FUNC, "predicted")
    a = _only(ref, ref_rater, "reference_rater")
    b = _only(pred, pred_rater, "predicted_rater")
    if ref is pred:
        if a == b:
            raise DataError(f"{FUNC}: the reference and predicted rater are both {a!r}.")
        return encode_table(ref, [a, b], None, FUNC, {a: "reference", b: "predicted"})
    from accord.readers.spans import Span, SpanTable

    spans = tuple(
        Span(s.unit, side, s.start, s.end, s.label, s.fragments)
        for t, r, side in ((ref, a, "reference"), (pred, b, "predicted"))
        for s in t.spans
        if s.rater == r
    )
    every = dict.fromkeys([*ref.units, *pred.units])
    cov: dict[tuple[str, str], str] = {}
    for t, r, side in ((ref, a, "reference"), (pred, b, "predicted")):
        # a table without coverage: its rater annotated every unit (as in encode_table)
        seen = {(u, st) for (u, x), st in t.coverage.items() if x == r}
        cov.update({(u, side): st for u, st in seen} or {(u, side): "annotated" for u in every})
    return encode_table(SpanTable(spans, cov), ["reference", "predicted"], None, FUNC)


def _same_lengths(reference: Sequence[Sequence[Any]], predicted: Sequence[Sequence[Any]]) -> None:
    if len(reference) != len(predicted):
        raise DataError(f"{FUNC}: reference and predicted must hold the same sentences; got "
                        f"{len(reference)} and {len(predicted)}.")  # fmt: skip
    for i, (r, p) in enumerate(zip(reference, predicted)):
        if len(r) != len(p) or not all(isinstance(t, str) for t in [*r, *p]):
            raise DataError(
                f"{FUNC}: sentence {i} must be two lists of tags of one length; got "
                f"{len(r)} and {len(p)} items."
            )


def _is_nested_list(x: Any) -> bool:
    return isinstance(x, (list, tuple)) and all(isinstance(u, (list, tuple)) for u in x)


def _is_tags(x: Sequence[Sequence[Any]]) -> bool:
    return any(isinstance(t, str) for unit in x for t in unit[:1])


def _entities(sentences: Sequence[Sequence[Any]], scheme: str | None) -> list[list[Any]]:
    return [entities(list(s), scheme) for s in sentences]


def _only(table: Any, rater: str | None, param: str) -> str:
    raters = list(table.raters)
    if rater is not None:
        if rater not in raters:
            raise DataError(
                f"{FUNC}: {param}={rater!r} is not a rater here; the raters are {raters!r}."
            )
        return rater
    if len(raters) != 1:
        raise DataError(
            f"{FUNC}: the table holds {len(raters)} raters {raters!r}; choose one with {param}=."
        )
    return str(raters[0])


def evaluate_encoded(enc: Encoded, a: str, b: str, mode: Mode,
                     within: np.ndarray[Any, np.dtype[np.bool_]] | None = None) -> SpanEvaluation:
    """The evaluation of rater ``b`` against ``a`` in encoded data (only the units marked in
    ``within``, when given); the figures' units are labelled for paired comparisons."""
    both = enc.annotated[a] & enc.annotated[b]
    if within is not None:
        both = both & within
    ref, pred = _restrict(enc.sets[a], both), _restrict(enc.sets[b], both)
    units = np.flatnonzero(both)
    cand = candidates(ref, pred)
    overall = match(ref, pred, cand, mode)
    split = match(ref, pred, cand, mode, same_label_only=True).by_label()
    none = np.zeros(0, dtype=np.int64)
    empty = Events(none, none, none)
    n = int(units.shape[0])
    per_unit = overall.per_unit(both.shape[0])[units] if n else np.zeros((0, 5), np.int64)
    ids = tuple(enc.units[i] for i in units.tolist())
    p, r, f = (
        score(k, per_unit, mode=mode, what=f"span_{k} ({mode})", unit_ids=ids)
        for k in ("precision", "recall", "f1")
    )
    labels = {
        lab: _label_scores(split.get(i, empty), both, units, mode, lab)
        for i, lab in enumerate(enc.labels)
    }
    return SpanEvaluation(
        mode, p, r, f, SpanCounts.of(overall.totals()), labels, n,
        _left_out(enc, a, b), enc.notes + case_notes(enc.labels),
    )  # fmt: skip


def _restrict(s: SpanSet, units: np.ndarray[Any, np.dtype[np.bool_]]) -> SpanSet:
    keep = units[s.unit]
    return s if bool(keep.all()) else s.subset(keep)


def _label_scores(events: Events, both: Any, units: Any, mode: Mode, label: str) -> SpanScores:
    per_unit = events.per_unit(both.shape[0])[units]
    what = f"({mode}, label {label!r})"
    p, r, f = (
        score(k, per_unit, mode=mode, what=f"span_{k} {what}")
        for k in ("precision", "recall", "f1")
    )
    return SpanScores(p, r, f, SpanCounts.of(per_unit.sum(axis=0)))


def _left_out(enc: Encoded, a: str, b: str) -> dict[str, int]:
    one = enc.annotated[a] ^ enc.annotated[b]
    skipped = one & (enc.skipped[a] | enc.skipped[b])
    return {"skipped": int(skipped.sum()), "not seen": int((one & ~skipped).sum())}

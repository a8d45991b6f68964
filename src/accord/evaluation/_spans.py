"""The span branch of :func:`accord.evaluate`: systems' spans against a reference rater.

Span data (a ``SpanTable``, or ``Annotations`` read from a span export that hold
spans only) go to :func:`accord.evaluate_spans`, once per system, in the
matching mode asked for; the label options of ``evaluate`` do not apply to them
and are refused, never ignored.
"""

from __future__ import annotations

import warnings
from dataclasses import replace
from typing import Any

from accord.data import _validation as v
from accord.data.annotations import Annotations
from accord.errors import DataError, DegenerateDataWarning, InsufficientDataError
from accord.inference.bootstrap import Bootstrap
from accord.inference.results import AgreementResult
from accord.readers.spans import SpanTable
from accord.spans._inputs import Encoded, encode_table, table_of
from accord.spans.evaluate import SpanEvaluation, evaluate_encoded, evaluate_spans
from accord.spans.matching import MODES, Mode

__all__ = ["evaluate_span_data", "is_span_data", "with_ceiling"]

FUNC = "evaluate"
FIGURES = ("f1", "precision", "recall")  # the span figures a human ceiling compares


def is_span_data(data: Any) -> bool:
    """A SpanTable, or Annotations whose only content is spans."""
    if isinstance(data, SpanTable):
        return True
    return (isinstance(data, Annotations) and data.n_ratings == 0 and data.spans is not None
            and len(data.spans) > 0)


def evaluate_span_data(data: Any, predicted: Any, mode: str | None,
                       label_options: tuple[str, ...], *, reference: Any, systems: Any,
                       method: Bootstrap | None = None, ceiling_figure: str | None = None,
                       ) -> SpanEvaluation | dict[str, SpanEvaluation]:
    """Each system against the reference: one SpanEvaluation per system (a dict of them
    unless ``systems`` is one name). Annotations with human raters besides the reference
    and the systems give each system its human ceiling on F1 (``SpanEvaluation.ceiling``)."""
    if predicted is not None:
        raise v.fail("predicted", FUNC, "nothing with span data (name the raters with "
                     "reference= and systems=)", predicted)
    label_options = tuple(x for x in label_options if x != "method")  # the ceiling's bootstrap
    if label_options:
        raise DataError(f"{FUNC}: {', '.join(label_options)} apply to labels, and these data "
                        "hold spans; drop them (spans take mode=).")
    mode = v.choice(mode or "strict", MODES, param="mode", func=FUNC)
    figure = v.choice(ceiling_figure or "f1", FIGURES, param="ceiling_figure", func=FUNC)
    ref, chosen = _roles(data, reference, systems)
    out = {str(s): evaluate_spans(data, data, mode=mode, reference_rater=str(ref),  # type: ignore[arg-type]
                                  predicted_rater=str(s)) for s in chosen}
    humans = _humans(data, ref, chosen)
    if humans:
        out = {s: with_ceiling(ev, data, str(ref), s, humans, mode,  # type: ignore[arg-type]
                               method or Bootstrap(n_resamples=9999, rng=0), figure)
               for s, ev in out.items()}
    if isinstance(systems, str):
        return out[systems]
    return out


def _humans(data: Any, reference: Any, systems: tuple[Any, ...]) -> tuple[str, ...]:
    """Raters of kind human that are neither the reference nor a system, with spans."""
    if not isinstance(data, Annotations):
        return ()
    from accord.evaluation._annotations import roles

    present = set(table_of(data, FUNC, "data").raters)
    return tuple(str(h) for h in roles(data, reference, systems).humans if str(h) in present)


def with_ceiling(ev: SpanEvaluation, data: Annotations, ref: str, system: str,
                 humans: tuple[str, ...], mode: Mode, method: Bootstrap,
                 figure: str = "f1") -> SpanEvaluation:
    """The system's ``figure`` (F1, precision or recall) beside each human's against the
    same reference, on the units the system and the reference both annotated, with paired
    bootstrap differences."""
    from accord.inference.ceiling import ceiling_for

    table = table_of(data, FUNC, "data")
    enc = encode_table(table, [ref, system, *humans], None, FUNC)
    scope = enc.annotated[ref] & enc.annotated[system]
    scores: dict[str, AgreementResult] = {}
    for human in humans:
        if not (scope & enc.annotated[human]).any():
            continue  # this annotator saw none of the system's units
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DegenerateDataWarning)
            scores[human] = getattr(evaluate_encoded(enc, ref, human, mode, within=scope),
                                    figure)
    ceiling = ceiling_for(system, getattr(ev, figure), scores,
                          _human_agreement(enc, table, humans, scope, mode), figure, method)
    return replace(ev, ceiling=ceiling)


def _human_agreement(enc: Encoded, table: SpanTable, humans: tuple[str, ...], scope: Any,
                     mode: Mode) -> AgreementResult | None:
    """Mean pairwise span F1 among the humans on the system's units (None for one human)."""
    from accord.spans.agreement import span_agreement

    if len(humans) < 2:
        return None
    units = {enc.units[i] for i in scope.nonzero()[0].tolist()}
    kept = SpanTable(tuple(s for s in table.spans if s.unit in units),
                     {k: x for k, x in table.coverage.items() if k[0] in units})
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DegenerateDataWarning)
            return span_agreement(kept, mode=mode, raters=list(humans)).f1
    except (DataError, InsufficientDataError):
        return None


def _roles(data: Any, reference: Any, systems: Any) -> tuple[Any, tuple[Any, ...]]:
    if isinstance(data, Annotations):
        from accord.evaluation._annotations import roles

        r = roles(data, reference, systems)
        return r.reference, r.systems
    raters = data.raters
    if reference is None or systems is None:
        raise DataError(f"{FUNC}: a SpanTable has no rater kinds; name the reference and the "
                        f"systems with reference= and systems= (the raters are {list(raters)!r}).")
    chosen = (systems,) if isinstance(systems, str) else tuple(systems)
    missing = [r for r in (reference, *chosen) if r not in raters]
    if missing:
        raise DataError(f"{FUNC}: rater(s) {missing!r} not found; the raters are "
                        f"{list(raters)!r}.")
    if reference in chosen:
        raise DataError(f"{reference!r} is the reference; it cannot also be one of the systems.")
    return reference, chosen

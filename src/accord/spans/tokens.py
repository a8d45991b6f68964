"""Spans as labels of tokens, for token-level kappa and alpha.

Chance-corrected coefficients need units that every rater classifies; span
annotation has none until a tokenisation is declared. Each token then gets,
from each rater who annotated its unit, the label of the rater's span that
shares a character with it, or ``"O"`` when none does. Which tokens count is a
choice the literature argues over (Grouin et al. 2011; Brandsen et al. 2020,
who prefer F1 for this reason): ``unannotated="outside"`` keeps every token
(most are "O" for everyone, which inflates p_e and p_o alike), ``"exclude"``
keeps only the tokens at least one rater labelled.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, Literal

import numpy as np

from accord.coefficients import REGISTRY
from accord.data import _validation as v
from accord.data.annotations import Annotations
from accord.errors import DataError
from accord.inference.results import AgreementResult
from accord.spans._inputs import Encoded, case_notes, encode_table, table_of
from accord.spans._spanset import SpanSet

__all__ = ["token_agreement", "token_annotations"]

FUNC = "token_annotations"
Unannotated = Literal["outside", "exclude"]


#: Tokens one unit may declare: each becomes a rated unit of its own.
MAX_TOKENS = 10_000_000


def token_annotations(
    annotations: Any,
    *,
    tokens: Mapping[Any, Any] | None = None,
    unannotated: Unannotated = "outside",
    pattern: str = r"\S+",
    outside: str = "O",
    raters: Sequence[str] | None = None,
) -> Annotations:
    """One rating per (token, rater): the label of the rater's span over the token.

    Parameters
    ----------
    annotations : Annotations or SpanTable
        Spans of two or more raters.
    tokens : mapping of unit to text, int or sequence of (start, end), optional
        The declared tokenisation of each unit: its text (split by ``pattern``),
        a number ``n`` (tokens are the positions ``0 .. n - 1``, as in the token
        offsets of CoNLL data), or the token offsets themselves. Default: the
        tokens the export carries (``annotations.meta["tokens"]``, CoNLL files).
    unannotated : {"outside", "exclude"}
        Tokens no rater labelled: rated ``outside`` by everyone, or left out.
    pattern : str
        The token regex for units given as text (default: runs of non-space).
    outside : str
        The label of a token outside every span of a rater.
    raters : sequence of str, optional
        The raters to use (default: all).

    Returns
    -------
    Annotations
        Units ``"<unit>#<token index>"``; a rater who did not annotate a unit has
        no rating on its tokens. The audit notes state the tokenisation and the
        treatment of unannotated tokens.

    Raises
    ------
    DataError
        A token lies under two spans of one rater with different labels, or a
        unit with spans has no tokenisation.

    Examples
    --------
    >>> import accord
    >>> from accord.readers.spans import Span, SpanTable
    >>> t = SpanTable((Span("d", "a", 0, 5, "PER"), Span("d", "b", 0, 11, "PER")))
    >>> ann = token_annotations(t, tokens={"d": "Ada Lovelace wrote"})
    >>> [(u, r, lab) for u, r, lab in ann.records() if r == "a"]
    [('d#0', 'a', 'PER'), ('d#1', 'a', 'PER'), ('d#2', 'a', 'O')]
    """
    v.choice(unannotated, ("outside", "exclude"), param="unannotated", func=FUNC)
    tokens = _declared(annotations, tokens)
    enc = encode_table(table_of(annotations, FUNC, "annotations"), raters, None, FUNC)
    rows: list[tuple[str, str, str]] = []
    dropped = 0
    for code, unit in enumerate(enc.units):
        spans_here = any(bool((enc.sets[r].unit == code).any()) for r in enc.raters)
        toks = _tokens(tokens, unit, pattern, required=spans_here)
        _within(enc, code, unit, tokens.get(unit), toks)
        labels = _labels(enc, code, toks, outside)
        for k, row in enumerate(_token_rows(labels, unannotated, outside)):
            if row is None:
                dropped += 1
                continue
            rows += [(f"{unit}#{k}", r, lab) for r, lab in row.items()]
    ann = Annotations.from_long(rows, unit=0, rater=1, value=2)
    notes: tuple[str, ...] = (
        f"tokens: {'text split by ' + repr(pattern) if _any_text(tokens) else 'as given'}; "
        "a token takes the label of a rater's span sharing a character with it",
        f"tokens no rater labelled: {unannotated}"
        + (f" ({dropped} left out)" if unannotated == "exclude" else f" (rated {outside!r})"),
    )
    notes += enc.notes + case_notes(enc.labels)
    ann.audit = replace(ann.audit, notes=(*ann.audit.notes, *notes))
    return ann


def _declared(annotations: Any, tokens: Mapping[Any, Any] | None) -> Mapping[Any, Any]:
    if tokens is not None:
        return tokens
    carried = getattr(annotations, "meta", {}).get("tokens")
    if carried is None:
        raise DataError(
            f"{FUNC}: declare the tokens with tokens= (each unit's text, token count or token "
            "offsets); these annotations carry none."
        )
    return dict(carried)


def _any_text(tokens: Mapping[Any, Any]) -> bool:
    return any(isinstance(t, str) for t in tokens.values())


def _tokens(tokens: Mapping[Any, Any], unit: Any, pattern: str, *, required: bool) -> Any:
    if unit not in tokens:
        if required:
            raise DataError(f"{FUNC}: unit {unit!r} has spans but no entry in tokens=.")
        return np.zeros((0, 2), dtype=np.int64)
    t = tokens[unit]
    if isinstance(t, str):
        return np.asarray([m.span() for m in re.finditer(pattern, t)], dtype=np.int64).reshape(
            -1, 2
        )
    if isinstance(t, (int, np.integer)) and not isinstance(t, bool):
        if not 0 <= int(t) <= MAX_TOKENS:
            raise DataError(f"{FUNC}: unit {unit!r} declares {int(t):,} tokens; expected 0 to "
                            f"{MAX_TOKENS:,} (each token is one rated unit).")
        idx = np.arange(int(t), dtype=np.int64)
        return np.stack([idx, idx + 1], axis=1)
    out = np.asarray(list(t), dtype=np.int64).reshape(-1, 2)
    if out.shape[0] and (
        bool((out[:, 1] <= out[:, 0]).any()) or bool((out[1:, 0] < out[:-1, 1]).any())
    ):
        raise DataError(f"{FUNC}: the tokens of unit {unit!r} must be ordered, non-empty and "
                        "not overlap.")  # fmt: skip
    return out


def _within(enc: Encoded, code: int, unit: Any, declared: Any, toks: Any) -> None:
    """Refuse a span that ends beyond the unit's declared text, token count or tokens."""
    limit = len(declared) if isinstance(declared, str) else (
        int(toks[-1, 1]) if toks.shape[0] else 0)
    for r in enc.raters:
        s = enc.sets[r]
        ends = s.end[s.unit == code]
        if ends.shape[0] and int(ends.max()) > limit:
            raise DataError(f"{FUNC}: rater {r!r} has a span of unit {unit!r} ending at "
                            f"{int(ends.max())}, beyond its declared tokens (which end at "
                            f"{limit}); declare every token in tokens=.")


def _labels(enc: Encoded, code: int, toks: Any, outside: str) -> dict[str, list[str] | None]:
    """Each rater's label per token of one unit; None for a rater who did not annotate it."""
    out: dict[str, list[str] | None] = {}
    for r in enc.raters:
        if not enc.annotated[r][code]:
            out[r] = None
            continue
        out[r] = _rater_labels(enc.sets[r], code, toks, enc.labels, outside, r)
    return out


def _rater_labels(
    s: SpanSet, code: int, toks: Any, names: tuple[str, ...], outside: str, rater: str
) -> list[str]:
    labels: list[str] = [outside] * toks.shape[0]
    for i in np.flatnonzero(s.unit == code).tolist():
        pieces = s.fragments.get(i, ((int(s.start[i]), int(s.end[i])),))
        for start, end in pieces:
            first = int(np.searchsorted(toks[:, 1], start, "right"))
            last = int(np.searchsorted(toks[:, 0], end, "left"))
            for k in range(first, last):
                lab = names[int(s.label[i])]
                if labels[k] not in (outside, lab):
                    raise DataError(
                        f"{FUNC}: rater {rater!r} labels token {k} of unit {s.unit[i]!r} both "
                        f"{labels[k]!r} and {lab!r} (overlapping spans); token-level agreement "
                        "needs one label per token."
                    )
                labels[k] = lab
    return labels


def _token_rows(
    labels: dict[str, list[str] | None], unannotated: str, outside: str
) -> list[dict[str, str] | None]:
    present = {r: x for r, x in labels.items() if x is not None}
    n = max((len(x) for x in present.values()), default=0)
    rows: list[dict[str, str] | None] = []
    for k in range(n):
        row = {r: x[k] for r, x in present.items()}
        keep = unannotated == "outside" or any(lab != outside for lab in row.values())
        rows.append(row if keep else None)
    return rows


def token_agreement(
    annotations: Any,
    *,
    tokens: Mapping[Any, Any] | None = None,
    coefficient: str = "krippendorff_alpha",
    unannotated: Unannotated = "outside",
    pattern: str = r"\S+",
    raters: Sequence[str] | None = None,
) -> AgreementResult:
    """A coefficient of the registry (default Krippendorff's alpha) on token labels.

    See :func:`token_annotations` for ``tokens``, ``unannotated``, ``pattern`` and
    ``raters``. Tokens are the units of the coefficient, so its standard error
    and intervals treat tokens as independent, which tokens of one document are
    not: prefer the span F1 intervals, which resample documents.

    Examples
    --------
    Krippendorff (1995, p. 57), observers Bertha and Bill cut 24 positions:
    digitised, Cohen's kappa is 0.385 (as DKPro Agreement's test of that example).

    >>> import accord
    >>> from accord.readers.spans import Span, SpanTable
    >>> t = SpanTable((Span("A", "bertha", 2, 10, "x"), Span("A", "bertha", 14, 20, "x"),
    ...                Span("A", "bill", 4, 8, "x"), Span("A", "bill", 15, 17, "x")))
    >>> round(token_agreement(t, tokens={"A": 24}, coefficient="cohen_kappa").estimate, 3)
    0.385
    """
    v.choice(coefficient, sorted(REGISTRY), param="coefficient", func="token_agreement")
    ann = token_annotations(
        annotations, tokens=tokens, unannotated=unannotated, pattern=pattern, raters=raters
    )
    result: AgreementResult = REGISTRY[coefficient].function(ann)
    return result

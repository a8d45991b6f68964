"""Data that repeat a (unit, rater) pair by design: spans, label sets, pairwise comparisons.

In a table of one label per unit and rater, a rater who gives a unit two
different labels is an error that ``duplicates="last"`` may resolve. Three
common shapes repeat the pair on purpose, and keeping the last row of each
would compute a confident wrong number:

- span tables: one row per span, with start and end columns;
- multilabel data: one row per label, several labels per unit and rater;
- pairwise comparisons: one row per compared pair (columns such as
  ``model_a``/``model_b``/``winner``, labels such as ``A``/``B``/``tie``).

:func:`duplicate_advice` recognises them from the column names, the labels and
how many pairs repeat, and names the route that fits. Each route is written as
``python_name (accord CLI: cli words)`` so that the command line can show only
its own spelling (see :mod:`accord.cli._errors`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = ["duplicate_advice", "looks_like_text", "pairwise_columns", "span_columns"]

#: Rows looked at to decide whether a column is free text (or whether ids repeat).
PROBE_ROWS = 100_000
#: A column is free text when at least this share of its cells are distinct ...
TEXT_DISTINCT_SHARE = 0.9
#: ... and its cells average at least this many characters or words.
TEXT_MEAN_CHARS, TEXT_MEAN_WORDS = 25.0, 4.0


def looks_like_text(n: int, distinct: int, mean_chars: float, mean_words: float) -> bool:
    """Whether ``n`` non-empty cells with these statistics are free text, not labels:
    nearly all distinct and long (a question, a model's response, a rationale).

    Examples
    --------
    >>> looks_like_text(40, 40, 61.0, 11.0), looks_like_text(40, 3, 61.0, 11.0)
    (True, False)
    >>> looks_like_text(3, 3, 5.0, 1.0)  # three short distinct labels stay labels
    False
    """
    long_cells = mean_chars >= TEXT_MEAN_CHARS or mean_words >= TEXT_MEAN_WORDS
    return n >= 2 and distinct >= TEXT_DISTINCT_SHARE * n and long_cells

_SPAN_NAMES = (
    "start", "end", "begin", "stop", "start_offset", "end_offset", "start_char", "end_char",
    "char_start", "char_end", "span_start", "span_end", "start_token", "end_token",
    "token_start", "token_end", "start_idx", "end_idx", "offset_start", "offset_end",
)
_WINNER_NAMES = (
    "winner", "preference", "preferred", "choice", "chosen", "rejected", "better", "winner_model",
)
_SIDE_PAIRS = (
    ("left", "right"), ("model_a", "model_b"),
    ("response_a", "response_b"), ("option_a", "option_b"), ("system_a", "system_b"),
    ("output_a", "output_b"), ("completion_a", "completion_b"), ("answer_a", "answer_b"),
)
_PAIRWISE_LABELS = frozenset({
    "a", "b", "tie", "draw", "both", "neither", "left", "right", "model_a", "model_b",
    "both_bad", "tie (bothbad)", "a>b", "b>a", "a=b", "same", "equal",
})
_LAST = ("if a later row corrects an earlier one, pass duplicates='last' "
         "(accord CLI: --duplicates last) to keep the last value; the output says how many "
         "ratings it dropped.")
#: Share of repeated (unit, rater) pairs from which repeats look deliberate, not corrections.
_MULTILABEL_SHARE = 0.2


def span_columns(columns: Sequence[str]) -> list[str]:
    """The columns whose names say start or end offsets of spans."""
    return [c for c in columns if str(c).lower().strip() in _SPAN_NAMES]


def pairwise_columns(columns: Sequence[str]) -> list[str]:
    """Columns naming the two sides of a comparison, or its winner."""
    low = {str(c).lower().strip(): str(c) for c in columns}
    found = [low[n] for n in _WINNER_NAMES if n in low]
    for a, b in _SIDE_PAIRS:
        if a in low and b in low:
            found += [low[a], low[b]]
    return found


def _pairwise_labels(labels: Sequence[Any]) -> bool:
    texts = {str(x).lower().strip() for x in labels}
    sides = ({"a", "b"}, {"model_a", "model_b"}, {"left", "right"})
    return texts <= _PAIRWISE_LABELS and any(s <= texts for s in sides)


def duplicate_advice(
    *,
    columns: Sequence[str] = (),
    labels: Sequence[Any] = (),
    n_clashes: int,
    n_pairs: int,
    max_labels: int,
    wide: bool = False,
) -> str:
    """The end of the duplicate-rating error: what the data look like and what to use.

    Parameters
    ----------
    columns : sequence of str
        The table's column names (empty when the data came as arrays).
    labels : sequence
        The distinct labels.
    n_clashes, n_pairs : int
        (unit, rater) pairs with two or more different labels, and all pairs.
    max_labels : int
        The most distinct labels one rater gave one unit.
    wide : bool
        The pairs repeat because unit ids repeat over the rows of a wide table
        (one label per cell): only span columns can explain that by design.

    Examples
    --------
    >>> duplicate_advice(columns=["doc", "annotator", "start", "end", "label"],
    ...                  n_clashes=5, n_pairs=6, max_labels=3).split(':')[0]
    "one row per span (columns 'start', 'end')"
    """
    spans = span_columns(columns)
    if spans:
        shown = ", ".join(repr(c) for c in spans)
        start, end = (list(spans) + ["COL", "COL"])[:2]
        label = next((c for c in columns if str(c).lower() in ("label", "type", "tag",
                                                               "entity")), "COL")
        return (f"one row per span (columns {shown}): this is a span table, not one label "
                "per unit and rater; compare spans with accord.span_agreement "
                f"(accord CLI: accord spans DATA --start {start} --end {end} --label {label} "
                "with --unit and --rater), since keeping one row would compare one "
                "arbitrary span per unit.")
    pair_cols = pairwise_columns(columns)
    if wide and not pair_cols:
        return _LAST
    if pair_cols or _pairwise_labels(labels):
        what = (f"columns {', '.join(repr(c) for c in pair_cols)}" if pair_cols else
                f"labels {', '.join(repr(x) for x in sorted(map(str, labels)))}")
        return (f"these look like pairwise comparisons ({what}): a rater judged several "
                "pairs of one unit; compare the preferences with accord.judge_agreement "
                "(accord CLI: accord judge), or give each compared pair its own unit id.")
    if max_labels >= 3 or (n_clashes >= 2 and n_clashes >= _MULTILABEL_SHARE * n_pairs):
        return (f"{n_clashes} of {n_pairs} (unit, rater) pairs hold several different labels "
                f"(up to {max_labels}): this looks like multilabel data, where a rater may give "
                "a unit a set of labels; read the rows of one unit and rater as one set with "
                "multilabel=True (accord CLI: --multilabel) and compute agreement on the sets "
                "rather than keeping one label of each set.")
    return _LAST

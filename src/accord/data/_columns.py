"""Which columns of a wide table are ratings: the rules the file readers and the library's
frame and array entry points share, so that ``accord compute file.csv`` and
``accord.fleiss_kappa(df)`` read the same table the same way.

A wide table read without ``raters=`` takes its rater columns by elimination, so:

- a column named like unit ids (``item_id``, ``id``, ``unit``, ...) holds the unit ids;
- a column named as a non-rating (``comment``, ``text``, ``*_rationale``, ...) or holding
  free text (long, nearly all distinct strings) is left out and named;
- a numeric column of many distinct values, most of them not whole numbers (a model's
  confidence, a probability, a score), beside columns of labels, is left out of a nominal
  analysis and named ("looks like scores or probabilities"): as a rater it would bring
  hundreds of one-rating categories;
- a column that looks like ids (every value distinct over many rows: text ids, or
  integers counting up by one, a row number) is refused: no two raters could agree on
  it, and taken as a rater it drags every coefficient towards zero (a column of ranks,
  a permutation, is not a row number and stays a rater);
- a table that looks long (a text column named like rater ids, or unit ids repeating
  over the rows) is refused with the way to read a long table.

The rules work on column names and a few counts (how many values, how many distinct,
whether they are whether integers count up by one), so each caller counts with its own engine
(Polars for files, numpy for arrays) and nothing here imports either.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = [
    "ID_MIN_ROWS",
    "LONG_DISTINCT_SHARE",
    "NON_RATER_NAMES",
    "NON_RATER_SUFFIXES",
    "RATER_ID_NAMES",
    "RATER_NAMES",
    "SCORE_MIN_DISTINCT",
    "UNIT_NAMES",
    "VALUE_NAMES",
    "LABEL_SEPARATORS",
    "distinct_pieces",
    "find_column",
    "holds_labels",
    "id_like_error",
    "is_non_rater_name",
    "long_error",
    "looks_like_ids",
    "looks_like_scores",
    "looks_transposed",
    "rater_id_column",
    "repeating_units",
    "score_caveat",
    "score_columns",
]

UNIT_NAMES = (
    "unit", "unit_id", "item", "item_id", "doc_id", "document_id", "doc", "id", "task",
    "task_id", "subject", "subject_id", "example_id", "sample_id", "text_id", "question_id",
    "target", "targets", "image", "image_id", "hit_id", "hitid", "sentence_id",
    "segment_id", "utterance_id", "record_id",
)
RATER_NAMES = (
    "rater", "rater_id", "annotator", "annotator_id", "coder", "coder_id", "worker",
    "worker_id", "workerid", "user", "user_id", "judge", "labeler", "labeller",
)
VALUE_NAMES = (
    "value", "label", "rating", "ratings", "answer", "score", "category", "code",
    "annotation", "response",
)
#: Columns a wide table never takes as raters unless named in ``raters=``.
NON_RATER_NAMES = (
    "text", "sentence", "document", "comment", "comments", "note", "notes", "rationale",
    "explanation", "reason", "title", "url", "meta", "metadata", "timestamp", "created_at",
    "updated_at", "time", "date", "source",
)
NON_RATER_SUFFIXES = ("_text", "_rationale", "_explanation", "_comment", "_reason", "_notes")
#: Columns whose exact name says they hold rater ids or rater kinds (a long table).
RATER_ID_NAMES = (
    "rater", "rater_id", "annotator", "annotator_id", "coder", "coder_id", "worker",
    "worker_id", "workerid", "user", "user_id", "judge", "labeler", "labeller", "annotator_kind",
    "rater_kind", "annotator_type", "rater_type", "annotator_name", "rater_name", "grader",
    "evaluator",
)
#: Unit ids this repetitive (distinct ids / rows) mean a long table; a few repeats in a
#: wide table are left to the duplicate-rating check.
LONG_DISTINCT_SHARE = 0.75
#: Distinct values from which a numeric column of mostly non-integer values reads as
#: scores or probabilities rather than ratings (a 1-5 scale with half points has 9).
SCORE_MIN_DISTINCT = 20
#: Rows from which a column of all-distinct values reads as ids rather than ratings.
ID_MIN_ROWS = 10


def find_column(names: Sequence[str], candidates: Sequence[str]) -> str | None:
    """The first of ``names`` that is one of ``candidates`` (in their order of preference),
    ignoring case and surrounding blanks."""
    lowered = {str(n).lower().strip(): n for n in reversed(names)}
    return next((lowered[c] for c in candidates if c in lowered), None)


def is_non_rater_name(name: object) -> bool:
    """Whether a column's name says it holds no ratings (``comment``, ``*_rationale``...)."""
    low = str(name).lower().strip()
    return low in NON_RATER_NAMES or low.endswith(NON_RATER_SUFFIXES) or low.startswith("__")


def rater_id_column(text_names: Sequence[str]) -> str | None:
    """The column named like rater ids (a long table's), if any, among the columns of text
    (``text_names``): a column of numbers named ``judge`` holds a judge's scores, and
    numeric rater ids still show in the unit ids repeating over the rows."""
    return find_column(text_names, RATER_ID_NAMES)


def holds_labels(values: set[str], other_values: set[str]) -> bool:
    """Whether a column named like rater ids holds the same labels as the other columns
    (at least half of its distinct values occur among theirs): a wide table with a rater
    named ``judge``, not a long table, whose rater ids never occur among the labels.

    >>> holds_labels({"a", "b"}, {"a", "b", "c"}), holds_labels({"ann1", "ann2"}, {"pos"})
    (True, False)
    """
    return bool(values) and 2 * len(values & other_values) >= len(values)


def looks_like_ids(n: int, distinct: int, *, text: bool, consecutive: bool = False,
                   pieces: int | None = None) -> bool:
    """Whether a column of ``n`` non-missing values, ``distinct`` of them different, holds
    ids rather than ratings: all distinct over at least :data:`ID_MIN_ROWS` rows, and
    text, or integers counting up by one row after row (``consecutive``: a row number).
    Numbers that are merely all different (scores on a fine scale, or one rater's ranks)
    stay ratings, and so do label sets: text whose cells, split on one of
    :data:`LABEL_SEPARATORS`, hold ``pieces`` distinct labels, at most half as many as the
    values (``"toxic;spam"``: 3,000 distinct sets of 20 labels are not ids).

    >>> looks_like_ids(120, 120, text=True), looks_like_ids(120, 3, text=True)
    (True, False)
    >>> looks_like_ids(120, 120, text=False), looks_like_ids(120, 120, text=False, consecutive=True)
    (False, True)
    >>> looks_like_ids(3000, 3000, text=True, pieces=20)
    False
    """
    sets = text and pieces is not None and 2 * pieces <= n
    return n >= ID_MIN_ROWS and distinct == n and (text or consecutive) and not sets


#: What joins the labels of a set in one cell, for :func:`looks_like_ids`.
LABEL_SEPARATORS = (";", "|", ",")


def distinct_pieces(texts: Sequence[str]) -> int:
    """The fewest distinct labels ``texts`` split into, over :data:`LABEL_SEPARATORS` (the
    number of distinct texts when none splits them)."""
    return min(len({p.strip() for t in texts for p in t.split(sep)})
               for sep in LABEL_SEPARATORS)


def looks_like_scores(n: int, distinct: int, non_integer: int) -> bool:
    """Whether a numeric column of ``n`` non-missing values, ``distinct`` of them different
    and ``non_integer`` of them not whole numbers, holds scores or probabilities rather than
    ratings: at least :data:`SCORE_MIN_DISTINCT` distinct values, at least half of the
    values not whole numbers.

    >>> looks_like_scores(500, 343, 500), looks_like_scores(500, 9, 250)
    (True, False)
    >>> looks_like_scores(500, 480, 0)
    False
    """
    return distinct >= SCORE_MIN_DISTINCT and 2 * non_integer >= n > 0


def score_columns(
    counts: dict[str, tuple[int, int, int]], candidates: Sequence[str],
    declared: Sequence[str] = (), level: str | None = None,
) -> list[str]:
    """The candidate rater columns left out as scores or probabilities.

    ``counts`` maps each numeric candidate to ``(n, distinct, non_integer)``
    (:func:`looks_like_scores`). A column is left out only from a nominal (or undeclared)
    level, only when it was not declared (``declared``: columns named as raters or given a
    kind), and only when such columns are not the majority of the candidates: a table
    whose columns mostly hold fine scores is a table of scores (an ICC's, perhaps with a
    stray column of batch numbers), not labels with a stray probability.

    >>> score_columns({"confidence": (500, 343, 500)}, ["gold", "predicted", "confidence"])
    ['confidence']
    >>> score_columns({"a": (50, 40, 50), "b": (50, 41, 50)}, ["a", "b"])
    []
    >>> score_columns({"confidence": (500, 343, 500)}, ["gold", "confidence"], ["confidence"])
    []
    >>> score_columns({c: (50, 40, 50) for c in "abc"}, ["week", "a", "b", "c"])
    []
    """
    if level in ("interval", "ratio"):
        return []
    scores = [c for c in candidates if c in counts and c not in declared
              and looks_like_scores(*counts[c])]
    return scores if 2 * len(scores) <= len(candidates) else []


def score_caveat(columns: Sequence[object]) -> str:
    """The words naming the columns left out as scores or probabilities."""
    return (f"{', '.join(repr(c) for c in columns)} left out: looks like scores or "
            "probabilities (many distinct values, mostly not whole numbers), not labels")


def looks_transposed(n_rows: int, n_cols: int) -> bool:
    """Whether a table without column names is likely raters x units rather than units x
    raters: at least :data:`ID_MIN_ROWS` columns and more than twice as many columns as
    rows.

    >>> looks_transposed(4, 120), looks_transposed(120, 4), looks_transposed(3, 5)
    (True, False, False)
    """
    return n_cols >= ID_MIN_ROWS and n_cols > 2 * n_rows


def repeating_units(n: int, distinct: int) -> bool:
    """Whether unit ids repeat over the rows as a long table's do (a table of no rows
    has nothing that repeats)."""
    return n > 0 and distinct <= LONG_DISTINCT_SHARE * n


def id_like_error(where: str, column: object, n: int) -> str:
    """The sentence refusing a column of ids taken as a rater (``where`` names the file or
    function, with its colon)."""
    return (f"{where}column {column!r} looks like ids, not ratings: its {n} values are all "
            "distinct, so no two raters could agree on it; name it as the unit ids with "
            "unit=..., or name the rater columns with raters=[...].")


def long_error(where: str, why: str, columns: Sequence[object], *, library: bool) -> str:
    """The sentence refusing a long table read as wide; ``why`` says what gave it away.
    The library's names the constructor of long tables and :func:`accord.read`."""
    route = ("; read it with Annotations.from_long(data, unit=..., rater=..., value=...) "
             "(or accord.read on its file)" if library else "")
    return (f"{where}this table looks long (one row per rating), not wide: {why}; name "
            "its columns with unit=..., rater=... and value=... (the columns are "
            f"{list(columns)!r}){route}, or name the rater columns of a wide table with "
            "raters=[...].")

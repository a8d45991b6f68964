"""Bad input ends in one clear sentence, never a bare Python error or a wrong answer.

Every public function (``accord.__all__``) and the ``accord compute`` / ``accord
table`` commands are fed wrong types, wrong shapes, empty data, a single rater,
no unit rated twice, missing-only columns, bad options and bad interval
settings. Each must raise an :class:`accord.AccordError` subclass whose message
is one sentence naming what was wrong (and, where there is one, what was
expected); never an IndexError, KeyError, TypeError, ZeroDivisionError or a
numpy warning (warnings are errors in this suite), and never a number computed
from input that was silently reinterpreted (a string read as its characters, a
mapping read as its keys, a short column broadcast, a generator half consumed).

Calling a function with a keyword it does not have is Python's own TypeError and
is not tested here; options that accord passes on for you (``pairwise``,
``leave_one_rater_out``) are.
"""

from __future__ import annotations

import inspect
import math
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import array_shapes, arrays

import accord
from accord import (
    Annotations,
    Bootstrap,
    ContingencyTable,
    RaterCounts,
    RatingMatrix,
)
from accord.errors import (
    AccordError,
    DataError,
    DuplicateRatingError,
    InsufficientDataError,
    InvalidParameterError,
    UnknownCategoryError,
)

# Coefficients of labels and scores; span figures (family "spans") take spans only and
# are refused any table (test_span_figures_refuse_what_is_not_spans).
NAMES = sorted(n for n, i in accord.REGISTRY.items() if i.family != "spans")
import accord.spans  # noqa: E402  the spans family registers its figures when imported

SPAN_NAMES = sorted(n for n, i in accord.REGISTRY.items() if i.family == "spans")
assert SPAN_NAMES, "the spans family registered no figure"
TWO_ONLY = sorted(n for n, i in accord.REGISTRY.items() if i.raters == "two")
WEIGHTED = sorted(n for n, i in accord.REGISTRY.items() if i.weighted)
LABELLED = sorted(n for n in NAMES if "categories" in inspect.signature(
    accord.REGISTRY[n].function).parameters)
W3 = [[1, 1, 2], [2, 2, 2], [1, 2, 3], [3, 3, 3], [2, 1, 2]]
Y1 = ["a", "b", "a", "c", "b", "a"]
Y2 = ["a", "b", "b", "c", "b", "c"]


def refused(error: type[AccordError], match: str, func: Callable[..., Any], /, *args: Any,
            **kwargs: Any) -> str:
    """Call and require ``error`` with ``match`` in a one-sentence message; return it."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a numpy RuntimeWarning on the way is a failure too
        with pytest.raises(error, match=match) as info:
            func(*args, **kwargs)
    message = str(info.value)
    assert "\n" not in message and message.rstrip().endswith("."), message
    assert 20 <= len(message) <= 500, message
    assert "Traceback" not in message and "object at 0x" not in message, message
    return message


def _sample(name: str) -> Any:
    return [row[:2] for row in W3] if name in TWO_ONLY else W3


# --------------------------------------------------------------------------- data
BAD_TABLES: list[tuple[str, Any, type[AccordError], str]] = [
    ("a string", "abc", DataError, "needs a table"),
    ("None", None, DataError, "needs a table"),
    ("a number", 5, DataError, "needs a table"),
    ("an object", object(), DataError, "needs a table"),
    ("a 3-D array", np.zeros((3, 2, 2)), DataError, r"2-D"),
    ("an empty list", [], DataError, "empty table"),
    ("a one-dimensional list", [1, 2, 3], DataError, "row 1 is 1, not a row"),
    ("a set", {1, 2, 3}, DataError, "not a row"),
    ("ragged rows", [[1, 2], [1]], DataError, "same number of columns"),
    ("columns of different lengths", {"a": [1, 2, 1], "b": [1]}, DataError,
     "columns of one length"),
    ("set-valued labels", [[[1], [2]], [[1], [1]]], DataError,
     "sets of labels.*multilabel_agreement"),
    ("dict labels", [[{"a": 1}, {"a": 1}], [{"b": 1}, {"a": 1}]], DataError,
     "unhashable label"),
    ("a single rater", [[1], [2], [3]], InsufficientDataError, "at least two raters"),
    ("no unit rated twice", [[1, None], [None, 2], [2, None]], InsufficientDataError,
     "nothing to"),
    ("missing-only columns", np.full((4, 3), np.nan), InsufficientDataError,
     "no ratings|nothing to pair"),
    ("no units", np.zeros((0, 3)), InsufficientDataError, "no ratings|nothing to"),
]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize(("what", "table", "kind", "match"), BAD_TABLES,
                         ids=[case[0] for case in BAD_TABLES])
def test_every_coefficient_refuses_bad_data(name: str, what: str, table: Any,
                                            kind: type[AccordError], match: str) -> None:
    func = accord.REGISTRY[name].function
    scores = "nominal" not in accord.REGISTRY[name].levels  # ICC, irr's score coefficients
    if scores and what in ("set-valued labels", "dict labels"):
        kind, match = DataError, "numeric|unhashable"
    if name in TWO_ONLY and what == "no units":
        match = "nothing to compare"
    refused(kind, match, func, table)


@pytest.mark.parametrize("name", SPAN_NAMES)
@pytest.mark.parametrize(("what", "table"), [(c[0], c[1]) for c in BAD_TABLES] + [
    ("a good table", W3), ("rater counts", RaterCounts([[2, 0], [1, 1]])),
    ("a contingency table", ContingencyTable([[2, 1], [0, 3]]))],
    ids=[c[0] for c in BAD_TABLES] + ["a good table", "rater counts", "a contingency table"])
def test_span_figures_refuse_what_is_not_spans(name: str, what: str, table: Any) -> None:
    msg = refused(InvalidParameterError, "must be a SpanTable or Annotations with spans",
                  accord.REGISTRY[name].function, table)
    assert f"parameter of {name}" in msg
    labels = accord.Annotations.from_wide(W3)
    refused(DataError, f"{name}: the annotations hold no spans", accord.REGISTRY[name].function,
            labels)


@pytest.mark.parametrize("name", NAMES)
def test_every_coefficient_refuses_summaries_it_cannot_use(name: str) -> None:
    func = accord.REGISTRY[name].function
    counts = RaterCounts([[2, 0], [1, 1], [0, 2]])
    table = ContingencyTable([[2, 1], [0, 3]])
    ratings = RatingMatrix([[1.0, 2.0], [2.0, 2.0]])
    if name not in {"brennan_prediger", "fleiss_kappa", "gwet_ac1", "krippendorff_alpha",
                    "percent_agreement"}:
        refused(DataError, "RaterCounts", func, counts)
    if accord.REGISTRY[name].family not in {"two_raters", "krippendorff", "classification"}:
        refused(DataError, "contingency table|ContingencyTable", func, table)
    if "nominal" in accord.REGISTRY[name].levels:  # scores (icc, kendall_w, ...) take one
        refused(DataError, "RatingMatrix", func, ratings)


@pytest.mark.parametrize("name", TWO_ONLY + ["brennan_prediger", "gwet_ac1",
                                             "percent_agreement"])
def test_two_label_sequences_must_be_sequences_of_one_length(name: str) -> None:
    func = accord.REGISTRY[name].function
    refused(DataError, r"same length .*got 3 and 2", func, [1, 2, 3], [1, 2])
    refused(DataError, "y1 must be a sequence of labels; got str", func, "abc", "abd")
    refused(DataError, "y2 must be a sequence of labels; got int", func, [1, 2], 5)
    refused(DataError, "y1 must be a sequence of labels; got dict", func, {"a": 1}, {"b": 2})
    refused(DataError, "y1 must be a sequence of labels; got set", func, {1, 2}, [1, 2])
    refused(DataError, "one-dimensional", func, np.zeros((2, 2, 2)), np.zeros((2, 2, 2)))
    refused(DataError, "sets of labels", func, [[1, 2], [1, 2]], [1, 2])
    refused(InsufficientDataError, "no unit has a label from both", func, [], [])
    refused(InsufficientDataError, "no unit has a label from both", func, [None, np.nan],
            [np.nan, None])


def test_a_missing_second_sequence_is_not_read_as_a_table() -> None:
    refused(DataError, "two label sequences as two arguments", accord.cohen_kappa, [1, 2, 1])


# --------------------------------------------------------------------------- options
BAD_WEIGHTS: list[tuple[Any, str]] = [
    ("quadratc", r"must be one of \{'identity', 'linear'.*Got 'quadratc' instead"),
    ("LINEAR", "Got 'LINEAR' instead"),
    (5, r"3 x 3 matrix .*shape \(\)"),
    (True, r"3 x 3 matrix .*shape \(\)"),
    (np.eye(2), r"3 x 3 matrix .*shape \(2, 2\)"),
    (np.eye(4), r"3 x 3 matrix .*shape \(4, 4\)"),
    (np.ones((3, 3, 1)), r"3 x 3 matrix .*shape \(3, 3, 1\)"),
    ([["a", "b", "c"]] * 3, "numeric matrix"),
    (np.full((3, 3), 2.0), r"in \[0, 1\]"),
    (np.array([[1, np.nan, 0], [0, 1, 0], [0, 0, 1]]), r"in \[0, 1\]"),
    (np.zeros((3, 3)), "1 on the diagonal"),
]


@pytest.mark.parametrize("name", WEIGHTED)
@pytest.mark.parametrize(("weights", "match"), BAD_WEIGHTS,
                         ids=[f"w{i}" for i in range(len(BAD_WEIGHTS))])
def test_bad_weights_name_the_parameter_and_the_coefficient(name: str, weights: Any,
                                                            match: str) -> None:
    func = accord.REGISTRY[name].function
    data = [row[:2] for row in W3] if name in TWO_ONLY else W3
    msg = refused(InvalidParameterError, match, func, data, weights=weights)
    assert f"'weights' parameter of {name}" in msg


@pytest.mark.parametrize("name", LABELLED)
def test_bad_declared_categories(name: str) -> None:
    func = accord.REGISTRY[name].function
    data = _sample(name)
    refused(DataError, "must be distinct; 2 appears more than once", func, data,
            categories=[1, 2, 2, 3])
    refused(DataError, "hashable labels", func, data, categories=[[1], 2, 3])
    refused(DataError, "must be a list of labels.*got 3", func, data, categories=3)
    refused(DataError, "must be a list of labels.*got '123'", func, data, categories="123")
    refused(UnknownCategoryError, "outside the declared categories.*3", func, data,
            categories=[1, 2] if name not in TWO_ONLY else [1])


def test_categories_that_differ_from_a_summary_are_refused() -> None:
    refused(DataError, "differ from the RaterCounts", accord.fleiss_kappa,
            RaterCounts([[2, 0], [1, 1]]), categories=["x", "y"])
    refused(DataError, "differ from the table", accord.cohen_kappa,
            ContingencyTable([[2, 0], [1, 1]]), categories=["x", "y"])


LEVELS: list[tuple[Any, type[AccordError], str]] = [
    ("nomnal", InvalidParameterError, "'level' parameter of krippendorff_alpha must be one of"),
    ("Interval", InvalidParameterError, "Got 'Interval' instead"),
    (None, InvalidParameterError, "Got None instead"),
    (3, InvalidParameterError, r"3 x 3 difference matrix"),
    (np.eye(2), InvalidParameterError, r"3 x 3 difference matrix"),
    (np.eye(3), InvalidParameterError, "0 on the diagonal"),
    (np.full((3, 3), -1.0), InvalidParameterError, "non-negative"),
    (lambda a, b: "x", InvalidParameterError, r"callable d\(c, k\) returning a number"),
    (lambda a, b: 1 / 0, InvalidParameterError, "ZeroDivisionError"),
    (lambda a: 0.0, InvalidParameterError, "TypeError"),
]


@pytest.mark.parametrize(("level", "kind", "match"), LEVELS,
                         ids=[f"level{i}" for i in range(len(LEVELS))])
def test_bad_alpha_level(level: Any, kind: type[AccordError], match: str) -> None:
    refused(kind, match, accord.krippendorff_alpha, W3, level=level)


def test_numeric_levels_need_numbers() -> None:
    words = [["a", "b"], ["b", "b"]]
    refused(DataError, "level='interval' needs numeric values.*'a'", accord.krippendorff_alpha,
            words, level="interval")
    refused(DataError, "level='ratio' needs non-negative", accord.krippendorff_alpha,
            [[-1, 2], [2, 2], [1, 1]], level="ratio")
    refused(DataError, "numeric", accord.icc, words)
    refused(DataError, "infinite value", accord.icc, [[1.0, np.inf], [2.0, 2.0], [3.0, 1.0]])
    refused(DataError, "level='interval' needs numeric values", Annotations.from_wide, words,
            level="interval")


@pytest.mark.parametrize("form", ["ICC4", "ICC(A,2)", "ICC(2,1)", None, 2, ""])
def test_bad_icc_form(form: Any) -> None:
    refused(InvalidParameterError, r"'form' parameter of icc must be one of \{'ICC1'",
            accord.icc, W3, form=form)


def test_bad_percent_agreement_options() -> None:
    func = accord.percent_agreement
    refused(InvalidParameterError, "'definition' parameter .* Got 'all'", func, W3,
            definition="all")
    for tolerance in (-1, "x", math.nan):
        refused(InvalidParameterError, "'tolerance' parameter", func, W3,
                definition="unanimous", tolerance=tolerance)


@pytest.mark.parametrize(("weights", "match"), [
    ([1, 2], r"one weight per unit \(6\); got shape \(2,\)"),
    ([1, -2, 1, 1, 1, 1], "finite and non-negative"),
    ([1, np.nan, 1, 1, 1, 1], "finite and non-negative"),
    ("abcdef", "one number per unit"),
    ([1, "a", 1, 1, 1, 1], "one number per unit"),
])
def test_bad_sample_weight(weights: Any, match: str) -> None:
    refused(DataError, match, accord.cohen_kappa, Y1, Y2, sample_weight=weights)


def test_raters_option() -> None:
    refused(DataError, r"rater column\(s\) \['x', 'y'\] not found", accord.cohen_kappa, W3,
            raters=["x", "y"])
    refused(DataError, "needs exactly two raters", accord.cohen_kappa, W3, raters=[0, 1, 2])
    refused(InvalidParameterError, "'raters' parameter of cohen_kappa must be a list.*Got 'ab'",
            accord.cohen_kappa, {"a": [1, 2], "b": [1, 2]}, raters="ab")
    refused(DataError, "compares two raters; the data have 3", accord.cohen_kappa, W3)


# --------------------------------------------------------------------------- tables
BAD_COUNTS: list[tuple[str, Any, str, str]] = [
    ("ragged", [[1, 2], [3]], "must be numbers", "not numbers"),
    ("non-square", [[1, 2, 3], [4, 5, 6]], r"square \(k x k\); got shape \(2, 3\)", ""),
    ("negative", [[-1, 2], [3, 4]], "finite and non-negative", "finite and non-negative"),
    ("nan", [[np.nan, 1], [1, 1]], "finite and non-negative", "finite and non-negative"),
    ("inf", [[np.inf, 1], [1, 1]], "finite and non-negative", "finite and non-negative"),
    ("text", [["a", "b"], ["c", "d"]], "must be numbers", "not numbers"),
    ("a string", "ab", "must be numbers", "not numbers"),
    ("empty", [], r"square \(k x k\)", "2-D units x categories"),
    ("None", None, r"square \(k x k\)", "2-D units x categories"),
    ("3-D", np.zeros((2, 2, 2)), r"square \(k x k\)", "2-D units x categories"),
    ("fractional raters", [[1.5, 2], [3, 4]], "", "whole numbers"),
]


@pytest.mark.parametrize(("what", "counts", "table_match", "counts_match"), BAD_COUNTS,
                         ids=[c[0] for c in BAD_COUNTS])
def test_bad_counts(what: str, counts: Any, table_match: str, counts_match: str) -> None:
    if table_match:
        refused(DataError, table_match, ContingencyTable, counts)
    if counts_match:
        refused(DataError, counts_match, RaterCounts, counts)


def test_table_categories() -> None:
    refused(DataError, "categories has 3 labels but the table is 2 x 2", ContingencyTable,
            [[1, 2], [3, 4]], ["a", "b", "c"])
    refused(DataError, "must be distinct", ContingencyTable, [[1, 2], [3, 4]], ["a", "a"])
    refused(DataError, "hashable labels", ContingencyTable, [[1, 2], [3, 4]], [["a"], "b"])
    refused(DataError, "3 labels but the counts have 2 columns", RaterCounts, [[1, 2]],
            ["a", "b", "c"])
    refused(DataError, "must be distinct", RaterCounts, [[1, 2]], ["a", "a"])
    refused(DataError, "2-D units x raters", RatingMatrix, np.zeros((2, 2, 2)))
    refused(DataError, "must be numbers", RatingMatrix, [["a", "b"], ["c", "d"]])
    refused(DataError, "raters has 1 labels for 2 columns", RatingMatrix, np.zeros((2, 2)),
            raters=["a"])
    refused(DataError, "units has 1 labels for 2 rows", RatingMatrix, np.zeros((2, 2)),
            units=["a"])
    refused(DataError, "raters must be distinct", RatingMatrix, np.zeros((2, 2)),
            raters=["a", "a"])


def test_coincidence_matrix_constructors() -> None:
    cm = accord.CoincidenceMatrix
    refused(DataError, "needs numbers", cm.from_array, "abc")
    refused(DataError, r"2-D units x raters table; got shape \(2, 2, 2\)", cm.from_array,
            np.zeros((2, 2, 2)))
    refused(DataError, "infinite value", cm.from_array, [[1.5, np.inf], [1.5, 2.5]])
    refused(DataError, "must be numbers", cm.from_counts, [[1, 2], [3]])
    refused(DataError, "non-negative whole numbers", cm.from_counts, [[-1, 2], [3, 4]])
    refused(DataError, "non-negative whole numbers", cm.from_counts, [[1.5, 1], [1, 1]])
    refused(DataError, "must be distinct", cm.from_counts, [[1, 2], [3, 4]], ["a", "a"])
    refused(DataError, "3 labels but the counts have 2 columns", cm.from_counts, [[1, 2]],
            ["a", "b", "c"])
    refused(DataError, "needs an accord.ContingencyTable; got str", cm.from_table, "x")
    refused(DataError, "needs an accord.Annotations; got str", cm.from_annotations, "x")
    refused(DataError, "differ from the data", accord.krippendorff_alpha,
            cm.from_counts([[2, 1], [0, 3]]), categories=["x", "y"])


def test_category_agreement() -> None:
    refused(DataError, "needs a table", accord.category_agreement, None)
    refused(DataError, "same length", accord.category_agreement, [1, 2], [1])
    refused(DataError, "compares two raters; the data have 3", accord.category_agreement, W3)
    refused(DataError, "RaterCounts", accord.category_agreement, RaterCounts([[2, 0], [1, 1]]))


def test_summaries_with_nothing_to_compare() -> None:
    refused(InsufficientDataError, "nothing to compare", accord.fleiss_kappa,
            RaterCounts([[1, 0], [0, 1]]))
    refused(InsufficientDataError, "nothing to pair", accord.krippendorff_alpha,
            ContingencyTable([[0, 0], [0, 0]]))
    refused(DataError, "whole-number counts", accord.krippendorff_alpha,
            ContingencyTable([[1.5, 2], [3, 4]]))
    refused(InsufficientDataError, "at least two units", accord.icc, [[1.0, 2.0, 3.0]])


# --------------------------------------------------------------------------- inference
RESULT = accord.cohen_kappa(Y1, Y2)


@pytest.mark.parametrize("level", [0, 1, 1.5, -0.1, "x", math.nan, None, True])
def test_bad_confidence_level(level: Any) -> None:
    refused(InvalidParameterError, r"'confidence_level' parameter of confidence_interval must "
            r"be a number in \(0, 1\)", RESULT.confidence_interval, level)


@pytest.mark.parametrize(("options", "match"), [
    ({"n_resamples": 0}, "'n_resamples' parameter of Bootstrap must be a positive integer"),
    ({"n_resamples": -5}, "Got -5 instead"),
    ({"n_resamples": 1.5}, "Got 1.5 instead"),
    ({"n_resamples": "10"}, "Got '10' instead"),
    ({"n_resamples": True}, "Got True instead"),
    ({"kind": "bcx"}, "'kind' parameter of Bootstrap must be one of"),
    ({"rng": "seed"}, "'rng' parameter of Bootstrap"),
    ({"rng": -1}, "'rng' parameter of Bootstrap"),
])
def test_bad_bootstrap(options: dict[str, Any], match: str) -> None:
    refused(InvalidParameterError, match, Bootstrap, **options)


def test_bad_interval_method_and_population() -> None:
    ci = RESULT.confidence_interval
    refused(InvalidParameterError, "'method' parameter .* Got 'bootstrap'", ci,
            method="bootstrap")
    refused(InvalidParameterError, "'method' parameter .* Got None", ci, method=None)
    for size in (0, 3, "x", 2.5):
        refused(InvalidParameterError, "'population_size' parameter", ci, population_size=size)
    refused(InvalidParameterError, "no analytic standard error", accord.light_kappa(W3)
            .confidence_interval)
    summary = accord.cohen_kappa(ContingencyTable([[1.5, 1], [1, 2]]))
    refused(InvalidParameterError, "cannot be resampled", summary.confidence_interval,
            method="jackknife")


# --------------------------------------------------------------------------- Annotations
LONG = {"u": [1, 1, 2, 2], "r": ["a", "b", "a", "b"], "v": ["x", "y", "x", "x"]}


def _long(**kwargs: Any) -> Annotations:
    options: dict[str, Any] = {"unit": "u", "rater": "r", "value": "v", **kwargs}
    data = options.pop("data", LONG)
    return Annotations.from_long(data, **options)


def test_bad_long_tables() -> None:
    refused(DataError, "column 'x' not found; the columns are", _long, value="x")
    refused(DataError, "column 'unit' not found", Annotations.from_long, LONG)
    refused(DataError, "columns of one length", _long, data={**LONG, "r": ["a"]})
    refused(DataError, "needs a table", _long, data="abc")
    refused(DataError, "needs a table", _long, data=None)
    refused(DataError, "unit column contain|unhashable label", _long,
            data={**LONG, "u": [[1], [1], [2], [2]]})
    refused(InsufficientDataError, "no ratings", _long, data={"u": [], "r": [], "v": []})
    refused(InsufficientDataError, "no ratings", _long,
            data={**LONG, "v": [None, None, "", math.nan]})
    refused(DuplicateRatingError, r"rated twice by the same rater .*duplicates='last'", _long,
            data={"u": [1, 1, 1], "r": ["a", "a", "b"], "v": ["x", "y", "x"]})
    refused(InvalidParameterError, "'duplicates' parameter .* Got 'zzz'", _long,
            duplicates="zzz")
    refused(InvalidParameterError, "'level' parameter .* Got 'nom'", _long, level="nom")
    refused(DataError, "missing must be a list of labels.*got 'NA'", _long, missing="NA")
    refused(UnknownCategoryError, "outside the declared categories.*'y'", _long,
            categories=["x"])


def test_bad_wide_tables_and_views() -> None:
    wide = Annotations.from_wide
    refused(DataError, r"rater column\(s\) \['c'\] not found", wide, {"a": [1], "b": [1]},
            raters=["a", "c"])
    refused(DataError, "rater columns must be distinct", wide, {"a": [1], "b": [1]},
            raters=["a", "a"])
    refused(InvalidParameterError, "raters must be a list", wide, {"a": [1], "b": [1]},
            raters="ab")
    refused(DataError, "unit column 'id' not found", wide, {"a": [1], "b": [1]}, unit="id")
    refused(DataError, "y1 and y2 must have the same length", Annotations.from_pairs, [1, 2],
            [1])
    ann = wide(W3)
    refused(DataError, r"rater\(s\) \['x'\] not found", ann.select, ["x"])
    refused(DataError, "raters must be a list of labels.*got 'rater_1'", ann.select, "rater_1")
    refused(DataError, "raters must be distinct", ann.select, ["rater_1", "rater_1"])
    refused(UnknownCategoryError, "outside the declared categories.*3", ann.with_categories,
            [1, 2])
    refused(DataError, "must be distinct", ann.with_categories, [1, 2, 3, 3])
    refused(InvalidParameterError, "'level' parameter .* Got 'foo'", ann.with_categories,
            [1, 2, 3], level="foo")
    refused(InsufficientDataError, "at least two raters", ann.select(["rater_1"])
            .require_pairable)


# --------------------------------------------------------------------------- other functions
def test_pairwise_and_leave_one_rater_out() -> None:
    for func in (accord.pairwise, accord.leave_one_rater_out):
        fname = func.__name__
        refused(InvalidParameterError, f"'coefficient' parameter of {fname} must be one of",
                func, W3, "foo")
        refused(InvalidParameterError, "Got None instead", func, W3, None)
        refused(InvalidParameterError, "does not take 'wieghts'; it takes 'weights'", func, W3,
                "fleiss_kappa", wieghts="linear")
        refused(InvalidParameterError, "which does not take 'level'", func, W3, "fleiss_kappa",
                level="interval")
        refused(DataError, "which rater gave each rating", func, RaterCounts([[2, 0], [1, 1]]))
        refused(InsufficientDataError, "at least two raters", func, [[1], [2]])
        refused(DataError, "needs a table", func, "abc")
    refused(InvalidParameterError, "compares exactly two", accord.leave_one_rater_out, W3,
            "cohen_kappa")


@pytest.mark.parametrize("func", [accord.unit_agreement, accord.label_distribution])
def test_diagnostics(func: Callable[..., Any]) -> None:
    refused(DataError, "needs a table", func, "abc")
    refused(DataError, "needs a table", func, None)
    refused(DataError, "must be distinct", func, W3, categories=[1, 1, 2, 3])


def test_unit_agreement_needs_two_raters() -> None:
    refused(InsufficientDataError, "at least two raters", accord.unit_agreement, [[1], [2]])


def test_alt_test() -> None:
    data = {"j": [1, 2, 1], "a": [1, 2, 2], "b": [1, 1, 2]}
    refused(InsufficientDataError, "at least 2 humans", accord.alt_test, data, judge="j",
            humans=["a"])
    refused(DataError, "not among the raters", accord.alt_test, data, judge="gpt")
    refused(InvalidParameterError, "'test' parameter of alt_test", accord.alt_test, data,
            judge="j", test="z")
    refused(InvalidParameterError, "'humans' parameter of alt_test", accord.alt_test, data,
            judge="j", humans="ab")
    refused(InsufficientDataError, "rated none of the units", accord.alt_test,
            {"j": [1, None], "a": [None, 1], "b": [None, 2]}, judge="j")


def test_judge_agreement() -> None:
    data = {"j": [1, 2, 1], "a": [1, 2, 2], "b": [1, 1, 2]}
    refused(InsufficientDataError, "at least 2 humans", accord.judge_agreement, data,
            judge="j", humans=["a"])
    refused(InvalidParameterError, "'coefficient' parameter of judge_agreement",
            accord.judge_agreement, data, judge="j", coefficient="kapa")
    refused(InvalidParameterError, "'level' parameter of judge_agreement",
            accord.judge_agreement, data, judge="j", level="nominl")


def test_preferences() -> None:
    rows = {"unit": [1, 1], "rater": ["j", "j"], "first": ["x", "y"], "second": ["y", "x"],
            "verdict": ["A", "ERROR"]}
    refused(DataError, "declare parse failures with missing=", accord.preferences, rows)
    refused(InvalidParameterError, "'labels' parameter of preferences", accord.preferences,
            rows, labels=["A"])
    refused(DataError, "column", accord.preferences, rows, verdict="answer")


def test_judge_lab() -> None:
    refused(DataError, "neither item nor the tie value", accord.bradley_terry,
            [("a", "b", "c")])
    refused(InsufficientDataError, "at least two runs", accord.judge_consistency, [[1], [2]])
    refused(DataError, "outside \\[0, 1\\]", accord.judge_calibration, [0.2, 1.3], [0, 1])
    refused(DataError, "one class only", accord.judge_calibration, [0.2, 0.3, 0.4, 0.5],
            [0, 0, 0, 0])
    refused(DataError, "2 judge labels and 1 human labels", accord.ppi_mean, [1, 0],
            [1, 0], [1])
    refused(DataError, "at least two judges", accord.judge_panel, [[1, 1], [0, 1]],
            judges=["rater_1"])


def test_interpret_and_benchmark() -> None:
    refused(InvalidParameterError, "'scale' parameter of interpret must be one of", accord
            .interpret, RESULT, scale="foo")
    for value in ("0.5", None, True, [0.5]):
        refused(InvalidParameterError, "'result' parameter of interpret", accord.interpret,
                value)
    refused(InvalidParameterError, "at most 1", accord.interpret, 2.0)
    refused(InvalidParameterError, "'confidence_level' parameter of interpret", accord
            .interpret, RESULT, confidence_level=1.5)
    refused(InvalidParameterError, "'interval' parameter of interpret", accord.interpret,
            RESULT, interval=(0.1, 0.2))
    refused(InvalidParameterError, "'scale' parameter of benchmark", accord.benchmark, RESULT,
            scale="foo")
    refused(InvalidParameterError, "'confidence_level' parameter of benchmark", accord
            .benchmark, RESULT, confidence_level=0)
    for se in (-1, "x", math.nan):
        refused(InvalidParameterError, "'se' parameter of benchmark", accord.benchmark, RESULT,
                se=se)
    refused(InvalidParameterError, "'result' parameter of benchmark must be an AgreementResult",
            accord.benchmark, 0.5)
    refused(InvalidParameterError, "pass se= from a jackknife or bootstrap", accord.benchmark,
            accord.light_kappa(W3))


def test_compare() -> None:
    refused(InvalidParameterError, "'result_b' parameter of compare must be an AgreementResult",
            accord.compare, RESULT, 0.5)
    refused(InvalidParameterError, "'method' parameter of compare", accord.compare, RESULT,
            RESULT, method="foo")
    refused(InvalidParameterError, "'confidence_level' parameter of compare", accord.compare,
            RESULT, RESULT, confidence_level=2)


@pytest.mark.parametrize(("options", "param"), [
    ({"coefficient": "foo"}, "coefficient"),
    ({"expected": 1.5}, "expected"),
    ({"expected": "x"}, "expected"),
    ({"expected": math.nan}, "expected"),
    ({"ci_width": 0}, "ci_width"),
    ({"ci_width": -0.1}, "ci_width"),
    ({"ci_width": 5}, "ci_width"),
    ({"prevalence": 1.5}, "prevalence"),
    ({"prevalence": [0.5, 0.6]}, "prevalence"),
    ({"prevalence": "x"}, "prevalence"),
    ({"prevalence": [0.5, "a"]}, "prevalence"),
    ({"prevalence": 0.3, "n_categories": 3}, "n_categories"),
    ({"prevalence": [0.2, 0.3, 0.5], "n_categories": 4}, "n_categories"),
    ({"n_raters": 1}, "n_raters"),
    ({"n_categories": 1}, "n_categories"),
    ({"n_simulations": 0}, "n_simulations"),
    ({"rng": "x"}, "rng"),
    ({"rng": -1}, "rng"),
    ({"confidence_level": 1}, "confidence_level"),
])
def test_plan_sample_size(options: dict[str, Any], param: str) -> None:
    args: dict[str, Any] = {"expected": 0.5, "ci_width": 0.3, **options}
    refused(InvalidParameterError, f"'{param}' parameter of plan_sample_size", accord
            .plan_sample_size, **args)


def test_datasets_read_and_studies(tmp_path: Path) -> None:
    refused(InvalidParameterError, "'name' parameter of accord.datasets.load", accord.datasets
            .load, "foo")
    refused(InvalidParameterError, "'name' parameter of accord.datasets.load", accord.datasets
            .load, None)
    with pytest.raises(accord.FormatError, match="no such file"):
        accord.read(tmp_path / "absent.csv")
    bad: Any
    for bad in (None, 5, []):
        with pytest.raises(InvalidParameterError, match="'path_or_paths' parameter"):
            accord.read(bad)
    path = tmp_path / "w.csv"
    path.write_text("a,b\nx,y\ny,y\n", encoding="utf-8")
    with pytest.raises(InvalidParameterError, match="'format' parameter of accord.read"):
        accord.read(path, format="xyz")
    with pytest.raises(InvalidParameterError, match="unknown option 'bogus'"):
        accord.read(path, bogus=1)
    with pytest.raises(AccordError):
        accord.load_study(tmp_path / "absent.toml")


def test_coefficient_selection_by_name() -> None:
    """The routing behind accord compute and the report (accord.interpret.selection.compute)."""
    from accord.interpret.selection import compute

    ann = Annotations.from_wide(W3)
    refused(InvalidParameterError, "'coefficients' parameter of compute must be a list", compute,
            ann, "fleiss_kappa")
    refused(InvalidParameterError, "'coefficient' parameter of compute must be one of", compute,
            ann, ["foo"])
    refused(InvalidParameterError, "light_kappa does not take weights", compute, ann,
            ["light_kappa"], weights="linear")


def test_disagreements_and_report() -> None:
    ann = Annotations.from_wide(W3)
    with pytest.raises(InvalidParameterError, match="'order' parameter"):
        accord.disagreements(ann, order="foo")  # type: ignore[arg-type]
    with pytest.raises(DataError, match="not found"):
        accord.disagreements(ann, raters=["x", "y"])
    with pytest.raises(InvalidParameterError, match="coefficient"):
        accord.report(ann, coefficients=["foo"])


MARGINAL = ["bhapkar_test", "bowker_test", "marginal_tests", "mcnemar_test", "rater_bias",
            "stuart_maxwell_test"]


@pytest.mark.parametrize("name", MARGINAL)
def test_marginal_tests_refuse_bad_data(name: str) -> None:
    func = getattr(accord, name)
    refused(DataError, r"same length .*got 3 and 2", func, [1, 2, 3], [1, 2])
    refused(DataError, "needs a table", func, "abc")
    refused(DataError, "compares two raters; the data have 3", func, W3)
    refused(DataError, "RaterCounts", func, RaterCounts([[2, 0], [1, 1]]))
    refused(InsufficientDataError, "nothing to compare", func, [[None, 1], [2, None]])
    if name != "marginal_tests":
        refused(DataError, "no unit was rated by both", func, ContingencyTable([[0, 0], [0, 0]]))
    if name == "mcnemar_test":
        refused(DataError, "needs two categories and the data have 3", func, Y1, Y2)
    else:
        assert isinstance(func(Y1, Y2), (accord.MarginalTest, tuple))


def test_evaluate_against_a_reference() -> None:
    """accord.evaluate (its Evaluation result is a record): more cases in test_evaluate.py."""
    refused(DataError, "same length", accord.evaluate, ["a", "b"], ["a"])
    refused(DataError, "outside the declared categories", accord.evaluate, ["a"], ["z"],
            categories=["a"])
    refused(InvalidParameterError, "'positive' parameter of evaluate", accord.evaluate,
            ["a", "b"], ["a", "b"], positive="c")
    assert isinstance(accord.evaluate(["a", "b"], ["a", "b"]), accord.Evaluation)
    evs = accord.evaluate(["a", "b"], {"m": ["a", "b"]})
    assert isinstance(evs, accord.Evaluations)
    refused(DataError, "no system 'x'", evs.mcnemar, "m", "x")


def test_span_evaluation() -> None:
    """evaluate_spans (its result, SpanEvaluation, is a record)."""
    refused(InvalidParameterError, "'mode' parameter of evaluate_spans", accord.evaluate_spans,
            [[]], [[]], mode="loose")
    refused(DataError, "end > start", accord.evaluate_spans, [[(3, 3, "X")]], [[]])
    refused(DataError, "one list per unit each", accord.evaluate_spans, [[]], [[], []])
    refused(InvalidParameterError, "SpanTable or Annotations", accord.evaluate_spans, 3, 4)
    refused(DataError, "prefix must be one of", accord.evaluate_spans, [["B-X"]], [["E-X"]],
            scheme="IOB2")
    assert isinstance(accord.evaluate_spans([[(0, 1, "X")]], [[(0, 1, "X")]]),
                      accord.SpanEvaluation)


def test_span_agreement() -> None:
    """span_agreement (its result, SpanAgreement, is a record)."""
    from accord.readers.spans import Span, SpanTable

    one = SpanTable((Span("d", "A", 0, 2, "X"),))
    refused(InsufficientDataError, "two raters or more", accord.span_agreement, one)
    refused(DataError, "hold no spans", accord.span_agreement, Annotations.from_wide(W3))
    refused(InvalidParameterError, "'raters' parameter of span_agreement",
            accord.span_agreement, one, raters=["A", "Z"])
    two = SpanTable((Span("d", "A", 0, 2, "X"), Span("d", "B", 0, 2, "X")))
    assert isinstance(accord.span_agreement(two), accord.SpanAgreement)


def test_relation_agreement() -> None:
    """relation_agreement (its result, RelationAgreement, is a record): more in
    tests/spans/test_relations.py."""
    from accord.readers.relations import Relation
    from accord.readers.spans import Span, SpanTable

    one = SpanTable((Span("d", "A", 0, 2, "X", id="T1"), Span("d", "A", 3, 5, "X", id="T2")))
    rel = [Relation("d", "A", "R1", "T1", "T2", "r")]
    refused(InsufficientDataError, "two raters or more", accord.relation_agreement, one, rel)
    refused(InvalidParameterError, "'mode' parameter of relation_agreement",
            accord.relation_agreement, one, rel, mode="loose")
    refused(InvalidParameterError, "'relations' parameter of relation_agreement",
            accord.relation_agreement, one, {"R1": rel})
    two = SpanTable((*one.spans, *(Span("d", "B", s.start, s.end, "X", id=s.id) for s in one)))
    refused(DataError, "did not mark there", accord.relation_agreement, two,
            [*rel, Relation("d", "B", "R1", "T1", "T9", "r")])
    assert isinstance(accord.relation_agreement(two, rel), accord.RelationAgreement)


def test_gamma() -> None:
    """gamma (more in tests/spans/test_gamma.py)."""
    rows = {"annotator": ["a", "b"], "label": ["x", "x"], "start": [0, 0], "end": [2, 2]}
    refused(InvalidParameterError, "'alpha' parameter of gamma", accord.gamma, rows, alpha=-1)
    refused(InsufficientDataError, "two raters or more", accord.gamma,
            {k: x[:1] for k, x in rows.items()})
    assert accord.gamma(rows).estimate == 1.0


def test_box_agreement() -> None:
    """box_agreement (its result, BoxAgreement, is a record): more in tests/images."""
    row = {"image": ["i", "i"], "annotator": ["a", "b"], "label": ["cat", "dog"],
           "x": [0, 0], "y": [0, 0], "w": [5, 0], "h": [5, 5]}
    refused(DataError, "positive width and height", accord.box_agreement, row)
    refused(InsufficientDataError, "two annotators or more", accord.box_agreement,
            {k: v[:1] for k, v in row.items()})
    refused(InvalidParameterError, "'iou_threshold' parameter of box_agreement",
            accord.box_agreement, row, iou_threshold="0.5")
    ok = {"image": ["i"] * 3, "annotator": ["a", "b", "a"], "label": ["cat", "cat", "dog"],
          "x": [0, 0, 50], "y": [0, 0, 50], "w": [5, 5, 5], "h": [5, 5, 5]}
    assert isinstance(accord.box_agreement(ok, n_resamples=99), accord.BoxAgreement)


def test_keypoint_and_polygon_agreement() -> None:
    """keypoint_agreement and polygon_agreement (their results, KeypointAgreement and
    PolygonAgreement, are records): more in tests/images."""
    kp = {"image": ["i", "i"], "annotator": ["a", "b"], "label": ["hand", "hand"],
          "keypoints": [[0, 0, 2, 5, 5, 2], [0, 0, 2]], "area": [100, 100]}
    refused(DataError, "expected a list of 6 numbers", accord.keypoint_agreement, kp,
            names=["wrist", "tip"], sigmas={"wrist": 0.1, "tip": 0.1})
    refused(DataError, "keypoint 'tip' has no sigma", accord.keypoint_agreement,
            {**kp, "keypoints": [[0, 0, 2, 5, 5, 2]] * 2}, names=["wrist", "tip"],
            sigmas={"wrist": 0.1})
    poly = {"image": ["i", "i"], "annotator": ["a", "b"], "label": ["roof", "roof"],
            "polygon": [[0, 0, 4, 4, 4, 0, 0, 4], [0, 0, 4, 0, 4, 4]]}
    refused(DataError, "not a simple polygon", accord.polygon_agreement, poly)
    three = {"image": ["i"] * 3, "annotator": ["a", "b", "a"], "label": ["x", "x", "y"]}
    ok = {**three, "polygon": [[0, 0, 4, 0, 4, 4]] * 2 + [[9, 9, 12, 9, 12, 12]]}
    assert isinstance(accord.polygon_agreement(ok, n_resamples=9), accord.PolygonAgreement)
    ok_kp = {**three, "keypoints": [[0, 0, 2, 5, 5, 2]] * 2 + [[50, 50, 2, 55, 55, 2]],
             "area": [100] * 3}
    assert isinstance(accord.keypoint_agreement(ok_kp, names=["wrist", "tip"], n_resamples=9,
                                                sigmas={"wrist": 0.1, "tip": 0.1}),
                      accord.KeypointAgreement)


def test_box_consensus() -> None:
    """box_consensus (its result, BoxConsensus, is a record): more in tests/images."""
    row = {"image": ["i", "i"], "annotator": ["a", "b"], "label": ["cat", "dog"],
           "x": [0, 0], "y": [0, 0], "w": [5, 5], "h": [5, float("nan")]}
    refused(DataError, "not a finite number", accord.box_consensus, row)
    refused(InsufficientDataError, "two annotators or more", accord.box_consensus,
            {k: v[:1] for k, v in row.items()})
    ok = {**row, "h": [5, 5]}
    refused(InvalidParameterError, "'quorum' parameter of box_consensus",
            accord.box_consensus, ok, quorum=0)
    refused(InvalidParameterError, "'fusion' parameter of box_consensus",
            accord.box_consensus, ok, fusion="median")
    assert isinstance(accord.box_consensus(ok), accord.BoxConsensus)


def test_polygon_consensus_and_keypoint_consensus() -> None:
    """polygon_consensus and keypoint_consensus (their results, PolygonConsensus and
    KeypointConsensus, are records): more in tests/images."""
    two = {"image": ["i", "i"], "annotator": ["a", "b"], "label": ["x", "x"]}
    poly = {**two, "polygon": [[0, 0, 4, 0, 4, 4], [0, 0, 4, 4, 4, 0, 0, 4]]}  # a bow tie
    refused(DataError, "not a simple polygon", accord.polygon_consensus, poly)
    ok = {**two, "polygon": [[0, 0, 4, 0, 4, 4]] * 2}
    refused(InsufficientDataError, "two annotators or more", accord.polygon_consensus,
            {k: v[:1] for k, v in ok.items()})
    refused(InvalidParameterError, "'quorum' parameter of polygon_consensus",
            accord.polygon_consensus, ok, quorum=1.5)
    refused(InvalidParameterError, "'iou_threshold' parameter of polygon_consensus",
            accord.polygon_consensus, ok, iou_threshold=0)
    assert isinstance(accord.polygon_consensus(ok), accord.PolygonConsensus)
    kp = {**two, "keypoints": [[0, 0, 2, 5, 5, 2], [0, 0, 2, 5]], "area": [100, 100]}
    args = {"names": ["wrist", "tip"], "sigmas": {"wrist": 0.1, "tip": 0.1}}
    refused(DataError, "keypoints", accord.keypoint_consensus, kp, **args)
    ok_kp = {**kp, "keypoints": [[0, 0, 2, 5, 5, 2]] * 2}
    refused(InvalidParameterError, "'oks_threshold' parameter of keypoint_consensus",
            accord.keypoint_consensus, ok_kp, oks_threshold=True, **args)
    refused(InvalidParameterError, "'fusion' parameter of keypoint_consensus",
            accord.keypoint_consensus, ok_kp, fusion="median", **args)
    refused(InvalidParameterError, "'visible' parameter of keypoint_consensus",
            accord.keypoint_consensus, ok_kp, visible="all", **args)
    assert isinstance(accord.keypoint_consensus(ok_kp, **args), accord.KeypointConsensus)


def test_evaluate_boxes() -> None:
    """evaluate_boxes (its result, BoxDetection, is a record): more in tests/images."""
    row = {"image": ["i", "i"], "annotator": ["gold", "model"], "label": ["cat", "cat"],
           "x": [0, 0], "y": [0, 0], "w": [5, 5], "h": [5, 5]}
    refused(DataError, "reference='ref' is not an annotator", accord.evaluate_boxes, row,
            reference="ref", system="model")
    refused(InvalidParameterError, "'iou_threshold' parameter of evaluate_boxes",
            accord.evaluate_boxes, row, reference="gold", system="model", iou_threshold=2)
    res = accord.evaluate_boxes(row, reference="gold", system="model", n_resamples=99)
    assert isinstance(res, accord.BoxDetection)


def test_unitizing_alpha() -> None:
    from accord.readers.spans import Span, SpanTable

    one = SpanTable((Span("d", "A", 0, 2, "X"),))
    refused(InsufficientDataError, "two raters or more", accord.unitizing_alpha, one)
    clash = SpanTable((Span("d", "A", 0, 4, "X"), Span("d", "A", 2, 6, "X"),
                       Span("d", "B", 0, 2, "X")))
    refused(DataError, "not to overlap", accord.unitizing_alpha, clash)
    two = SpanTable((Span("d", "A", 0, 2, "X"), Span("d", "B", 0, 2, "X")))
    refused(InvalidParameterError, "'lengths' parameter of unitizing_alpha",
            accord.unitizing_alpha, two, lengths={"d": "long"})


def test_token_agreement() -> None:
    """token_agreement and token_annotations."""
    from accord.readers.spans import Span, SpanTable

    two = SpanTable((Span("d", "A", 0, 2, "X"), Span("d", "B", 0, 2, "X")))
    refused(InvalidParameterError, "'coefficient' parameter of token_agreement",
            accord.token_agreement, two, tokens={"d": 3}, coefficient="kappa")
    refused(DataError, "no entry in tokens", accord.token_annotations, two, tokens={})
    refused(DataError, "ordered, non-empty and not overlap", accord.token_annotations, two,
            tokens={"d": [(0, 2), (1, 3)]})


def test_power_plans_refuse_bad_input() -> None:
    refused(InvalidParameterError, "'expected' parameter of plan_power", accord.plan_power,
            1.5, 0.4, prevalence=0.3)
    refused(InvalidParameterError, "'prevalence' parameter of plan_power", accord.plan_power,
            0.6, 0.4, prevalence=[0.5, 0.6, 0.1])
    refused(InvalidParameterError, "'assurance' parameter of plan_lower_limit",
            accord.plan_lower_limit, 0.8, 0.6, prevalence=0.3, assurance=0)
    assert isinstance(accord.plan_lower_limit(0.8, 0.6, prevalence=0.3), accord.PowerPlan)


def test_multilabel_agreement_bad_input() -> None:
    sets = [[("a",), ("a", "b")], [("b",), ("b",)], [("a",), ("b",)]]
    refused(InvalidParameterError, "'coefficient' parameter of multilabel_agreement",
            accord.multilabel_agreement, sets, coefficient="kappa")
    refused(DataError, "not one of the declared labels", accord.multilabel_agreement, sets,
            labels=["a"])
    refused(DataError, "not a RaterCounts", accord.multilabel_agreement,
            RaterCounts([[2, 0], [1, 1]]))
    refused(InsufficientDataError, "nothing to compare", accord.multilabel_agreement,
            [[("a",), None], [None, ("b",)]])


def test_evaluate_multilabel_bad_input() -> None:
    refused(DataError, "one entry per unit", accord.evaluate_multilabel, [("a",)], [])
    refused(DataError, "no unit has both", accord.evaluate_multilabel, [None], [("a",)])
    refused(DataError, "0/1 indicator", accord.evaluate_multilabel, np.array([[2, 0]]),
            np.array([[1, 0]]))
    refused(DataError, "one set of labels per unit", accord.evaluate_multilabel, "ab", "ab")


def test_groups_and_homogeneity_bad_input() -> None:
    ann = accord.Annotations.from_pairs(["a", "b", "a"], ["a", "b", "b"])
    refused(InvalidParameterError, "'annotations' parameter of groups", accord.groups,
            [["a", "b"]], by=[1])
    refused(InvalidParameterError, "a group for each of the 3 units", accord.groups, ann,
            by=["x"])
    refused(DataError, "have no group", accord.groups, ann, by=["x", None, "y"],
            missing="error")
    assert isinstance(accord.groups(ann, by=["x", "x", "y"]), accord.Groups)
    refused(InvalidParameterError, "at least two AgreementResults", accord.homogeneity,
            [RESULT])
    refused(DataError, "one coefficient across groups", accord.homogeneity,
            [RESULT, accord.scott_pi(Y1, Y2)])
    refused(InvalidParameterError, "'method' parameter of homogeneity", accord.homogeneity,
            [RESULT, RESULT], method="bootstrap")
    # records: GroupedResult (from Groups.apply) and HomogeneityTest
    assert {"GroupedResult", "HomogeneityTest"} <= set(accord.__all__)


def test_consensus_and_annotators() -> None:
    crowd = [["a", "b", "a"], ["b", "b", "a"], ["a", "a", "a"]]
    refused(InvalidParameterError, "'method' parameter of consensus", accord.consensus, crowd,
            method="em")
    refused(InsufficientDataError, "nothing to infer", accord.consensus, [["a", "a"]])
    refused(DataError, "numeric scores", accord.consensus,
            accord.Annotations.from_wide([[1.0, 2.5], [2.0, 2.0]], level="interval"))
    refused(DataError, "neither a rater", accord.annotators, crowd, reference="gold")
    refused(InvalidParameterError, "'method' parameter of annotators", accord.annotators,
            crowd, method="vote")


def test_score_consensus() -> None:
    refused(DataError, "needs numeric scores", accord.score_consensus, [["a", "b"], ["b", "b"]])
    refused(InsufficientDataError, "every rating is 2", accord.score_consensus,
            [[2, 2], [2, 2]])
    refused(InvalidParameterError, "'noise' parameter of score_consensus",
            accord.score_consensus, [[1, 2], [2, 3]], noise="each")
    # records: ScoreConsensus (from score_consensus)
    assert "ScoreConsensus" in accord.__all__


def test_every_public_callable_has_a_bad_input_case() -> None:
    """A new public function or class must get a case in this module (found by name);
    registered coefficients are covered by the registry-driven tests above."""
    this = inspect.getsource(test_every_public_callable_has_a_bad_input_case)
    source = Path(__file__).read_text(encoding="utf-8").replace(this, "")
    records = {"AgreementResult", "AnnotatorQuality", "Annotators", "Audit",
               "BenchmarkResult", "Comparison", "Consensus",
               "ConfidenceInterval", "Interpretation", "MultilabelAgreement",
               "MultilabelEvaluation", "Report",
               "SamplePlan", "Scale", "Study"}
    public = [name for name in accord.__all__ if callable(getattr(accord, name))]
    untested = [
        name for name in public
        if name not in accord.REGISTRY and name not in records and name != "formats"
        and not (isinstance(getattr(accord, name), type)
                 and issubclass(getattr(accord, name), (Exception, Warning)))
        and name not in source
    ]
    assert untested == []


# --------------------------------------------------------------------------- no silent answers
@pytest.mark.parametrize("name", NAMES)
def test_a_generator_of_rows_gives_the_same_answer_as_the_list(name: str) -> None:
    func = accord.REGISTRY[name].function
    rows: list[list[Any]] = [["a", "b"], ["b", "b"], ["a", "a"], ["b", "a"], ["a", "a"],
                             ["b", "b"]]
    if "nominal" not in accord.REGISTRY[name].levels:
        rows = [[1.0, 2.0], [2.0, 2.5], [1.0, 1.5], [3.0, 2.0], [1.0, 1.0], [2.0, 2.0]]
    assert func(r for r in rows).estimate == pytest.approx(func(rows).estimate, abs=1e-15)


def test_a_short_column_is_not_broadcast() -> None:
    refused(DataError, r"columns of one length; got lengths .*'b': 1", Annotations.from_wide,
            {"a": [1, 2, 1], "b": [1]})
    refused(DataError, "columns of one length", accord.fleiss_kappa,
            {"a": [1, 2, 1], "b": [1], "c": [2, 2, 1]})


# --------------------------------------------------------------------------- fuzzing
JUNK = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.floats(allow_nan=True)
    | st.text("ab", max_size=2),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text("ab", max_size=1),
                                                                inner, max_size=3),
    max_leaves=12,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(NAMES), data=JUNK)
def test_any_junk_gives_a_result_or_an_accord_error(name: str, data: Any) -> None:
    """Arbitrary nested junk: a result (maybe undefined, with its one warning) or an
    AccordError; never another exception or a numpy warning."""
    func = accord.REGISTRY[name].function
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            res = func(data)
        except AccordError as exc:
            assert "\n" not in str(exc)
            return
    kinds = {w.category for w in caught}
    assert kinds <= {accord.DegenerateDataWarning}, [str(w.message) for w in caught]
    assert bool(caught) == (not res.defined)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(NAMES), data=arrays(
    st.sampled_from([np.float64, np.int64, np.bool_, np.float32]),
    array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=4),
))
# int64's minimum in a column taken as a rater: the row-number probe subtracted two
# numpy scalars, which overflows with a RuntimeWarning (now Python integers)
@example(name="accuracy", data=np.array([[1, -2**63], [-2**63, -2**63]]))
def test_any_numeric_array_gives_a_result_or_an_accord_error(name: str,
                                                             data: np.ndarray) -> None:
    """Arrays of any shape (0-D to 3-D, empty sides), NaN and infinities included."""
    func = accord.REGISTRY[name].function
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            res = func(data)
        except AccordError as exc:
            assert "\n" not in str(exc)
            return
    kinds = {w.category for w in caught}
    assert kinds <= {accord.DegenerateDataWarning}, [str(w.message) for w in caught]
    assert bool(caught) == (not res.defined)


# --------------------------------------------------------------------------- command line
@pytest.fixture()
def csv_files(tmp_path: Path) -> dict[str, Path]:
    files = {
        "three": "a,b,c\nx,x,y\ny,y,y\nx,y,x\nx,x,x\n",
        "numbers": "a,b,c\n1,2,3\n2,2,3\n3,3,1\n",
        "single": "a\nx\ny\n",
        "empty": "a,b\n,\n,\n",
        "header": "a,b\n",
        "long": "u,r,v\n1,A,x\n2,B,y\n",
    }
    out = {}
    for name, text in files.items():
        out[name] = tmp_path / f"{name}.csv"
        out[name].write_text(text, encoding="utf-8")
    return out


def _cli(*args: str) -> tuple[int, str, str]:
    from accord.cli import main

    result = CliRunner(env={"COLUMNS": "120", "LINES": "50"}).invoke(main, list(args))
    assert not isinstance(result.exception, Exception) or isinstance(
        result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


USAGE = [  # (args after the file, text in the error): bad option values, exit 2
    (["--confidence-level", "0"], "--confidence-level must be"),
    (["--confidence-level", "1.5"], "--confidence-level must be"),
    (["--confidence-level", "x"], "--confidence-level"),
    (["--ci", "bootstrap", "--n-resamples", "0"], "--n-resamples"),
    (["--ci", "bootstrap", "--seed", "-1"], "--seed must be"),
    (["--weights", "foo"], "--weights"),
    (["--form", "ICC9"], "--form must be one of"),
    (["--population-size", "0"], "--population-size must be"),
    (["--population-size", "2"], "at least the 4 units rated"),
    (["--coefficient", "foo"], "--coefficient"),
    (["--scale", "foo"], "--scale"),
    (["--weights", "linear", "--coefficient", "light_kappa"], "does not take weights"),
    (["--format", "xyz"], "--format must be one of"),
]


@pytest.mark.parametrize(("args", "text"), USAGE, ids=[" ".join(a) for a, _ in USAGE])
def test_compute_bad_usage_exits_2(csv_files: dict[str, Path], args: list[str],
                                   text: str) -> None:
    code, out, err = _cli("compute", str(csv_files["three"]), *args)
    assert code == 2 and text in err and out == "", err


DATA_ERRORS = [  # (file, args, text): data that cannot be analysed, exit 1
    ("three", ["--level", "interval"], "needs numeric values"),
    ("three", ["--coefficient", "icc"], "numeric"),
    ("three", ["--raters", "a", "z"], "['z'] not found"),
    ("three", ["--raters", "a"], "at least two raters"),
    ("three", ["--raters", "a", "a"], "must be distinct"),
    ("three", ["--categories", "x"], "outside the declared categories"),
    ("three", ["--categories", "x", "y", "x"], "must be distinct"),
    ("single", [], "at least two raters"),
    ("empty", [], "no ratings"),
    ("header", [], "no ratings"),
    ("long", ["--unit", "u", "--rater", "r", "--value", "v"], "no unit was rated by two"),
    ("long", ["--unit", "u", "--rater", "r", "--value", "zz"], "'zz' not found"),
]


@pytest.mark.parametrize(("file", "args", "text"), DATA_ERRORS,
                         ids=[f"{f} {' '.join(a)}" for f, a, _ in DATA_ERRORS])
@pytest.mark.parametrize("command", ["compute", "table"])
def test_cli_bad_data_is_one_line_and_exit_1(csv_files: dict[str, Path], command: str,
                                             file: str, args: list[str], text: str) -> None:
    if command == "table" and ("--coefficient" in args or args in (["--level", "interval"],)):
        return  # options of compute only
    if command == "table" and file == "three" and "--raters" not in args:
        args = [*args, "--raters", "a", "b"]
    code, out, err = _cli(command, str(csv_files[file]), *args)
    assert code == 1, (code, err)
    assert err.startswith("accord: error: ") and err.count("\n") == 1 and text in err, err
    assert out == ""


def test_table_needs_two_raters_named(csv_files: dict[str, Path]) -> None:
    code, _, err = _cli("table", str(csv_files["three"]))
    assert code == 2 and "name two with --raters" in err

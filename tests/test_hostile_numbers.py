"""Extreme magnitudes and overflowing tables: a right answer or one sentence, never a traceback.

ICC (Shrout & Fleiss 1979; McGraw & Wong 1996) and interval/ratio alpha
(Krippendorff 2011) are ratios of mean squares or of squared differences, so
multiplying every score by the same positive number leaves them unchanged: the
extreme-magnitude results are checked against the same data at magnitude 1.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

import accord

SCORES = np.array([[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8], [7, 1, 2, 6], [10, 5, 6, 9],
                   [6, 2, 4, 7]], dtype=np.float64)  # Shrout & Fleiss (1979), Table 2


@pytest.mark.parametrize("factor", [1e150, 1e200, 1e300, 1e-200, 1e-300])
@pytest.mark.parametrize("form", ["ICC1", "ICC2", "ICC3", "ICC2k"])
def test_icc_does_not_depend_on_the_magnitude_of_the_scores(factor: float, form: str) -> None:
    expected = accord.icc(SCORES, form=form)
    found = accord.icc(SCORES * factor, form=form)
    assert found.estimate == pytest.approx(expected.estimate, rel=1e-12)
    low, high = found.confidence_interval(0.95).low, found.confidence_interval(0.95).high
    ref = expected.confidence_interval(0.95)
    assert (low, high) == pytest.approx((ref.low, ref.high), rel=1e-9)


def test_scores_of_ordinary_magnitude_are_used_bit_for_bit() -> None:
    assert "ratings_scaled_by" not in accord.icc(SCORES).details
    scale = accord.icc(SCORES * 1e150).details["ratings_scaled_by"]
    assert math.frexp(scale)[0] == 0.5 and 0.5 <= 1e151 * scale < 1  # an exact power of two


@pytest.mark.parametrize("factor", [1e150, 1e200, 1e-200])
@pytest.mark.parametrize("level", ["interval", "ratio"])
def test_alpha_does_not_depend_on_the_magnitude_of_the_scores(factor: float, level: str) -> None:
    expected = accord.krippendorff_alpha(SCORES, level=level)
    found = accord.krippendorff_alpha(SCORES * factor, level=level)
    assert found.undefined_reason is None
    assert found.estimate == pytest.approx(expected.estimate, rel=1e-12)


def test_a_disconnected_design_is_not_claimed_for_huge_scores() -> None:
    data = SCORES.copy()
    data[0, 1] = np.nan
    assert accord.icc(data * 1e200, form="ICC2").estimate == pytest.approx(
        accord.icc(data, form="ICC2").estimate, rel=1e-12)


def test_a_contingency_table_of_huge_counts_is_one_sentence() -> None:
    with pytest.raises(accord.AccordError, match="count"):
        accord.ContingencyTable([[1e308] * 2] * 2)


def _array_memory_error() -> MemoryError:
    """What numpy raises when an array does not fit (a MemoryError subclass)."""
    try:
        np.empty((2**28, 2**28), dtype=np.float64)  # 512 PiB
    except MemoryError as exc:
        return exc
    raise AssertionError("the allocation should have failed")


@pytest.mark.parametrize(("error", "text"), [
    (MemoryError(), "out of memory with {data} (27 bytes); select fewer raters"),
    (_array_memory_error(), "out of memory with {data}"),
    (OverflowError("(34, 'Numerical result out of range')"), "is too large to compute with"),
    (RecursionError("maximum recursion depth exceeded"), "is nested too deeply"),
])
def test_a_last_resort_error_is_one_sentence_naming_the_data(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, error: BaseException, text: str) -> None:
    from tests.conftest import run_cli

    data = tmp_path / "d.csv"
    data.write_text("item,a,b\n1,x,x\n2,y,y\n3,x,y\n", encoding="utf-8")

    def explode(*args: object, **kwargs: object) -> None:
        raise error

    monkeypatch.setattr("accord.cli._common.load", explode)
    monkeypatch.setattr("accord.cli.compute.load", explode)
    code, out, err = run_cli("compute", str(data))
    assert code == 1 and text.format(data=data) in err, err
    assert err.count("\n") == 1 and "Traceback" not in err


def _cli_lines(*args: str) -> tuple[int, str, str]:
    from tests.conftest import run_cli

    code, out, err = run_cli(*args)
    assert "Traceback" not in out + err and code in (0, 1, 2), (code, err)
    assert code == 0 or err.count("\n") == 1, err
    return code, out, err


@pytest.mark.parametrize("command", ["inspect", "compute"])
def test_a_header_cell_over_128_kib_is_one_sentence(tmp_path: Path, command: str) -> None:
    path = tmp_path / "wide.csv"
    path.write_text("item," + "x" * 140_000 + ",b\n1,a,b\n2,a,a\n", encoding="utf-8")
    code, _, err = _cli_lines(command, str(path))
    assert code == 1 and "line 1: the header cannot be read" in err


@pytest.mark.parametrize("command", ["inspect", "compute"])
@pytest.mark.parametrize("body", [
    "item,a,b\n1," + "9" * 5000 + ",3\n2,3,3\n",
    '{"item": 1, "rater": "a", "label": ' + "9" * 5000 + '}\n'
    '{"item": 1, "rater": "b", "label": 3}\n{"item": 2, "rater": "a", "label": 3}\n'
    '{"item": 2, "rater": "b", "label": 3}\n',
    '{"item": 1, "rater": "a", "label": ' + '{"k": ' * 500 + '"x"' + "}" * 500 + '}\n'
    '{"item": 1, "rater": "b", "label": "x"}\n{"item": 2, "rater": "a", "label": "x"}\n'
    '{"item": 2, "rater": "b", "label": "y"}\n',
], ids=["csv-5000-digits", "jsonl-5000-digits", "jsonl-500-deep"])
def test_huge_and_deep_labels_are_read_or_one_sentence(tmp_path: Path, command: str,
                                                       body: str) -> None:
    path = tmp_path / ("data.csv" if body.startswith("item") else "data.jsonl")
    path.write_text(body, encoding="utf-8")
    code, out, err = _cli_lines(command, str(path))
    if code:
        assert len(err) < 600, err  # the number is not printed in full
        assert "unexpected structure" not in err  # a named rule, not the safety net

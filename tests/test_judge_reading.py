"""Reading judge output: parse failures declared missing and counted, the judge's kind set."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import accord
from accord.errors import DataError, InvalidParameterError

WIDE = [
    {"item": "a", "ann_a": "pos", "ann_b": "pos", "gpt4": "pos", "rationale": "clearly upbeat"},
    {"item": "b", "ann_a": "neg", "ann_b": "pos", "gpt4": -1, "rationale": "n/a"},
    {"item": "c", "ann_a": "neg", "ann_b": "neg", "gpt4": None, "rationale": "timeout"},
    {"item": "d", "ann_a": "neg", "ann_b": "neg", "gpt4": "ERROR", "rationale": "bad json"},
]
LONG = [("a", "gpt4", "pos"), ("a", "ann", "pos"), ("b", "gpt4", "ERROR"), ("b", "ann", "neg"),
        ("c", "gpt4", -1), ("c", "ann", "neg"), ("c", "bob", "neg"), ("a", "bob", "pos")]


def _jsonl(path: Path, rows: list[dict[str, object]]) -> Path:
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    return path


def test_wide_jsonl_parse_failures_are_missing_and_counted(tmp_path: Path) -> None:
    path = _jsonl(tmp_path / "judge.jsonl", WIDE)  # type: ignore[arg-type]
    ann = accord.read(path, raters=["gpt4", "ann_a", "ann_b"], missing=[-1, "ERROR"],
                      kinds={"gpt4": "llm"})
    assert ann.categories == ("neg", "pos")  # -1 and ERROR are not categories
    assert ann.audit.dropped == {"missing value": 3}
    assert ann.kinds == {"gpt4": "llm", "ann_a": "human", "ann_b": "human"}


def test_undeclared_parse_failures_would_be_categories(tmp_path: Path) -> None:
    path = _jsonl(tmp_path / "judge.jsonl", WIDE)  # type: ignore[arg-type]
    ann = accord.read(path, raters=["gpt4", "ann_a", "ann_b"])
    assert "ERROR" in ann.categories  # why missing= matters; the audit shows only None


def test_long_jsonl_per_item_and_judge(tmp_path: Path) -> None:
    rows = [{"item": u, "judge": r, "verdict": v} for u, r, v in LONG]
    path = _jsonl(tmp_path / "long.jsonl", rows)  # type: ignore[arg-type]
    ann = accord.read(path, unit="item", rater="judge", value="verdict",
                      missing=[-1, "ERROR"], kinds={"gpt4": "llm"})
    assert ann.audit.dropped == {"missing value": 2}
    assert ann.kinds["gpt4"] == "llm" and ann.humans().raters == ("ann", "bob")


def test_kinds_in_from_wide_and_checked() -> None:
    cols = {"gpt4": [1, 2, 1], "a": [1, 2, 2], "b": [1, 1, 2]}
    ann = accord.Annotations.from_wide(cols, kinds={"gpt4": "llm"})
    assert ann.kinds["gpt4"] == "llm" and ann.humans().raters == ("a", "b")
    with pytest.raises(DataError, match=r"kinds for \['gtp4'\], which are not among"):
        accord.Annotations.from_wide(cols, kinds={"gtp4": "llm"})
    with pytest.raises(InvalidParameterError, match="'kinds' parameter"):
        accord.Annotations.from_wide(cols, kinds={"gpt4": "LLM"})


def test_read_checks_kinds(tmp_path: Path) -> None:
    path = _jsonl(tmp_path / "judge.jsonl", WIDE)  # type: ignore[arg-type]
    with pytest.raises(InvalidParameterError, match="'kinds' parameter of accord.read"):
        accord.read(path, raters=["gpt4", "ann_a"], kinds={"gpt4": "robot"})
    with pytest.raises(DataError, match="kinds for"):
        accord.read(path, raters=["gpt4", "ann_a"], kinds={"gpt5": "llm"})

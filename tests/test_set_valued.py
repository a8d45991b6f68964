"""Set-valued ratings in Annotations: multilabel long data, separators, refusal by
single-label coefficients, and the readers' multi-choice answers."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import accord
from accord import Annotations
from accord.errors import DataError


def test_long_multilabel_gathers_each_raters_labels() -> None:
    rows = [("u1", "A", "toxic"), ("u1", "A", "spam"), ("u1", "B", "spam"),
            ("u2", "A", "ok"), ("u2", "B", "ok"), ("u2", "B", "ok")]
    ann = Annotations.from_long(rows, unit=0, rater=1, value=2, multilabel=True)
    assert ann.set_valued
    assert sorted(ann.records()) == [("u1", "A", ("spam", "toxic")), ("u1", "B", ("spam",)),
                                     ("u2", "A", ("ok",)), ("u2", "B", ("ok",))]
    assert ann.units == ("u1", "u2") and ann.labels == ("ok", "spam", "toxic")
    assert any("6 row(s) gathered into 4" in n for n in ann.audit.notes)
    assert any("1 repeated" in n for n in ann.audit.notes)


def test_long_multilabel_over_64_labels_uses_several_words() -> None:
    labels = [f"L{i:03d}" for i in range(150)]
    rows = [(0, "A", x) for x in labels] + [(0, "B", labels[0]), (0, "B", labels[149])]
    ann = Annotations.from_long(rows, unit=0, rater=1, value=2, multilabel=True)
    values = {r: v for _, r, v in ann.records()}
    assert values["A"] == tuple(labels) and values["B"] == (labels[0], labels[149])


@given(st.lists(st.tuples(st.integers(0, 5), st.sampled_from("AB"), st.sampled_from("abcd")),
                min_size=1, max_size=40))
def test_long_multilabel_equals_python_grouping(rows: list[tuple[int, str, str]]) -> None:
    expected: dict[tuple[int, str], set[str]] = {}
    for u, r, x in rows:
        expected.setdefault((u, r), set()).add(x)
    from accord.data.annotations import build

    cols = [np.array([row[i] for row in rows], dtype=object) for i in range(3)]
    ann = build(*cols, multilabel=True)
    got = {(u, r): set(v) for u, r, v in ann.records()}
    assert got == expected


def test_wide_separator_splits_cells() -> None:
    ann = Annotations.from_wide({"A": ["toxic;spam", "ok", None], "B": ["spam", " ok ;", "ok"]},
                                separator=";")
    assert ann.set_valued
    assert list(ann.records()) == [(0, "A", ("spam", "toxic")), (0, "B", ("spam",)),
                                   (1, "A", ("ok",)), (1, "B", ("ok",)), (2, "B", ("ok",))]


def test_separator_is_validated() -> None:
    with pytest.raises(accord.errors.InvalidParameterError, match="separator"):
        Annotations.from_wide([["a", "b"]], separator="")


def test_without_separator_a_joined_cell_is_one_label() -> None:
    ann = Annotations.from_wide([["toxic;spam", "spam"], ["ok", "ok"]])
    assert not ann.set_valued and "toxic;spam" in ann.categories


@pytest.mark.parametrize("name", ["cohen_kappa", "fleiss_kappa", "gwet_ac1", "scott_pi",
                                  "percent_agreement", "conger_kappa", "light_kappa",
                                  "brennan_prediger", "krippendorff_alpha"])
def test_single_label_coefficients_refuse_sets(name: str) -> None:
    ann = Annotations.from_wide([["a;b", "a"], ["b", "b"], ["a", "a;b"]], separator=";")
    with pytest.raises(DataError, match="sets of labels") as info:
        accord.REGISTRY[name].function(ann)
    assert "multilabel_agreement" in str(info.value)
    assert str(info.value).count(". ") == 0  # one sentence


def test_as_sets_merges_single_labels_with_one_label_sets() -> None:
    ann = Annotations.from_wide([["a", ("a",)], [("a", "b"), "b"]])
    sets = ann.as_sets()
    assert sets.categories == (("a",), ("a", "b"), ("b",))
    assert [v for _, _, v in sets.records()] == [("a",), ("a",), ("a", "b"), ("b",)]


def test_subsets_keep_the_flag() -> None:
    ann = Annotations.from_long([(1, "A", "x"), (1, "B", "y"), (1, "C", "x")], unit=0, rater=1,
                                value=2, multilabel=True)
    assert ann.select(["A", "B"]).set_valued


def test_prodigy_multiple_choice_is_set_valued(tmp_path: Any) -> None:
    import json

    path = tmp_path / "choice.jsonl"
    rows = [
        {"_input_hash": h, "_task_hash": h, "_view_id": "choice", "_annotator_id": who,
         "_session_id": who, "answer": "accept", "accept": accept,
         "config": {"choice_style": "multiple"}, "options": [{"id": "X"}, {"id": "Y"}]}
        for h, who, accept in [(1, "s-A", ["X", "Y"]), (1, "s-B", ["X"]), (2, "s-A", ["Y"]),
                               (2, "s-B", ["Y"])]
    ]
    path.write_text("\n".join(json.dumps(r) for r in rows))
    ann = accord.read(path)
    assert ann.set_valued and ann.labels == ("X", "Y")
    with pytest.raises(DataError, match="sets of labels"):
        accord.cohen_kappa(ann)


def test_label_studio_multiple_choices_are_set_valued(tmp_path: Any) -> None:
    import json

    def task(i: int, a: list[str], b: list[str]) -> dict[str, Any]:
        def ann(who: int, choices: list[str]) -> dict[str, Any]:
            return {"completed_by": who, "result": [
                {"from_name": "tags", "to_name": "text", "type": "choices",
                 "value": {"choices": choices}}]}
        return {"id": i, "data": {}, "annotations": [ann(1, a), ann(2, b)]}

    path = tmp_path / "ls.json"
    path.write_text(json.dumps([task(1, ["b", "a"], ["a"]), task(2, ["a"], ["a"]),
                                task(3, ["b"], ["a", "b"])]))
    ann = accord.read(path)
    assert ann.set_valued and ann.labels == ("a", "b")
    res = accord.multilabel_agreement(ann)
    assert res.n_units == 3 and set(res.per_label) == {"a", "b"}
    with pytest.raises(DataError, match="sets of labels"):
        accord.fleiss_kappa(ann)


def test_multilabel_with_declared_labels_checks_them() -> None:
    rows = [(1, "A", "x"), (1, "A", "y"), (1, "B", "x")]
    ann = Annotations.from_long(rows, unit=0, rater=1, value=2, multilabel=True,
                                categories=["x", "y", "z"])
    assert ann.categories == (("x",), ("x", "y"))
    with pytest.raises(accord.errors.UnknownCategoryError, match="'y'"):
        Annotations.from_long(rows, unit=0, rater=1, value=2, multilabel=True,
                              categories=["x"])


def test_separator_with_declared_labels_checks_them() -> None:
    ann = Annotations.from_wide([["x;y", "x"]], separator=";", categories=["x", "y"])
    assert ann.labels == ("x", "y")
    with pytest.raises(accord.errors.UnknownCategoryError, match="'y'"):
        Annotations.from_wide([["x;y", "x"]], separator=";", categories=["x"])


def test_read_multilabel_marks_an_export_of_single_choices_as_sets() -> None:
    from pathlib import Path

    path = Path(__file__).parent / "readers" / "data" / "label_studio_export.json"
    plain = accord.read(path, field="sentiment")
    sets = accord.read(path, field="sentiment", multilabel=True)
    assert not plain.set_valued and sets.set_valued
    assert sets.categories == tuple((c,) for c in plain.categories)

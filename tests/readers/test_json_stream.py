"""A JSON array read element by element (issue 26: a 100 MB one-line export needed
1.2 GB): the same values as :func:`json.loads` (the standard library is the oracle),
the same one-sentence errors as the whole-file parser, and a bounded peak."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import accord
from accord.errors import FormatError
from accord.readers import _json_stream
from accord.readers._base import load_json
from accord.readers._json_stream import iter_json_array
from tests.conftest import traced_peak

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner,
                                                                max_size=4),
    max_leaves=12)


@settings(max_examples=150, deadline=None)
@given(values=st.lists(JSON, max_size=8), indent=st.sampled_from([None, 0, 2]),
       block=st.integers(1, 16))
def test_the_elements_are_json_loads_elements(tmp_path_factory: pytest.TempPathFactory,
                                              values: list[object], indent: int | None,
                                              block: int) -> None:
    path = tmp_path_factory.mktemp("j") / "a.json"
    text = json.dumps(values, indent=indent, ensure_ascii=False)
    path.write_text(text, encoding="utf-8")
    old, _json_stream.BLOCK = _json_stream.BLOCK, block  # every element crosses blocks
    try:
        got = list(iter_json_array(path))
    finally:
        _json_stream.BLOCK = old
    assert got == json.loads(text)


@pytest.mark.parametrize("text", ["[1,]", "[1 2]", "[1] x", '[{"a": 1}', "[", "[\"\\ud800\" 1]",
                                  "[" * 5000 + "]" * 5000])
def test_bad_json_gets_the_whole_file_parsers_sentence(tmp_path: Path, text: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(FormatError) as whole:
        load_json(path)
    with pytest.raises(FormatError) as streamed:
        list(iter_json_array(path))
    assert str(streamed.value) == str(whole.value)


def test_an_object_or_another_encoding_or_value(tmp_path: Path) -> None:
    path = tmp_path / "o.json"
    path.write_text('{"a": [1]}')
    assert list(iter_json_array(path)) == [{"a": [1]}]
    path.write_text('[{"é": 1}]', encoding="utf-16")
    assert list(iter_json_array(path)) == [{"é": 1}]
    path.write_text('"text"')
    with pytest.raises(FormatError, match="o.json: expected a JSON array of tasks"):
        list(iter_json_array(path, "tasks"))


def _export(path: Path, n: int) -> None:
    tasks = [{"id": i, "data": {"text": f"review {i} " + "lorem ipsum " * 10},
              "annotations": [{"id": 10 * i + k, "completed_by": k, "result": [
                  {"from_name": "sentiment", "to_name": "text", "type": "choices",
                   "value": {"choices": ["positive" if (i + k) % 3 else "negative"]}}]}
                  for k in (1, 2)]} for i in range(n)]
    path.write_text(json.dumps(tasks))  # one line, as Label Studio writes it


def test_a_one_line_label_studio_export_is_read_one_task_at_a_time(tmp_path: Path) -> None:
    path = tmp_path / "export.json"
    _export(path, 6000)  # about 3 MB on one line
    ann = accord.read(path)
    assert ann.n_units == 6000 and ann.n_ratings == 12000
    whole = traced_peak(lambda: json.loads(path.read_text()))
    streamed = traced_peak(lambda: accord.read(path))
    # the parsed export alone weighs more than reading it task by task and building it
    assert streamed < whole, (streamed, whole)

"""A folder of pairwise judge annotations (AlpacaEval's results/<model>/<judge>/
annotations.json) reads as the files joined in path order."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import accord
from accord.errors import FormatError
from accord.judge.pairs_io import is_pairwise, mixed_folder, read_pairwise
from tests.conftest import run_cli

SLICE = Path(__file__).resolve().parents[1] / "examples" / "alpaca_eval_slice.json"


def _split(tmp_path: Path) -> Path:
    """The slice in two annotations.json files, AlpacaEval's folder layout."""
    records = json.loads(SLICE.read_text(encoding="utf-8"))
    root = tmp_path / "results"
    for name, part in (("a_model", records[:120]), ("b_model", records[120:])):
        (root / name / "judge").mkdir(parents=True)
        (root / name / "judge" / "annotations.json").write_text(json.dumps(part),
                                                                 encoding="utf-8")
    return root


def test_a_folder_reads_as_its_files_joined(tmp_path: Path) -> None:
    root = _split(tmp_path)
    whole, joined = read_pairwise(SLICE), read_pairwise(root)
    assert joined.columns == whole.columns
    assert (joined.n_records, joined.n_files) == (whole.n_records, 2)
    assert joined.notes() == ["read 300 judged pair(s) from 2 files."]
    assert is_pairwise(root) and not mixed_folder(root)


def test_a_folder_with_other_data_is_refused_by_name(tmp_path: Path) -> None:
    root = _split(tmp_path)
    (root / "scores.csv").write_text("item,score\n1,0.5\n", encoding="utf-8")
    assert not is_pairwise(root) and mixed_folder(root)
    with pytest.raises(FormatError, match=r"scores\.csv in .* is not a file of pairwise judge "
                       r"annotations .* 1 of its 3 data files is not"):
        read_pairwise(root)
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(FormatError, match="holds no .json, .jsonl or .csv file"):
        read_pairwise(empty)
    assert not is_pairwise(empty) and not mixed_folder(empty)


def test_the_cli_reads_a_folder_like_the_file(tmp_path: Path) -> None:
    root = _split(tmp_path)
    code, folder_out, err = run_cli("judge", "rank", str(root), "--json")
    assert code == 0, err
    code, file_out, err = run_cli("judge", "rank", str(SLICE), "--json")
    assert code == 0, err
    by_folder, by_file = json.loads(folder_out), json.loads(file_out)
    assert by_folder["results"] == by_file["results"]
    assert by_folder["read"] == ["read 300 judged pair(s) from 2 files."]
    code, out, err = run_cli("report", str(root), "--json")
    assert code == 0, err
    assert json.loads(out)["job"]["kind"] == "pairwise_judge"
    bt = accord.bradley_terry(read_pairwise(root).comparisons())
    assert bt.ranking()[:2] == ["claude-2", "gpt4"]


def test_the_report_names_the_file_that_is_not_pairwise(tmp_path: Path) -> None:
    root = _split(tmp_path)
    (root / "notes.jsonl").write_text('{"a": 1}\n', encoding="utf-8")
    code, out, err = run_cli("report", str(root), "-q")
    assert code == 1
    assert err.count("\n") == 1 and "notes.jsonl in" in err and "Traceback" not in err

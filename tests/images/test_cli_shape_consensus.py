"""``accord polygons --consensus`` and ``accord keypoints --consensus``: the library's
consensus on the command line, its CSV, its JSON block and the usage errors."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import jsonschema
import pytest

import accord
from tests.conftest import run_cli
from tests.test_cli_json import _schema

EX = Path(__file__).resolve().parents[2] / "examples"
HANDS = ("--names", "wrist", "tip", "--sigmas", "wrist=0.062", "tip=0.05")
SIGMAS = {"wrist": 0.062, "tip": 0.05}


def test_polygon_consensus_csv_is_the_library_rows(tmp_path: Path) -> None:
    import polars as pl

    src = tmp_path / "renamed.csv"
    pl.read_csv(EX / "polygons.csv").rename({"image": "frame", "polygon": "outline"}
                                            ).write_csv(src)  # fmt: skip
    out = tmp_path / "consensus.csv"
    code, shown, err = run_cli("polygons", str(src), "--unit", "frame", "--polygon", "outline",
                               "--consensus", "--fusion", "mean", "-o", str(out),
                               "--n-resamples", "50")  # fmt: skip
    assert code == 0, err
    res = accord.polygon_consensus(EX / "polygons.csv", fusion="mean")
    got = pl.read_csv(out)
    assert got.columns == ["frame", "label", "outline", "wkt", "area", "support",
                           "n_annotators", "spread", "label_share", "tied_labels"]
    want = res.rows()
    assert got.height == len(res) == len(want) > 0
    assert got["area"].to_list() == [r["area"] for r in want]
    assert [json.loads(p) for p in got["outline"]] == [r["polygon"] for r in want]
    assert got["spread"].to_list() == [r["spread"] for r in want]  # full precision
    assert f"Consensus: {len(res)} polygons (at least 2 of 3 annotators" in shown
    assert f"written to {out}" in shown


def test_keypoint_consensus_json_block_validates(tmp_path: Path) -> None:
    code, text, err = run_cli("keypoints", str(EX / "keypoints.csv"), *HANDS, "--consensus",
                              "--quorum", "0.6", "--n-resamples", "50", "--json")
    assert code == 0, err
    doc = json.loads(text)
    jsonschema.validate(doc, _schema("keypoints"))
    res = accord.keypoint_consensus(EX / "keypoints.csv", names=["wrist", "tip"],
                                    sigmas=SIGMAS, quorum=0.6)  # fmt: skip
    assert doc["consensus"] == {**res.to_dict(), "output": None}
    assert doc["consensus"]["required"] == 2 and doc["consensus"]["keypoint_names"] == [
        "wrist", "tip"]


def test_polygon_consensus_json_block_validates() -> None:
    code, text, err = run_cli("polygons", str(EX / "polygons.csv"), "--consensus",
                              "--n-resamples", "50", "--json")
    assert code == 0, err
    doc = json.loads(text)
    jsonschema.validate(doc, _schema("polygons"))
    assert doc["consensus"]["results"] == accord.polygon_consensus(EX / "polygons.csv").rows()


def test_keypoint_consensus_shown_without_a_file() -> None:
    code, shown, err = run_cli("keypoints", str(EX / "keypoints.csv"), *HANDS, "--consensus",
                               "--n-resamples", "50")
    assert code == 0, err
    assert "Consensus objects" in shown and "hand_01.jpg" in shown and "2/2" in shown
    assert "the first 4 shown; -o FILE.csv writes them all" in shown


@pytest.mark.parametrize(("command", "more", "noun"), [
    ("polygons", (), "polygons"), ("keypoints", HANDS, "objects")])
def test_usage_errors(command: str, more: tuple[str, ...], noun: str, tmp_path: Path) -> None:
    src = str(EX / f"{command}.csv")
    code, _, err = run_cli(command, src, *more, "-o", str(tmp_path / "c.csv"))
    assert code == 2 and f"-o writes the consensus {noun}: add --consensus" in err
    code, _, err = run_cli(command, src, *more, "--consensus", "-o", src)
    assert code == 2 and "is a file being read" in err
    code, _, err = run_cli(command, src, *more, "--consensus", "--quorum", "0")
    assert code == 2 and "--quorum" in err


@pytest.mark.parametrize("command", ["polygons", "keypoints"])
def test_help_consensus_examples_run(command: str, tmp_path: Path,
                                     monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    (tmp_path / "examples").symlink_to(EX)
    monkeypatch.chdir(tmp_path)
    _, out, _ = run_cli(command, "--help")
    text = out.split("Examples:")[1].replace("\\\n", " ")
    examples = [line.strip() for line in text.splitlines()
                if line.strip().startswith("accord ") and "--consensus" in line]
    assert examples
    for example in examples:
        code, shown, err = run_cli(*shlex.split(example)[1:])
        assert code == 0, (example, err)
        assert "written to consensus.csv" in shown
        assert (tmp_path / "consensus.csv").stat().st_size > 0

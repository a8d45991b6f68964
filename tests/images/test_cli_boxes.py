"""``accord boxes``: the library's figures on the command line, JSON and errors."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import accord
from tests.conftest import run_cli

EX = Path(__file__).resolve().parents[2] / "examples"
COCO = [str(EX / "boxes_coco" / f"{n}.json") for n in ("ann", "bob", "cleo")]


def test_json_figures_are_the_library_figures() -> None:
    code, out, err = run_cli("boxes", str(EX / "boxes.csv"), "--iou", "0.6", "--n-resamples",
                             "300", "--seed", "4", "--json")
    assert code == 0, err
    doc = json.loads(out)
    got = {r.pop("figure"): r for r in doc["results"]}
    res = accord.box_agreement(EX / "boxes.csv", iou_threshold=0.6, n_resamples=300, rng=4)
    want = res.to_dict()
    for name in ("f1", "mean_iou", "alpha"):
        assert got[name] == want[name]
        assert got[name]["iou_threshold"] == 0.6
    assert doc["audit"]["images"] == 30 and doc["audit"]["annotators"] == ["ann", "bob", "cleo"]


def test_coco_files_one_per_annotator_give_the_table_figures() -> None:
    """boxes_coco/ holds the first ten images of boxes.csv: the same figures."""
    import polars as pl

    code, out, err = run_cli("boxes", *COCO, "--n-resamples", "100", "--json")
    assert code == 0, err
    table = pl.read_csv(EX / "boxes.csv")
    first = sorted(set(table["image"].to_list()))[:10]
    res = accord.box_agreement(table.filter(pl.col("image").is_in(first)), n_resamples=100)
    got = {r["figure"]: r for r in json.loads(out)["results"]}
    for name in ("f1", "mean_iou", "alpha"):
        assert got[name]["estimate"] == pytest.approx(getattr(res, name).estimate, abs=1e-12)


def test_console_output_names_the_figures() -> None:
    code, out, err = run_cli("boxes", str(EX / "boxes.csv"), "--n-resamples", "100")
    assert code == 0, err
    assert "30 images, 3 annotators" in out and "alpha on matched objects" in out
    assert "Per label" in out and "Over IoU thresholds" in out and "0.95" in out


def test_bad_data_is_one_line_and_exit_1(tmp_path: Path) -> None:
    bad = tmp_path / "b.csv"
    bad.write_text("image,annotator,label,x,y,w,h\ni,a,cat,0,0,0,5\ni,b,cat,0,0,5,5\n",
                   encoding="utf-8")
    code, _, err = run_cli("boxes", str(bad))
    assert code == 1 and "positive width and height" in err and err.count("\n") == 1
    code, _, err = run_cli("boxes", str(EX / "boxes.csv"), "--iou", "0")
    assert code == 2 and "--iou" in err


def test_consensus_writes_the_library_boxes_under_the_users_column_names(tmp_path: Path) -> None:
    import polars as pl

    src = tmp_path / "renamed.csv"
    pl.read_csv(EX / "boxes.csv").rename({"image": "frame", "annotator": "who"}).write_csv(src)
    out = tmp_path / "consensus.csv"
    code, shown, err = run_cli("boxes", str(src), "--unit", "frame", "--rater", "who",
                               "--consensus", "--quorum", "0.6", "--fusion", "mean",
                               "-o", str(out), "--n-resamples", "50")
    assert code == 0, err
    res = accord.box_consensus(EX / "boxes.csv", quorum=0.6, fusion="mean")
    got = pl.read_csv(out)
    assert got.columns[:7] == ["frame", "label", "x", "y", "w", "h", "support"]
    assert got.height == len(res) and res.required == 2
    want = res.rows()
    assert got["frame"].to_list() == [r["image"] for r in want]
    assert got["x"].to_list() == [r["x"] for r in want]  # full precision
    assert f"Consensus: {len(res)} boxes (at least 2 of 3 annotators" in shown
    assert f"{res.audit['below_quorum']} groups below quorum" in shown


def test_consensus_json_block_and_usage_errors(tmp_path: Path) -> None:
    out = tmp_path / "c.csv"
    code, text, err = run_cli("boxes", str(EX / "boxes.csv"), "--consensus", "-o", str(out),
                              "--n-resamples", "50", "--json")
    assert code == 0, err
    block = json.loads(text)["consensus"]
    res = accord.box_consensus(EX / "boxes.csv")
    assert {**block, "output": None} == {**res.to_dict(), "output": None}
    assert block["output"] == str(out)
    code, _, err = run_cli("boxes", str(EX / "boxes.csv"), "-o", str(out))
    assert code == 2 and "-o writes the consensus boxes: add --consensus" in err
    code, _, err = run_cli("boxes", str(EX / "boxes.csv"), "--consensus", "-o",
                           str(EX / "boxes.csv"))
    assert code == 2 and "is a file being read" in err


def test_consensus_without_a_file_shows_the_first_boxes() -> None:
    code, shown, err = run_cli("boxes", str(EX / "boxes.csv"), "--consensus",
                               "--n-resamples", "50")
    assert code == 0, err
    assert "Consensus boxes" in shown and "street-001.jpg" in shown
    assert "the first 20 shown; -o FILE.csv writes them all" in shown


def test_sweep_intervals_on_request() -> None:
    path = str(Path(__file__).resolve().parents[2] / "examples" / "boxes.csv")
    code, out, err = run_cli("boxes", path, "--json", "--n-resamples", "99")
    assert code == 0, err
    sweep = json.loads(out)["sweep"]
    assert all("confidence_interval" not in row["f1"] for row in sweep)
    code, out, err = run_cli("boxes", path, "--json", "--n-resamples", "99", "--sweep-intervals")
    assert code == 0, err
    doc = json.loads(out)
    ci = doc["sweep"][0]["f1"]["confidence_interval"]
    res = accord.box_agreement(path, n_resamples=99)
    own = res.sweep[0].f1.confidence_interval(0.95, method=res.bootstrap)
    assert (ci["low"], ci["high"]) == (own.low, own.high)


def _renamed(tmp_path: Path, suffix: str) -> list[str]:
    """The COCO example files under a name that does not say COCO (``.txt``)."""
    out = []
    for f in COCO:
        to = tmp_path / (Path(f).stem + suffix)
        to.write_bytes(Path(f).read_bytes())
        out.append(str(to))
    return out


@pytest.mark.parametrize("command", ["boxes", "polygons", "keypoints"])
def test_an_unknown_export_names_only_options_the_command_has(tmp_path: Path,
                                                              command: str) -> None:
    """The sentence on an export whose format is not recognised points to options of the
    command that printed it (``accord boxes``: its --format)."""
    odd = tmp_path / "export.json"
    odd.write_text('{"tasks": [{"regions": []}]}', encoding="utf-8")
    code, help_text, _ = run_cli(command, "--help")
    assert code == 0
    for files in ([str(odd)], _renamed(tmp_path, ".txt")):
        code, out, err = run_cli(command, *files)
        assert code == 1 and out == "" and "Traceback" not in err, err
        named = set(re.findall(r"(?<![\w-])--[a-z][a-z-]*", err))
        assert named <= set(re.findall(r"--[a-z][a-z-]*", help_text)), (named, err)
        if command == "boxes":
            assert "(choose one with --format NAME)" in err, err


def test_format_reads_an_export_its_content_does_not_tell(tmp_path: Path) -> None:
    """COCO files named .txt are not detected; ``--format coco`` reads them as the same
    files named .json are read."""
    code, want, err = run_cli("boxes", *COCO, "--n-resamples", "100", "--json")
    assert code == 0, err
    code, got, err = run_cli("boxes", *_renamed(tmp_path, ".txt"), "--format", "coco",
                             "--n-resamples", "100", "--json")
    assert code == 0, err
    assert json.loads(got) == json.loads(want)
    code, _, err = run_cli("boxes", str(EX / "boxes.csv"), "--format", "coco")
    assert code == 2 and err.strip().splitlines()[-1] == (
        f"Error: --format names the tool of an export, and {EX / 'boxes.csv'} holds a table "
        "(read by its columns): leave --format out.")
    code, _, err = run_cli("boxes", *COCO, "--format", "coco", "--sizes",
                           str(EX / "boxes_yolo" / "sizes.csv"))
    assert code == 2 and err.strip().splitlines()[-1] == (
        "Error: --sizes gives the image sizes of YOLO label folders, not of --format coco: "
        "leave --sizes out.")
    code, _, err = run_cli("boxes", *COCO, "--format", "pascal")
    assert code == 2 and "'pascal' is not one of 'coco', 'cvat', 'label_studio_boxes', " \
        "'yolo'" in err

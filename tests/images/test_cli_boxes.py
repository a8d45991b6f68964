"""``accord boxes``: the library's figures on the command line, JSON and errors."""

from __future__ import annotations

import json
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

"""``accord polygons`` and ``accord keypoints``: the library's figures on the command line,
JSON and errors; and each shape command sends a file of another shape to its own."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

import accord
from tests.conftest import run_cli

EX = Path(__file__).resolve().parents[2] / "examples"
DATA = Path(__file__).parent / "data"
CVAT = [str(DATA / "cvat_shapes" / f"job_{n}.xml") for n in ("ann", "bob")]
POLY_COCO = [str(EX / "polygons_coco" / f"{n}.json") for n in ("ann", "bob")]
KP_COCO = [str(EX / "keypoints_coco" / f"{n}.json") for n in ("ann", "bob")]
HANDS = ("--names", "wrist", "tip", "--sigmas", "wrist=0.062", "tip=0.05")
SIGMAS = {"wrist": 0.062, "tip": 0.05}


def _json(*args: str) -> dict[str, Any]:
    code, out, err = run_cli(*args, "--json")
    assert code == 0, err
    doc: dict[str, Any] = json.loads(out)
    return doc


def _figures(doc: dict[str, Any]) -> dict[str, Any]:
    return {r["figure"]: {k: v for k, v in r.items() if k != "figure"} for r in doc["results"]}


# --------------------------------------------------------------------------- polygons
def test_polygon_json_figures_are_the_library_figures() -> None:
    doc = _json("polygons", str(EX / "polygons.csv"), "--iou", "0.75", "--n-resamples", "300",
                "--seed", "4")
    res = accord.polygon_agreement(EX / "polygons.csv", iou_threshold=0.75, n_resamples=300,
                                   rng=4)
    want = res.to_dict()
    got = _figures(doc)
    assert list(got) == ["f1", "mean_iou", "alpha"]
    for name in got:
        assert got[name] == want[name]
        assert got[name]["iou_threshold"] == 0.75
    assert got["f1"]["coefficient"] == "polygon_f1"
    assert doc["schema_version"] == 3 and doc["command"] == "polygons" and doc["seed"] == 4
    assert doc["per_label"] == want["per_label"] and doc["pairs"] == want["pairs"]
    assert doc["sweep"] == want["sweep"]
    assert doc["audit"]["images"] == 3 and doc["audit"]["objects"] == 17


def test_hand_derived_figures(tmp_path: Path) -> None:
    """A square and its half (IoU 0.5, exactly at the threshold: a match) and b's tree
    alone: F1 = 2 * 1 / (1 + 2); two hands 1 px apart at the tip, with area 100 and
    sigma 0.1 (OKS (1 + exp(-1 / (2 * 100 * 0.2**2))) / 2), and a's second hand alone."""
    poly = tmp_path / "p.csv"
    poly.write_text('image,annotator,label,polygon\ni1,a,roof,"[0, 0, 4, 0, 4, 4, 0, 4]"\n'
                    'i1,b,roof,"[0, 0, 4, 0, 0, 4]"\ni1,b,tree,"[10, 10, 12, 10, 11, 12]"\n',
                    encoding="utf-8")
    code, out, err = run_cli("polygons", str(poly), "--n-resamples", "50", "--json")
    assert code == 0, err
    got = _figures(json.loads(out))
    assert got["mean_iou"]["estimate"] == 0.5
    assert got["f1"]["estimate"] == pytest.approx(2 / 3, abs=1e-15)
    kp = tmp_path / "k.csv"
    kp.write_text('image,annotator,label,keypoints,area\n'
                  'i1,a,hand,"[0, 0, 2, 10, 0, 2]",100\ni1,b,hand,"[0, 0, 2, 10, 1, 2]",100\n'
                  'i1,a,hand,"[50, 50, 2, 60, 50, 2]",100\n', encoding="utf-8")
    got = _figures(_json("keypoints", str(kp), "--names", "w", "t", "--sigmas", "w=0.1", "t=0.1",
                         "--n-resamples", "50"))
    assert got["mean_oks"]["estimate"] == pytest.approx((1 + math.exp(-0.125)) / 2, abs=1e-15)
    assert got["f1"]["estimate"] == pytest.approx(2 / 3, abs=1e-15)


def test_polygon_coco_exports_on_the_console() -> None:
    code, out, err = run_cli("polygons", *POLY_COCO, "--n-resamples", "100")
    assert code == 0, err
    res = accord.polygon_agreement(POLY_COCO, n_resamples=100)
    assert "2 images, 2 annotators, 5 polygons; IoU >= 0.5" in out
    assert "note: skipped: RLE segmentation (a mask, not polygons): 1" in out
    assert "mean IoU, matched" in out and f"{res.mean_iou.estimate:.3f}" in out
    assert f"{res.alpha.estimate:.3f}" in out and "Over IoU thresholds" in out


def test_polygons_in_cvat_and_label_studio_exports() -> None:
    code, out, err = run_cli("polygons", *CVAT, "--n-resamples", "100", "--json")
    assert code == 0 and err == ("accord: warning: polygon_alpha (IoU >= 0.5) is undefined: "
                                 "every matched object has the same value from every "
                                 "annotator (no variation, so no expected disagreement), or "
                                 "fewer than two annotators\n")
    with pytest.warns(accord.DegenerateDataWarning, match="polygon_alpha"):
        res = accord.polygon_agreement(CVAT, n_resamples=100)
    got = _figures(json.loads(out))
    assert got["f1"]["estimate"] == res.f1.estimate and got["alpha"]["estimate"] is None
    ls = str(DATA / "label_studio_shapes.json")
    doc = _json("polygons", ls, "--n-resamples", "100")
    with pytest.warns(accord.DegenerateDataWarning, match="polygon_alpha"):
        res = accord.polygon_agreement(ls, n_resamples=100)
    assert _figures(doc)["mean_iou"]["estimate"] == res.mean_iou.estimate


# --------------------------------------------------------------------------- keypoints
def test_keypoint_json_figures_are_the_library_figures() -> None:
    doc = _json("keypoints", str(EX / "keypoints.csv"), *HANDS, "--visible", "both",
                "--oks", "0.8", "--n-resamples", "300", "--confidence-level", "0.9")
    res = accord.keypoint_agreement(EX / "keypoints.csv", names=["wrist", "tip"],
                                    sigmas=SIGMAS, visible="both", oks_threshold=0.8,
                                    n_resamples=300, confidence_level=0.9)
    want = res.to_dict()
    got = _figures(doc)
    assert list(got) == ["f1", "mean_oks", "alpha"]
    for name in got:
        assert got[name] == want[name]
        assert got[name]["oks_threshold"] == 0.8
        assert got[name]["confidence_interval"]["confidence_level"] == 0.9
    assert doc["command"] == "keypoints" and doc["seed"] == 0
    assert doc["audit"]["keypoints"] == ["wrist", "tip"]


def test_sweep_intervals_on_request() -> None:
    args = ("keypoints", str(EX / "keypoints.csv"), *HANDS, "--n-resamples", "100")
    plain, asked = _json(*args), _json(*args, "--sweep-intervals")
    assert all("confidence_interval" not in r["f1"] for r in plain["sweep"])
    res = accord.keypoint_agreement(EX / "keypoints.csv", names=["wrist", "tip"],
                                    sigmas=SIGMAS, n_resamples=100, sweep_intervals=True)
    assert asked["sweep"] == res.to_dict()["sweep"]
    assert asked["sweep"][0]["mean_oks"]["confidence_interval"]["method"] == (
        "bootstrap-percentile")
    assert plain["results"] == asked["results"]


def test_visible_changes_the_oks() -> None:
    """bob leaves one tip unlabelled and marks one hidden: counting only the points both
    labelled (placement only) raises his mean OKS."""
    either = _figures(_json("keypoints", str(EX / "keypoints.csv"), *HANDS,
                            "--n-resamples", "50"))
    both = _figures(_json("keypoints", str(EX / "keypoints.csv"), *HANDS, "--visible", "both",
                          "--n-resamples", "50"))
    assert both["mean_oks"]["estimate"] > either["mean_oks"]["estimate"]


def test_keypoint_coco_exports_on_the_console() -> None:
    code, out, err = run_cli("keypoints", *KP_COCO, "--n-resamples", "100")
    assert code == 0, err
    res = accord.keypoint_agreement(KP_COCO, n_resamples=100)
    assert "2 images, 2 annotators, 5 keypoint objects; OKS >= 0.5" in out
    assert "mean OKS, matched" in out and f"{res.mean_oks.estimate:.3f}" in out
    assert "Over OKS thresholds" in out and "note: skipped: no keypoints: 1" in out


def test_keypoints_from_label_studio_with_sigmas() -> None:
    ls = str(DATA / "label_studio_shapes.json")
    doc = _json("keypoints", ls, "--sigmas", "head=0.05,back=0.08,tail=0.1",
                "--n-resamples", "100")
    res = accord.keypoint_agreement(ls, sigmas={"head": 0.05, "back": 0.08, "tail": 0.1},
                                    n_resamples=100)
    assert _figures(doc)["mean_oks"]["estimate"] == res.mean_oks.estimate


# --------------------------------------------------------------------------- errors
def _error(*args: str, status: int = 1) -> str:
    code, out, err = run_cli(*args)
    assert code == status, (out, err)
    assert "Traceback" not in err
    return err


def test_keypoint_names_and_sigmas_errors_name_the_options() -> None:
    err = _error("keypoints", str(EX / "keypoints.csv"))
    assert "17 keypoints" in err and "--names NAME..." in err and err.count("\n") == 1
    err = _error("keypoints", str(EX / "keypoints.csv"), "--names", "wrist", "tip")
    assert "keypoint 'wrist' has no sigma; give --sigmas wrist=..." in err
    assert "sigmas=" not in err
    err = _error("keypoints", str(EX / "keypoints.csv"), "--names", "wrist", "tip",
                 "--sigmas", "wrist=-1", status=2)
    assert "expected NAME=SIGMA with a positive number" in err and "'wrist=-1'" in err
    err = _error("keypoints", str(EX / "keypoints.csv"), *HANDS, "--oks", "1.5", status=2)
    assert "--oks" in err


def test_bad_columns_and_thresholds() -> None:
    err = _error("polygons", str(EX / "polygons.csv"), "--polygon", "outline")
    assert "column 'outline' not found" in err and err.count("\n") == 1
    err = _error("keypoints", str(EX / "keypoints.csv"), *HANDS, "--area", "size")
    assert "column 'size' not found" in err
    assert "--iou" in _error("polygons", str(EX / "polygons.csv"), "--iou", "0", status=2)


def test_a_crossing_outline_is_one_sentence(tmp_path: Path) -> None:
    bad = tmp_path / "bow.csv"
    bad.write_text('image,annotator,label,polygon\ni,a,roof,"[0, 0, 4, 4, 4, 0, 0, 4]"\n'
                   'i,b,roof,"[0, 0, 4, 0, 4, 4, 0, 4]"\n', encoding="utf-8")
    err = _error("polygons", str(bad))
    assert err.startswith("accord: error: ") and err.count("\n") == 1


def test_json_error_document() -> None:
    code, out, err = run_cli("polygons", str(EX / "polygons.csv"), "--polygon", "outline",
                             "--json")
    assert code == 1
    doc = json.loads(out)
    assert doc["command"] == "polygons" and doc["exit_status"] == 1
    assert "column 'outline' not found" in doc["error"]


# --------------------------------------------------------------------------- the right command
def test_boxes_names_the_commands_for_polygons_and_keypoints() -> None:
    code, out, err = run_cli("boxes", *CVAT, "--n-resamples", "50")
    assert code == 0, err
    assert "skipped: polygon (only boxes are compared): 2" in out
    flat = " ".join(out.split())
    files = " ".join(CVAT)
    assert (f"note: the files hold polygons and keypoints as well: to compare them, run "
            f"accord polygons {files} or accord keypoints {files}.") in flat


def test_boxes_on_coco_polygons_says_so() -> None:
    code, out, err = run_cli("boxes", *POLY_COCO, "--n-resamples", "50")
    assert code == 0, err
    flat = " ".join(out.split())
    assert f"run accord polygons {' '.join(POLY_COCO)}." in flat


def test_no_note_without_such_shapes() -> None:
    code, out, err = run_cli("boxes", str(EX / "boxes.csv"), "--n-resamples", "50")
    assert code == 0, err
    assert "accord polygons" not in out and "polygon_agreement" not in out


def test_an_export_without_boxes_is_sent_to_its_command(tmp_path: Path) -> None:
    jobs = []
    for name in ("ann", "bob"):
        text = (DATA / "cvat_shapes" / f"job_{name}.xml").read_text(encoding="utf-8")
        keep = [line for line in text.splitlines() if "<box " not in line]
        jobs.append(tmp_path / f"job_{name}.xml")
        jobs[-1].write_text("\n".join(keep), encoding="utf-8")
    files = " ".join(map(str, jobs))
    err = _error("boxes", *map(str, jobs))
    assert err == (f"accord: error: {files}: the files hold polygons and keypoints, not boxes: "
                   f"run accord polygons {files} or accord keypoints {files}.\n")


@pytest.mark.parametrize(("command", "files", "held", "run"), [
    ("polygons", [str(EX / "boxes_label_studio.json")], "the file holds boxes", "boxes"),
    ("keypoints", [str(EX / "boxes_yolo")], "the folder holds boxes", "boxes"),
    ("keypoints", POLY_COCO, "the files hold boxes and polygons", "boxes"),
    ("polygons", [str(EX / "boxes_cvat" / "job_41.xml")], "the file holds boxes", "boxes"),
])
def test_polygons_and_keypoints_send_other_shapes_to_their_command(
    command: str, files: list[str], held: str, run: str,
) -> None:  # fmt: skip
    err = _error(command, *files)
    source = " ".join(files)
    assert err.startswith(f"accord: error: {source}: {held}, not {command}: "
                          f"run accord {run} {source}")
    assert err.count("\n") == 1


def test_hostile_labels_are_printed_as_text(tmp_path: Path) -> None:
    bad = tmp_path / "h.csv"
    bad.write_text('image,annotator,label,polygon\ni1,a,[bold red]x[/],"[0, 0, 4, 0, 4, 4, 0, 4]"\n'
                   'i1,b,[bold red]x[/],"[0, 0, 4, 0, 4, 3, 0, 4]"\n', encoding="utf-8")
    code, out, err = run_cli("polygons", str(bad), "--n-resamples", "20")
    assert code == 0 and "polygon_alpha" in err
    assert "[bold red]x[/]" in out


def test_shapes_held_reads_zips_folders_and_skips_tables(tmp_path: Path) -> None:
    import zipfile

    from accord.readers.shape_formats import shapes_held

    job = tmp_path / "job.zip"
    with zipfile.ZipFile(job, "w") as zf:
        zf.write(CVAT[0], "annotations.xml")
    assert shapes_held([job]) == ("boxes", "polygons", "keypoints")
    assert shapes_held(EX / "boxes_yolo") == ("boxes",)
    assert shapes_held([EX / "polygons.csv", EX / "boxes.csv"]) == ()
    assert shapes_held(KP_COCO[:1]) == ("boxes", "keypoints")
    (tmp_path / "broken.zip").write_bytes(b"PK\x03\x04 not a zip")
    assert shapes_held([tmp_path / "broken.zip"]) == ()

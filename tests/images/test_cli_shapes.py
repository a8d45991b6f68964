"""``accord boxes`` on exports with polygons and keypoints: it compares their boxes and
says, in one note, where the polygons and keypoints are compared."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import run_cli

DATA = Path(__file__).parent / "data" / "cvat_shapes"


def test_boxes_points_to_the_api_for_polygons_and_keypoints() -> None:
    code, out, err = run_cli("boxes", str(DATA / "job_ann.xml"), str(DATA / "job_bob.xml"),
                             "--n-resamples", "50")
    assert code == 0, err
    assert "skipped: polygon (only boxes are compared): 2" in out
    flat = " ".join(out.split())
    assert "accord.polygon_agreement and accord.keypoint_agreement" in flat


def test_no_note_without_such_shapes() -> None:
    ex = Path(__file__).resolve().parents[2] / "examples" / "boxes.csv"
    code, out, err = run_cli("boxes", str(ex), "--n-resamples", "50")
    assert code == 0, err
    assert "polygon_agreement" not in out

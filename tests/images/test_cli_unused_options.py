"""An option of ``accord boxes``, ``polygons``, ``keypoints`` (and the report's keypoint
options) that would be ignored is refused in one sentence, with exit code 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import run_cli

EX = Path(__file__).resolve().parents[2] / "examples"
COCO_BOXES = [str(EX / "boxes_coco" / f) for f in ("ann.json", "bob.json")]
COCO_KP = [str(EX / "keypoints_coco" / f) for f in ("ann.json", "bob.json")]
KP_CSV = [str(EX / "keypoints.csv"), "--names", "wrist", "tip", "--sigmas", "wrist=0.062",
          "tip=0.05"]


def _refused(args: list[str], sentence: str) -> None:
    code, out, err = run_cli(*args)
    assert code == 2, (out, err)
    assert err.strip().splitlines()[-1] == f"Error: {sentence}", err
    assert "Traceback" not in err


@pytest.mark.parametrize(("args", "sentence"), [
    (["boxes", *COCO_BOXES, "--unit", "img"],
     f"--unit names a column of a table, but {' '.join(COCO_BOXES)} are tool exports (an "
     "export names its own images, annotators, labels and shapes): leave --unit out."),
    (["boxes", *COCO_BOXES, "--box", "a", "b", "c", "d"],
     f"--box names a column of a table, but {' '.join(COCO_BOXES)} are tool exports (an "
     "export names its own images, annotators, labels and shapes): leave --box out."),
    (["boxes", *COCO_BOXES, "--rater", "who"],
     "--rater names the key or attribute of the annotator in one export file holding every "
     "annotator; with one file per annotator each file's annotator is its own (COCO: the "
     "file's name; CVAT: the job's assignee): leave --rater out."),
    (["boxes", str(EX / "boxes.csv"), "--sizes", str(EX / "boxes_yolo" / "sizes.csv")],
     f"--sizes gives the image sizes of YOLO label folders, and {EX / 'boxes.csv'} is not a "
     "folder: leave --sizes out."),
    (["boxes", str(EX / "boxes.csv"), "--fusion", "mean"],
     "--fusion applies to the consensus: add --consensus."),
    (["polygons", str(EX / "polygons.csv"), "--quorum", "0.5"],
     "--quorum applies to the consensus: add --consensus."),
    (["polygons", str(EX / "polygons.csv"), "--sweep-intervals"],
     "--sweep-intervals gives the sweep's intervals in --json (the console shows the sweep's "
     "estimates only): add --json."),
    (["polygons", str(EX / "polygons_coco" / "ann.json"), "--polygon", "outline",
      "--rater", "who"],
     f"--polygon names a column of a table, but {EX / 'polygons_coco' / 'ann.json'} is a "
     "tool export (an export names its own images, annotators, labels and shapes): leave "
     "--polygon out."),
    (["keypoints", *COCO_KP, "--names", "a", "b"],
     "--names names the keypoints of a table, CVAT points or Label Studio; a COCO file names "
     "them in its category's keypoints list: leave --names out."),
    (["keypoints", *COCO_KP, "--area", "size"],
     f"--area names a column of a table, but {' '.join(COCO_KP)} are tool exports (an export "
     "names its own images, annotators, labels and shapes): leave --area out."),
    (["report", str(EX / "boxes.csv"), "--names", "a", "b"],
     f"--names applies to keypoint data, and {EX / 'boxes.csv'} holds no keypoints: leave "
     "--names out."),
    (["report", str(EX / "polygons.csv"), "--area", "size"],
     f"--area applies to keypoint data, and {EX / 'polygons.csv'} holds no keypoints: leave "
     "--area out."),
    (["report", str(EX / "pilot.csv"), "--oks", "0.6"],
     f"--oks applies to keypoint data, and {EX / 'pilot.csv'} holds no keypoints: leave "
     "--oks out."),
    (["report", str(EX / "batches.csv"), "--by", "batch", "--oks", "0.6"],
     "--oks applies to keypoint data, and --by reports on labels, which are not keypoints: "
     "leave --oks out."),
    (["report", str(EX / "batches.csv"), "--by", "batch", "--polygon", "p"],
     "--polygon reads shapes, and --by reports on labels: leave --polygon or --by out."),
])
def test_an_option_that_would_be_ignored_is_refused(args: list[str], sentence: str) -> None:
    _refused(args, sentence)


def test_the_options_that_apply_are_taken(tmp_path: Path) -> None:
    code, _, err = run_cli("keypoints", *KP_CSV, "--area", "area", "--n-resamples", "20",
                           "--json", "--sweep-intervals")
    assert code == 0, err
    code, _, err = run_cli("report", *KP_CSV, "--oks", "0.6", "-o", str(tmp_path / "r.md"))
    assert code == 0, err
    code, _, err = run_cli("boxes", *COCO_BOXES[:1], "--rater", "annotator",
                           "--n-resamples", "20")
    assert code != 2, err  # one file: --rater names its key (here absent: a data error)

"""``accord.read`` of polygon and keypoint exports and tables: the shape's own table.

Each bundled example under examples/ is read into the table that its agreement function
takes (``meta["boxes"]``, ``meta["polygons"]``, ``meta["keypoints"]``), and that table
gives the same figures as the agreement function given the files themselves.
"""

from __future__ import annotations

import json
import re
import warnings
from pathlib import Path
from typing import Any

import pytest

import accord
from accord.errors import DegenerateDataWarning, FormatError
from accord.readers.boxes import BoxTable
from accord.readers.keypoints import KeypointTable
from accord.readers.polygons import PolygonTable
from tests.test_bad_input import refused

ROOT = Path(__file__).resolve().parents[2]
EX = ROOT / "examples"
DATA = Path(__file__).parent / "data"
CVAT = [DATA / "cvat_shapes" / "job_ann.xml", DATA / "cvat_shapes" / "job_bob.xml"]
LS = DATA / "label_studio_shapes.json"
KINDS = {"boxes": BoxTable, "polygons": PolygonTable, "keypoints": KeypointTable}


def _quiet(func: Any, *args: Any, **kw: Any) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        return func(*args, **kw)


@pytest.mark.parametrize(("source", "options", "shape", "caveat"), [
    ("boxes_coco", {}, "boxes", None),
    ("boxes_cvat", {}, "boxes", None),
    ("boxes_label_studio.json", {}, "boxes", None),
    ("boxes_yolo", {}, "boxes", None),
    ("boxes.csv", {}, "boxes", "read as boxes (agreement on boxes)"),
    ("polygons_coco", {}, "polygons",
     "read as polygons: the export also holds boxes (read them with shapes='boxes')"),
    ("keypoints_coco", {}, "keypoints",
     "read as keypoints: the export also holds boxes and polygons (read them with "
     "shapes='boxes' or shapes='polygons')"),
    ("polygons.csv", {}, "polygons", "read as polygons (agreement on polygons): the column "
     "polygon holds each object, one row per object; image 'image', annotator 'annotator', "
     "label 'label'"),
    ("keypoints.csv", {"names": ["wrist", "tip"]}, "keypoints", "read as keypoints "
     "(agreement on keypoints): the columns keypoints and area hold each object, one row "
     "per object; image 'image', annotator 'annotator', label 'label'"),
])
def test_each_example_is_read_as_its_shape(source: str, options: dict[str, Any], shape: str,
                                           caveat: str | None) -> None:
    ann = accord.read(EX / source, **options)
    held = [k for k in KINDS if k in ann.meta]
    assert held == [shape] and isinstance(ann.meta[shape], KINDS[shape])
    assert ann.n_ratings == 0 and ann.raters == ann.meta[shape].raters
    if caveat is None:
        assert ann.audit.caveats == ()
    else:
        assert ann.audit.caveats[0].startswith(caveat)
    refused(accord.errors.InsufficientDataError, f"hold {shape} only.*"
            f"accord.{shape.removesuffix('es').removesuffix('s')}", ann.require_pairable)


def test_the_read_table_gives_the_figures_of_the_files() -> None:
    for path, func, kw in (
        (EX / "polygons_coco", accord.polygon_agreement, {}),
        (EX / "polygons.csv", accord.polygon_agreement, {}),
        (EX / "keypoints_coco", accord.keypoint_agreement, {}),
        (EX / "keypoints.csv", accord.keypoint_agreement,
         {"names": ["wrist", "tip"], "sigmas": {"wrist": 0.062, "tip": 0.05}}),
    ):
        files: Any = sorted(path.iterdir()) if path.is_dir() else path
        read_kw = {"names": kw["names"]} if "names" in kw else {}
        via_read = _quiet(func, accord.read(path, **read_kw), n_resamples=50,
                          **{k: v for k, v in kw.items() if k == "sigmas"})
        direct = _quiet(func, files, n_resamples=50, **kw)
        assert via_read.f1.estimate == direct.f1.estimate, path
        assert via_read.alpha.estimate == direct.alpha.estimate or (
            via_read.alpha.estimate != via_read.alpha.estimate), path


def test_an_export_of_several_shapes_asks_which() -> None:
    for paths, source in ((CVAT, "2 files hold"), (LS, f"{LS} holds")):
        refused(FormatError, "^" + re.escape(
            f"{source} boxes, polygons and keypoints; read one of them with shapes='boxes' "
            "(or 'polygons' or 'keypoints'; accord CLI: accord boxes or accord polygons or "
            "accord keypoints)."), accord.read, paths)
        for shape, kind in KINDS.items():
            ann = accord.read(paths, shapes=shape)
            assert isinstance(ann.meta[shape], kind)
            others = [k for k in KINDS if k != shape]
            assert ann.audit.caveats == (
                f"read as {shape}: the export also holds {others[0]} and {others[1]} (read "
                f"them with shapes={others[0]!r} or shapes={others[1]!r})",)
    kp = accord.read(CVAT, shapes="keypoints")
    assert kp.meta["keypoints"].names == ("head", "back", "tail")


def test_bad_shape_options_are_refused() -> None:
    refused(FormatError, re.escape("accord.read: shapes='circles' is not a shape; expected "
                                   "one of ['boxes', 'polygons', 'keypoints']."),
            accord.read, EX / "polygons_coco", shapes="circles")
    refused(FormatError, re.escape("accord.read: names= names the keypoints of a table, CVAT "
                                   "points or Label Studio; a COCO file names them in its "
                                   "category's 'keypoints' list, so leave names= out."),
            accord.read, EX / "keypoints_coco", names=["a", "b"])
    refused(accord.errors.InvalidParameterError, "unknown option 'shapes' for the 'yolo'",
            accord.read, EX / "boxes_yolo", shapes="boxes")
    refused(accord.errors.DataError, r"expected a list of 51 numbers.*name them with "
            r"names=\.\.\.", accord.read, EX / "keypoints.csv")


def test_a_field_of_a_region_export_names_the_labels_reader() -> None:
    sentence = ("accord.read: field='sentiment' selects a question whose labels are read, and "
                "this Label Studio export is read for its regions; read its labels with "
                "format='label_studio' and this field=.")
    refused(FormatError, "^" + re.escape(sentence), accord.read,
            EX / "boxes_label_studio.json", field="sentiment")


def test_a_folder_of_exports_is_read_as_its_files() -> None:
    from tests.conftest import run_cli

    for command, folder in (("polygons", "polygons_coco"), ("keypoints", "keypoints_coco"),
                            ("boxes", "boxes_coco")):
        files = sorted(str(f) for f in (EX / folder).iterdir())
        code, whole, err = run_cli(command, str(EX / folder), "--n-resamples", "20", "--json")
        assert code == 0, err
        code, each, err = run_cli(command, *files, "--n-resamples", "20", "--json")
        assert code == 0, err
        assert json.loads(whole)["results"] == json.loads(each)["results"], command

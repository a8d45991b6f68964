"""A bootstrap over fewer than 30 images is noted as too rough to trust, in the result's
audit, the CLI's first lines and the report (see ``MIN_BOOTSTRAP_IMAGES``)."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

import accord
from accord.errors import DegenerateDataWarning
from accord.images._figures import MIN_BOOTSTRAP_IMAGES
from tests.conftest import run_cli

EX = Path(__file__).resolve().parents[2] / "examples"


def _note(n: int) -> str:
    return (f"the intervals come from a bootstrap over {n} image{'s' * (n != 1)}, fewer than "
            "30: too few for them to be trusted (a bootstrap interval over so few comes out "
            "too narrow); read them as rough, or annotate more images")


def _boxes(n_images: int) -> dict[str, list[object]]:
    rows: dict[str, list[object]] = {k: [] for k in ("image", "annotator", "label", "x", "y",
                                                     "w", "h")}
    for i in range(n_images):
        for who, dx in (("a", 0), ("b", i % 3)):
            for k, v in zip(rows, (f"im{i:02d}", who, "cat" if i % 2 else "dog", dx, 0, 10, 10)):
                rows[k].append(v)
    return rows


@pytest.mark.parametrize("n", [1, MIN_BOOTSTRAP_IMAGES - 1, MIN_BOOTSTRAP_IMAGES])
def test_the_note_below_the_threshold_only(n: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        res = accord.box_agreement(_boxes(n), n_resamples=20)
    notes = res.to_dict()["audit"]["notes"]
    assert notes == ([_note(n)] if n < MIN_BOOTSTRAP_IMAGES else [])


def test_polygons_keypoints_and_the_cli_say_it() -> None:
    res = accord.polygon_agreement(EX / "polygons.csv", n_resamples=20)
    assert res.to_dict()["audit"]["notes"] == [_note(3)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        kp = accord.keypoint_agreement(EX / "keypoints.csv", names=["wrist", "tip"],
                                       sigmas={"wrist": 0.062, "tip": 0.05}, n_resamples=20)
    n = kp.audit["images"]
    assert n < MIN_BOOTSTRAP_IMAGES and kp.to_dict()["audit"]["notes"] == [_note(n)]
    code, out, err = run_cli("polygons", str(EX / "polygons.csv"), "--n-resamples", "20")
    assert code == 0, err
    assert out.splitlines()[1] == f"note: {_note(3)}"


def test_the_report_says_it(tmp_path: Path) -> None:
    code, out, err = run_cli("report", str(EX / "polygons.csv"), "-o", str(tmp_path / "r.md"))
    assert code == 0, err
    assert f"- {_note(3)}" in (tmp_path / "r.md").read_text()  # in the notes
    # and in the headline, beside the intervals it quotes (the first screen)
    said = _note(3)
    headline = next(x for x in out.splitlines() if "pairwise F1" in x)
    assert headline.endswith(f"{said[0].upper()}{said[1:]}."), headline

"""Several files, or a folder, of one tool's batches; and CVAT, which is refused by name."""

from __future__ import annotations

import csv
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

import accord
from accord.cli import main
from accord.errors import FormatError

DATA = Path(__file__).parent / "data"
MTURK = DATA / "mturk_batch_results.csv"

CVAT_XML = """<?xml version="1.0" encoding="utf-8"?>
<annotations>
  <version>1.1</version>
  <meta>
    <task><id>7</id><name>street signs</name><mode>annotation</mode></task>
    <dumped>2024-05-13 10:00:00.000000+00:00</dumped>
  </meta>
  <image id="0" name="frame_000.jpg" width="640" height="480">
    <tag label="stop" source="manual"></tag>
  </image>
</annotations>
"""


@pytest.fixture
def batches(tmp_path: Path) -> Path:
    """The MTurk fixture split by HIT into two batch files, as MTurk writes one per batch."""
    with open(MTURK, newline="", encoding="utf-8") as fh:
        head, *rows = list(csv.reader(fh))
    folder = tmp_path / "batches"
    folder.mkdir()
    first = rows[0][0]
    for name, part in (("Batch_1_batch_results.csv", [r for r in rows if r[0] == first]),
                       ("Batch_2_batch_results.csv", [r for r in rows if r[0] != first])):
        with open(folder / name, "w", newline="", encoding="utf-8") as fh:
            writer = csv.writer(fh, quoting=csv.QUOTE_ALL)
            writer.writerow(head)
            writer.writerows(part)
    return folder


def _same(a: accord.Annotations, b: accord.Annotations) -> None:
    assert (a.units, a.raters, a.categories) == (b.units, b.raters, b.categories)
    assert sorted(a.records()) == sorted(b.records())
    assert (a.audit.rows_read, a.audit.ratings_used, dict(a.audit.dropped)) == (
        b.audit.rows_read, b.audit.ratings_used, dict(b.audit.dropped))


def test_two_batch_files_combine_into_the_annotations_of_one(batches: Path) -> None:
    whole = accord.read(MTURK, field="sentiment")
    files = sorted(batches.iterdir())
    both = accord.read(files, field="sentiment")
    _same(both, whole)
    parts = {Path(p.source).name: (p.rows_read, p.ratings_used) for p in both.audit.parts}
    assert parts == {"Batch_1_batch_results.csv": (3, 2), "Batch_2_batch_results.csv": (3, 2)}


def test_a_folder_of_batches_reads_as_its_files(batches: Path) -> None:
    _same(accord.read(batches, field="sentiment"),
          accord.read(sorted(batches.iterdir()), field="sentiment"))
    (batches / ".DS_Store").write_bytes(b"\x00\x01")  # hidden files are not batches
    assert accord.read(batches, field="sentiment").n_ratings == 4


def test_a_folder_of_parquet_parts_reads_beside_spark_and_pyarrow_bookkeeping(
        tmp_path: Path) -> None:
    # Spark writes _SUCCESS (empty) beside its parts, pyarrow _metadata / _common_metadata:
    # like pyarrow.dataset (ignore_prefixes=[".", "_"]) the folder reads as its parts
    import polars as pl

    rows = [(1, "a", "x"), (1, "b", "x"), (2, "a", "y"), (2, "b", "x")]
    for i, part in enumerate((rows[:2], rows[2:])):
        pl.DataFrame(part, schema=["item", "coder", "label"], orient="row").write_parquet(
            tmp_path / f"part-{i:05d}.parquet")
    (tmp_path / "_SUCCESS").write_bytes(b"")
    (tmp_path / "_common_metadata").write_bytes(b"PAR1 not a table")
    got = accord.read(tmp_path, unit="item", rater="coder", value="label")
    assert got.n_ratings == 4 and len(got.audit.parts) == 2
    assert sorted(Path(p.source).name for p in got.audit.parts) == [
        "part-00000.parquet", "part-00001.parquet"]
    (tmp_path / "notes.txt").write_text("a file of no known format is still refused\n")
    with pytest.raises(FormatError, match=r"of no known format: notes.txt\)"):
        accord.read(tmp_path, unit="item", rater="coder", value="label")


def test_a_folder_of_bookkeeping_only_holds_nothing_to_read(tmp_path: Path) -> None:
    (tmp_path / "_SUCCESS").write_bytes(b"")
    with pytest.raises(FormatError, match="holds no files to read"):
        accord.read(tmp_path)


def test_cli_takes_several_files_or_a_folder(batches: Path) -> None:
    files = [str(p) for p in sorted(batches.iterdir())]
    for args in (files, [str(batches)]):
        out = CliRunner().invoke(main, ["compute", *args, "--field", "sentiment", "--json"])
        assert out.exit_code == 0, out.output
        assert '"n_units": 2' in out.output


def test_a_folder_of_unknown_files_names_the_formats_looked_for(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("nothing to see\n")
    with pytest.raises(FormatError, match=r"none of its 1 file\(s\) is in a format accord "
                                          r"knows; looked for label_studio_boxes, "
                                          r"label_studio, .*mturk"):
        accord.read(tmp_path)


def test_a_folder_of_mixed_formats_is_refused_naming_them(batches: Path) -> None:
    (batches / "pilot.csv").write_text("item,a,b\n1,x,y\n")
    with pytest.raises(FormatError, match=r"not all of one format \(csv: pilot.csv; mturk: "
                                          r"Batch_1_batch_results.csv, Batch_2"):
        accord.read(batches, field="sentiment")


def test_files_of_different_formats_are_not_read_together(batches: Path) -> None:
    with pytest.raises(FormatError, match=r"different formats: .*\(mturk\), "
                                          r"label_studio_export.json \(label_studio\)"):
        accord.read([*sorted(batches.iterdir()), DATA / "label_studio_export.json"])


def test_a_folder_a_reader_takes_whole_is_still_that_reader() -> None:
    ann = accord.read(DATA / "doccano_textcat")
    assert ann.raters == accord.read(sorted((DATA / "doccano_textcat").iterdir())).raters


def test_cvat_is_said_to_be_unsupported(tmp_path: Path) -> None:
    xml = tmp_path / "annotations.xml"
    xml.write_text(CVAT_XML)
    zipped = tmp_path / "task_7-cvat for images 1.1.zip"
    with zipfile.ZipFile(zipped, "w") as zf:
        zf.writestr("annotations.xml", CVAT_XML)
    for path in (xml, zipped, tmp_path):
        with pytest.raises(FormatError) as info:
            accord.read(path)
        message = str(info.value)
        assert "CVAT exports" in message and "not supported yet" in message
        assert "label_studio_csv" not in message  # not the list of formats
    out = CliRunner().invoke(main, ["inspect", str(xml)])
    assert out.exit_code == 1 and "CVAT exports" in out.output

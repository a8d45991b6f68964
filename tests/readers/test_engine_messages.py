"""Reader errors say what in the file is wrong and what was expected, never the engine's
(Polars') options or the csv module's wording (issue 26). One test per message."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

import accord
from accord.errors import FormatError
from accord.readers._engine_errors import csv_problem
from tests.conftest import run_cli

ENGINE_WORDS = ("Schema", "truncate_ragged_lines", "infer_schema", "schema_overrides",
                "ignore_errors", "null_values", "out of specification", "field limit")


def _error(path: Path, *extra: str) -> str:
    code, out, err = run_cli("compute", str(path), *extra)
    assert code == 1 and out == "" and err.count("\n") == 1, err
    assert not any(w in err for w in ENGINE_WORDS), err
    return err.strip()


def test_a_ragged_row(tmp_path: Path) -> None:
    path = tmp_path / "ragged.csv"
    path.write_text("item,a,b\n1,x,y\n2,x,y,z,w\n3,x,y\n")
    assert _error(path, "--raters", "a", "b") == (
        f"accord: error: {path}: a row has more cells than the header has columns; expected "
        "the same number of cells on every row (a cell holding the separator must be in "
        "double quotes).")


def test_a_quote_left_open(tmp_path: Path) -> None:
    path = tmp_path / "quote.tsv"
    path.write_text('item\ta\tb\n1\t"x\ty\n2\tx\ty\n')
    expected = (f"accord: error: {path}: a double quote opens a cell that is never closed (a "
                "lone quote); expected every quoted cell to end with a quote, and a quote "
                "inside a cell to be doubled.")
    assert _error(path, "--raters", "a", "b") == expected
    assert _error(path) == expected  # not "looks long (0 rows, 0 distinct ids)"


def test_a_damaged_parquet_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.parquet"
    path.write_bytes(b"PAR1garbagePAR1")
    assert _error(path) == (f"accord: error: {path}: not a valid Parquet file (damaged, cut "
                            "short, or another kind of file); expected a complete Parquet file.")


def test_a_header_cell_over_the_csv_limit(tmp_path: Path) -> None:
    path = tmp_path / "head.csv"
    path.write_text("item," + "a" * 200_000 + ",b\n1,x,y\n2,x,y\n")
    with pytest.raises(FormatError) as info:
        accord.read(path)
    assert str(info.value) == (
        f"{path}, line 1: the header cannot be read: a cell is longer than the 131,072 "
        "characters a CSV cell may hold here (is a quote left open?); expected column names")


@pytest.mark.parametrize(("text", "expected"), [
    ("line contains NUL",
     "the file holds a NUL byte (binary data, or a UTF-16 file); expected text"),
    ("new-line character seen in unquoted field - do you need to open the file with "
     "newline=''?",
     "a line break (a lone carriage return) stands inside a cell that is not quoted"),
    ("field larger than field limit (131072)",
     "a cell is longer than the 131,072 characters a CSV cell may hold here (is a quote left "
     "open?)"),
])
def test_csv_module_errors_in_the_files_words(text: str, expected: str) -> None:
    assert csv_problem(csv.Error(text)) == expected


def test_a_huge_cell_in_a_label_studio_csv_export(tmp_path: Path) -> None:
    from accord.readers._ls_min import csv_rows  # the Label Studio CSV export's reader

    path = tmp_path / "ls.csv"
    path.write_text('id,annotator,sentiment\n1,a,pos\n2,b,"' + "n" * 200_000 + '"\n')
    with pytest.raises(FormatError) as info:
        csv_rows(path)
    assert str(info.value) == (f"{path}, line 3: a cell is longer than the 131,072 characters "
                               "a CSV cell may hold here (is a quote left open?); expected a "
                               "CSV export")


def _zip(tmp_path: Path, damage: str) -> Path:
    import zipfile

    data = b"item,a,b\n" + b"".join(b"%d,x,y\n" % i for i in range(50))
    path = tmp_path / f"{damage}.zip"
    method = zipfile.ZIP_DEFLATED if damage == "deflate" else zipfile.ZIP_STORED
    with zipfile.ZipFile(path, "w", compression=method) as zf:
        zf.writestr("t.csv", data)
    raw = bytearray(path.read_bytes())
    central = raw.index(b"PK\x01\x02")
    if damage == "crc":
        raw[raw.index(b"1,x,y")] = ord("9")
    elif damage == "deflate":
        for k in range(37, 47):
            raw[k] ^= 0xFF
    elif damage == "encrypted":  # the general-purpose flag's bit 0, in both headers
        raw[6] |= 1
        raw[central + 8] |= 1
    elif damage == "method":
        raw[8] = raw[central + 10] = 99
    path.write_bytes(bytes(raw))
    return path


@pytest.mark.parametrize(("damage", "expected"), [
    ("crc", "it is damaged: its checksum does not match its content; expected an intact zip"),
    ("deflate", "its compressed data is damaged; expected an intact zip"),
    ("encrypted", "it is encrypted; expected a zip without a password"),
    ("method", "it is compressed with a method Python cannot read; expected a zip made with "
               "the usual (deflate) compression"),
])
def test_a_damaged_zip_member(tmp_path: Path, damage: str, expected: str) -> None:
    import zipfile

    from accord.readers._zip import member_bytes  # every zip export's members go through it

    path = _zip(tmp_path, damage)
    with zipfile.ZipFile(path) as zf, pytest.raises(FormatError) as info:
        member_bytes(zf, zf.infolist()[0], f"{path}:t.csv")
    assert str(info.value) == f"{path}:t.csv: cannot be read from the zip ({expected})"


@pytest.mark.parametrize("fmt", ["inception", "doccano"])
@pytest.mark.parametrize("damage", ["not a zip", "cut short"])
def test_an_archive_that_is_not_a_whole_zip(tmp_path: Path, fmt: str, damage: str) -> None:
    """Was "expected a zip archive (File is not a zip file)": zipfile's words."""
    import io
    import zipfile

    path = tmp_path / "export.zip"
    if damage == "not a zip":
        path.write_bytes(b"not a zip at all")
    else:
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w") as zf:
            zf.writestr("annotation/doc1/ann.tsv", "#FORMAT=WebAnno TSV 3.3\n")
            zf.writestr("doc.jsonl", '{"text": "a", "label": []}\n')
        path.write_bytes(buf.getvalue()[:-30])  # the zip directory's end record cut off
    with pytest.raises(FormatError) as err:
        accord.read(path, format=fmt)
    assert str(err.value) == (
        f"{path}: is not a zip archive, or is cut short (its zip directory, at the end of "
        "the file, is missing); expected the whole zip export")


def test_an_archive_problem_is_said_of_the_file_for_every_zip_error() -> None:
    import zipfile
    import zlib

    from accord.readers._zip import archive_problem

    assert archive_problem(PermissionError(13, "Permission denied")) == (
        "cannot be read (Permission denied)")
    assert archive_problem(zlib.error("Error -3 while decompressing data")) == (
        "cannot be read as a zip archive: its compressed data is damaged; expected an "
        "intact zip")
    assert archive_problem(zipfile.BadZipFile("Bad CRC-32 for file 'a'")) == (
        "cannot be read as a zip archive: it is damaged: its checksum does not match its "
        "content; expected an intact zip")
    assert archive_problem(RuntimeError("File 'a' is encrypted, password required")) == (
        "cannot be read as a zip archive: it is encrypted; expected a zip without a password")


@pytest.mark.parametrize(("fmt", "name", "text", "expected"), [
    ("jsonl", "n.jsonl", "null\n", "line 1: expected a JSON object, got null"),
    ("doccano", "d.jsonl", "[1]\n", "line 1: expected a JSON object, got an array"),
    ("doccano", "r.jsonl", '{"id": 1, "text": "ab", "label": [[0, 1, "X"]], "relations": "x"}\n',
     "line 1: expected 'relations' to be a list, got a string"),
    ("argilla", "a.json", "[1, 2]", "record 1: expected a JSON object, got a number"),
    ("argilla", "f.json", '[{"id": "1", "text": "a", "label.responses": true, '
     '"label.responses.users": ["u"]}]',
     "record 1, label.responses: expected a list, got true"),
    ("prodigy", "p.jsonl", '"x"\n', "line 1: expected a JSON object, got a string"),
])
def test_a_json_value_of_the_wrong_kind_is_named_in_json_words(
        tmp_path: Path, fmt: str, name: str, text: str, expected: str) -> None:
    """Was "got NoneType", "got list", "got str": Python's type names, not JSON's."""
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(FormatError) as err:
        accord.read(path, format=fmt)
    assert str(err.value) == f"{path}, {expected}"


def test_json_kind_names_every_json_value() -> None:
    from accord.readers._base import json_kind

    assert [json_kind(v) for v in ({}, [], "", 0, 1.5, True, False, None, object())] == [
        "an object", "an array", "a string", "a number", "a number", "true", "false", "null",
        "a value of another kind"]


def test_quotes_that_do_not_pair_up(tmp_path: Path) -> None:
    """Was "the table could not be read (CSV malformed: expected 0 rows, actual 1 rows, in
    chunk starting at row_offset 1, length 11)": Polars' chunking, not the file."""
    path = tmp_path / "quotes.csv"
    path.write_bytes(b'item,a,b\n1,x,y\n2,x,x"\n3,\n"y",y\n')
    assert _error(path) == (
        f"accord: error: {path}: the double quotes do not pair up into quoted cells (a quote "
        "inside a cell that is not quoted, or a quoted cell left open across lines), so the "
        "rows cannot be told apart; expected quotes only around whole cells, with a quote "
        "inside a cell doubled.")

"""Hostile and unusual input files: nothing silently lost, every refusal one sentence.

Encodings follow the Unicode standard's byte-order marks (Unicode 15, section 23.8);
UTF-16 is what spreadsheet "Unicode text" exports write.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import accord
from accord.errors import StudyError
from accord.readers import describe

DATA = Path(__file__).resolve().parent / "readers" / "data"
TEXT_EXPORTS = sorted(p.name for p in DATA.iterdir() if p.is_file())
ENCODINGS = {
    "utf-8-bom": lambda s: b"\xef\xbb\xbf" + s.encode("utf-8"),
    "utf-16": lambda s: s.encode("utf-16"),
    "utf-16-be-bom": lambda s: b"\xfe\xff" + s.encode("utf-16-be"),
    "utf-16-le-no-bom": lambda s: s.encode("utf-16-le"),
    "utf-32": lambda s: s.encode("utf-32"),
}


def _same_summary(a: dict[str, Any], b: dict[str, Any], a_dir: Path, b_dir: Path) -> None:
    def norm(x: Any) -> Any:
        if isinstance(x, str):
            return x.replace(str(a_dir), "<dir>").replace(str(b_dir), "<dir>")
        if isinstance(x, list):
            return [norm(y) for y in x if not (isinstance(y, str) and "decoded from" in y)]
        if isinstance(x, dict):
            return {k: norm(y) for k, y in x.items()}
        return x
    assert norm(a) == norm(b)


@pytest.mark.parametrize("encoding", sorted(ENCODINGS))
@pytest.mark.parametrize("name", TEXT_EXPORTS)
def test_every_export_reads_the_same_in_every_unicode_encoding(tmp_path: Path, name: str,
                                                               encoding: str) -> None:
    text = (DATA / name).read_text(encoding="utf-8")
    if text.isascii() is False and encoding == "utf-16-le-no-bom":
        pytest.skip("UTF-16 without a mark is recognised from ASCII text only")
    copy = tmp_path / name
    copy.write_bytes(ENCODINGS[encoding](text))
    options = {"field": "sentiment"} if name.startswith("label_studio") else {}
    try:
        expected = describe(DATA / name, **options)
    except accord.AccordError as exc:
        with pytest.raises(type(exc)) as got:
            describe(copy, **options)
        assert str(got.value).replace(str(tmp_path), str(DATA)) == str(exc)
        return
    found = describe(copy, **options)
    _same_summary(found, expected, tmp_path, DATA)
    assert any("decoded from" in line for line in found["audit_lines"]), found["audit_lines"]


def test_a_decoded_file_is_audited_under_its_own_name(tmp_path: Path) -> None:
    path = tmp_path / "sheet.csv"
    path.write_bytes("item,a,b\nu1,pos,neg\nu2,neg,neg\n".encode("utf-16"))
    ann = accord.read(path)
    assert ann.categories == ("neg", "pos") and ann.audit.source == str(path)
    assert f"{path}: decoded from UTF-16 (little-endian)" in ann.audit.notes


@pytest.mark.parametrize(("data", "message"), [
    (b"item,a,b\nu1,caf\xe9,x\n", r"sheet.csv, line 2: not valid UTF-8 text \(byte 0xe9\)"),
    (b"\xff\xfe" + "item,a\nu1,x\n".encode("utf-16-le") + b"\x00\xd8\x41\x00",
     r"sheet.csv, line 3: not valid UTF-16 \(little-endian\) text"),
])
def test_undecodable_text_is_refused_naming_the_encoding_and_line(tmp_path: Path, data: bytes,
                                                                   message: str) -> None:
    path = tmp_path / "sheet.csv"
    path.write_bytes(data)
    with pytest.raises(accord.FormatError, match=message):
        accord.read(path)


def test_a_json_export_in_latin_1_is_refused_with_its_line(tmp_path: Path) -> None:
    path = tmp_path / "export.jsonl"
    path.write_bytes(b'{"text": "ok", "answer": "accept"}\n{"text": "caf\xe9"}\n')
    with pytest.raises(accord.FormatError, match=r"line 2: not valid UTF-8 text"):
        accord.read(path, format="prodigy")


# --------------------------------------------------------------------------- pipes and devices
def _fifo_with(tmp_path: Path, body: bytes) -> tuple[Path, threading.Thread]:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)

    def feed() -> None:
        try:
            with open(fifo, "wb") as fh:
                fh.write(body)
        except BrokenPipeError:  # the reader refused the stream and stopped reading
            pass

    thread = threading.Thread(target=feed, daemon=True)
    thread.start()
    return fifo, thread


def test_a_pipe_loses_no_bytes_to_format_detection(tmp_path: Path) -> None:
    rows = [f"u{i},{'ab'[i % 2]},{'ab'[i % 3 % 2]}" for i in range(3000)]
    fifo, thread = _fifo_with(tmp_path, ("item,x,y\n" + "\n".join(rows) + "\n").encode())
    ann = accord.read(fifo)
    thread.join(5)
    assert ann.n_units == 3000 and ann.audit.source == str(fifo)
    assert any("read from a pipe" in n for n in ann.audit.notes)


def test_a_utf16_pipe_is_decoded(tmp_path: Path) -> None:
    fifo, thread = _fifo_with(tmp_path, "item,x,y\nu1,a,b\nu2,a,a\n".encode("utf-16"))
    ann = accord.read(fifo)
    thread.join(5)
    assert ann.n_units == 2 and any("decoded from UTF-16" in n for n in ann.audit.notes)


def test_standard_input_through_the_command_line(tmp_path: Path) -> None:
    body = "item,x,y\n" + "".join(f"u{i},a,{'ab'[i % 2]}\n" for i in range(3000))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run([sys.executable, "-m", "accord", "inspect", "/dev/stdin", "--json"],
                          input=body, capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    assert '"units": 3000' in done.stdout


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_an_endless_device_is_refused_at_once(device: str) -> None:
    with pytest.raises(accord.FormatError, match=f"{device}: is a device"):
        accord.read(device)


def test_a_pipe_of_nul_bytes_is_refused_at_once(tmp_path: Path) -> None:
    fifo, thread = _fifo_with(tmp_path, b"\x00" * (4 * 1024**2))
    with pytest.raises(accord.FormatError, match="pipe: holds only NUL bytes"):
        accord.read(fifo)
    thread.join(5)


def test_a_device_inside_a_project_folder_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "brat" / "ann"
    folder.mkdir(parents=True)
    (folder / "doc.txt").write_text("text", encoding="utf-8")
    (folder / "doc.ann").symlink_to("/dev/zero")
    with pytest.raises(accord.FormatError, match="not a regular file"):
        accord.read(tmp_path / "brat", format="brat")


def _brat_project(root: Path, annotators: list[str]) -> None:
    for name in annotators:
        folder = root / name
        folder.mkdir(parents=True)
        (folder / "doc1.txt").write_text("Alice met Bob.", encoding="utf-8")
        (folder / "doc1.ann").write_text("T1\tPerson 0 5\tAlice\n", encoding="utf-8")


def test_an_unreadable_annotator_folder_is_an_error(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    _brat_project(tmp_path / "project", ["ann", "bob", "carol"])
    assert len(accord.read(tmp_path / "project", format="brat").raters) == 3
    real = os.scandir
    locked = str(tmp_path / "project" / "carol")

    def scandir(path: Any = ".") -> Any:
        if str(path) == locked:
            raise PermissionError(13, "Permission denied", str(path))
        return real(path)

    monkeypatch.setattr(os, "scandir", scandir)
    with pytest.raises(accord.FormatError, match=f"{locked}: cannot be read .Permission denied"):
        accord.read(tmp_path / "project", format="brat")


# --------------------------------------------------------------------------- numbers and markers
def _csv(tmp_path: Path, rows: list[tuple[str, str]], name: str = "t.csv") -> Path:
    path = tmp_path / name
    path.write_text("item,a,b\n" + "".join(f"u{i},{a},{b}\n" for i, (a, b) in enumerate(rows)),
                    encoding="utf-8")
    return path


def test_numbers_beyond_float_precision_stay_distinct(tmp_path: Path) -> None:
    big = [("1234567890123456789", "1234567890123456788"), ("5", "5")]
    ann = accord.read(_csv(tmp_path, big))
    assert ann.categories == ("1234567890123456788", "1234567890123456789", "5")
    assert accord.percent_agreement(ann).estimate == 0.5  # the two long numbers differ
    assert any("more digits than a 64-bit float holds" in n for n in ann.audit.notes)


def test_numbers_that_survive_a_float_are_numbers(tmp_path: Path) -> None:
    ann = accord.read(_csv(tmp_path, [("0.1", "0.10"), ("2.5", "1e3"), ("1.000", "1")]))
    assert ann.categories == (0.1, 1.0, 2.5, 1000.0)
    assert "labels read as numbers" in ann.audit.notes


def test_long_numbers_on_an_interval_scale_are_rounded_with_a_note(tmp_path: Path) -> None:
    ann = accord.read(_csv(tmp_path, [("0.12345678901234567891", "2"), ("3", "3")]),
                      level="interval")
    assert 0.12345678901234568 in ann.categories
    assert any("were rounded to the nearest float" in n for n in ann.audit.notes)


@pytest.mark.parametrize(("a", "b"), [("1e999", "2e999"), ("-1e400", "3"), ("inf", "3"),
                                      ("-Infinity", "2"), ("1", "INF")])
def test_infinities_spelled_in_the_data_are_refused(tmp_path: Path, a: str, b: str) -> None:
    with pytest.raises(accord.DataError, match="finite"):
        accord.read(_csv(tmp_path, [(a, b), ("1", "2")]))


def test_an_infinity_in_a_numeric_parquet_column_is_refused(tmp_path: Path) -> None:
    import polars as pl

    path = tmp_path / "t.parquet"
    pl.DataFrame({"item": ["u1", "u2"], "a": [1.0, float("inf")], "b": [1.0, 2.0]}).write_parquet(
        path)
    with pytest.raises(accord.DataError, match="inf, not a finite number"):
        accord.read(path)


def test_a_word_among_words_is_a_category(tmp_path: Path) -> None:
    ann = accord.read(_csv(tmp_path, [("INF", "NOUN"), ("VERB", "INF")]))
    assert ann.categories == ("INF", "NOUN", "VERB")


@pytest.mark.parametrize("marker", ["NA ", " nan ", "NAN", "Null", " N/A", "\tna", " . "])
def test_missing_markers_are_matched_trimmed_and_in_any_case(tmp_path: Path,
                                                              marker: str) -> None:
    ann = accord.read(_csv(tmp_path, [("pos", marker), ("neg", "neg"), ("pos", "pos")]))
    assert ann.categories == ("neg", "pos") and ann.audit.dropped == {"missing value": 1}


def test_extra_missing_markers_are_matched_trimmed(tmp_path: Path) -> None:
    ann = accord.read(_csv(tmp_path, [("pos", " skip "), ("neg", "neg")]), missing=["skip"])
    assert ann.categories == ("neg", "pos") and ann.audit.dropped == {"missing value": 1}


# --------------------------------------------------------------------------- study files
STUDY = 'title = "Pilot"\n[acceptance]\nrule = "cohen_kappa >= 0.6"\n'


@pytest.mark.parametrize("encoding", ["utf-8-bom", "utf-16", "utf-32", "utf-16-le-no-bom"])
def test_a_study_file_in_any_unicode_encoding_is_read(tmp_path: Path, encoding: str) -> None:
    path = tmp_path / "study.toml"
    path.write_bytes(ENCODINGS[encoding](STUDY))
    assert accord.load_study(path).title == "Pilot"


@pytest.mark.parametrize(("data", "message"), [
    ('title = "caf\xe9"\n'.encode("latin-1"), r"line 1: not valid UTF-8 text \(byte 0xe9\)"),
    (b"\xff\xfe" + 'title = "x"\n'.encode("utf-16-le") + b"\x00\xdc", "not valid UTF-16"),
    (b"x = " + b"[" * 100_000 + b"]" * 100_000 + b"\n", "not valid TOML"),
])
def test_a_study_file_that_cannot_be_decoded_or_parsed_is_one_sentence(
        tmp_path: Path, data: bytes, message: str) -> None:
    path = tmp_path / "study.toml"
    path.write_bytes(data)
    with pytest.raises(StudyError, match=message):
        accord.load_study(path)


def test_a_device_as_study_file_is_refused() -> None:
    with pytest.raises(StudyError, match="/dev/zero: is not a regular file"):
        accord.load_study("/dev/zero")


def _study_with_items(tmp_path: Path, items_file: str) -> Path:
    path = tmp_path / "study.toml"
    path.write_text(f'[population]\nitems_file = "{items_file}"\n'
                    '[acceptance]\nrule = "cohen_kappa >= 0.6"\n', encoding="utf-8")
    return path


@pytest.mark.parametrize("items_file", ["/etc/passwd", "../outside.txt", "link.txt"])
def test_an_items_file_outside_the_study_folder_is_refused(tmp_path: Path,
                                                           items_file: str) -> None:
    folder = tmp_path / "study"
    folder.mkdir()
    (tmp_path / "outside.txt").write_text("secret\n", encoding="utf-8")
    (folder / "link.txt").symlink_to("/etc/passwd")
    with pytest.raises(StudyError, match="outside the study's folder"):
        accord.load_study(_study_with_items(folder, items_file))


def test_an_items_file_linked_to_a_device_is_refused(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "zero.txt").symlink_to("/dev/zero")
    with pytest.raises(StudyError, match="outside the study's folder"):
        accord.load_study(_study_with_items(tmp_path, "zero.txt"))
    os.mkfifo(tmp_path / "sub" / "fifo.txt")
    with pytest.raises(StudyError, match="is not a regular file"):
        accord.load_study(_study_with_items(tmp_path, "sub/fifo.txt"))


@pytest.mark.parametrize(("body", "message"), [
    ("u1\nu2\x1b[2J\n", r"item 2 \('u2\\x1b\[2J'\) is not an item id"),
    ("u1\n" + "x" * 1001 + "\n", "item 2"),
    (b"u1\ncaf\xe9\n", "line 2: not valid UTF-8"),
])
def test_the_items_file_content_is_validated(tmp_path: Path, body: str | bytes,
                                             message: str) -> None:
    items = tmp_path / "items.txt"
    if isinstance(body, bytes):
        items.write_bytes(body)
    else:
        items.write_text(body, encoding="utf-8")
    with pytest.raises(StudyError, match=message):
        accord.load_study(_study_with_items(tmp_path, "items.txt"))


def test_an_items_file_in_utf16_is_read(tmp_path: Path) -> None:
    (tmp_path / "items.txt").write_bytes("u1\nu2\n".encode("utf-16"))
    study = accord.load_study(_study_with_items(tmp_path, "items.txt"))
    assert study.population.items == ("u1", "u2")


def test_check_with_an_undecodable_study_is_bad_usage(tmp_path: Path) -> None:
    from tests.conftest import run_cli

    data = tmp_path / "d.csv"
    data.write_text("item,a,b\n1,x,x\n2,y,y\n", encoding="utf-8")
    study = tmp_path / "study.toml"
    study.write_bytes('title = "caf\xe9"\n'.encode("latin-1"))
    code, _, err = run_cli("check", str(data), "--study", str(study))
    assert code == 2 and "not valid UTF-8" in err and "Traceback" not in err


def test_an_infinite_label_in_a_tool_export_is_refused(tmp_path: Path) -> None:
    import json

    lines = (DATA / "argilla_v2_flat.jsonl").read_text(encoding="utf-8").splitlines()
    first = json.loads(lines[0])
    first["sentiment.responses"] = [1e999, "positive", "negative"]  # 1e999 reads as inf
    path = tmp_path / "argilla.jsonl"
    path.write_text("\n".join([json.dumps(first), *lines[1:]]) + "\n", encoding="utf-8")
    with pytest.raises(accord.FormatError, match="inf, not a finite number"):
        accord.read(path, field="sentiment")


@given(st.text(max_size=40), st.sampled_from(sorted(set(ENCODINGS) - {"utf-16-le-no-bom"})))
def test_decoding_round_trips_every_text(text: str, encoding: str) -> None:
    from accord.data._files import decode

    # UTF-16's mark followed by a NUL character is the UTF-32 mark (FF FE 00 00), and
    # a text of whole NUL pairs is valid UTF-32 too: that case is read as UTF-32
    assume(not (encoding == "utf-16" and text.startswith("\x00")))

    assert decode(ENCODINGS[encoding](text), "x") == text  # st.text() holds no lone surrogate

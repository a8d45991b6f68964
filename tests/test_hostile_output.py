"""Hostile labels and faulty disks against every output: nothing injected, nothing lost.

The CSV rules follow OWASP's CSV-injection advice and OWASP ASVS 5.0 requirement
1.2.10 (quote every cell holding CR, LF or the delimiter; neutralise formula starts
after leading blanks and in full-width forms); terminal escapes are spelled out as
in CVE-2021-42574 ("Trojan Source") and the clipboard-writing OSC 52 sequence.
"""

from __future__ import annotations

import csv
import errno
import io
import os
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import accord
from accord.cli._terminal import visible
from accord.data import _files
from accord.interpret.disagreements import neutralise_cell
from tests.conftest import run_cli as run

ESC = "\x1b"
CLEAR_AND_FAKE = ESC + "[2J" + ESC + "[HACCEPTED"
CLIPBOARD = ESC + "]52;c;ZWNobyBwd25lZA==" + "\x07"


def _review(labels_a: list[str], labels_b: list[str]) -> str:
    ann = accord.Annotations.from_wide({"a": labels_a, "b": labels_b})
    return accord.disagreements(ann).to_csv()


# --------------------------------------------------------------------------- CSV injection
@pytest.mark.parametrize("label", [
    "ok\r=cmd|' /C calc'!A0", "\r=1+2", "x\n=1+2", "a,b\r\n@SUM(1)", 'q"\r+1',
])
def test_no_physical_line_of_the_review_starts_a_formula(label: str) -> None:
    text = _review([label, "x"], ["other", "y"])
    # every CR and LF of a label is inside quotes: a reader that ends a row at a bare
    # CR (Python's csv module does) still sees three rows, and no cell starts a formula
    outside = re.sub(r'"(?:[^"]|"")*"', "", text)
    assert "\r" not in outside.replace("\r\n", "")
    rows = list(csv.reader(io.StringIO(text, newline="")))
    assert len(rows) == 3 and rows[1][1] == neutralise_cell(label)
    assert all(neutralise_cell(cell) == cell for row in rows for cell in row)


@pytest.mark.parametrize("cell", [
    " =1+2", "\t=1+2", "\x00=1+2", "\x00", "\u3000=1", "\uff1d1+2", " \uff0b1", "\u200b@x",
    "\x1b=1", "-1+2", "+ 3", "@", "=",
])
def test_formula_starts_after_blanks_and_full_width_are_neutralised(cell: str) -> None:
    assert neutralise_cell(cell) == "'" + cell


@pytest.mark.parametrize("cell", ["-1", "-2.5", "+3", "0", "1e-3", "-.5", "12", "3.", "+1E+9"])
def test_plain_numbers_stay_numbers(cell: str) -> None:
    assert neutralise_cell(cell) == cell
    text = _review([cell, "a"], ["b", "c"])
    assert list(csv.reader(io.StringIO(text, newline="")))[1][1] == cell


@given(st.text(max_size=12))
def test_any_label_round_trips_and_never_starts_a_formula(label: str) -> None:
    cell = neutralise_cell(label)
    assert cell in (label, "'" + label)
    if cell == label and label:
        stripped = label.lstrip()
        assert stripped[:1] not in ("=", "@", "\uff1d") or re.fullmatch(r"[+-]?[\d.eE+-]+", label)
    other = "y" if label != "y" else "z"  # the first unit must be a disagreement
    row = list(csv.reader(io.StringIO(_review([label or "x", "p"], [other, "q"]), newline="")))
    assert row[1][1] == neutralise_cell(label or "x") and len(row) == 3


# --------------------------------------------------------------------------- terminal escapes
def test_visible_spells_out_control_characters() -> None:
    assert visible(CLEAR_AND_FAKE) == "\\x1b[2J\\x1b[HACCEPTED"
    assert visible(CLIPBOARD) == "\\x1b]52;c;ZWNobyBwd25lZA==\\x07"
    assert visible("a\u202eb\u2066c") == "a\\u202eb\\u2066c"
    assert visible("line\nnext\x9b") == "line\nnext\\x9b"
    assert visible("plain é 漢字") == "plain é 漢字"


@pytest.fixture()
def evil_csv(tmp_path: Path) -> Path:
    rows = ["item,rater" + CLEAR_AND_FAKE + ",bob" + CLIPBOARD]
    labels = [("pos" + CLEAR_AND_FAKE, "pos"), ("neg", "neg"), ("pos", "neg"),
              ("neg" + CLIPBOARD, "neg" + CLIPBOARD), ("pos" + CLEAR_AND_FAKE, "neg")]
    rows += [f"u{i},{a},{b}" for i, (a, b) in enumerate(labels)]
    path = tmp_path / "evil.csv"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("command", [
    ["compute"], ["table"], ["inspect"], ["report"],
    ["check", "--coefficient", "cohen_kappa", "--min", "0.9"],
    ["disagreements", "-o", "review.csv"],
    ["table", "--raters", "bob" + CLIPBOARD, "nobody"],
    ["check", "--coefficient", "cohen_kappa", "--min", "0.5", "--categories", "pos"],
    ["compute", "--raters", "bob" + CLIPBOARD, "nobody"],
    ["evaluate", "--gold", "rater" + CLEAR_AND_FAKE, "--predicted", "bob" + CLIPBOARD],
])
def test_no_command_sends_an_escape_sequence_to_the_console(evil_csv: Path,
                                                              command: list[str]) -> None:
    args = [str(evil_csv.parent / a) if a == "review.csv" else a for a in command[1:]]
    code, out, err = run(command[0], str(evil_csv), *args)
    assert ESC not in out and ESC not in err and "\x07" not in out + err, (out, err)
    shows_data = command[0] not in ("check", "disagreements") or len(command) > 5
    assert "\\x1b" in out + err or not shows_data, (code, out, err)


def test_the_review_csv_is_exact_in_a_pipe_and_visible_on_a_terminal(
        evil_csv: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _, piped, _ = run("disagreements", str(evil_csv))
    rows = list(csv.reader(io.StringIO(piped, newline="")))
    assert rows[1][1] == "pos" + CLEAR_AND_FAKE  # labels as written, for a file
    monkeypatch.setattr("accord.cli.report._on_terminal", lambda: True)
    _, shown, _ = run("disagreements", str(evil_csv))
    assert ESC not in shown and "pos\\x1b[2J" in shown


# --------------------------------------------------------------------------- full disk
class _FullDisk:
    """A file whose writes fail as on a full disk."""

    def __init__(self, fh: Any) -> None:
        self.fh = fh

    def __enter__(self) -> _FullDisk:
        return self

    def __exit__(self, *exc: object) -> None:
        self.fh.close()

    def write(self, text: str) -> int:
        self.fh.write(text[: len(text) // 2])
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


@pytest.fixture()
def full_disk(monkeypatch: pytest.MonkeyPatch) -> None:
    real = os.fdopen
    monkeypatch.setattr(_files.os, "fdopen", lambda *a, **k: _FullDisk(real(*a, **k)))


def _pilot() -> accord.Annotations:
    return accord.Annotations.from_wide({"a": ["x", "y", "x", "y"], "b": ["x", "x", "y", "y"]})


WRITERS = {
    "report.html": lambda p: accord.report(_pilot()).save(p),
    "report.md": lambda p: accord.report(_pilot()).save(p),
    "report.json": lambda p: accord.report(_pilot()).save(p),
    "review.csv": lambda p: accord.disagreements(_pilot()).to_csv(p),
}


@pytest.mark.filterwarnings("ignore::accord.DegenerateDataWarning")
@pytest.mark.parametrize("name", sorted(WRITERS))
def test_every_writer_keeps_the_previous_file_on_a_full_disk(tmp_path: Path, name: str,
                                                              full_disk: None) -> None:
    path = tmp_path / name
    path.write_text("adjudicated by hand\n", encoding="utf-8")
    with pytest.raises(OSError, match=re.escape(str(path)) + ".*No space left"):
        WRITERS[name](path)
    assert path.read_text(encoding="utf-8") == "adjudicated by hand\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]  # no temporary file left


@pytest.mark.parametrize(("command", "name"), [
    (["report", "-q", "-o"], "report.html"), (["report", "-q", "-o"], "report.json"),
    (["disagreements", "-o"], "review.csv"),
])
def test_cli_writers_keep_the_previous_file_on_a_full_disk(tmp_path: Path, full_disk: None,
                                                           command: list[str], name: str) -> None:
    data = tmp_path / "data.csv"
    data.write_text("item,a,b\n1,x,x\n2,x,y\n3,y,y\n4,y,x\n", encoding="utf-8")
    path = tmp_path / name
    path.write_text("before\n", encoding="utf-8")
    code, out, err = run(command[0], str(data), *command[1:], str(path))
    assert code == 1 and str(path) in err and "No space left" in err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert path.read_text(encoding="utf-8") == "before\n"


def test_a_new_file_gets_the_usual_permissions(tmp_path: Path) -> None:
    path = tmp_path / "new.csv"
    accord.disagreements(_pilot()).to_csv(path)
    mask = os.umask(0)
    os.umask(mask)
    assert path.stat().st_mode & 0o777 == 0o666 & ~mask


def test_a_link_is_followed_and_kept(tmp_path: Path) -> None:
    real = tmp_path / "real.csv"
    real.write_text("old", encoding="utf-8")
    link = tmp_path / "link.csv"
    link.symlink_to(real)
    accord.disagreements(_pilot()).to_csv(link)
    assert link.is_symlink() and real.read_text(encoding="utf-8").startswith("unit,a,b")


def test_a_device_is_written_to_not_replaced() -> None:
    with pytest.raises(OSError, match="could not write /dev/full: No space left"):
        accord.disagreements(_pilot()).to_csv("/dev/full")
    assert Path("/dev/full").is_char_device()


# --------------------------------------------------------------------------- onto an input
@pytest.mark.parametrize("command", [["disagreements"], ["report", "-q", "--to", "json"]])
def test_an_output_onto_the_input_is_refused(tmp_path: Path, command: list[str]) -> None:
    data = tmp_path / "data.csv"
    body = "item,a,b\n1,x,x\n2,x,y\n"
    data.write_text(body, encoding="utf-8")
    link = tmp_path / "link.csv"
    link.symlink_to(data)
    for target in (data, link, tmp_path / "." / "data.csv"):
        code, _, err = run(command[0], str(data), *command[1:], "-o", str(target))
        assert code == 2 and "is a file being read" in err, (target, err)
    assert data.read_text(encoding="utf-8") == body


def test_a_report_on_standard_output_is_visible_on_a_terminal(
        evil_csv: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _, piped, _ = run("report", str(evil_csv), "-o", "-", "--to", "markdown")
    monkeypatch.setattr("accord.cli.report._on_terminal", lambda: True)
    _, shown, _ = run("report", str(evil_csv), "-o", "-", "--to", "markdown")
    assert ESC not in shown and "\\x1b" in shown
    assert len(shown) >= len(piped) > 0


@given(st.text())
def test_visible_text_holds_no_control_character(text: str) -> None:
    import unicodedata

    shown = visible(text)
    assert all(c == "\n" or unicodedata.category(c) != "Cc" for c in shown)
    assert not any(c in shown for c in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
    if text.isprintable():
        assert shown == text  # ordinary text is left alone


def test_span_tables_show_escapes_visibly(tmp_path: Path) -> None:
    path = tmp_path / "spans.csv"
    rows = ["doc,annotator,label,start,end", f"d1,ana,PER{CLEAR_AND_FAKE},0,5",
            f"d1,bob{CLIPBOARD},PER{CLEAR_AND_FAKE},0,5", "d2,ana,LOC,3,8",
            f"d2,bob{CLIPBOARD},ORG,3,8"]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    code, out, err = run("spans", str(path), "--unit", "doc", "--rater", "annotator",
                         "--label", "label", "--start", "start", "--end", "end")
    assert code == 0, err
    assert ESC not in out + err and "\x07" not in out + err
    assert "PER\\x1b[2J" in out

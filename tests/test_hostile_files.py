"""Hostile files and disks on the newest surfaces: names with glob characters, pairwise
judge files of the wrong shape, damaged history stores, a full disk. Each ends in one
sentence (never "a defect in accord"), and a store is left byte for byte as it was."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import polars as pl
import pytest

import accord
from accord.history import store as store_module
from accord.history.store import Store, StoreError
from tests.conftest import run_cli as run

ROOT = Path(__file__).resolve().parents[1]
PILOT = ROOT / "examples" / "pilot.csv"
RATERS = ("--raters", "annotator_a", "annotator_b")


# ------------------------------------------------------------------ glob characters
@pytest.mark.parametrize("name", ["batch[1].csv", "b*.csv", "what?.csv", "x[!a].csv"])
def test_a_file_name_with_glob_characters_is_read_literally(tmp_path: Path, name: str) -> None:
    shutil.copyfile(PILOT, tmp_path / name)
    code, out, err = run("compute", str(tmp_path / name), *RATERS, "--coefficient",
                         "cohen_kappa")
    assert code == 0, err
    assert "kappa = 0.7137" in out  # examples/pilot.csv's Cohen's kappa (test_cli golden)


def test_parquet_folder_by_file_and_record_with_brackets(tmp_path: Path) -> None:
    pl.read_csv(PILOT).write_parquet(tmp_path / "b[2].parquet")
    code, out, err = run("compute", str(tmp_path / "b[2].parquet"), *RATERS, "--coefficient",
                         "cohen_kappa")
    assert code == 0 and "kappa = 0.7137" in out, err
    folder = tmp_path / "weeks"
    folder.mkdir()
    shutil.copyfile(PILOT, folder / "w[1].csv")
    shutil.copyfile(PILOT, folder / "w[2].csv")
    code, out, err = run("compute", str(folder), *RATERS, "--coefficient", "cohen_kappa",
                         "--by", "file")
    assert code == 0, err
    assert "w[1].csv" in out and "w[2].csv" in out
    code, out, err = run("check", str(folder / "w[1].csv"), *RATERS, "--coefficient",
                         "cohen_kappa", "--min", "0.5", "--record", str(tmp_path / "h[1].db"))
    assert code == 0 and "recorded as run 1" in out, err


# ------------------------------------------------------------------ pairwise judge files
def _pairs() -> list[dict[str, Any]]:
    return [{"instruction": f"q{i}", "output_1": "a" * (i + 1), "output_2": "bb",
             "generator_1": "m1", "generator_2": "m2", "annotator": "gpt4",
             "preference": 1 + i % 2} for i in range(6)]


@pytest.mark.parametrize(("key", "value", "said"), [
    ("generator_1", ["m1"], "record 1 has generator_1 ['m1']; expected a name (text)."),
    ("generator_1", {"m": 1}, "record 1 has generator_1 {'m': 1}; expected a name (text)."),
    ("generator_2", True, "record 1 has generator_2 True; expected a name (text)."),
    ("annotator", ["gpt4"], "record 1 has annotator ['gpt4']; expected a name (text)."),
    ("generator_2", "m1", "record 1 compares 'm1' with itself (generator_1 and generator_2 "
                          "are the same); expected two different models."),
])
@pytest.mark.parametrize("command", [("judge", "bias"), ("judge", "rank"), ("report",)])
def test_a_pairwise_record_of_the_wrong_shape_is_named(tmp_path: Path, key: str, value: Any,
                                                       said: str, command: tuple[str, ...]
                                                       ) -> None:
    records = _pairs()
    records[0][key] = value
    path = tmp_path / "annotations.json"
    path.write_text(json.dumps(records))
    extra = ("-o", str(tmp_path / "r.html")) if command == ("report",) else ()
    code, _, err = run(*command, str(path), *extra)
    assert code == 1 and err.strip() == f"accord: error: {path}: {said}"


@pytest.mark.parametrize("line", ["3", "[1, 2]", '"text"', "null"])
def test_a_json_lines_file_with_a_non_object_line_is_named(tmp_path: Path, line: str) -> None:
    path = tmp_path / "pairs.jsonl"
    path.write_text("\n".join([*map(json.dumps, _pairs()), line]) + "\n")
    code, _, err = run("judge", "bias", str(path))
    assert code == 1 and f"{path} line 7 is " in err and "expected one JSON object" in err
    assert "defect" not in err
    with pytest.raises(accord.FormatError, match="record 2 is int 3"):
        from accord.judge.pairs_io import read_pairwise
        read_pairwise([_pairs()[0], 3])  # type: ignore[list-item]


# ------------------------------------------------------------------ damaged stores
DAMAGE = [
    ("UPDATE schema_version SET version = 'abc'", "its schema_version is 'abc'"),
    ("UPDATE runs SET raters = '[not json' WHERE id = 1", "run 1: Expecting value"),
    ("UPDATE runs SET register = '3' WHERE id = 2", "run 2: raters must be a JSON list"),
    ("UPDATE runs SET raters = '{}' WHERE id = 1", "run 1: raters must be a JSON list"),
    ("UPDATE figures SET n_units = 'x' WHERE rowid = 1", "a figure of run"),
]


@pytest.mark.parametrize(("sql", "said"), DAMAGE)
def test_a_damaged_store_is_refused_in_one_sentence_and_left_as_it_is(tmp_path: Path,
                                                                      sql: str, said: str
                                                                      ) -> None:
    path = tmp_path / "h.db"
    shutil.copyfile(ROOT / "examples" / "history.db", path)
    with sqlite3.connect(path) as con:
        con.execute(sql)
    con.close()
    before = path.read_bytes()
    # --json reads every column (the table and the page read the figures only)
    code, out, err = run("history", str(path), "--json")
    assert code == 1 and err.count("\n") == 1 and said in err and "defect" not in err
    assert "damaged" in err and path.read_bytes() == before
    assert json.loads(out)["error"].startswith(f"{path}: ")


class _FullDisk:
    """A SQLite connection on a disk that fills at the statement starting with ``at``:
    SQLite rolls the transaction back itself, as it does on SQLITE_FULL."""

    def __init__(self, con: sqlite3.Connection, at: str) -> None:
        self._con, self._at = con, at

    def execute(self, sql: str, *args: Any) -> Any:
        if sql.lstrip().startswith(self._at):
            if self._con.in_transaction:
                self._con.execute("ROLLBACK")
            raise sqlite3.OperationalError("database or disk is full")
        return self._con.execute(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._con, name)


def _disk_full_at(monkeypatch: pytest.MonkeyPatch, at: str) -> None:
    real = sqlite3.connect
    monkeypatch.setattr(store_module.sqlite3, "connect",
                        lambda *a, **k: _FullDisk(real(*a, **k), at))


def test_a_full_disk_during_record_says_so_and_keeps_the_store(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch
                                                               ) -> None:
    path = tmp_path / "h.db"
    shutil.copyfile(ROOT / "examples" / "history.db", path)
    before = path.read_bytes()
    _disk_full_at(monkeypatch, "INSERT INTO runs")
    k = accord.cohen_kappa(["a", "b", "a", "b"], ["a", "b", "b", "b"])
    with pytest.raises(StoreError) as info:
        Store(path).record_result(k, study="pilot")
    assert "the disk is full" in str(info.value) and "nothing was recorded" in str(info.value)
    assert "damaged" not in str(info.value) and path.read_bytes() == before


def test_a_full_disk_creating_a_store_leaves_no_empty_file(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    _disk_full_at(monkeypatch, "CREATE TABLE runs")
    path = tmp_path / "new.db"
    with pytest.raises(StoreError, match="the disk is full"):
        Store(path)
    assert not path.exists()


# ------------------------------------------------------------------ a full standard output
@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("json_flag", [(), ("--json",)])
def test_a_full_standard_output_is_one_line_without_a_traceback(json_flag: tuple[str, ...]
                                                                 ) -> None:
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "accord", "evaluate", str(ROOT / "examples" / "preds.csv"),
             "--gold", "gold", "--predicted", "model", *json_flag],
            stdout=full, stderr=subprocess.PIPE, text=True, timeout=120,
            env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    assert done.returncode == 1
    assert done.stderr == "accord: error: No space left on device (writing the output)\n"


# ------------------------------------------------------------------ a long history
def _long_store(path: Path, n: int) -> None:
    """``n`` runs of one study, the last one flagged (kappa 0.1 after 0.8s)."""
    store = Store(path)
    good = accord.cohen_kappa(["a", "b"] * 20, ["a", "b"] * 18 + ["b", "a"] * 2)
    store.record_result(good, study="s", threshold=0.5, time="2026-01-01T00:00:00+00:00")
    con = sqlite3.connect(path)
    row = con.execute("SELECT time, study, revision, source, checksum, n_units, n_raters, "
                      "raters, decision, rule, threshold, accord_version, register "
                      "FROM runs").fetchone()
    fig = con.execute("SELECT * FROM figures").fetchone()
    con.executemany(
        "INSERT INTO runs (time, study, revision, source, checksum, n_units, n_raters, raters,"
        " decision, rule, threshold, accord_version, register) VALUES "
        "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(f"2026-01-01T{i // 3600:02d}:{i // 60 % 60:02d}:{i % 60:02d}+00:00", *row[1:])
         for i in range(1, n)])
    con.executemany("INSERT INTO figures VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [(i + 1, *fig[1:3], 0.1 if i == n - 1 else fig[3], *fig[4:])
                     for i in range(1, n)])
    con.commit()
    con.close()


def test_a_long_history_lists_the_last_batches_and_every_flagged_one(tmp_path: Path) -> None:
    path = tmp_path / "h.db"
    _long_store(path, 3000)
    code, out, err = run("history", str(path), "-o", str(tmp_path / "page.html"))
    assert code == 0, err
    assert "2950 earlier batch(es) not listed, the last 50 and every flagged one are" in out
    assert out.count("FLAGGED") == 1
    page = (tmp_path / "page.html").read_text()
    assert "2950 earlier batch(es) not listed" in page and "2900 earlier run(s)" in page
    assert page.count("<circle") == 0 and page.count('class="flagged"') == 1
    assert "over 3000 batches" in page and len(page) < 200_000


def test_reading_without_registers_keeps_every_figure(tmp_path: Path) -> None:
    path = tmp_path / "h.db"
    _long_store(path, 20)
    st = Store(path, create=False)
    full, light = st.runs(), st.runs(registers=False)
    assert [r.figures for r in full] == [r.figures for r in light]
    assert [(r.id, r.time, r.decision) for r in full] == [(r.id, r.time, r.decision)
                                                          for r in light]
    assert full[0].register and light[0].register == {} and light[0].raters == ()

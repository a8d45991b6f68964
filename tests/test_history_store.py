"""The history store: round trip, one transaction per run, parallel writers, refusals."""

from __future__ import annotations

import math
import multiprocessing
import os
import sqlite3
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import accord
from accord.history.store import (
    SCHEMA_VERSION,
    Figure,
    Run,
    Store,
    StoreError,
    file_checksum,
)


def _run(study: str = "s", k: float = 0.7, t: str = "2026-01-01T00:00:00+00:00") -> Run:
    return Run(t, study, (Figure("cohen_kappa", k, 0.05, k - 0.1, k + 0.1, 0.95, "asymptotic",
                                 100), Figure("cohen_kappa", 0.5, rater="ann")),
               "v2", "batch.csv", "abc", 100, 2, ("ann", "bob"), "accepted",
               "cohen_kappa >= 0.6", 0.6, "0.1.0", {"decision": {"status": "accepted"}})


def test_round_trip_keeps_full_precision_and_order(tmp_path: Path) -> None:
    store = Store(tmp_path / "h.db")
    k = 0.1 + 0.2  # 0.30000000000000004: full precision survives
    ids = [store.record(_run(k=k, t=f"2026-01-0{d}T00:00:00+00:00")) for d in (3, 1, 2)]
    runs = store.runs()
    assert [r.id for r in runs] == [ids[1], ids[2], ids[0]]  # time order
    first = runs[0]
    assert first.figures[0].estimate == k and first.figures[1].rater == "ann"
    assert math.isnan(first.figures[1].se)
    assert first.raters == ("ann", "bob") and first.register["decision"]["status"] == "accepted"
    assert first.to_dict()["figures"][1]["se"] is None


def test_record_result_and_the_library_entry_point(tmp_path: Path) -> None:
    store = Store(tmp_path / "h.db")
    res = accord.cohen_kappa([1, 0, 1, 1, 0, 1], [1, 0, 1, 0, 0, 1])
    store.record_result(res, study="x", threshold=0.9)
    (run,) = store.runs("x")
    ci = res.confidence_interval()
    assert run.figures[0].low == ci.low and run.figures[0].high == ci.high
    assert run.decision == "rejected" and run.rule == "cohen_kappa >= 0.9"


def test_two_studies_are_kept_apart(tmp_path: Path) -> None:
    store = Store(tmp_path / "h.db")
    store.record(_run("toxicity"))
    store.record(_run("sentiment", k=0.4))
    store.record(_run("toxicity", k=0.8))
    assert store.studies() == ["toxicity", "sentiment"]
    assert [r.figures[0].estimate for r in store.runs("toxicity")] == [0.7, 0.8]
    assert [r.figures[0].estimate for r in store.runs("sentiment")] == [0.4]
    from accord.history.drift import charts

    assert [(c.study, len(c.points)) for c in charts(store.runs())] == [
        ("toxicity", 2), ("sentiment", 1)]


def test_a_failed_write_leaves_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = Store(tmp_path / "h.db")
    store.record(_run())
    bad = _run()
    bad_fig = Figure("cohen_kappa", 0.5)
    object.__setattr__(bad_fig, "n_units", object())  # cannot be stored: fails mid-run
    with pytest.raises(StoreError):
        store.record(Run(bad.time, "s", (bad.figures[0], bad_fig)))
    assert len(store.runs()) == 1  # neither the run row nor its first figure remain
    with sqlite3.connect(tmp_path / "h.db") as con:
        assert con.execute("SELECT COUNT(*) FROM figures").fetchone()[0] == 2


def _writer(path: str, worker: int, n: int) -> None:
    store = Store(path)
    for i in range(n):
        store.record(_run(f"study-{worker % 2}", k=worker + i / 1000))


def test_parallel_writers_lose_nothing(tmp_path: Path) -> None:
    path = str(tmp_path / "h.db")  # created by the racing writers themselves
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_writer, args=(path, w, 25)) for w in range(4)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
        assert p.exitcode == 0
    runs = Store(path).runs()
    assert len(runs) == 100 and len({r.id for r in runs}) == 100
    assert all(len(r.figures) == 2 for r in runs)
    assert sorted(r.figures[0].estimate for r in runs) == sorted(
        w + i / 1000 for w in range(4) for i in range(25))
    with sqlite3.connect(path) as con:
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def _bytes(path: Path) -> bytes:
    return path.read_bytes()


def test_a_file_that_is_not_a_store_is_refused_and_left_as_it_is(tmp_path: Path) -> None:
    junk = tmp_path / "notes.db"
    junk.write_bytes(b"this is not a database at all\n" * 200)
    before = _bytes(junk)
    with pytest.raises(StoreError, match="not an accord history store, or a damaged one"):
        Store(junk)
    assert _bytes(junk) == before
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as con:
        con.execute("CREATE TABLE orders (id INTEGER)")
    before = _bytes(other)
    with pytest.raises(StoreError, match="not an accord history store \\(its tables: orders\\)"):
        Store(other).record(_run())
    assert _bytes(other) == before


def test_a_damaged_store_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "h.db"
    store = Store(path)
    for i in range(50):
        store.record(_run(k=i / 100))
    data = bytearray(path.read_bytes())
    data[4096:8192] = b"\xff" * 4096  # a page of the tables overwritten
    path.write_bytes(bytes(data))
    with pytest.raises(StoreError, match="damaged"):
        Store(path).record(_run())  # refused before anything is written
    assert path.read_bytes() == bytes(data)


def test_a_newer_schema_is_refused_and_an_older_one_migrated(tmp_path: Path) -> None:
    path = tmp_path / "h.db"
    Store(path).record(_run())
    with sqlite3.connect(path) as con:
        con.execute("UPDATE schema_version SET version = ?", (SCHEMA_VERSION + 1,))
    before = _bytes(path)
    with pytest.raises(StoreError, match="written by a newer accord"):
        Store(path)
    assert _bytes(path) == before
    old = tmp_path / "old.db"
    with sqlite3.connect(old) as con:  # a store created before any table existed
        con.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        con.execute("INSERT INTO schema_version VALUES (0)")
    Store(old).record(_run())
    assert len(Store(old).runs()) == 1


def test_a_read_only_store_is_refused_in_one_sentence(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "h.db"
    Store(path).record(_run())
    before = _bytes(path)
    # permissions do not bind root, so the check is made to see a read-only disk
    monkeypatch.setattr(os, "access", lambda *a, **k: False)
    with pytest.raises(StoreError, match="cannot be written here \\(read-only"):
        Store(path).record(_run())
    assert len(Store(path).runs()) == 1 and _bytes(path) == before
    monkeypatch.undo()
    # SQLite's own refusal (a read-only file system) reads the same way
    real = sqlite3.connect

    def read_only(target: object, *args: object, **kwargs: object) -> sqlite3.Connection:
        if kwargs.get("uri"):
            return real(target, *args, **kwargs)  # type: ignore[arg-type]
        uri = f"{Path(str(target)).resolve().as_uri()}?mode=ro"
        return real(uri, uri=True, timeout=1, isolation_level=None)

    monkeypatch.setattr(sqlite3, "connect", read_only)
    with pytest.raises(StoreError, match="cannot be written \\(read-only"):
        Store(path).record(_run())
    monkeypatch.undo()
    assert len(Store(path).runs()) == 1


def test_reading_a_missing_store_is_refused(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="no history store here"):
        Store(tmp_path / "missing.db", create=False)
    assert not (tmp_path / "missing.db").exists()


def test_checksum_is_sha256(tmp_path: Path) -> None:
    import hashlib

    f = tmp_path / "a.csv"
    f.write_bytes(b"item,a,b\n1,x,y\n")
    assert file_checksum(str(f)) == hashlib.sha256(b"item,a,b\n1,x,y\n").hexdigest()
    g = tmp_path / "b.csv"
    g.write_bytes(b"z")
    assert file_checksum([str(f), str(g)]) != file_checksum([str(g), str(f)])


@settings(max_examples=25, deadline=None)
@given(st.text(max_size=40), st.text(max_size=40),
       st.floats(allow_nan=True, allow_infinity=False, width=64),
       st.floats(min_value=0, max_value=10, allow_nan=False))
def test_any_text_and_number_survive_the_round_trip(study: str, source: str, estimate: float,
                                                     se: float) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp) / "h.db")
        store.record(Run("2026-01-01", study, (Figure("cohen_kappa", estimate, se),),
                         source=source))
        (run,) = store.runs(study)
    assert run.study == study and run.source == source
    got = run.figures[0].estimate
    assert got == estimate or (math.isnan(got) and math.isnan(estimate))
    assert run.figures[0].se == se

"""Memory and time stay bounded whatever the input asks for; absurd requests are refused.

The bootstrap draws resamples in chunks (Efron & Tibshirani 1993 resampling over
units); its memory is measured here with tracemalloc, which numpy reports to.
"""

from __future__ import annotations

import time
import tracemalloc
from pathlib import Path

import numpy as np
import pytest

import accord
from accord.errors import InvalidParameterError
from accord.inference.bootstrap import MAX_RESAMPLES, bootstrap_distribution
from tests.conftest import run_cli as run


def _pilot_csv(tmp_path: Path) -> Path:
    path = tmp_path / "pilot.csv"
    rows = [f"u{i},{'ab'[i % 2]},{'ab'[i % 3 % 2]}" for i in range(40)]
    path.write_text("item,x,y\n" + "\n".join(rows) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("n", [MAX_RESAMPLES + 1, 10**12])
def test_an_absurd_number_of_resamples_is_refused_at_once(n: int) -> None:
    with pytest.raises(InvalidParameterError, match="at most 10,000,000"):
        accord.Bootstrap(n_resamples=n)


@pytest.mark.parametrize("command", ["compute", "report", "check"])
def test_the_command_line_refuses_an_absurd_number_of_resamples(tmp_path: Path,
                                                                  command: str) -> None:
    extra = ["--coefficient", "cohen_kappa", "--min", "0.1"] if command == "check" else []
    code, _, err = run(command, str(_pilot_csv(tmp_path)), *extra, "--ci", "bootstrap",
                       "--n-resamples", "1000000000")
    assert code == 2 and "--n-resamples" in err and "Traceback" not in err


def test_drawing_memory_does_not_grow_with_the_number_of_resamples() -> None:
    rs = accord.cohen_kappa(["a", "b", "a", "b"] * 50, ["a", "a", "b", "b"] * 50).resampling()
    peaks = []
    for b in (20_000, 80_000):
        tracemalloc.start()
        bootstrap_distribution(rs, b, np.random.default_rng(1), chunk=500)
        peaks.append(tracemalloc.get_traced_memory()[1] - 8 * b)  # less the replicates kept
        tracemalloc.stop()
    assert peaks[1] < peaks[0] * 1.5 + 100_000, peaks


@pytest.mark.parametrize("threshold", ["nan", "inf", "-inf", "NaN"])
def test_a_threshold_that_is_not_finite_is_bad_usage(tmp_path: Path, threshold: str) -> None:
    code, _, err = run("check", str(_pilot_csv(tmp_path)), "--coefficient", "cohen_kappa",
                       f"--min={threshold}")
    assert code == 2 and "not a finite number" in err


# --------------------------------------------------------------------------- zip bombs
def _zip(path: Path, members: dict[str, bytes]) -> Path:
    import zipfile

    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return path


@pytest.mark.parametrize(("fmt", "member", "fill"), [
    ("doccano", "admin.jsonl", b"\x00"), ("doccano", "admin.jsonl", b"\n"),
    ("inception", "annotation/doc1.txt/alice.tsv", b"\x00"),
])
def test_a_zip_bomb_is_refused_before_it_is_expanded(tmp_path: Path, fmt: str, member: str,
                                                     fill: bytes) -> None:
    path = _zip(tmp_path / "export.zip", {member: fill * (48 * 1024**2)})
    assert path.stat().st_size < 200_000
    tracemalloc.start()
    with pytest.raises(accord.FormatError, match="expands more than 200 times"):
        accord.read(path, format=fmt)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 16 * 1024**2


def test_a_corrupted_deflate_stream_is_one_sentence(tmp_path: Path) -> None:
    body = "".join(f'{{"id": {i}, "text": "t{i}", "label": ["pos"]}}\n' for i in range(2000))
    path = _zip(tmp_path / "export.zip", {"admin.jsonl": body.encode()})
    raw = bytearray(path.read_bytes())
    start = raw.index(b"admin.jsonl") + len("admin.jsonl")  # local header, then the stream
    for i in range(start + 40, start + 400):
        raw[i] ^= 0x5A
    path.write_bytes(bytes(raw))
    with pytest.raises(accord.FormatError, match=r"admin.jsonl: cannot be read from the zip"):
        accord.read(path, format="doccano")


def test_a_member_linked_to_a_device_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "doccano"
    folder.mkdir()
    (folder / "admin.jsonl").write_text('{"id": 1, "text": "t", "label": ["pos"]}\n',
                                        encoding="utf-8")
    (folder / "bob.jsonl").symlink_to("/dev/zero")
    with pytest.raises(accord.FormatError, match="bob.jsonl: is not a regular file"):
        accord.read(folder, format="doccano")


def _wide_header(tmp_path: Path, columns: int) -> Path:
    path = tmp_path / f"cols{columns}.csv"
    with path.open("w") as f:
        f.write(",".join(f"r{i}" for i in range(columns)) + "\n")
        for u in range(5):
            f.write(",".join("ab"[(i + u) % 2] for i in range(columns)) + "\n")
    return path


def test_a_header_of_a_hundred_thousand_columns_is_refused_at_once(tmp_path: Path) -> None:
    path = _wide_header(tmp_path, 100_000)
    start = time.perf_counter()
    code, _, err = run("compute", str(path))
    assert time.perf_counter() - start < 60  # before: no answer in 200 s
    assert code == 1 and "100,000 columns" in err and "long table" in err
    assert len(err) < 500


def test_a_thousand_rater_columns_are_probed_in_seconds_and_named_briefly(
        tmp_path: Path) -> None:
    start = time.process_time()
    ann = accord.read(_wide_header(tmp_path, 1000))
    assert time.process_time() - start < 15  # before: 46 s, planning 8,000 expressions
    assert ann.n_raters == 1000
    assert all(len(c) < 600 for c in (*ann.audit.caveats, *ann.audit.notes))
    assert "and 980 more" in ann.audit.caveats[0]


def test_power_for_many_categories_is_refused_in_one_sentence() -> None:
    start = time.perf_counter()
    with pytest.raises(InvalidParameterError, match="too large for 400 categories"):
        accord.plan_power(0.6, 0.4, prevalence=[1 / 400] * 400)
    assert time.perf_counter() - start < 5  # before: 59 s and 4.2 GB


def test_power_for_a_hundred_categories_holds_no_dense_constraints() -> None:
    tracemalloc.start()
    try:
        plan = accord.plan_power(0.6, 0.4, prevalence=[0.01] * 100)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert plan.n_units > 0 and peak < 80 * 2**20  # dense constraints: 110 MiB; sparse: 51


def test_evaluate_with_one_class_per_unit_holds_memory_near_the_table() -> None:
    n = 1000  # a dense 1,000 x 1,000 table: 8 MB
    gold = [f"c{i}" for i in range(n)]
    pred = [f"c{(i + 1) % n}" if i % 3 else f"c{i}" for i in range(n)]
    tracemalloc.start()
    try:
        with pytest.warns(accord.DegenerateDataWarning, match="never predicted"):
            ev = accord.evaluate(gold, pred)
        out = ev.to_dict()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # before: 630 MiB, 9,999 resampled sums of 3,001 features each, then every figure's
    # replicates; beyond 10^7 sums the default falls back to each figure's own interval
    assert peak < 250 * 2**20
    assert out["accuracy"]["confidence_interval"]["method"] == "wilson"
    assert not out["macro"]["f1"]["confidence_interval"]["method"].startswith("bootstrap")
    counts = out["confusion_matrix"]["counts"]
    assert len(counts) == n and counts[0][0] == 1.0 and isinstance(counts[0][1], float)

"""Where the command line writes, and what it writes: never onto a file it reads or a
history store; CSV cells guarded as the disagreements review is (OWASP "CSV
Injection"), labels otherwise kept exact; the user's unit column name kept."""

from __future__ import annotations

import csv
import io
import shutil
from pathlib import Path

import pytest

from tests.conftest import run_cli as run

ROOT = Path(__file__).resolve().parents[1]

STORE = ROOT / "examples" / "history.db"
CROWD = ROOT / "examples" / "crowd.csv"
PILOT = ROOT / "examples" / "pilot.csv"


def _copy(src: Path, dst: Path) -> tuple[Path, bytes]:
    shutil.copyfile(src, dst)
    return dst, dst.read_bytes()


def test_history_page_is_never_written_onto_its_store(tmp_path: Path) -> None:
    store, before = _copy(STORE, tmp_path / "h.db")
    code, _, err = run("history", str(store), "-o", str(store))
    assert code == 2 and "is a file being read" in err and store.read_bytes() == before


@pytest.mark.parametrize("command", [
    ["history", "{store}", "-o", "{other}"],
    ["report", str(PILOT), "--raters", "annotator_a", "annotator_b", "-o", "{other}",
     "--to", "html"],
])
def test_no_page_is_written_onto_a_store_under_another_name(tmp_path: Path,
                                                           command: list[str]) -> None:
    store, _ = _copy(STORE, tmp_path / "h.db")
    other, before = _copy(STORE, tmp_path / "runs.html")
    code, _, err = run(*(c.format(store=store, other=other) for c in command))
    assert code == 2 and "is a database" in err and other.read_bytes() == before


def test_consensus_never_overwrites_its_input(tmp_path: Path) -> None:
    data, before = _copy(CROWD, tmp_path / "crowd.csv")
    for method in ("majority", "mean"):
        code, _, err = run("consensus", str(data), "--unit", "image", "--rater", "worker",
                           "--value", "label", "--method", method, "-o", str(data))
        assert code == 2 and "is a file being read" in err and data.read_bytes() == before


def test_an_output_named_as_the_second_of_several_inputs_is_refused(tmp_path: Path) -> None:
    a, _ = _copy(ROOT / "examples" / "batches" / "batch2.csv", tmp_path / "a.csv")
    b, before = _copy(ROOT / "examples" / "batches" / "batch3.csv", tmp_path / "b.csv")
    code, _, err = run("disagreements", str(a), str(b), "--raters", "annotator_a",
                       "annotator_b", "-o", str(b))
    assert code == 2 and f"-o {b} is a file being read" in err and b.read_bytes() == before


def test_consensus_csv_keeps_the_unit_column_name(tmp_path: Path) -> None:
    out = tmp_path / "c.csv"
    code, _, _ = run("consensus", str(CROWD), "--unit", "image", "--rater", "worker",
                     "--value", "label", "--method", "majority", "-o", str(out))
    assert code == 0
    assert out.read_text().splitlines()[0] == "image,label,posterior,n_ratings"
    scores = ROOT / "examples" / "scores.csv"
    code, _, _ = run("consensus", str(scores), "--unit", "item_id", "--method", "mean",
                     "-o", str(out))
    assert code == 0 and out.read_text().splitlines()[0] == "item_id,score,se,n_ratings"


def test_a_unit_column_named_like_an_output_column_is_not_repeated(tmp_path: Path) -> None:
    data = tmp_path / "d.csv"
    data.write_text("label,worker,value\n1,a,x\n1,b,x\n2,a,y\n2,b,x\n")
    out = tmp_path / "c.csv"
    code, _, _ = run("consensus", str(data), "--unit", "label", "--rater", "worker",
                     "--value", "value", "--method", "majority", "-o", str(out))
    assert code == 0 and out.read_text().splitlines()[0] == "unit,label,posterior,n_ratings"


HOSTILE = ['=HYPERLINK("http://x","y")', "+1+2", "-2+3", "@SUM(A1)", "\t=1", "\x00x",
           "a\x1b]52;c;Zm9v\x07b", "\u202eab"]


def test_consensus_csv_guards_formula_cells_and_keeps_labels_exact(tmp_path: Path) -> None:
    data = tmp_path / "evil.csv"
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(["item", "a", "b"])
    for i, label in enumerate(HOSTILE):
        w.writerow([f"u{i}", label, label])
    data.write_text(buf.getvalue())
    out = tmp_path / "c.csv"
    code, _, _ = run("consensus", str(data), "--unit", "item", "--raters", "a", "b",
                     "--method", "majority", "-o", str(out))
    assert code == 0
    rows = {r["item"]: r["label"] for r in csv.DictReader(io.StringIO(out.read_text()))}
    expected = {  # a quote before each formula start (as the disagreements review does)
        '=HYPERLINK("http://x","y")': '\'=HYPERLINK("http://x","y")', "+1+2": "'+1+2",
        "-2+3": "'-2+3", "@SUM(A1)": "'@SUM(A1)", "\t=1": "'\t=1", "\x00x": "'\x00x",
        "a\x1b]52;c;Zm9v\x07b": "a\x1b]52;c;Zm9v\x07b", "\u202eab": "\u202eab"}
    assert {rows[f"u{i}"] for i in range(len(HOSTILE))} == set(expected.values())


def test_disagreements_keeps_the_unit_name_and_never_repeats_a_header(tmp_path: Path) -> None:
    data = tmp_path / "w.csv"
    data.write_text("item_id,a,b,comment\n1,x,y,c1\n2,x,x,c2\n")
    code, out, _ = run("disagreements", str(data), "--unit", "item_id", "--raters", "a", "b",
                       "--context", "comment")
    assert code == 0
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0] == ["item_id", "comment", "a", "b", "n_ratings", "agreement",
                       "adjudicated", "comment_2"]
    assert rows[1] == ["1", "c1", "x", "y", "2", "0.0", "", ""]


def test_a_crowd_review_keeps_the_unit_name(tmp_path: Path) -> None:
    data = tmp_path / "crowd.csv"
    lines = ["image,worker,label"] + [f"i{u},w{r},{'cat' if (u + r) % 3 else 'dog'}"
                                      for u in range(3) for r in range(60)]
    data.write_text("\n".join(lines) + "\n")
    code, out, _ = run("disagreements", str(data), "--unit", "image", "--rater", "worker",
                       "--value", "label")
    assert code == 0
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0] == ["image", "n_ratings", "agreement", "labels", "ratings", "adjudicated",
                       "comment"]
    assert [r[0] for r in rows[1:]] == ["i0", "i1", "i2"] and rows[1][1] == "60"


# ------------------------------------------------------------------ one name, one line
NEWLINE_GROUP = "ok\nevery group accepted"


def _grouped(tmp_path: Path) -> Path:
    path = tmp_path / "groups.csv"
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["item", "grp", "a", "b"])
        for i in range(40):
            w.writerow([i, NEWLINE_GROUP if i % 2 else "g\u202e1", "x" if i % 3 else "y",
                        "x" if i % 5 else "y"])
    return path


def test_a_group_name_cannot_print_a_fake_decision_line(tmp_path: Path) -> None:
    code, out, _ = run("check", str(_grouped(tmp_path)), "--raters", "a", "b", "--by", "grp",
                       "--coefficient", "cohen_kappa", "--min", "0.9")
    assert code == 1
    lines = out.splitlines()
    assert "every group accepted" not in [line.split(":")[0] for line in lines]
    assert any(line.startswith("ok\\nevery group accepted: REJECTED") for line in lines)
    assert any(line.startswith("g\\u202e1: ") for line in lines)


def test_table_cells_stay_one_row_and_aligned(tmp_path: Path) -> None:
    code, out, _ = run("compute", str(_grouped(tmp_path)), "--raters", "a", "b", "--by", "grp",
                       "--coefficient", "cohen_kappa")
    assert code == 0
    rows = [line for line in out.splitlines() if line.startswith(("g\\u202e1", "ok\\n"))]
    assert len(rows) == 2 and len({r.index(" 20 ") for r in rows}) == 1  # same column


def test_a_label_or_model_name_with_a_newline_stays_on_its_line(tmp_path: Path) -> None:
    crowd = tmp_path / "crowd.csv"
    with crowd.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["item", "worker", "label"])
        for i in range(30):
            for r in range(4):
                w.writerow([i, f"w{r}", "cat\nACCEPTED" if (i + r) % 3 else "dog"])
    code, out, _ = run("consensus", str(crowd), "--unit", "item", "--rater", "worker",
                       "--value", "label", "--method", "majority")
    assert code == 0 and "ACCEPTED" in out
    assert not any(line.lstrip("│ ").startswith("ACCEPTED") for line in out.splitlines())
    import json

    pairs = tmp_path / "pairs.json"
    pairs.write_text(json.dumps([
        {"instruction": f"q{i}", "output_1": "a" * (i + 1), "output_2": "bb",
         "generator_1": "m\nFAKE", "generator_2": "m2" if i % 3 else "m3",
         "preference": 1 + i % 2} for i in range(30)]))
    code, out, _ = run("judge", "rank", str(pairs))
    assert code == 0 and "m\\nFAKE" in out
    assert not any(line.lstrip("│ ").startswith("FAKE") for line in out.splitlines())

"""CSV/TSV/Parquet/JSONL tables, wide and long (FORMATS.md section 2.10 and checklist item 10).

Layouts: wide = one row per item, one column per rater, as krippendorff's
``reliability_data`` (transposed) and R ``irr`` take it; long = (item, rater,
label) triples as NLTK's ``AnnotationTask`` and pingouin's ``intraclass_corr``
take them. The missing markers (empty, NA, ".") are those named in FORMATS.md
2.10 (prodigy-iaa's fixtures use ".").
"""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

import accord
from accord.errors import DataError, DuplicateRatingError, FormatError, InvalidParameterError

DATA = Path(__file__).parent / "data"


def write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_bytes(text.encode())
    return p


def test_wide_csv_keeps_ids_as_text_and_counts_missing_markers():
    ann = accord.read(DATA / "wide_pilot.csv")
    assert ann.units == ("007", "008", "009", "010", "011")
    assert ann.raters == ("ann", "bob", "cy")
    assert ann.categories == ("neg", "neu", "pos")
    # 15 cells: NA, ".", empty and "-" are missing, never categories
    assert ann.audit.rows_read == 15
    assert ann.audit.dropped == {"missing value": 4}
    assert ann.n_ratings == 11
    note = " ".join(ann.audit.notes)
    assert "unit ids: column 'item'" in note and "ignored columns: ['text']" in note


def test_wide_csv_matches_from_wide_on_the_same_cells():
    ann = accord.read(DATA / "wide_pilot.csv")
    ref = accord.Annotations.from_wide(
        {
            "ann": ["pos", "neg", "neu", "pos", "neg"],
            "bob": ["pos", None, "neu", "pos", None],
            "cy": [None, "neg", None, "pos", "neg"],
        }
    )
    assert (ann.wide() == ref.wide()).all()


def test_wide_explicit_raters_ignore_the_rest(tmp_path):
    p = write(tmp_path, "w.csv", "id,a,b,judge_gpt,notes\n1,x,y,x,hm\n2,y,y,y,\n")
    ann = accord.read(p, raters=["a", "b"])
    assert ann.raters == ("a", "b")
    assert any("ignored columns: ['judge_gpt', 'notes']" in n for n in ann.audit.notes)


def test_wide_without_id_column_uses_row_numbers(tmp_path):
    p = write(tmp_path, "w.csv", "r1,r2\n1,1\n2,3\n")
    ann = accord.read(p)
    assert ann.units == (0, 1)
    assert ann.categories == (1, 2, 3)


def test_long_csv_detects_common_names_and_says_so():
    ann = accord.read(DATA / "long_scores.csv")
    assert ann.raters == ("coder_a", "coder_b", "coder_c")
    assert ann.units == ("001", "002", "003", "004")
    assert ann.categories == (1, 2, 3, 4, 5)  # every label an integer: read as numbers
    assert ann.audit.dropped == {"missing value": 1}
    assert any("unit='item_id', rater='annotator', value='rating'" in n for n in ann.audit.caveats)


def test_long_rows_in_any_order_give_the_same_matrix(tmp_path):
    ann = accord.read(DATA / "long_scores.csv")
    lines = (DATA / "long_scores.csv").read_text().splitlines()
    shuffled = write(tmp_path, "s.csv", "\n".join([lines[0], *reversed(lines[1:])]) + "\n")
    other = accord.read(shuffled)
    a = dict(((u, r), c) for u, r, c in ann.records())
    b = dict(((u, r), c) for u, r, c in other.records())
    assert a == b


def test_long_tsv_with_named_columns_and_duplicates(tmp_path):
    p = write(tmp_path, "d.tsv", "doc\twho\tlab\tts\nd1\ta\tx\t2\nd1\tb\ty\t1\nd1\ta\tz\t1\n")
    with pytest.raises(DuplicateRatingError, match="unit 'd1' by rater 'a'"):
        accord.read(p, unit="doc", rater="who", value="lab")
    last = accord.read(p, unit="doc", rater="who", value="lab", duplicates="last")
    assert dict(((u, r), c) for u, r, c in last.records()) == {("d1", "a"): "z", ("d1", "b"): "y"}
    by_time = accord.read(
        p, unit="doc", rater="who", value="lab", duplicates="last", timestamp="ts"
    )
    assert dict(((u, r), c) for u, r, c in by_time.records())[("d1", "a")] == "x"


def test_exact_repeats_collapse(tmp_path):
    p = write(tmp_path, "d.csv", "item,rater,label\n1,a,x\n1,a,x\n1,b,x\n")
    ann = accord.read(p)
    assert ann.n_ratings == 2
    assert any("identical repeated" in n for n in ann.audit.notes)


def test_extra_missing_markers_and_numeric_markers(tmp_path):
    p = write(tmp_path, "d.csv", "item,rater,label\n1,a,3\n1,b,99\n2,a,1\n2,b,missing\n")
    ann = accord.read(p, missing=["99", "missing"])
    assert ann.categories == (1, 3)
    assert ann.audit.dropped == {"missing value": 2}


def test_mixed_labels_stay_text(tmp_path):
    p = write(tmp_path, "d.csv", "item,rater,label\n1,a,01\n1,b,1\n")
    assert accord.read(p).categories == ("01", "1")


def test_declared_categories_keep_unused_and_match_numbers(tmp_path):
    p = write(tmp_path, "d.csv", "item,rater,label\n1,a,1\n1,b,2\n")
    ann = accord.read(p, categories=["1", "2", "3"], level="ordinal")
    assert ann.categories == (1, 2, 3) and ann.level == "ordinal"
    assert sorted(c for _, _, c in ann.records()) == [1, 2]


def test_interval_level_refuses_text_labels(tmp_path):
    p = write(tmp_path, "d.csv", "item,rater,label\n1,a,low\n1,b,2\n")
    with pytest.raises(DataError, match="needs numeric values"):
        accord.read(p, level="interval")


def test_missing_column_is_named(tmp_path):
    p = write(tmp_path, "d.csv", "item,rater,label\n1,a,x\n")
    with pytest.raises(DataError, match="rater column 'coder' not found"):
        accord.read(p, unit="item", rater="coder", value="label")


def test_single_rater_file_is_readable_but_not_pairable(tmp_path):
    p = write(tmp_path, "d.csv", "item,rater,label\n1,a,x\n2,a,y\n")
    ann = accord.read(p)
    assert ann.raters == ("a",)
    with pytest.raises(accord.AccordError, match="at least two raters"):
        ann.require_pairable()


def test_several_files_get_their_own_audit(tmp_path):
    a = write(tmp_path, "a.csv", "item,rater,label\n1,a,x\n2,a,NA\n")
    b = write(tmp_path, "b.csv", "item,rater,label\n1,b,x\n2,b,y\n")
    ann = accord.read([a, b])
    assert ann.raters == ("a", "b")
    assert [(p.source, p.rows_read, p.ratings_used) for p in ann.audit.parts] == [
        (str(a), 2, 1),
        (str(b), 2, 2),
    ]


def test_parquet_long_and_wide(tmp_path):
    long = tmp_path / "l.parquet"
    pl.DataFrame(
        {"item": [7, 7, 8, 8], "annotator": ["a", "b", "a", "b"], "label": ["x", "y", None, "y"]}
    ).write_parquet(long)
    ann = accord.read(long)
    assert ann.units == ("7", "8")  # ids are text even when Parquet stores ints
    assert ann.audit.dropped == {"missing value": 1}
    wide = tmp_path / "w.parquet"
    pl.DataFrame({"id": ["u1", "u2"], "a": [1.0, float("nan")], "b": [2, 3]}).write_parquet(wide)
    ann = accord.read(wide)
    assert ann.raters == ("a", "b") and ann.categories == (1.0, 2.0, 3.0)
    assert ann.audit.dropped == {"missing value": 1}


def test_generic_jsonl_long(tmp_path):
    p = write(
        tmp_path,
        "d.jsonl",
        '{"item": "1", "rater": "a", "label": "x"}\n{"item": "1", "rater": "b", "label": null}\n',
    )
    ann = accord.read(p)
    assert ann.raters == ("a",) and ann.audit.dropped == {"missing value": 1}


def test_ragged_csv_is_one_sentence(tmp_path):
    p = write(tmp_path, "bad.csv", 'item,rater,label\n1,a,x,extra,more\n"2,b\n')
    with pytest.raises(FormatError) as err:
        accord.read(p)
    assert str(p) in str(err.value) and "\n" not in str(err.value)


def test_bad_options_are_named(tmp_path):
    p = write(tmp_path, "d.csv", "item,rater,label\n1,a,x\n")
    with pytest.raises(InvalidParameterError, match="unknown option 'sep'"):
        accord.read(p, sep=";")
    with pytest.raises(InvalidParameterError, match="'format' parameter"):
        accord.read(p, format="excel")
    with pytest.raises(FormatError, match="no such file"):
        accord.read(tmp_path / "nope.csv")
    with pytest.raises(FormatError, match="value="):
        accord.read(p, field="label")


def test_kinds_and_include_kinds(tmp_path):
    p = write(tmp_path, "w.csv", "item,h1,h2,gpt\n1,a,a,b\n2,b,b,b\n")
    ann = accord.read(p, kinds={"gpt": "llm"})
    assert ann.kinds == {"h1": "human", "h2": "human", "gpt": "llm"}
    assert ann.humans().raters == ("h1", "h2")
    assert accord.read(p, kinds={"gpt": "llm"}, include_kinds=["llm"]).raters == ("gpt",)


def test_long_span_table_with_explicit_no_span_rows(tmp_path):
    # FORMATS.md 2.10: spans in long form need (doc, rater, start, end, label) and a way
    # to say "annotated, no spans": here a row with empty start and end.
    p = write(
        tmp_path,
        "spans.csv",
        "doc_id,annotator,start,end,label\n"
        "d1,ann,0,4,PER\nd1,bob,0,4,PER\nd1,bob,10,14,LOC\nd2,ann,,,\nd2,bob,3,5,\n",
    )
    ann = accord.read(p, start="start", end="end")
    spans = ann.spans
    assert [(s.rater, s.start, s.end, s.label) for s in spans] == [
        ("ann", 0, 4, "PER"),
        ("bob", 0, 4, "PER"),
        ("bob", 10, 14, "LOC"),
    ]
    assert spans.status("d2", "ann") == "annotated" and spans.of("d2", "ann") == ()
    assert spans.status("d3", "ann") is None
    assert ann.audit.dropped == {"span without a label": 1}
    with pytest.raises(FormatError, match="row 1: expected integer offsets"):
        accord.read(
            write(tmp_path, "bad.csv", "doc_id,annotator,start,end,label\nd,a,5,x,L\n"),
            start="start",
            end="end",
        )


def test_text_labels_that_spell_one_number_differently_are_named(tmp_path):
    """One text label makes every label text, so "1" and "1.0" stay two categories;
    the audit says so, since whether they agree depends on an unrelated row."""
    p = tmp_path / "mixed.csv"
    p.write_text("item,a,b\n1,1,1.0\n2,1,1\n3,x,x\n4,2,2.0\n", encoding="utf-8")
    ann = accord.read(p)
    assert set(ann.categories) == {"1", "1.0", "2", "2.0", "x"}
    note = next(n for n in ann.audit.lines() if "different text labels" in n)
    assert "'1' and '1.0'" in note and "'2' and '2.0'" in note
    numbers = tmp_path / "numbers.csv"
    numbers.write_text("item,a,b\n1,1,1\n2,1,1\n3,2,2\n4,2,2.0\n", encoding="utf-8")
    assert accord.read(numbers).categories == (1.0, 2.0)  # all numbers: one number each


def test_a_header_that_names_a_column_twice_is_refused(tmp_path):
    p = tmp_path / "dup.csv"
    p.write_text("item,a,a,b\n1,x,y,x\n2,y,y,y\n", encoding="utf-8")
    with pytest.raises(FormatError, match=r"line 1: the header names column\(s\) 'a' more "
                                          "than once"):
        accord.read(p)


def test_a_numeric_missing_marker_matches_the_number_however_written(tmp_path):
    """FastChat writes -1 for a judge output it cannot parse; a CSV may hold -1.0."""
    p = tmp_path / "scores.csv"
    p.write_text("item,a,b\n1,1,-1.0\n2,2,2\n3,-1,1\n4,1,1\n", encoding="utf-8")
    ann = accord.read(p, missing=[-1])
    assert ann.n_ratings == 6 and set(ann.categories) == {1, 2}
    assert dict(ann.audit.dropped) == {"missing value": 2}
    assert accord.read(p, missing=["-1"]).n_ratings == 6  # the marker given as text too


@pytest.mark.parametrize("suffix", [".csv", ".tsv"])
def test_lines_ending_in_a_lone_carriage_return_are_named_not_read_as_no_ratings(
        tmp_path: Path, suffix: str) -> None:
    """Old Mac line endings: Polars reads the file as one header line, which used to
    end in "the data hold no ratings"; the reader names the line ending instead."""
    sep = "\t" if suffix == ".tsv" else ","
    path = tmp_path / f"mac{suffix}"
    path.write_bytes("\r".join(sep.join(r) for r in
                               [["unit", "a", "b"], ["1", "x", "x"], ["2", "y", "x"]]).encode()
                     + b"\r")
    with pytest.raises(FormatError) as err:
        accord.read(path)
    assert str(err.value) == (
        f"{path}, line 1: lines end in a lone carriage return (\\r, old Mac line endings), "
        "which the CSV reader does not split; expected \\n or \\r\\n line endings (convert "
        "the file, e.g. with tr '\\r' '\\n')")


def test_carriage_returns_inside_quotes_or_before_a_newline_are_read(tmp_path: Path) -> None:
    """CRLF endings and a quoted header cell holding a CR are not old Mac line endings."""
    crlf = tmp_path / "crlf.csv"
    crlf.write_bytes(b"unit,a,b\r\n1,x,x\r\n2,y,x\r\n3,x,y\r\n")
    quoted = tmp_path / "quoted.csv"
    quoted.write_bytes(b'unit,"a\rb",b\n1,x,x\n2,y,x\n')
    assert accord.read(crlf, raters=["a", "b"]).n_units == 3
    assert accord.read(quoted, raters=["a\rb", "b"]).raters == ("a\rb", "b")


def test_accord_compute_on_old_mac_line_endings_says_the_line_ending(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from accord.cli import main

    path = tmp_path / "mac.csv"
    path.write_bytes(b"unit,a,b\r1,x,x\r2,y,x\r")
    result = CliRunner().invoke(main, ["compute", str(path)])
    assert result.exit_code == 1
    assert "lines end in a lone carriage return" in result.output
    assert "no ratings" not in result.output and "Traceback" not in result.output


def test_only_lines_that_end_in_lone_carriage_returns_count_as_old_mac() -> None:
    from accord.readers.csv import _lone_cr

    assert _lone_cr(b"unit,a,b\r1,x,x\r2,y,x\r")
    assert _lone_cr(b"unit,a,b\r1,x,x\r2,y")  # cut mid-line by the 64 KiB head
    assert not _lone_cr(b"unit,a,b\r\n1,x,x\r\n2,y,x\r")  # CRLF cut between \r and \n
    assert not _lone_cr(b"unit,a\r,b\n1,x,y\n2,x,x\n")  # a stray CR in a file of \n lines
    assert not _lone_cr(b"unit,a,b\r")  # one line: nothing to split

"""brat standoff (FORMATS.md 2.4, checklist item 4).

Line syntax from the brat standoff specification (https://brat.nlplab.org/standoff.html):
``T1<TAB>PER 0 13<TAB>Caius Apicius``, discontinuous ``start end;start end``
with text fragments joined by a space, ``A``/``R``/``#``/``N`` lines; folder
per annotator as in kldtz/bratiaa ``example-files/example-project``
(``Maria/``, ``Max/``, ``Peter/``). CRLF offset shifts: nlplab/brat#1270.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import accord
from accord.errors import FormatError

DATA = Path(__file__).parent / "data"
PROJECT = DATA / "brat_project"
DOC1 = (PROJECT / "Maria" / "news" / "doc1.txt").read_text(encoding="utf-8")


def test_folder_per_annotator_and_code_point_offsets():
    assert accord.readers.detect(PROJECT) == "brat"
    ann = accord.read(PROJECT)
    assert ann.raters == ("Maria", "Max", "Peter")
    maria = ann.spans.of("news/doc1", "Maria")
    assert [(s.label, DOC1[s.start : s.end]) for s in maria[:3]] == [
        ("PER", "Caius Apicius"),
        ("PER", "Zoë"),
        ("LOC", "Tromsø"),
    ]
    assert not any("do not match" in n for p in ann.audit.parts for n in p.notes)


def test_discontinuous_fragments_are_kept():
    ann = accord.read(PROJECT)
    toaster = [s for s in ann.spans.of("news/doc1", "Maria") if s.label == "PRODUCT"][0]
    assert len(toaster.fragments) == 2
    assert " ".join(DOC1[a:b] for a, b in toaster.fragments) == "Marlow toaster"
    assert (toaster.start, toaster.end) == (toaster.fragments[0][0], toaster.fragments[1][1])


def test_empty_ann_is_annotated_and_missing_ann_is_not_covered():
    spans = accord.read(PROJECT).spans
    assert spans.status("news/doc2", "Max") == "annotated" and spans.of("news/doc2", "Max") == ()
    assert spans.status("news/doc2", "Peter") is None


def test_non_t_lines_are_counted_not_read():
    ann = accord.read(PROJECT)
    maria = next(p for p in ann.audit.parts if p.source.endswith("Maria"))
    notes = " ".join(maria.notes)
    for kind in ("'A'", "'#'", "'N'"):
        assert f"1 {kind} lines" in notes
    assert "1 relations (R lines and * equivalence pairs)" in notes
    assert {s.label for s in ann.spans} == {"PER", "LOC", "PRODUCT"}
    (rel,) = ann.spans.relations
    assert (rel.unit, rel.rater, rel.id, rel.head, rel.tail, rel.type) == (
        "news/doc1", "Maria", "R1", "T2", "T3", "Located_in")


def test_several_annotator_folders_or_one(tmp_path):
    ann = accord.read([PROJECT / "Max", PROJECT / "Peter"])
    assert ann.raters == ("Max", "Peter")
    one = accord.read(PROJECT / "Max")
    assert one.raters == ("Max",) and len(one.spans) == 2


def test_crlf_text_offsets_are_flagged(tmp_path):
    folder = tmp_path / "ann1"
    folder.mkdir()
    (folder / "d.txt").write_bytes(b"Line one\r\nOslo\r\n")
    (folder / "d.ann").write_text("T1\tLOC 9 13\tOslo\n")  # a tool that counted "\n" only
    ann = accord.read(folder)
    assert any("CRLF" in n for p in ann.audit.parts for n in p.notes) or any(
        "CRLF" in n for n in ann.audit.notes
    )


@pytest.mark.parametrize("line", ["T1\tPER zero 5\tx", "T1\tPER 5 2\tx", "T1 PER 0 1 x"])
def test_malformed_t_line_names_file_and_line(tmp_path, line):
    folder = tmp_path / "a"
    folder.mkdir()
    (folder / "d.ann").write_text("T0\tPER 0 1\tx\n" + line + "\n")
    with pytest.raises(FormatError) as err:
        accord.read(folder)
    assert "d.ann, line 2" in str(err.value)


def test_layout_option_overrides_the_guess():
    forced = accord.read(PROJECT / "Max", annotators="subfolders")
    assert forced.raters == ("news",)
    with pytest.raises(accord.AccordError, match="'annotators' parameter"):
        accord.read(PROJECT, annotators="people")

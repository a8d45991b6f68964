"""INCEpTION / WebAnno TSV 3.3 project exports (FORMATS.md 2.5, checklist item 5).

Format rules from inception-project/inception ``webannotsv.adoc`` (header
``#T_SP=layer|feature``, two empty lines, ``#Text=`` sentences, ``sent-tok``,
``begin-end``, ``_`` vs ``*``, ``[n]`` ids, ``|`` stacking, backslash escapes,
UTF-16 offsets) and its ``tsv3-suite`` test files (trailing tab on every row,
``testCrossSentenceSpanWithoutFeatureValue``, ``testSubMultiTokenSpanWithFeatureValue``,
``testTokenBoundedSpanWithSpecialSymbolsValue``); layout ``annotation/<doc>/<user>.tsv``,
``curation/<doc>/CURATION_USER.tsv`` and ``INITIAL_CAS`` from ``AnnotationDocumentExporter.java``.
"""

from __future__ import annotations

import shutil
import zipfile
from pathlib import Path

import pytest

import accord
from accord.errors import FormatError
from accord.readers._webanno_tsv import parse, unescape

DATA = Path(__file__).parent / "data"
PROJECT = DATA / "inception_project"
DOC = (PROJECT / "source" / "review1.txt").read_text(encoding="utf-8")


def spans_of(ann, unit, rater):
    return [(DOC[s.start : s.end], s.label) for s in ann.spans.of(unit, rater)]


def test_fields_are_layer_features_and_must_be_chosen():
    assert accord.readers.detect(PROJECT) == "inception"
    with pytest.raises(
        FormatError, match="3 fields: 'NamedEntity.identifier', 'NamedEntity.value', 'Highlight'"
    ):
        accord.read(PROJECT)


def test_ids_across_tokens_stacking_and_utf16_offsets():
    ann = accord.read(PROJECT, field="NamedEntity.value")
    assert spans_of(ann, "review1.txt", "alice") == [
        ("the Halvorsen", "ORG"),  # ORG[1] over two tokens
        ("Halvorsen flagship", "LOC"),  # LOC[2] stacked on Halvorsen with |
        ("Bergen", "LOC"),  # single token, no id
        ("Tromsø", "LOC"),  # after the emoji: UTF-16 offsets converted
        ("Porto;", "LOC;x"),  # escaped value "LOC\;x"
    ]
    assert spans_of(ann, "review1.txt", "bob")[0] == ("Halvorsen flagship store", "ORG")


def test_initial_cas_skipped_and_curation_is_gold():
    ann = accord.read(PROJECT, field="NamedEntity.value")
    assert ann.raters == ("alice", "bob", "CURATION_USER")
    assert ann.kinds["CURATION_USER"] == "gold"
    assert any("2 INITIAL_CAS file(s) skipped" in n for n in ann.audit.notes)
    humans = accord.read(PROJECT, field="NamedEntity.value", include_kinds=["human"])
    assert "CURATION_USER" not in humans.spans.raters


def test_no_file_means_not_covered_and_a_span_across_sentences():
    spans = accord.read(PROJECT, field="NamedEntity.value").spans
    assert spans.status("review2.txt", "bob") is None
    [s] = spans.of("review2.txt", "alice")
    assert (s.start, s.end, s.label) == (9, 18, "PER")  # "her .\nShe"


def test_star_is_an_annotation_without_value():
    spans = accord.read(PROJECT, field="Highlight").spans
    assert [(DOC[s.start : s.end], s.label) for s in spans.of("review1.txt", "alice")] == [
        ("café", "*"),
        ("\U0001f60a", "*"),
    ]
    assert (
        spans.status("review1.txt", "bob") == "annotated" and spans.of("review1.txt", "bob") == ()
    )


def test_project_zip(tmp_path):
    z = tmp_path / "project.zip"
    with zipfile.ZipFile(z, "w") as zf:
        for f in PROJECT.rglob("*"):
            if f.is_file():
                zf.write(f, f.relative_to(PROJECT).as_posix())
    assert accord.readers.detect(z) == "inception"
    ann = accord.read(z, field="NamedEntity.value")
    assert len(ann.spans) == 12 and ann.raters == ("alice", "bob", "CURATION_USER")


def test_sub_tokens_and_zero_length_from_the_suite():
    # rows of tsv3-suite/testSubMultiTokenSpanWithFeatureValue/reference.tsv; the extents
    # expected are those drawn in WebAnnoTsv3WriterTestBase.testSubMultiTokenSpanWithFeatureValue
    text = (
        "#FORMAT=WebAnno TSV 3.3\n#T_SP=webanno.custom.Span|value\n\n\n"
        "#Text=aaaaaa bbbbbb cccccc\n"
        "1-1\t0-6\taaaaaa\t2[1]|7[2]|1[3]\t\n1-1.1\t3-6\taaa\t9[4]|6[5]|8[6]\t\n"
        "1-2\t7-13\tbbbbbb\t2[1]|9[4]|6[5]|4[7]\t\n1-2.1\t7-10\tbbb\t7[2]|8[6]\t\n"
        "1-2.2\t7-11\tbbbb\t4[7]\t\n1-2.3\t7-7\t\t11\t\n1-2.4\t9-13\tbbbb\t5\t\n"
        "1-2.5\t9-11\tbb\t3\t\n1-2.6\t10-10\t\t10\t\n1-2.7\t13-13\t\t12\t\n"
        "1-3\t14-20\tcccccc\t_\t\n1-3.1\t14-17\tccc\t9[4]\t\n"
    )
    got = sorted((x[:3] for x in parse(text, "suite").spans["Span.value"]),
                 key=lambda x: (int(x[2]), x[0]))
    assert got == [
        (0, 6, "1"),
        (0, 13, "2"),
        (9, 11, "3"),
        (7, 11, "4"),
        (9, 13, "5"),
        (3, 13, "6"),
        (0, 10, "7"),
        (3, 10, "8"),
        (3, 17, "9"),
        (10, 10, "10"),
        (7, 7, "11"),
        (13, 13, "12"),
    ]


def test_escapes_from_the_suite():
    cell = "#\\*'\"`´\\t:\\;{}\\|\\[ \\]()\\\\§$%?=&\\_\\n"
    assert unescape(cell) == "#*'\"`´\t:;{}|[ ]()\\§$%?=&_\n"
    text = (
        "#FORMAT=WebAnno TSV 3.3\n#T_SP=webanno.custom.Span|value\n\n\n#Text=This\n"
        f"1-1\t0-4\tThis\t{cell}\t\n"
    )
    [(b, e, label, sid)] = parse(text, "suite").spans["Span.value"]
    assert sid == "webanno.custom.Span@1-1"
    assert (b, e, label) == (0, 4, "#*'\"`´\t:;{}|[ ]()\\§$%?=&_\n")


@pytest.mark.parametrize(
    "body, expected",
    [
        ("1-1\t0-4\tThis\n", "expected 4 tab-separated cells"),
        ("1-1\t4-0\tThis\tX\t\n", "expected 'begin-end' offsets"),
    ],
)
def test_malformed_rows_name_file_and_line(tmp_path, body, expected):
    d = tmp_path / "annotation" / "doc.txt"
    d.mkdir(parents=True)
    (d / "ann.tsv").write_text(
        "#FORMAT=WebAnno TSV 3.3\n#T_SP=x.Span|value\n\n\n#Text=This\n" + body
    )
    with pytest.raises(FormatError) as err:
        accord.read(tmp_path)
    assert "ann.tsv, line 6" in str(err.value) and expected in str(err.value)


def test_not_a_tsv3_file(tmp_path):
    d = tmp_path / "annotation" / "doc.txt"
    d.mkdir(parents=True)
    (d / "ann.tsv").write_text("#FORMAT=WebAnno TSV 2\n")
    shutil.copy(d / "ann.tsv", d / "b.tsv")
    with pytest.raises(FormatError, match="expected '#FORMAT=WebAnno TSV 3.3'"):
        accord.read(tmp_path, format="inception")

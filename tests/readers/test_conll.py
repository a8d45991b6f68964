"""The CoNLL column reader: sentences as units, entities per tag column as seqeval finds them."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

import accord
from accord.errors import DegenerateDataWarning, FormatError
from accord.readers import detect

DATA = Path(__file__).parent / "data"
FILE = DATA / "ner_two_systems.conll"


def _columns(path: Path) -> tuple[list[list[str]], list[list[str]]]:
    gold: list[list[str]] = [[]]
    system: list[list[str]] = [[]]
    for line in path.read_text(encoding="utf-8").splitlines():
        cells = line.split()
        if not cells or cells[0] == "-DOCSTART-":
            if gold[-1]:
                gold.append([])
                system.append([])
            continue
        gold[-1].append(cells[1])
        system[-1].append(cells[2])
    return [g for g in gold if g], [s for s in system if s]


def test_detected_and_read_as_sentences() -> None:
    assert detect(FILE) == "conll"
    ann = accord.read(FILE, columns=["gold", "system"])
    assert ann.raters == ("gold", "system")
    assert ann.spans.units == ("1/1", "1/2", "2/1")
    peter = [s for s in ann.spans if s.unit == "1/2" and s.rater == "gold"]
    assert [(s.start, s.end, s.label, s.text) for s in peter] == [(0, 2, "PER", "Peter Blackburn")]


@pytest.mark.parametrize("scheme", [None, "IOB2"])
def test_f1_equals_seqeval_on_the_columns(scheme: str | None) -> None:
    seqeval = pytest.importorskip("seqeval.metrics")
    from seqeval.scheme import IOB2

    gold, system = _columns(FILE)
    kw = {} if scheme is None else {"mode": "strict", "scheme": IOB2}
    want = seqeval.f1_score(gold, system, **kw)
    ann = accord.read(FILE, columns=["gold", "system"], scheme=scheme)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        res = accord.evaluate_spans(ann, ann, reference_rater="gold", predicted_rater="system")
        lists = accord.evaluate_spans(gold, system, scheme=scheme)
    assert res.f1.estimate == pytest.approx(want, abs=1e-12)
    assert res.counts == lists.counts


def test_strict_scheme_drops_an_entity_without_its_b_tag() -> None:
    lenient = accord.read(FILE, columns=["gold", "system"])
    strict = accord.read(FILE, columns=["gold", "system"], scheme="IOB2")
    # the system's "British" is I-MISC after O: an entity for conlleval, none in strict IOB2
    assert len(lenient.spans) - len(strict.spans) == 1


def test_two_files_side_by_side(tmp_path: Path) -> None:
    gold, system = tmp_path / "gold.conll", tmp_path / "system.conll"
    lines = FILE.read_text(encoding="utf-8").splitlines()
    gold.write_text("\n".join(" ".join(ln.split()[:2]) for ln in lines) + "\n")
    system.write_text("\n".join(" ".join(ln.split()[::2]) for ln in lines) + "\n")
    ann = accord.read([gold, system], format="conll")
    assert ann.raters == ("gold", "system")
    both = accord.read(FILE, columns=["gold", "system"])
    assert ann.spans.labels() == both.spans.labels()


def test_other_tokens_in_a_second_file_are_refused(tmp_path: Path) -> None:
    a, b = tmp_path / "a.conll", tmp_path / "b.conll"
    a.write_text("EU B-ORG\nrejects O\n")
    b.write_text("EU B-ORG\naccepts O\n")
    with pytest.raises(FormatError, match="holds other tokens than in the first file"):
        accord.read([a, b], format="conll")


def test_a_line_with_a_column_missing_is_refused(tmp_path: Path) -> None:
    p = tmp_path / "bad.conll"
    p.write_text("EU B-ORG B-ORG\nrejects O\n")
    with pytest.raises(FormatError, match="line 2: expected the token and 2 tag column"):
        accord.read(p)


def test_a_tag_the_scheme_does_not_allow_is_refused(tmp_path: Path) -> None:
    p = tmp_path / "bad.conll"
    p.write_text("EU S-ORG\n")
    with pytest.raises(FormatError, match="does not fit the IOB2 scheme"):
        accord.read(p, scheme="IOB2")


def test_raters_selects_columns_and_the_audit_names_the_others(tmp_path: Path) -> None:
    p = tmp_path / "c03.conll"
    p.write_text("EU NNP B-NP B-ORG\nrejects VBZ B-VP O\n")
    ann = accord.read(p, columns=["pos", "chunk", "ner"], raters=["ner"])
    assert ann.spans.raters == ("ner",)
    assert "c03.conll: columns not read as raters: ['pos', 'chunk']" in ann.audit.notes

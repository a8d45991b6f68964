"""Relations read from real-format exports: brat, INCEpTION TSV 3.3, Label Studio, doccano."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import accord

DATA = Path(__file__).resolve().parents[1] / "readers" / "data"


def test_brat_r_lines_and_equivalence_sets():
    ann = accord.read(DATA / "brat_relations")
    rels = {(r.rater, r.id): r for r in ann.spans.relations}
    assert len(rels) == 6
    r1 = rels[("anna", "R1")]
    assert (r1.unit, r1.head, r1.tail, r1.type, r1.directed) == ("doc1", "T1", "T2", "Colleague",
                                                                 True)
    equiv = next(r for r in rels.values() if r.rater == "ben" and r.type == "Equiv")
    assert not equiv.directed and {equiv.head, equiv.tail} == {"T1", "T2"}
    # ben's Charles Babbage ends one character early: strict loses it, type matching keeps it
    strict = accord.relation_agreement(ann, mode="strict")
    assert strict.counts.correct == 1 and strict.counts.missed_unmatched_arguments == 2
    lenient = accord.relation_agreement(ann, mode="type")
    assert lenient.counts.correct == 3 and lenient.f1.estimate == 1.0


def test_inception_tsv_relation_layer():
    ann = accord.read(DATA / "inception_relations", field="NamedEntity.value")
    assert len(ann.spans.relations) == 5
    res = accord.relation_agreement(ann)
    c = res.counts
    assert (c.correct, c.incorrect, c.missed, c.spurious) == (1, 1, 1, 0)
    assert res.f1.estimate == pytest.approx(2 / 5)
    assert res.disputes[0].types == {"alice": "colleague_of", "bob": "employed_by"}


def test_label_studio_relation_results():
    ann = accord.read(DATA / "label_studio_relations.json")
    rels = sorted(ann.spans.relations, key=lambda r: (r.unit, r.rater, r.id))
    # direction "left" swaps from_id and to_id; "bi" is undirected; no labels: type ""
    left = next(r for r in rels if r.rater == "2" and r.type == "located_in")
    assert (left.head, left.tail) == ("a1", "a3")
    bi = next(r for r in rels if r.unit == "2")
    assert not bi.directed and bi.type == ""
    res = accord.relation_agreement(ann)
    c = res.counts
    assert (c.correct, c.incorrect, c.missed, c.spurious) == (2, 0, 1, 0)
    assert res.disputes[0].head == "Grace Hopper [PER]"


def test_doccano_relations_reach_the_agreement(tmp_path):
    text = "Ada met Charles in London"
    entities = [{"id": 1, "label": "PER", "start_offset": 0, "end_offset": 3},
                {"id": 2, "label": "PER", "start_offset": 8, "end_offset": 15}]
    for who, typ in (("ann", "met"), ("bob", "knows")):
        line = {"id": 1, "text": text, "entities": entities,
                "relations": [{"id": 5, "from_id": 1, "to_id": 2, "type": typ}]}
        (tmp_path / f"{who}.jsonl").write_text(json.dumps(line) + "\n", encoding="utf-8")
    res = accord.relation_agreement(accord.read(tmp_path))
    assert (res.counts.correct, res.counts.incorrect) == (0, 1)

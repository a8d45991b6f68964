"""Roles decide the job: the one resolver of the command line and the library.

A caller declares roles: the reference (``--gold``), the systems scored against it
(``--predicted``), a judge (``--judge``: an LLM as a rater, tested against the humans)
and the humans it is compared with (``--humans``), and any rater's kind (``kinds=``).
:func:`resolve` turns them into :class:`Roles`: the job they ask (``"reference"``,
``"judge"`` or ``"raters"``) and the kinds they declare (``gold``, ``model``, ``llm``,
``human``). The readers take declared kinds as declared raters, so no column rule
(:mod:`accord.data._columns`) leaves one out; :meth:`Roles.mark` sets them on the
annotations read, and refuses a role that names no rater. Guesses (a column's name, a
wide table's other columns) fill only what was not declared.

Data read with declared kinds and no flag ask the same question: one rater of kind
``gold`` beside a system is a model against a reference, one rater of kind ``llm``
beside two or more humans (and no reference) a judge against the humans
(:func:`job_of_kinds`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from accord.errors import DataError, InvalidParameterError

if TYPE_CHECKING:
    from accord.data.annotations import Annotations

__all__ = ["FLAGS", "Job", "Roles", "job_of_kinds", "resolve"]

Job = Literal["raters", "reference", "judge"]

#: How the command line spells each role (the library names them ``gold=``...).
FLAGS = {"gold": "--gold", "predicted": "--predicted", "judge": "--judge",
         "humans": "--humans"}
#: The kind each role declares.
ROLE_KINDS = {"gold": "gold", "predicted": "model", "judge": "llm", "humans": "human"}


@dataclass(frozen=True)
class Roles:
    """The roles declared: who is the reference, the systems, the judge, the humans."""

    gold: str | None = None
    predicted: tuple[str, ...] = ()
    judge: str | None = None
    humans: tuple[str, ...] = ()
    kinds: tuple[tuple[str, str], ...] = ()  # kinds= as given, before the roles

    @property
    def job(self) -> Job:
        """The question the roles ask: a flag's, else the declared kinds' (one ``gold``
        and a system, or one ``llm`` and no ``gold``)."""
        if self.gold is not None or self.judge is not None:
            return "reference" if self.gold is not None else "judge"
        kinds = list(dict(self.kinds).values())
        if kinds.count("gold") == 1 and ("model" in kinds or "llm" in kinds):
            return "reference"
        return "judge" if kinds.count("llm") == 1 and "gold" not in kinds else "raters"

    def by_role(self) -> list[tuple[str, str]]:
        """``(role, rater)`` for every rater a role names, in the order declared."""
        out = [("gold", self.gold)] if self.gold is not None else []
        out += [("predicted", p) for p in self.predicted]
        out += [("judge", self.judge)] if self.judge is not None else []
        return out + [("humans", h) for h in self.humans]

    @property
    def named(self) -> tuple[str, ...]:
        """The raters the roles name (reference, systems, judge, humans)."""
        return tuple(name for _, name in self.by_role())

    def declared(self) -> dict[str, str]:
        """Every declared kind: ``kinds=`` first, then the roles' (a role wins)."""
        out = dict(self.kinds)
        out.update({name: ROLE_KINDS[role] for role, name in self.by_role()})
        return out

    def unknown(self, raters: Sequence[object]) -> tuple[str, str] | None:
        """The first ``(role, name)`` naming no rater among ``raters``, if any."""
        have = {str(r) for r in raters}
        return next(((role, n) for role, n in self.by_role() if n not in have), None)

    def mark(self, ann: Annotations) -> Annotations:
        """``ann`` with the declared kinds of its raters set; a role naming no rater is
        refused (``DataError``, naming the role as the command line spells it)."""
        missing = self.unknown(ann.raters)
        if missing is not None:
            raise DataError(f"{FLAGS[missing[0]]} {missing[1]!r}: rater {missing[1]!r} not "
                            f"found; the raters are {list(ann.raters)!r}.")
        have = set(ann.raters)
        ann.kinds.update({r: k for r, k in self.declared().items() if r in have})
        return ann


def resolve(*, gold: str | None = None, predicted: Sequence[str] = (),
            judge: str | None = None, humans: Sequence[str] = (),
            kinds: Mapping[str, str] | None = None) -> Roles:
    """The roles declared, checked once: systems need a reference, humans a reference or
    a judge, and no rater holds two roles (``InvalidParameterError`` otherwise, naming
    the options as the command line spells them)."""
    roles = Roles(gold, tuple(predicted), judge, tuple(humans),
                  tuple((str(r), str(k)) for r, k in (kinds or {}).items()))
    if roles.predicted and gold is None:
        raise InvalidParameterError("--predicted needs --gold: name the reference column.")
    if roles.humans and gold is None and judge is None:
        raise InvalidParameterError("--humans needs --gold or --judge: name the reference or "
                                    "the judge column.")
    seen: dict[str, str] = {}
    for role, name in roles.by_role():
        if name in seen:
            raise InvalidParameterError(f"{name!r} is named by both {FLAGS[seen[name]]} and "
                                        f"{FLAGS[role]}; a rater holds one role.")
        seen[name] = role
    return roles


def job_of_kinds(kinds: Mapping[str, str], raters: Sequence[object]) -> tuple[Job, str | None]:
    """The job the declared kinds ask, and its rater: one ``gold`` with a ``model`` or
    ``llm`` system is a model against the reference; one ``llm`` (no ``gold``) with two
    or more humans, a judge against them (the judge returned); else agreement between
    raters.

    >>> job_of_kinds({"g": "gold", "m": "model"}, ["g", "m"])
    ('reference', 'g')
    >>> job_of_kinds({"gpt4": "llm"}, ["a", "b", "gpt4"])
    ('judge', 'gpt4')
    >>> job_of_kinds({}, ["a", "b"])
    ('raters', None)
    """
    of = {str(r): kinds.get(str(r), "human") for r in raters}
    golds = [r for r, k in of.items() if k == "gold"]
    if len(golds) == 1 and any(k in ("model", "llm") for k in of.values()):
        return "reference", golds[0]
    llms = [r for r, k in of.items() if k == "llm"]
    if not golds and len(llms) == 1 and list(of.values()).count("human") >= 2:
        return "judge", llms[0]
    return "raters", None

"""The roles a command was given (``--gold``, ``--predicted``, ``--judge``, ``--humans``,
``--kind``), through the one resolver (:func:`accord.data._roles.resolve`): declared roles
are read as rater kinds, so that no column rule leaves them out, they decide the job, and
a role that names no rater is bad usage."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

import click


def roles_named(rep: Any, named: str | None) -> Any:
    """With --gold or --judge the roles were named: the wide layout's rater columns are no
    guess to warn about, so its caveat becomes a note in the data summary."""
    from accord.data._names import GUESSED_LAYOUT

    wide = f"{GUESSED_LAYOUT}: a wide table"
    moved = tuple(c for c in rep.data.caveats if c.startswith(wide))
    if named is None or not moved:
        return rep
    taken = moved[0].removeprefix(f"{wide}, one column per rater: ").split("; name", 1)[0]
    notes = (f"rater {named!r} was named; the rater columns are {taken} (choose them with "
             "--raters)",)
    data = replace(rep.data, caveats=tuple(c for c in rep.data.caveats if c not in moved),
                   notes=rep.data.notes + notes)
    return replace(rep, data=data)


def roles_of(selection: dict[str, Any], *, gold: str | None = None,
             predicted: tuple[str, ...] = (), judge: str | None = None,
             humans: tuple[str, ...] = ()) -> Any:
    """The roles declared on the command line (with ``--kind RATER=KIND``), checked once;
    roles that do not go together are bad usage (exit 2)."""
    from accord.data._roles import resolve
    from accord.errors import InvalidParameterError

    try:
        return resolve(gold=gold, predicted=predicted, judge=judge, humans=humans,
                       kinds=dict(selection.get("rater_kinds") or ()))
    except InvalidParameterError as exc:
        raise click.UsageError(str(exc)) from None


def declared(selection: dict[str, Any], roles: Any, *, every_kind: bool = False,
             only_named: bool = False) -> dict[str, Any]:
    """The data options with the roles' kinds declared (read as declared raters: no column
    rule leaves them out). ``every_kind`` reads the raters of every kind (the report's
    reference, systems and people); ``only_named`` reads only the raters the roles name
    (``compute``, ``check`` and ``evaluate`` with ``--gold``)."""
    from accord.data.annotations import RATER_KINDS

    kinds = roles.declared()
    out = {**selection, **({"rater_kinds": tuple(kinds.items())} if kinds else {})}
    if every_kind:
        out["kinds"] = RATER_KINDS
    if only_named and roles.named:
        if selection.get("raters"):
            raise click.UsageError("give either --raters or --gold/--predicted, not both.")
        out["raters"] = roles.named
    return out


def all_kinds(selection: dict[str, Any], gold: str | None, predicted: tuple[str, ...],
              judge: str | None = None) -> dict[str, Any]:
    """The report's reading of DATA: with a reference or a judge (--gold, --judge, or
    --kind declaring one), every rater (the reference, the systems, the judge and the
    people), with the roles' kinds declared."""
    roles = roles_of(selection, gold=gold, predicted=predicted, judge=judge)
    if roles.job == "raters":
        return selection
    return declared(selection, roles, every_kind=True)


@contextmanager
def roles_found(gold: str | None, predicted: tuple[str, ...],
                judge: str | None = None) -> Iterator[None]:
    """A --gold, --predicted or --judge that names no rater is bad usage (exit 2), said as
    such."""
    from accord.errors import DataError

    try:
        yield
    except DataError as exc:
        text = str(exc)
        named = text.split("which")[0]
        unknown = next((n for n in (gold or "", *predicted, judge or "")
                        if n and repr(n) in named), None)
        if "was given kinds for" not in text or unknown is None:
            raise
        raters = text.split("not among the raters ", 1)[1].rstrip(".")
        raise click.UsageError(f"rater {unknown!r} not found; the raters are {raters}.") \
            from None


def mark_reference(ann: Any, gold: str | None, predicted: tuple[str, ...]) -> Any:
    """--gold names the reference and --predicted the systems: the report's "Model
    against reference" section compares them (other raters stay as they are)."""
    from accord.errors import DataError

    if gold is None:
        if predicted:
            raise click.UsageError("--predicted needs --gold: name the reference column.")
        return ann
    other = ("label sets", f"accord multilabel DATA --gold {gold}") if ann.set_valued \
        else ("spans", f"accord spans DATA --gold {gold}") if ann.spans is not None else None
    if other is not None:  # the report's reference section reads single labels only
        raise click.UsageError(f"--gold and --predicted compare single labels, and these data "
                               f"hold {other[0]}; score them against the reference with "
                               f"{other[1]}.")
    try:
        return roles_of({}, gold=gold, predicted=predicted).mark(ann)
    except DataError as exc:
        raise click.UsageError(str(exc).split(": ", 1)[1]) from None

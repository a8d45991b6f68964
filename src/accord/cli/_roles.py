"""The roles a command was given (``--gold``, ``--predicted``, ``--judge``) in the report's
reading of DATA: declared roles are read as rater kinds, so that no column rule leaves
them out, and a role that names no rater is bad usage."""

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


def all_kinds(selection: dict[str, Any], gold: str | None,
              predicted: tuple[str, ...]) -> dict[str, Any]:
    """With --gold, every rater is read (the reference, the systems and the people), and
    the reference and the systems are read with their kinds, as declared roles: no column
    rule leaves them out."""
    from accord.data.annotations import RATER_KINDS

    if gold is None:
        return selection
    named = dict(selection.get("rater_kinds") or ())  # the roles declared are no guess
    roles = {gold: "gold", **{p: "model" for p in predicted}, **named}
    return {**selection, "kinds": RATER_KINDS, "rater_kinds": tuple(roles.items())}


@contextmanager
def roles_found(gold: str | None, predicted: tuple[str, ...]) -> Iterator[None]:
    """A --gold or --predicted that names no rater is bad usage (exit 2), said as such."""
    from accord.errors import DataError

    try:
        yield
    except DataError as exc:
        text = str(exc)
        named = text.split("which")[0]
        unknown = next((n for n in (gold or "", *predicted) if n and repr(n) in named), None)
        if gold is None or "was given kinds for" not in text or unknown is None:
            raise
        raters = text.split("not among the raters ", 1)[1].rstrip(".")
        raise click.UsageError(f"rater {unknown!r} not found; the raters are {raters}.") \
            from None


def mark_reference(ann: Any, gold: str | None, predicted: tuple[str, ...]) -> Any:
    """--gold names the reference and --predicted the systems: the report's "Model
    against reference" section compares them (other raters stay as they are)."""
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
    for name in (gold, *predicted):
        if name not in ann.raters:
            raise click.UsageError(f"rater {name!r} not found; the raters are "
                                   f"{list(ann.raters)!r}.")
    ann.kinds[gold] = "gold"
    for name in predicted:
        ann.kinds[name] = "model"
    return ann

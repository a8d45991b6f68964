"""A griffe extension for the API reference: accord's docstrings use a few Sphinx
roles and the ``.. math::`` directive, which Markdown would show as written.

Roles (``:class:`~accord.Annotations```, ``:func:`cohen_kappa```, ``:math:`p_o```)
become inline code (a leading ``~`` keeps the last dotted name, as Sphinx shows it),
and a ``.. math::`` directive becomes a ```text block, so a formula keeps its layout
without loading MathJax from the network. A doctest outside an Examples section becomes
a ```pycon block, so its output (``[0.7, 0.32]``) is not read as a Markdown link.
"""

from __future__ import annotations

import re
from typing import Any

ROLE = re.compile(r":(?:[a-z]+:)?[a-z]+:`(~?)([^`]+)`")
DIRECTIVE = re.compile(r"^(\s*)\.\. math::\s*(.*)$")


def _role(match: re.Match[str]) -> str:
    tilde, target = match.groups()
    return f"`{target.rsplit('.', 1)[-1] if tilde else target}`"


def _math(lines: list[str]) -> list[str]:
    out: list[str] = []
    i = 0
    while i < len(lines):
        match = DIRECTIVE.match(lines[i])
        if match is None:
            out.append(lines[i])
            i += 1
            continue
        indent, inline = match.groups()
        body = [inline] if inline else []
        i += 1
        while i < len(lines) and (not lines[i].strip() or
                                  len(lines[i]) - len(lines[i].lstrip()) > len(indent)):
            body.append(lines[i].strip())
            i += 1
        while body and not body[-1]:
            body.pop()
        while body and not body[0]:
            body.pop(0)
        out += [f"{indent}```text", *(f"{indent}{b}" if b else "" for b in body),
                f"{indent}```", ""]
    return out


def _doctests(lines: list[str]) -> list[str]:
    out: list[str] = []
    fenced = False
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.lstrip().startswith("```"):
            fenced = not fenced
        if fenced or not line.lstrip().startswith(">>>"):
            out.append(line)
            i += 1
            continue
        indent = line[: len(line) - len(line.lstrip())]
        block = []
        while i < len(lines) and lines[i].strip():
            block.append(lines[i][len(indent):] if lines[i].startswith(indent) else lines[i])
            i += 1
        out += [f"{indent}```pycon", *(f"{indent}{b}" for b in block), f"{indent}```"]
    return out


def rewrite(text: str) -> str:
    """The docstring with roles as inline code, math directives as text blocks and
    doctests outside an Examples section as pycon blocks."""
    lines = _math(ROLE.sub(_role, text).splitlines())
    examples = next((k for k, line in enumerate(lines[:-1]) if line.strip() == "Examples"
                     and set(lines[k + 1].strip()) == {"-"}), len(lines))
    return "\n".join(_doctests(lines[:examples]) + lines[examples:])


try:
    from griffe import Extension, Object
except ImportError:  # without the docs extra: rewrite() still works (and is tested)
    pass
else:

    class SphinxMarkup(Extension):
        """Rewrites every docstring griffe reads (see :func:`rewrite`)."""

        def on_instance(self, *, obj: Object, **kwargs: Any) -> None:
            if obj.docstring is not None:
                obj.docstring.value = rewrite(obj.docstring.value)

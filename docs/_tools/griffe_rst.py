"""A griffe extension for the API reference: accord's docstrings use a few Sphinx
roles and the ``.. math::`` directive, which Markdown would show as written.

Roles (``:class:`~accord.Annotations```, ``:func:`cohen_kappa```) become inline code
(a leading ``~`` keeps the last dotted name, as Sphinx shows it). Formulas, the
``:math:`p_o``` role and the ``.. math::`` directive, become MathML at build time
(latex2mathml): browsers draw MathML themselves, so the site shows typeset formulas with
no script, no font and no network, also opened from disk. A doctest outside an Examples
section becomes a ```pycon block, so its output (``[0.7, 0.32]``) is not read as a
Markdown link.
"""

from __future__ import annotations

import re
from typing import Any

ROLE = re.compile(r":(?:[a-z]+:)?[a-z]+:`(~?)([^`]+)`")
MATH_ROLE = re.compile(r":math:`([^`]+)`")
DIRECTIVE = re.compile(r"^(\s*)\.\. math::\s*(.*)$")
# characters Markdown would read as markup inside the MathML's text; as entities they
# reach the page as written (latex2mathml writes its own entities, whose '&#' stays)
MARKUP = {c: f"&#{ord(c)};" for c in "*_`[]\\{}|~"}
TEXT = re.compile(r">([^<]+)<")


def mathml(latex: str, *, display: bool = False) -> str:
    """The LaTeX formula as one line of MathML that Markdown passes through unchanged."""
    from latex2mathml.converter import convert

    out = convert(latex, display="block" if display else "inline")
    return TEXT.sub(lambda m: ">" + "".join(MARKUP.get(c, c) for c in m.group(1)) + "<", out)


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
        latex = " ".join(b for b in body if b)
        out += [f'{indent}<div class="math">{mathml(latex, display=True)}</div>', ""]
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
    """The docstring with formulas as MathML, other roles as inline code and doctests
    outside an Examples section as pycon blocks."""
    text = MATH_ROLE.sub(lambda m: mathml(m.group(1)), text)
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

"""What a template reads besides its context: itself and every template it imports, includes
or extends (`template_inputs`, a page's cache key holds it); and compiling them all ahead of a
cold build's renders (`compile_templates`)."""

from __future__ import annotations

import hashlib
from pathlib import Path

from jinja2 import Environment, TemplateError, TemplateSyntaxError, meta, nodes

from ..cache import StageCache, digest


def compile_templates(env: Environment, folder: Path) -> None:
    """Compile every template of `folder` now (Jinja keeps them): a cold build does it while
    the closing study runs. A template that does not compile is left for its page's render,
    which names the file and line of the mistake."""
    for path in sorted(folder.rglob("*.j2")):
        try:
            env.get_template(path.relative_to(folder).as_posix())
        except TemplateError:
            continue


def template_inputs(env: Environment, name: str | None = None, body: str | None = None,
                    cache: StageCache | None = None) -> str:
    """The content hash of a template (by name, or an example's `body`) and of every template
    it imports, includes or extends, directly or through another: what its rendering reads
    besides its context. A name only known at render time counts every template."""
    def references(source: str) -> tuple[str | None, ...]:
        return (cache or StageCache()).get("references", digest(source),
                                           lambda: _references(source))

    seen: dict[str, str] = {}
    todo = list(references(body)) if body is not None else [name]
    if body is not None:
        seen["<body>"] = body
    while todo:
        ref = todo.pop()
        if ref is None:
            return digest_all(env)
        if ref in seen:
            continue
        assert env.loader is not None
        seen[ref] = env.loader.get_source(env, ref)[0]
        todo += references(seen[ref])
    return hashlib.sha256(repr(sorted(seen.items())).encode()).hexdigest()


# Parses templates for their references only (never renders): the i18n tags must parse.
_PARSER = Environment(extensions=["jinja2.ext.i18n"])


def _references(source: str) -> tuple[str | None, ...]:
    """The templates a source names; a source Jinja cannot parse names "any" (None), so its
    page is rendered, and the render names the file and line of the mistake. A source the
    site's environment compiled in this process was parsed then (`parsed`)."""
    known = _PARSED.get(source)
    if known is not None:
        return known
    try:
        return tuple(meta.find_referenced_templates(_PARSER.parse(source)))
    except TemplateSyntaxError:
        return (None,)


def parsed(source: str, tree: nodes.Template) -> None:
    """Keep what a template the environment just parsed to compile it names: a cold build
    compiles every template, and need not parse each again for its page's key."""
    if len(_PARSED) >= 512:
        _PARSED.pop(next(iter(_PARSED)))
    _PARSED[source] = tuple(meta.find_referenced_templates(tree))


_PARSED: dict[str, tuple[str | None, ...]] = {}


def digest_all(env: Environment) -> str:
    """Every template of the environment's first folder (templates/)."""
    folder = Path(getattr(env.loader, "searchpath", ["."])[0])
    sha = hashlib.sha256()
    for path in sorted(folder.rglob("*.j2")):
        sha.update(str(path.relative_to(folder)).encode() + b"\0" + path.read_bytes())
    return sha.hexdigest()

"""Render a Bundle into the core's source: a pure function, same bundle -> same bytes."""

from __future__ import annotations

from pathlib import Path

import jinja2

from rootlaw.spec import Bundle

from .tables import Tables, build_tables

TEMPLATES = Path(__file__).resolve().parent / "templates"
REGENERATE = "rootlaw build"


def _environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        autoescape=False,
    )


def render_core(bundle: Bundle, tables: Tables | None = None) -> str:
    """The core module's source for a bundle (Cython pure-Python mode)."""
    t = tables or build_tables(bundle)
    banner = (f"GENERATED, DO NOT EDIT: rendered by rootlaw.generator from "
              f"templates/core.py.j2 for bundle {t.bundle_hash}; regenerate with "
              f"`{REGENERATE}`.")
    return _environment().get_template("core.py.j2").render(
        banner=banner,
        bundle_hash=t.bundle_hash,
        consts=list(t.consts.items()),
        table_offsets=list(t.table_layout.offsets.items()),
        state_offsets=list(t.state_layout.offsets.items()),
        action_offsets=list(t.actions.offsets.items()),
        table=t.table,
    )

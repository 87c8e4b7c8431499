"""rootlaw.generator: a resolved Bundle in, the rules core's source (and build) out."""

from .build import cache_dir, compile_core, render_to_cache
from .render import render_core
from .tables import Tables, build_tables

__all__ = ["Tables", "build_tables", "cache_dir", "compile_core", "render_core",
           "render_to_cache"]

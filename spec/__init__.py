"""rootlaw.spec: the schema, the loader, the bundle resolver and the base content."""

from .bundle import BASE_PACK, Bundle, resolve
from .diagnostics import Diagnostic, FileError, RootlawError, SpecError
from .loader import load_file, load_pack, parse_document

__all__ = ["BASE_PACK", "Bundle", "Diagnostic", "FileError", "RootlawError", "SpecError",
           "load_file", "load_pack", "parse_document", "resolve"]

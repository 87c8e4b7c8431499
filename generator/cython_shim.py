"""The few names of Cython's pure-Python mode the generated core uses, for running the
pure path where Cython itself is not installed.  Compiled, Cython replaces them all."""

from __future__ import annotations

compiled = False


class _CType:
    """A C type placeholder: `longlong`, `longlong[::1]` and `typedef(longlong)` all work."""

    def __class_getitem__(cls, item):
        return cls

    def __getitem__(self, item):
        return self


longlong = _CType()
schar = _CType()


def typedef(t):
    return t


def declare(t=None, value=None, **kw):
    return value


def _passthrough(f=None, **kw):
    if f is None:
        return lambda g: g
    return f


cclass = _passthrough
cfunc = _passthrough
ccall = _passthrough


def exceptval(*args, **kw):
    return lambda f: f

"""Our own React components (.jsx files in this folder), exposed to the Reflex build.

A Python wrapper names one of them as its `library`; Reflex links the file into the
compiled frontend (assets/external/components_js/, git-ignored).
"""

import reflex as rx


def library(file_name: str) -> str:
    """The module path under which the compiled frontend imports `file_name`."""
    return rx.asset(file_name, shared=True, _stack_level=1).importable_path

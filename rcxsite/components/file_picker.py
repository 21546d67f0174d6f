"""A file picker's hidden input, named for screen readers.

Reflex's `rx.upload.root` renders react-dropzone's file input with the props
`getInputProps()` makes, and takes none of its own: the input has no name an assistive
technology can read (axe: "label"), and a `<label>` cannot point at it (it has no id).
This passes `aria-labelledby` through `getInputProps`, which merges it into the input."""

from __future__ import annotations

import json

import reflex as rx
from reflex.vars import Var


def labelled_file_input(picker: rx.Component, *, labelled_by: str) -> rx.Component:
    """`picker` (an `rx.upload.root`) with its file input labelled by the elements whose
    ids `labelled_by` lists."""
    zone = picker.children[0]
    file_input = zone.children[0]
    if not isinstance(file_input, rx.Component):
        raise TypeError("rx.upload.root's first child is no longer its file input")
    props = file_input.special_props[0]
    call = str(props)
    if not call.endswith("()"):
        raise ValueError("rx.upload.root's input no longer takes its props from getInputProps()")
    file_input.special_props = [
        Var(
            _js_expr=f"{call[:-2]}({json.dumps({'aria-labelledby': labelled_by})})",
            _var_type=None,
            _var_data=props._get_all_var_data(),
        )
    ]
    return picker

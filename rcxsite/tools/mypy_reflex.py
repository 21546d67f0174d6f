"""A mypy plugin: a Reflex state's attributes read on the class are what Reflex makes them.

Reflex turns a state class's public fields into vars and its public methods into event
handlers when the class is created: `LoginState.busy` is a `BooleanVar` that a page
passes to a component, `LoginState.log_in` an `EventHandler` (and
`StaffTeamState.change_role(row["id"])` an `EventSpec`). mypy reads the class body as
written (a `bool`, a method), so without this every page would be full of false errors.
On an instance (`self.busy` in a handler) nothing changes: there Reflex gives the value.

`make lint` loads it (`plugins` under [tool.mypy] in pyproject.toml); the site never
imports it.
"""

from __future__ import annotations

from collections.abc import Callable

from mypy.nodes import Decorator, FuncDef, OverloadedFuncDef, TypeInfo, Var
from mypy.plugin import AttributeContext, Plugin
from mypy.types import (
    CallableType,
    Instance,
    NoneType,
    Overloaded,
    ProperType,
    Type,
    TypedDictType,
    UnboundType,
    UnionType,
    get_proper_type,
)

_STATE = "reflex.state.BaseState"
_VARS = "reflex_base.vars"
_EVENT_HANDLER = "reflex_base.event.EventHandler"
_FIELD = "reflex_base.vars.base.Field"  # `x: rx.Field[T]`: typed by Reflex's own descriptor
# What Reflex's decorators look like to mypy before this plugin: the handler's function,
# or the decorator's own classes.
_DECORATED_HANDLERS = ("reflex_base.event.EventNamespace", "reflex_base.event.EventCallback")


def _without_none(typ: ProperType) -> ProperType:
    if isinstance(typ, UnionType):
        items = [get_proper_type(item) for item in typ.items]
        rest = [item for item in items if not isinstance(item, NoneType)]
        if len(rest) == 1:
            return rest[0]
    return typ


def _var_kind(declared: Type) -> tuple[str, list[Type]]:
    """The class of var Reflex makes of a field of type `declared`, and its type arguments
    (as `rx.Field.__get__` says)."""
    value = _without_none(get_proper_type(declared))
    if isinstance(value, TypedDictType):
        return "object.ObjectVar", [declared]
    if isinstance(value, Instance):
        name = value.type.fullname
        if name == "builtins.bool":
            return "number.BooleanVar", []
        if name in ("builtins.int", "builtins.float"):
            return "number.NumberVar", [value]
        if name == "builtins.str":
            return "sequence.StringVar", [value]
        if value.type.has_base("typing.Mapping"):
            return "object.ObjectVar", [value]
        if value.type.has_base("typing.Sequence") or value.type.has_base("builtins.set"):
            return "sequence.ArrayVar", [value]
    return "base.Var", [declared]


def _is_handler_type(typ: ProperType) -> bool:
    if isinstance(typ, (CallableType, Overloaded)):
        return True
    if isinstance(typ, UnboundType):
        # `@rx.event(background=True)`: mypy cannot resolve what Reflex's overload returns.
        return typ.name.rpartition(".")[2] == "EventCallback"
    return isinstance(typ, Instance) and typ.type.fullname in _DECORATED_HANDLERS


class ReflexStatePlugin(Plugin):
    def get_class_attribute_hook(self, fullname: str) -> Callable[[AttributeContext], Type] | None:
        owner_name, _, name = fullname.rpartition(".")
        if name.startswith("_"):
            return None  # backend-only fields and helpers stay plain attributes
        owner = self.lookup_fully_qualified(owner_name)
        if owner is None or not isinstance(owner.node, TypeInfo):
            return None
        if not owner.node.has_base(_STATE):
            return None
        defining = next((base for base in owner.node.mro if name in base.names), None)
        if defining is None or defining.module_name.split(".")[0] in ("reflex", "reflex_base"):
            return None  # Reflex's own attributes are typed by Reflex
        node = defining.names[name].node
        if isinstance(node, Var) and not node.is_classvar and not node.is_property:
            declared = node.type
            proper = get_proper_type(declared)
            if declared is None or (
                isinstance(proper, Instance) and proper.type.fullname == _FIELD
            ):
                return None
            kind, args = _var_kind(declared)
            var_class = self._type_info(f"{_VARS}.{kind}")
            if var_class is None:
                return None
            return lambda ctx: Instance(var_class, args)
        if isinstance(node, FuncDef) and (node.is_static or node.is_class or node.is_property):
            return None
        if isinstance(node, Decorator) and (
            node.func.is_static or node.func.is_class or node.func.is_property
        ):
            return None
        handler_class = self._type_info(_EVENT_HANDLER)
        if handler_class is None or not isinstance(node, (FuncDef, Decorator, OverloadedFuncDef)):
            return None

        def event_handler(ctx: AttributeContext) -> Type:
            if not _is_handler_type(get_proper_type(ctx.default_attr_type)):
                return ctx.default_attr_type  # a computed var or other descriptor: as typed
            return Instance(handler_class, [])

        return event_handler

    def _type_info(self, fullname: str) -> TypeInfo | None:
        found = self.lookup_fully_qualified(fullname)
        return found.node if found is not None and isinstance(found.node, TypeInfo) else None


def plugin(version: str) -> type[Plugin]:
    return ReflexStatePlugin

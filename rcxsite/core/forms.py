"""The base of every input model (registration, login, reset, quote): limits first.

A model declares each field once, with its alias (the name forms and clients send), its
maximum length and its messages. Before anything else looks at a value, its length is
checked against that maximum, so no normalising, regular expression or hashing ever
sees an oversized string; the REST API (as a request body), the Reflex screens (through
`read`) and the services all validate through the same model.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any, ClassVar, Literal, Self

from annotated_types import MaxLen
from pydantic import BaseModel, ConfigDict, ValidationError, ValidationInfo, field_validator
from pydantic.fields import FieldInfo
from pydantic_core import PydanticCustomError

from rcxsite.core.service_errors import ServiceError

# Error type of the messages a model writes itself; anything else came from pydantic.
FORM_ERROR = "form"
INVALID_CHARACTERS = "Contains characters that are not allowed"
# Unicode's line and paragraph separators end a line in mail headers and JavaScript source
# but are not control characters; they are refused along with those.
_FORBIDDEN_CATEGORIES = frozenset({"Cc", "Cs", "Zl", "Zp"})


ISO_DATE_LENGTH = len("2027-01-05")
# fromisoformat alone would also take "20270105" and week dates; a date input sends this.
_ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def problem(message: str) -> PydanticCustomError:
    """Raise this from a validator to show `message` exactly as written."""
    return PydanticCustomError(FORM_ERROR, message)


def has_forbidden_characters(value: str, *, allowed: str = "") -> bool:
    """Control characters (NUL breaks PostgreSQL), lone surrogates and line separators."""
    return any(
        unicodedata.category(char) in _FORBIDDEN_CATEGORIES and char not in allowed
        for char in value
    )


def _empty_unless_text(cls: type, value: object) -> object:
    return value if isinstance(value, str) else ""


def text_only(*fields: str) -> Any:
    """A before-validator for `fields`: a value that is not text (a number, a list: a
    client can send anything) counts as empty, so the field's own message explains it."""
    return field_validator(*fields, mode="before")(classmethod(_empty_unless_text))


def parsed_by(parse: Callable[..., Any], *fields: str, before: bool = False, **options: Any) -> Any:
    """A validator of `fields` that is `parse(value, **options)`: the rule lives in one
    function that several models share (`options`: this field's messages). `before` runs
    it on the raw value (a checkbox's "on", a date input's text) instead of the typed one."""
    mode: Literal["before", "after"] = "before" if before else "after"
    return field_validator(*fields, mode=mode)(
        classmethod(lambda cls, value: parse(value, **options))
    )


def iso_date(value: object, *, invalid: str, longest: int = ISO_DATE_LENGTH + 8) -> date | None:
    """A date field's "YYYY-MM-DD", a few blanks around it allowed; None when blank.
    Anything else raises `invalid`: not text, longer than `longest` (checked first, as
    every length is), another format, or a day the calendar does not have."""
    if not isinstance(value, str) or len(value) > longest:
        raise problem(invalid)
    text = value.strip()
    if not text:
        return None
    if not _ISO_DATE.fullmatch(text):
        raise problem(invalid)
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise problem(invalid) from None


def multiline_text(value: str, *, required: str) -> str:
    """A textarea's text: stripped, one line-break spelling (browsers submit CRLF), tabs
    and line breaks allowed but no other invisible character; `required` when empty."""
    text = value.strip().replace("\r\n", "\n").replace("\r", "\n")
    if not text:
        raise problem(required)
    if has_forbidden_characters(text, allowed="\n\t"):
        raise problem(INVALID_CHARACTERS)
    return text


def _encodable(value: str) -> bool:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def too_long(maximum: int) -> str:
    return f"Max {maximum} characters"


@dataclass(frozen=True, slots=True)
class Documented:
    """A field's rules as JSON Schema keywords, for the API's OpenAPI document.

    The validators alone decide what is accepted, and are lenient in types so that a
    refusal carries the field's own message; this marker (in the field's `Annotated`
    metadata, which validation ignores) says the same rules up front for generated clients
    and fuzzers. A required field is listed as such, without the `""` default that only
    makes a missing field get its "required" message. Build it from the limits the
    validators use, so that each is written once.
    """

    required: bool = True
    keywords: tuple[tuple[str, Any], ...] = ()


def documented(*, required: bool = True, **keywords: Any) -> Documented:
    return Documented(required, tuple(keywords.items()))


def document_rules(schema: dict[str, Any], model: type[BaseModel]) -> None:
    """Write the `Documented` rules of `model`'s fields into its JSON schema."""
    properties = schema.get("properties", {})
    required = list(schema.get("required", ()))
    for name, info in model.model_fields.items():
        rule = next((m for m in info.metadata if isinstance(m, Documented)), None)
        field_schema = properties.get(info.alias or name)
        if rule is None or field_schema is None:
            continue
        field_schema.update(rule.keywords)
        if rule.required:
            field_schema.pop("default", None)
            required.append(info.alias or name)
    if required:
        schema["required"] = list(dict.fromkeys(required))


def _class(chars: Iterable[str], *, negated: bool = False) -> str:
    """A character class, in ranges, that reads the same in Python and ECMA-262 (JSON
    Schema)."""
    codes = sorted({ord(char) for char in chars})
    runs: list[list[int]] = []
    for code in codes:
        if runs and runs[-1][1] == code - 1:
            runs[-1][1] = code
        else:
            runs.append([code, code])
    spelled = "".join(
        f"\\u{first:04x}" if first == last else f"\\u{first:04x}-\\u{last:04x}"
        for first, last in runs
    )
    return f"[{'^' if negated else ''}{spelled}]"


# Every blank `str.strip()` removes and every character `has_forbidden_characters` refuses
# lies in the Basic Multilingual Plane. Lone surrogates stay out of the classes: a pattern
# engine on Unicode scalars cannot spell them, and `FormInput` refuses them anyway.
def _bmp(keep: Callable[[str], bool]) -> tuple[str, ...]:
    return tuple(
        char for char in map(chr, range(0x10000)) if not "\ud800" <= char <= "\udfff" and keep(char)
    )


_BLANK = _bmp(str.isspace)
_REFUSED = _bmp(lambda char: unicodedata.category(char) in _FORBIDDEN_CATEGORIES)
BLANK = _class(_BLANK)
_EDGE = _class({*_BLANK, *_REFUSED}, negated=True)
_INNER = _class(_REFUSED, negated=True)


def text_pattern(minimum: int = 1) -> str:
    """The JSON Schema `pattern` of a required single-line text: at least `minimum`
    characters once stripped of blanks, and none refused among them."""
    inner = f"(?:{_INNER}*{_EDGE})?" if minimum <= 1 else f"{_INNER}{{{minimum - 2},}}{_EDGE}"
    return f"^{BLANK}*{_EDGE}{inner}{BLANK}*$"


def multiline_pattern(minimum: int = 1) -> str:
    """The JSON Schema `pattern` of a `multiline_text` of at least `minimum` characters once
    stripped, counted as typed (a CRLF is two)."""
    inner = _class(set(_REFUSED) - set("\n\t\r"), negated=True)
    rest = f"(?:{inner}*{_EDGE})?" if minimum <= 1 else f"{inner}{{{minimum - 2},}}{_EDGE}"
    return f"^{BLANK}*{_EDGE}{rest}{BLANK}*$"


# The bot trap every public form carries: a field people never see (hidden off-screen), which
# bots fill. A filled trap is answered as an accepted form, without validation.
HONEYPOT_FIELD = "website"
HONEYPOT_MAX = 200
HONEYPOT_FILLED = "Leave this field empty"
HONEYPOT = documented(
    required=False,
    pattern=f"^{BLANK}*$",
    description="A trap for bots, hidden on the form: leave it out or empty",
)


def empty_trap(value: str) -> str:
    """The trap field's validator: empty, or refused (only a client that skipped
    `trap_filled` gets this far with one filled)."""
    if value.strip():
        raise problem(HONEYPOT_FILLED)
    return ""


def trap_filled(raw: Mapping[str, object]) -> bool:
    """Whether a bot filled the hidden field: such a form is answered without validation,
    so bots learn nothing from messages."""
    value = raw.get(HONEYPOT_FIELD)
    return isinstance(value, str) and bool(value.strip())


def text_rule(minimum: int = 1) -> Documented:
    """The documented rules of a required single-line text of at least `minimum`
    characters once stripped (the `required_text` validators' rule)."""
    return documented(minLength=minimum, pattern=text_pattern(minimum))


class FormInput(BaseModel):
    """Subclasses set `too_long_messages` for fields whose length message is not `too_long`,
    and `invalid_message` when a refused form has a message of its own (else the first
    field's message is the form's)."""

    model_config = ConfigDict(
        frozen=True,
        extra="ignore",
        populate_by_name=True,
        str_strip_whitespace=False,
        # A missing field is validated like an empty one, so it gets its "required" message.
        validate_default=True,
        # The request bodies' JSON schema (the API's OpenAPI document) states each field's
        # `Documented` rules.
        json_schema_extra=document_rules,
    )
    too_long_messages: ClassVar[Mapping[str, str]] = {}
    invalid_message: ClassVar[str] = ""

    @field_validator("*", mode="before")
    @classmethod
    def _bounded(cls, value: Any, info: ValidationInfo) -> Any:
        """Length first, before any parsing; `None` counts as an empty text field."""
        field = cls.model_fields[info.field_name or ""]
        if value is None:
            return "" if field.annotation is str else None
        maximum = _max_length(field)
        if maximum is not None and isinstance(value, str) and len(value) > maximum:
            raise problem(cls.too_long_messages.get(info.field_name or "", too_long(maximum)))
        if isinstance(value, str) and not _encodable(value):
            raise problem(INVALID_CHARACTERS)  # lone surrogates, which JSON can carry
        return value

    @classmethod
    def read(cls, raw: Mapping[str, Any], **context: Any) -> tuple[Self | None, dict[str, str]]:
        """The validated input and no messages, or None and one message per invalid field
        keyed by the alias the form or client used, in the model's field order."""
        try:
            return cls.model_validate(raw, context=context), {}
        except ValidationError as error:
            return None, field_messages(
                error, dict(zip(cls.model_fields, cls.field_names(), strict=True))
            )

    @classmethod
    def field_names(cls) -> tuple[str, ...]:
        """The names a form or client sends the fields under (their aliases), in order."""
        return tuple(field.alias or name for name, field in cls.model_fields.items())

    @classmethod
    def parse(cls, raw: Mapping[str, Any], **context: Any) -> Self:
        """The validated input, or a `ServiceError` (422) with a message per field."""
        form, errors = cls.read(raw, **context)
        if form is None:
            message = cls.invalid_message or next(iter(errors.values()))
            raise ServiceError(422, message, fields=errors)
        return form


def _max_length(field: FieldInfo) -> int | None:
    return next((m.max_length for m in field.metadata if isinstance(m, MaxLen)), None)


def max_length(model: type[BaseModel], field: str) -> int:
    """The maximum length a model allows for a field (named by attribute or alias), for
    forms' `maxLength` attributes: the model stays the one place a limit is written."""
    fields = model.model_fields
    info = fields.get(field) or next(
        (info for info in fields.values() if info.alias == field), None
    )
    if info is None:
        raise KeyError(f"{model.__name__} has no field {field!r}")
    maximum = _max_length(info)
    if maximum is None:
        raise ValueError(f"{model.__name__}.{field} has no maximum length")
    return maximum


def field_messages(error: ValidationError, aliases: Mapping[str, str]) -> dict[str, str]:
    """One message per field, keyed by its alias whichever spelling the input used."""

    def name(loc: tuple[Any, ...]) -> str:
        parts = [str(part) for part in loc]
        return ".".join([aliases.get(parts[0], parts[0]), *parts[1:]]) if parts else "request"

    return messages_by_field(error.errors(), name)


def messages_by_field(
    details: Iterable[Mapping[str, Any]], name: Callable[[tuple[Any, ...]], str]
) -> dict[str, str]:
    """One message per field (named by `name` from an error's location), the first one
    wins: our own texts as written, pydantic's wording (never the input) for the rest."""
    messages: dict[str, str] = {}
    for detail in details:
        field = name(tuple(detail.get("loc", ())))
        if detail.get("type") == FORM_ERROR:
            messages.setdefault(field, detail["msg"])
        elif detail.get("type") == "missing":
            messages.setdefault(field, f"{field} is required")
        else:
            messages.setdefault(field, f"{field}: {detail.get('msg', 'invalid value')}")
    return messages

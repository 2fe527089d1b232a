"""JSON ↔ Python: answers into the dataclasses of types.py, filters into the query-string spelling GET routes read."""
from __future__ import annotations

import dataclasses
import functools
import typing
from typing import Any, Dict, List, Mapping, Tuple, Type, TypeVar

from .errors import CascadeError

T = TypeVar("T")


def wire_name(attr: str) -> str:
    """``from_`` → ``from``: a wire name that is a Python keyword gets a trailing underscore here."""
    return attr[:-1] if attr.endswith("_") else attr


@functools.lru_cache(maxsize=None)
def _fields(cls: type) -> Tuple[Tuple[str, str, Any, bool], ...]:
    """(attribute, wire name, type, required) of each field, the types resolved once."""
    hints = typing.get_type_hints(cls)
    return tuple(
        (f.name, wire_name(f.name), hints[f.name], f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING)
        for f in dataclasses.fields(cls)
    )


def from_wire(cls: Type[T], data: Any, strict: bool = False) -> T:
    """``data`` (parsed JSON) as a ``cls``. Unknown fields are left out (a newer server may add some) unless
    ``strict``, which refuses them and missing required ones: the client's own tests run strict, so a change in
    what the server answers fails them naming the class and the field."""
    return _convert(cls, data, strict, cls.__name__)


def _convert(tp: Any, value: Any, strict: bool, where: str) -> Any:
    if value is None:
        return None
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is typing.Union:  # Optional[X]
        return _convert(next(a for a in args if a is not type(None)), value, strict, where)
    if origin in (list, List):
        return [_convert(args[0], v, strict, f"{where}[{i}]") for i, v in enumerate(_expect(value, list, where))]
    if origin in (dict, Dict):
        return {k: _convert(args[1], v, strict, f"{where}.{k}") for k, v in _expect(value, dict, where).items()}
    if dataclasses.is_dataclass(tp):
        return _object(tp, _expect(value, dict, where), strict, where)
    return value


def _object(cls: type, data: Dict[str, Any], strict: bool, where: str) -> Any:
    fields = _fields(cls)
    if strict:
        known = {wire for _, wire, _, _ in fields}
        unknown = sorted(set(data) - known)
        missing = [wire for _, wire, _, required in fields if required and wire not in data]
        if unknown or missing:
            problems = ([f"fields the client does not know {unknown}"] if unknown else []) + ([f"fields missing {missing}"] if missing else [])
            raise CascadeError("BAD_RESPONSE", f"{where}: {', '.join(problems)}")
    kwargs = {attr: _convert(tp, data.get(wire), strict, f"{where}.{wire}") for attr, wire, tp, required in fields if required or wire in data}
    return cls(**kwargs)


def _expect(value: Any, kind: type, where: str) -> Any:
    if not isinstance(value, kind):
        raise CascadeError("BAD_RESPONSE", f"{where}: expected a JSON {'array' if kind is list else 'object'}, got {type(value).__name__}")
    return value


_OPERATORS = {"eq": "=", "ne": "!=", "gt": ">", "gte": ">=", "lt": "<", "lte": "<="}


def _text(value: Any) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def filter_args(flt: Mapping[str, Any]) -> List[str]:
    """A filter in the JSON spelling (``{"user": "alice", "priority": {"gte": 2}, "lang": {"in": ["en", "de"]}}``)
    as the conditions GET routes read (``user=alice``, ``priority>=2``, ``lang=en|de``): one spelling for callers,
    whichever route a method calls. In that spelling a value reads as a number or a boolean when it looks like one,
    and ``|`` separates the values of a list."""
    args: List[str] = []
    for key, spec in flt.items():
        if not isinstance(spec, Mapping):
            args.append(f"{key}={_text(spec)}")
            continue
        for op, value in spec.items():
            if op == "in" and isinstance(value, (list, tuple)):
                args.append(f"{key}={'|'.join(_text(v) for v in value)}")
            elif op in _OPERATORS:
                args.append(f"{key}{_OPERATORS[op]}{_text(value)}")
            else:
                raise CascadeError("INVALID_INPUT", f"filter: {key}: {op!r} is not one of eq, ne, in, gt, gte, lt, lte", field="filter")
    return args

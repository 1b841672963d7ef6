"""The registry of shardpy's passes and named pipelines, and pass options.

A shardpy pass is a frozen dataclass registered by name; its fields are its options:

    @register_pass("shardpy-propagate")
    @dataclass(frozen=True)
    class Propagate:
        '''One-line summary. Longer docstring with before/after IR.'''
        strategy: str = option("user-priority", "basic|aggressive|op-priority|user-priority")
        def run(self, module: ir.Operation) -> None: ...

The pass modules (shardpy.passes) register themselves here; shardpy.pipeline imports
them all and runs pipelines of them. Kept apart from shardpy.pipeline so that the passes
do not import the module that imports them.
"""
from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass, field
from typing import Any, Callable

from .ir.diagnostics import ShardpyError


# --------------------------------------------------------------------------- registry


@dataclass(frozen=True)
class PassInfo:
    name: str
    cls: type
    summary: str

    @property
    def options(self) -> tuple[dataclasses.Field, ...]:
        return tuple(f for f in dataclasses.fields(self.cls) if f.init)

    def option_help(self) -> str:
        parts = []
        for f in self.options:
            desc = f.metadata.get("help", "")
            parts.append(f"{option_name(f)}={_format_value(f.default)}" + (f" ({desc})" if desc else ""))
        return "; ".join(parts)

    def instantiate(self, options_text: str | None):
        return self.cls(**parse_options(self, options_text or ""))


REGISTRY: dict[str, PassInfo] = {}
PIPELINES: dict[str, tuple[str, str]] = {}  # name -> (pipeline text, summary)


def register_pipeline(name: str, text: str, summary: str) -> None:
    """A named pipeline usable like a pass (`--shardpy-partition`)."""
    PIPELINES[name] = (text, summary)


def option(default: Any, help: str = "") -> Any:
    """Declare a pass option (a dataclass field with help text)."""
    return field(default=default, metadata={"help": help})


def register_pass(name: str) -> Callable[[type], type]:
    def wrap(cls: type) -> type:
        if not dataclasses.is_dataclass(cls):
            raise TypeError(f"pass {name}: {cls.__name__} must be a dataclass")
        if name in REGISTRY and REGISTRY[name].cls is not cls:
            raise ValueError(f"pass {name} registered twice")
        summary = (cls.__doc__ or "").strip().splitlines()[0] if cls.__doc__ else ""
        REGISTRY[name] = PassInfo(name, cls, summary)
        cls.pass_name = name
        return cls

    return wrap


def option_name(f: dataclasses.Field) -> str:
    return f.name.replace("_", "-")


def _format_value(value: Any) -> str:
    if isinstance(value, enum.Enum):
        return str(value.value)
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _convert(info: PassInfo, f: dataclasses.Field, text: str) -> Any:
    kind = type(f.default)
    try:
        if kind is bool:
            if text.lower() in ("true", "1", ""):
                return True
            if text.lower() in ("false", "0"):
                return False
            raise ValueError(text)
        if issubclass(kind, enum.Enum):
            return kind(text)
        return kind(text)
    except ValueError:
        allowed = ""
        if issubclass(kind, enum.Enum):
            allowed = " (one of: " + ", ".join(str(m.value) for m in kind) + ")"
        raise ShardpyError(
            f"invalid value '{text}' for option '{option_name(f)}' of pass "
            f"'{info.name}'{allowed}") from None


def parse_options(info: PassInfo, text: str) -> dict[str, Any]:
    """`key=value key2=value2` (MLIR pass-option syntax) into dataclass kwargs."""
    by_name = {option_name(f): f for f in info.options}
    values: dict[str, Any] = {}
    for item in split_top_level(text.strip(), " "):
        if not item:
            continue
        key, _, raw = item.partition("=")
        f = by_name.get(key)
        if f is None:
            known = ", ".join(by_name) or "none"
            raise ShardpyError(f"pass '{info.name}' has no option '{key}' (options: {known})")
        values[f.name] = _convert(info, f, raw.strip("'\""))
    return values


# --------------------------------------------------------------------------- pipeline text


def split_top_level(text: str, sep: str) -> list[str]:
    parts, depth, start, quote = [], 0, 0, None
    for i, ch in enumerate(text):
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch in "({[":
            depth += 1
        elif ch in ")}]":
            depth -= 1
            if depth < 0:
                raise ShardpyError(f"unbalanced '{ch}' in '{text}'")
        elif ch == sep and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    if depth or quote:
        raise ShardpyError(f"unbalanced brackets or quotes in '{text}'")
    parts.append(text[start:])
    return [p.strip() for p in parts]

"""A property computed on first read and kept, without a lock.

``functools.cached_property`` takes a lock at every first read on Python < 3.12
(about 1 µs each, and a short Doc's binding reads some twenty). The stages'
per-Doc objects are used by one thread, and what they cache is a pure function
of the Doc: computed twice by two threads, it is the same value.
"""
from __future__ import annotations

from typing import Any, Callable, Generic, Optional, TypeVar

T = TypeVar("T")


class cached(Generic[T]):  # noqa: N801 (named as the decorator it replaces)
    """Decorator: the method's value, computed on the first read of the
    attribute and stored in the instance's ``__dict__`` (also of a frozen
    dataclass), where later reads find it without calling this descriptor."""

    def __init__(self, func: Callable[[Any], T]):
        self.func, self.name, self.__doc__ = func, func.__name__, func.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, obj: Optional[Any], owner: Optional[type] = None) -> Any:
        if obj is None:
            return self
        value = obj.__dict__[self.name] = self.func(obj)
        return value

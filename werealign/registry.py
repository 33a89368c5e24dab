"""Named plug-ins of one kind (task kinds, models, solvers, importers): the built-in ones, those added with
`register` (tests, notebooks) and those other packages declare in an entry point group, e.g.

    [project.entry-points."werealign.tasks"]
    seer-check = "my_package.tasks:TASK"

A registry is a read-only mapping name -> object in a stable order: built-ins first, in the order werealign
lists them, then the rest by name. Entry points are read on the first look-up (installing a package
while a process runs needs `refresh()`), and a name that is not known yet is looked up once more, so a
package added to the path later is found. A broken entry point is an error naming it, never skipped.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from functools import cache
from importlib.metadata import EntryPoint, EntryPoints, entry_points
from typing import Generic, TypeVar

from werealign.errors import UserError

T = TypeVar("T")


def _declared(group: str) -> tuple[EntryPoint, ...]:
    # Read once per path: a package put on sys.path since (a test's, a notebook's) is seen on the next look.
    return tuple(sorted(_scan(tuple(sys.path)).select(group=group), key=lambda ep: ep.name))


@cache
def _scan(path: tuple[str, ...]) -> EntryPoints:
    """Every installed distribution's entry points, read once for all the registries (a scan is ~15 ms)."""
    return entry_points()


class Registry(Mapping[str, T], Generic[T]):
    """`what` names the plug-in in messages; `group` is its entry point group; `builtins` lists werealign's own
    (called on first use, so that defining a registry imports none of them); `kind` is the type every entry must have;
    `problem` says what else is wrong with an entry (None: nothing), e.g. a name a file could not carry."""

    def __init__(self, what: str, group: str, builtins: Callable[[], Iterable[T]], *,
                 kind: type, name_of: Callable[[T], str] = lambda obj: obj.name,  # type: ignore[attr-defined]
                 problem: Callable[[T], str | None] = lambda obj: None) -> None:
        self.what, self.group, self.kind, self._name_of, self._problem = what, group, kind, name_of, problem
        self._builtins = builtins
        self._items: dict[str, T] | None = None  # filled on first use: built-ins must not load at import time
        self._builtin_names: frozenset[str] = frozenset()
        self._missed: set[str] = set()

    # ----------------------------------------------------------------- Mapping

    def __getitem__(self, name: str) -> T:
        if name not in self:
            raise KeyError(name)
        return self._all()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())

    def __contains__(self, name: object) -> bool:
        items = self._all()
        if name not in items and isinstance(name, str) and name not in self._missed:
            self._missed.add(name)  # looked for again once: a package put on the path since the first look-up
            self.refresh()
        return name in items

    # ----------------------------------------------------------------- adding

    def register(self, obj: T) -> T:
        """Add `obj` under its name; a name taken by another object is refused."""
        self._check(obj, f"register({obj!r})")
        items = self._all()
        name = self._name_of(obj)
        if name in items and items[name] is not obj:
            raise ValueError(f"{self.what} {name!r} is already registered")
        items[name] = obj
        return obj

    def unregister(self, name: str) -> None:
        """Remove a registered (not built-in) object: for tests that add one for a while."""
        self._all()
        if name in self._builtin_names:
            raise ValueError(f"{self.what} {name!r} is built in")
        self._all().pop(name, None)
        self._missed.discard(name)

    @contextmanager
    def added(self, obj: T) -> Iterator[T]:
        """`obj` registered for the duration of a with-block (tests, notebooks)."""
        self.register(obj)
        try:
            yield obj
        finally:
            self.unregister(self._name_of(obj))

    def refresh(self) -> None:
        """Read the entry point group again (after installing a package into a running process)."""
        _scan.cache_clear()
        self._load_entry_points()

    def names(self) -> tuple[str, ...]:
        return tuple(self._all())

    def get_or_fail(self, name: str, option: str | None = None) -> T:
        """The object named `name`, or a UserError (about `option`, e.g. '--tasks') listing what is known."""
        if name not in self:
            prefix = f"{option}: " if option else ""
            raise UserError(f"{prefix}unknown {self.what} '{name}'; choose from {', '.join(self.names())}")
        return self._all()[name]

    # ----------------------------------------------------------------- loading

    def _all(self) -> dict[str, T]:
        if self._items is None:
            self._items = {self._name_of(obj): obj for obj in self._builtins()}
            self._builtin_names = frozenset(self._items)
            self._load_entry_points()
        return self._items

    def _load_entry_points(self) -> None:
        items = self._all()
        for ep in _declared(self.group):
            where = f"entry point {self.group}:{ep.name} ({ep.value})"
            if ep.name in self._builtin_names:
                raise UserError(f"{where}: {ep.name!r} is a built-in {self.what}; choose another name")
            if ep.name in items:
                continue  # loaded before, or registered by hand
            try:
                obj = ep.load()
            except Exception as e:  # noqa: BLE001 - any failure of another package's code, named
                raise UserError(f"{where} could not be loaded: {type(e).__name__}: {e}") from e
            self._check(obj, where)
            if self._name_of(obj) != ep.name:
                raise UserError(f"{where}: names a {self.what} called {self._name_of(obj)!r}, not {ep.name!r}")
            items[ep.name] = obj

    def _check(self, obj: object, where: str) -> None:
        if not isinstance(obj, self.kind):
            raise UserError(f"{where}: not a {self.kind.__module__}.{self.kind.__qualname__} but {type(obj).__name__}")
        problem = self._problem(obj)  # type: ignore[arg-type]
        if problem:
            raise UserError(f"{where}: {problem}")

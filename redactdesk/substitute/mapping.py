"""The per-conversation pseudonym map: original → surrogate, owned by the caller (pure, no I/O).

Rows have the shape the project file stores (``Project.pseudonyms`` / ``put_pseudonyms``):
``{key, category, original, surrogate, locked}``. ``key`` names the item, e.g.
``person:surname:smith`` or ``card:4111111111111111``; the store keeps them only in the project
file. A locked row is never regenerated.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass
from typing import Any

from redactdesk.substitute.errors import SubstitutionError


@dataclass
class MapEntry:
    key: str
    category: str
    original: str
    surrogate: str
    locked: bool = False

    def row(self) -> dict[str, Any]:
        return asdict(self)


class PseudonymMap:
    """Map rows of one conversation, by item key."""

    def __init__(self, rows: Iterable[dict[str, Any]] | None = None) -> None:
        self._entries: dict[str, MapEntry] = {}
        for r in rows or []:
            missing = {"key", "category", "original", "surrogate"} - set(r)
            if missing:
                raise SubstitutionError(f"pseudonym map row lacks {sorted(missing)}")
            self._entries[str(r["key"])] = MapEntry(str(r["key"]), str(r["category"]), str(r["original"]),
                                                    str(r["surrogate"]), bool(r.get("locked", False)))

    def get(self, key: str) -> MapEntry | None:
        return self._entries.get(key)

    def set(self, key: str, category: str, original: str, surrogate: str, *, locked: bool | None = None) -> MapEntry:
        old = self._entries.get(key)
        entry = MapEntry(key, category, original, surrogate,
                         bool(old.locked) if locked is None and old is not None else bool(locked))
        self._entries[key] = entry
        return entry

    def lock(self, key: str, locked: bool = True) -> MapEntry:
        entry = self._entries.get(key)
        if entry is None:
            raise SubstitutionError("no such pseudonym map entry")
        entry.locked = locked
        return entry

    def remove(self, key: str) -> MapEntry | None:
        return self._entries.pop(key, None)

    def entries(self) -> list[MapEntry]:
        return list(self._entries.values())

    def rows(self) -> list[dict[str, Any]]:
        return [e.row() for e in self._entries.values()]

    def __contains__(self, key: object) -> bool:
        return key in self._entries

    def __len__(self) -> int:
        return len(self._entries)

    def __iter__(self) -> Iterator[MapEntry]:
        return iter(self._entries.values())

"""The set of categories a project uses (built from resources/taxonomy.yaml by redactdesk.resources)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from redactdesk.core.types import Category


@dataclass
class Taxonomy:
    """Ordered categories with lookup by id and by review number key (1-9)."""

    categories: list[Category]
    partial_rounding: dict[str, str] = field(default_factory=dict)
    keys: dict[int, str] = field(default_factory=dict)
    risk_without_speaker: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        ids = [c.id for c in self.categories]
        dup = {i for i in ids if ids.count(i) > 1}
        if dup:
            raise ValueError(f"duplicate category ids in taxonomy: {sorted(dup)}")
        self._by_id = {c.id: c for c in self.categories}

    @classmethod
    def from_dicts(cls, items: Iterable[dict]) -> Taxonomy:
        cats: list[Category] = []
        rounding: dict[str, str] = {}
        keys: dict[int, str] = {}
        no_speaker: dict[str, int] = {}
        for d in items:
            cats.append(
                Category(
                    id=str(d["id"]),
                    label=str(d.get("label", d["id"])),
                    colour=str(d.get("colour", "#888888")),
                    risk=int(d.get("risk", 1)),
                    identifier=str(d.get("identifier", "direct")),
                    substitution=str(d.get("substitution", "tag")),
                    pattern=str(d.get("pattern", "solid")),
                    description=str(d.get("description", "")),
                )
            )
            rounding[cats[-1].id] = str(d.get("partial_rounding", "down"))
            if d.get("key") is not None:
                keys[int(d["key"])] = cats[-1].id
            if d.get("risk_without_speaker") is not None:
                no_speaker[cats[-1].id] = int(d["risk_without_speaker"])
        return cls(cats, rounding, keys, no_speaker)

    def __iter__(self) -> Iterator[Category]:
        return iter(self.categories)

    def __len__(self) -> int:
        return len(self.categories)

    def __contains__(self, category_id: object) -> bool:
        return category_id in self._by_id

    def get(self, category_id: str) -> Category:
        try:
            return self._by_id[category_id]
        except KeyError:
            raise KeyError(f"unknown category {category_id!r}") from None

    def ids(self) -> list[str]:
        return [c.id for c in self.categories]

    def by_key(self, key: int) -> Category | None:
        cid = self.keys.get(key)
        return self._by_id.get(cid) if cid else None

    def with_extra(self, extra: Iterable[Category]) -> Taxonomy:
        """A copy with project-defined categories appended (ids must be new)."""
        return Taxonomy(list(self.categories) + list(extra), dict(self.partial_rounding), dict(self.keys),
                        dict(self.risk_without_speaker))

    def miss_score(self, category_id: str, *, partial: bool = False, speaker: bool = False) -> int:
        """Residual-risk score of one MISSED_<CATEGORY>[_PARTIAL][_SPEAKER] item (seed 002).

        Categories such as ORGANIZATION score only when the item concerns a participant (_SPEAKER);
        _PARTIAL halves the score, rounding up for names and down for the rest.
        """
        risk = self.get(category_id).risk
        if not speaker and category_id in self.risk_without_speaker:
            risk = self.risk_without_speaker[category_id]
        if not partial:
            return risk
        if self.partial_rounding.get(category_id, "down") == "up":
            return math.ceil(risk / 2)
        return risk // 2

    def partial_score(self, category_id: str) -> int:
        """Risk score of a _PARTIAL miss: half the full score, rounded per category (seed 002)."""
        risk = self.get(category_id).risk
        if self.partial_rounding.get(category_id, "down") == "up":
            return math.ceil(risk / 2)
        return risk // 2

"""Generalisation of quasi-identifiers along hierarchies, with k-anonymity (seed 001).

Conversation metadata quasi-identifiers (the caller's city, birth year, gender ...) are
generalised with the greedy clustering of Byun et al.: clusters of at least ``k`` conversations,
each generalised to the lowest common level of its members. The report gives the achieved k
(the smallest group of identical generalised records) and the information loss per
quasi-identifier, IL = level / levels, averaged over records.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any

from num2words import num2words

from redactdesk.core.types import Conversation, SpanStatus
from redactdesk.resources import read_yaml, resource
from redactdesk.substitute.errors import SubstitutionError
from redactdesk.substitute.text import norm, split_punct

QI_HIERARCHY = {"city": "city_{lang}", "country": "country", "age": "age", "birth_year": "birth_year",
                "gender": "gender"}
SPAN_QI = {"CITY": "city", "COUNTRY": "country", "AGE": "age"}
SPAN_CATEGORY_OF_QI = {qi: category for category, qi in SPAN_QI.items()}
MISSING = "?"


@dataclass
class Hierarchy:
    name: str
    kind: str  # tree | bands
    levels: int  # n: levels above the value (the last is "*")
    values: dict[str, list[str]] = field(default_factory=dict)  # norm(leaf) -> ancestors (levels 1..n-1)
    bands: list[int] = field(default_factory=list)

    def path(self, value: Any) -> list[str]:
        """Labels of ``value`` at levels 0..n (level n is "*")."""
        if value is None or value == "":
            return [MISSING] * self.levels + ["*"]
        if self.kind == "bands":
            try:
                v = int(value)
            except (TypeError, ValueError):
                return [str(value)] + ["*"] * self.levels
            out = [str(v)]
            for w in self.bands:
                lo = v // w * w
                out.append(f"{lo}-{lo + w - 1}")
            return out + ["*"]
        anc = self.values.get(norm(str(value)))
        if anc is None:
            return [str(value)] + ["*"] * self.levels
        return [str(value), *anc, "*"][: self.levels + 1]


@functools.lru_cache(maxsize=16)
def load_hierarchy(name: str) -> Hierarchy:
    path = resource("hierarchies", f"{name}.yaml")
    if not path.exists():
        raise SubstitutionError(f"no generalisation hierarchy {name!r} (expected {path})")
    data = read_yaml(path.read_text(encoding="utf-8"))
    kind = data.get("type")
    if kind == "bands":
        bands = [int(b) for b in data.get("bands", [])]
        return Hierarchy(name, "bands", len(bands) + 1, bands=bands)
    if kind != "tree":
        raise SubstitutionError(f"{path}: type must be 'tree' or 'bands', not {kind!r}")
    levels = list(data.get("levels", []))
    if not levels or levels[-1] != "*":
        raise SubstitutionError(f"{path}: 'levels' must end with \"*\"")
    values = {}
    for leaf, anc in (data.get("values") or {}).items():
        anc = list(anc or [])
        if len(anc) != len(levels) - 1:
            raise SubstitutionError(f"{path}: {leaf!r} needs {len(levels) - 1} ancestors, has {len(anc)}")
        values[norm(str(leaf))] = [str(a) for a in anc]
    return Hierarchy(name, "tree", len(levels), values)


def hierarchy_for(qi: str, language: str) -> Hierarchy:
    if qi not in QI_HIERARCHY:
        raise SubstitutionError(f"no hierarchy for quasi-identifier {qi!r}; known: {', '.join(QI_HIERARCHY)}")
    return load_hierarchy(QI_HIERARCHY[qi].format(lang=language))


def extract_quasi_identifiers(conv: Conversation) -> dict[str, Any]:
    """The conversation's metadata quasi-identifiers: ``meta["quasi_identifiers"]`` when given, else
    the first accepted CITY / COUNTRY / AGE span, the birth year of DATE_OF_BIRTH and the customer's
    gender from ``meta["speakers"]``."""
    from redactdesk.substitute.dates import parse_date

    explicit = conv.meta.get("quasi_identifiers")
    if isinstance(explicit, dict):
        return {k: v for k, v in explicit.items() if k in QI_HIERARCHY}
    out: dict[str, Any] = {}
    for s in conv.spans:
        if s.status != SpanStatus.ACCEPTED:
            continue
        tokens = [w.text for w in conv.words[s.start_word:s.end_word]]
        qi = SPAN_QI.get(s.category)
        if qi == "age":
            from redactdesk.substitute.digits import parse

            digits = parse(tokens, conv.language).digits
            if digits and "age" not in out:
                out["age"] = int(digits)
        elif qi and qi not in out:
            out[qi] = " ".join(split_punct(t)[1] for t in tokens)
        if s.category == "DATE_OF_BIRTH" and "birth_year" not in out:
            st = parse_date(tokens, conv.language)
            if st is not None and st.value is not None and st.value.year is not None:
                out["birth_year"] = st.value.year
    speakers = conv.meta.get("speakers")
    if isinstance(speakers, dict):
        for info in speakers.values():
            if isinstance(info, dict) and info.get("role") == "customer" and info.get("gender"):
                out["gender"] = info["gender"]
                break
    return out


@dataclass
class GeneralisationReport:
    k: int
    achieved_k: int
    quasi_identifiers: list[str]
    levels: dict[str, dict[str, int]]  # conversation -> qi -> level
    values: dict[str, dict[str, str]]  # conversation -> qi -> generalised label
    information_loss: dict[str, dict[str, float]]  # qi -> {levels, mean_il, records}
    clusters: list[list[str]]

    @property
    def k_met(self) -> bool:
        return self.achieved_k >= self.k

    def summary(self) -> dict[str, Any]:
        return {"k": self.k, "achieved_k": self.achieved_k, "k_met": self.k_met, "clusters": len(self.clusters),
                "information_loss": self.information_loss}


def generalise_records(records: dict[str, dict[str, Any]], languages: dict[str, str] | None = None, *,
                       k: int = 3) -> GeneralisationReport:
    """k-anonymise ``records`` {conversation: {qi: value}} by greedy clustering (Byun et al.)."""
    if k < 1:
        raise SubstitutionError(f"k must be at least 1, got {k}")
    ids = sorted(records)
    qis = sorted({q for r in records.values() for q in r if q in QI_HIERARCHY})
    hier = {(cid, q): hierarchy_for(q, (languages or {}).get(cid, "en")) for cid in ids for q in qis}
    paths = {(cid, q): hier[(cid, q)].path(records[cid].get(q)) for cid in ids for q in qis}
    n_levels = {(cid, q): hier[(cid, q)].levels for cid in ids for q in qis}

    def level(members: list[str], q: str) -> int:
        n = max(n_levels[(m, q)] for m in members)
        for lv in range(n + 1):
            if len({paths[(m, q)][min(lv, len(paths[(m, q)]) - 1)] for m in members}) == 1:
                return lv
        return n

    def cost(members: list[str]) -> float:
        return len(members) * sum(level(members, q) / max(n_levels[(members[0], q)], 1) for q in qis)

    clusters: list[list[str]] = []
    remaining = list(ids)
    if qis and len(remaining) >= k:
        prev = remaining[0]
        while len(remaining) >= k:
            seed = max(remaining, key=lambda x: (cost([prev, x]), x)) if len(clusters) else remaining[0]
            cluster = [seed]
            remaining.remove(seed)
            while len(cluster) < k:
                best = min(remaining, key=lambda x: (cost([*cluster, x]) - cost(cluster), x))
                cluster.append(best)
                remaining.remove(best)
            clusters.append(cluster)
            prev = seed
        for x in list(remaining):
            best_i = min(range(len(clusters)), key=lambda i: cost([*clusters[i], x]) - cost(clusters[i]))
            clusters[best_i].append(x)
            remaining.remove(x)
    elif remaining:
        clusters.append(list(remaining))
    levels: dict[str, dict[str, int]] = {cid: {} for cid in ids}
    values: dict[str, dict[str, str]] = {cid: {} for cid in ids}
    for cluster in clusters:
        for q in qis:
            lv = level(cluster, q)
            for m in cluster:
                levels[m][q] = lv
                values[m][q] = paths[(m, q)][min(lv, len(paths[(m, q)]) - 1)]
    groups: dict[tuple[str, ...], int] = {}
    for cid in ids:
        t = tuple(values[cid].get(q, "") for q in qis)
        groups[t] = groups.get(t, 0) + 1
    achieved = min(groups.values()) if groups else 0
    il: dict[str, dict[str, float]] = {}
    for q in qis:
        losses = [levels[c][q] / max(n_levels[(c, q)], 1) for c in ids]
        il[q] = {"levels": float(max(n_levels[(c, q)] for c in ids)), "mean_il": round(sum(losses) / len(losses), 4),
                 "records": float(len(losses))}
    return GeneralisationReport(k, achieved, qis, levels, values, il, clusters)


def _say_band(label: str, language: str) -> list[str]:
    lo, hi = (int(x) for x in label.split("-"))
    a, b = num2words(lo, lang=language), num2words(hi, lang=language)
    joiner = "to" if language == "en" else "a"
    return [t for t in f"{a} {joiner} {b}".replace("-", " ").replace(",", "").split() if t]


def generalise_span(category: str, tokens: list[str], language: str, level: int) -> list[str] | None:
    """A quasi-identifier span said at a generalisation level (None: not a generalisable category)."""
    qi = SPAN_QI.get(category)
    if qi is None:
        return None
    h = hierarchy_for(qi, language)
    level = max(1, min(level, h.levels))
    if qi == "age":
        from redactdesk.substitute.digits import parse

        digits = parse(tokens, language).digits
        label = h.path(int(digits))[level] if digits else "*"
        return [f"[{category}]"] if label == "*" else _say_band(label, language)
    label = h.path(" ".join(split_punct(t)[1] for t in tokens))[level]
    return [f"[{category}]"] if label == "*" else label.split()

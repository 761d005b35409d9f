"""Find words in the transcripts of a whole project, in the project file (no conversation is loaded).

Annotators look for "every call where the customer spelled a surname", linguists for a pseudonym
they changed, reviewers for a word a finding pointed at. The search reads the ``words`` table of
the project file into a compact index (:class:`TranscriptIndex`), never a call into the views: the query is
folded (case, accents, punctuation: "Úbeda," finds "ubeda") and matched against consecutive words
as a substring of their running text — one word anywhere inside a word ("555" finds "5551234"), a
phrase across word boundaries ("john smi" finds "John Smith").
"""

from __future__ import annotations

import bisect
import itertools
import unicodedata
from dataclasses import dataclass

MAX_QUERY_WORDS = 8
CONTEXT_WORDS = 6


def fold(text: str) -> str:
    """Lower case without accents or punctuation, for matching what people type against what ASR wrote."""
    decomposed = unicodedata.normalize("NFKD", str(text).casefold())
    return "".join(ch for ch in decomposed if ch.isalnum() and not unicodedata.combining(ch))


def query_tokens(query: str) -> list[str]:
    """The folded words of a query (empty ones dropped, at most :data:`MAX_QUERY_WORDS`)."""
    return [t for t in (fold(part) for part in str(query).split()) if t][:MAX_QUERY_WORDS]


@dataclass(frozen=True)
class Hit:
    """One place a query was found: words ``[start_word, end_word)`` of a conversation."""

    conversation_id: str
    start_word: int
    end_word: int
    turn: int | None  # 1-based turn number, None when the conversation has no turns
    speaker: str | None
    start: float  # seconds
    before: str
    text: str
    after: str


class TranscriptIndex:
    """The folded words of every conversation as one string each, for fast substring search.

    Built from the ``words`` table and kept between searches (the app holds one per window): before
    each search only conversations whose ``updated`` stamp changed are read again, so a decision or
    a new transcript costs the words of that one call, and a project of 300 000 words answers in
    milliseconds after the first search (``benchmarks/bench_review_basics.py``).
    """

    def __init__(self) -> None:
        self._docs: dict[str, tuple[str | None, str, list[int], list[int]]] = {}

    def refresh(self, conn) -> None:
        rows = conn.execute("SELECT id, updated FROM conversations ORDER BY id").fetchall()
        docs = {}
        for cid, updated in rows:
            doc = self._docs.get(cid)
            docs[cid] = doc if doc is not None and doc[0] == updated else self._read(conn, cid, updated)
        self._docs = docs

    @staticmethod
    def _read(conn, cid: str, updated: str | None) -> tuple[str | None, str, list[int], list[int]]:
        parts: list[str] = []
        starts: list[int] = []  # where each folded word starts in the joined text
        idxs: list[int] = []  # its word index (words with nothing to match, such as "-", are left out)
        pos = 0
        for idx, text in conn.execute("SELECT idx, text FROM words WHERE conversation_id = ? ORDER BY idx", [cid]):
            folded = fold(text)
            if folded:
                parts.append(folded)
                starts.append(pos)
                idxs.append(int(idx))
                pos += len(folded) + 1
        return updated, " ".join(parts), starts, idxs

    def places(self, tokens: list[str]):
        """(conversation id, start word, end word) of every place, in conversation and word order; one
        place per starting word."""
        needle = " ".join(tokens)
        for cid, (_updated, joined, starts, idxs) in self._docs.items():
            pos = joined.find(needle)
            while pos != -1:
                a = bisect.bisect_right(starts, pos) - 1
                b = bisect.bisect_right(starts, pos + len(needle) - 1) - 1
                yield cid, idxs[a], idxs[b] + 1
                if a + 1 >= len(starts):
                    break
                pos = joined.find(needle, starts[a + 1])


def find_words(project, query: str, *, limit: int = 500,
               index: TranscriptIndex | None = None) -> tuple[list[Hit], bool]:
    """Places where ``query`` occurs in the project's transcripts, in conversation and word order.

    Returns the hits (at most ``limit``) and whether there were more. A query without letters or
    digits finds nothing. Pass the same ``index`` to repeated searches to skip re-reading words.
    """
    tokens = query_tokens(query)
    if not tokens:
        return [], False
    conn = project.db.conn
    index = index if index is not None else TranscriptIndex()
    index.refresh(conn)
    places = list(itertools.islice(index.places(tokens), limit + 1))
    more = len(places) > limit
    hits = []
    for cid, idx, end in places[:limit]:
        words = conn.execute('SELECT idx, text, start FROM words WHERE conversation_id = ? AND idx BETWEEN ? AND ? '
                             "ORDER BY idx", [cid, idx - CONTEXT_WORDS, end - 1 + CONTEXT_WORDS]).fetchall()
        before = " ".join(t for i, t, _s in words if i < idx)
        text = " ".join(t for i, t, _s in words if idx <= i < end)
        after = " ".join(t for i, t, _s in words if i >= end)
        start = next(s for i, _t, s in words if i == idx)
        turn = conn.execute("SELECT idx, speaker FROM turns WHERE conversation_id = ? AND start_word <= ? "
                            "AND end_word > ? ORDER BY idx LIMIT 1", [cid, idx, idx]).fetchone()
        hits.append(Hit(cid, idx, end, int(turn[0]) + 1 if turn else None, turn[1] if turn else None,
                        float(start), before, text, after))
    return hits, more

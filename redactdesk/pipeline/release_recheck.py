"""Re-detection of a release's own text before anything is written.

The leak scan looks for values someone accepted; it can never find what nobody accepted. So before
a release is written, its revised text goes through detection again — every source, the project's
allow list *not* applied — and whatever is found that is not a surrogate stops the export.

A found stretch does not stop it when each of its words is

- inside a surrogate (the detector recognising a realistic pseudonym is the point of one), or
- a word a person already decided about: covered by a *rejected* span in the project (an annotator
  said "not personal"), or
- a function word of the language ("the", "of", "de") or a title ("Mrs", "señora"): detection may
  widen an item over them.

Findings carry the conversation, the original word range (so the app can jump there), the
category and a masked hint — never the text.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from redactdesk.core.types import Conversation, SpanStatus
from redactdesk.pipeline.export_formats import RevisedConversation
from redactdesk.risk.leakscan import hint


@dataclass(frozen=True)
class RecheckFinding:
    """Something detection finds in the release text that nobody decided about."""

    conversation_id: str
    category: str
    start_word: int  # original words [start_word, end_word) that are not decided
    end_word: int
    score: float
    sources: tuple[str, ...]
    hint: str
    allow_listed: bool = False  # the text is on the project's (signed) allow list

    def describe(self) -> str:
        return (f"{self.conversation_id} words {self.start_word}-{self.end_word}: {self.category} "
                f"({self.hint}, score {self.score:.2f})")


def _clean(word: str) -> str:
    return word.strip(".,;:!?¡¿\"'“”‘’«»()[]{}…*-").casefold()


def recheck_release(convs: Mapping[str, Conversation], revised: Mapping[str, RevisedConversation], *,
                    deny: Iterable[tuple[str, str]] = (), allow_signed: Iterable[str] = ()) -> list[RecheckFinding]:
    """Detect over each revised conversation; return what is neither surrogate nor decided.

    ``deny`` is the project's deny list (it only adds); ``allow_signed`` is the project's allow list,
    used only to *label* findings (they still stop the export unless a person rejected them).
    """
    from redactdesk.detect.pipeline import detect_docs
    from redactdesk.detect.sources import DetectDoc
    from redactdesk.resources import function_words

    allow_folded = {" ".join(a.casefold().split()) for a in allow_signed}
    deny = list(deny)
    findings: list[RecheckFinding] = []
    by_language: dict[str, list[str]] = {}
    for cid, rev in revised.items():
        if rev.words:
            by_language.setdefault(rev.language, []).append(cid)
    for language, ids in by_language.items():
        docs = []
        for cid in ids:
            rev = revised[cid]
            breaks = sorted({t.start_word for t in rev.turns if t.start_word > 0})
            docs.append(DetectDoc.from_words([w.text for w in rev.words], language, breaks=breaks, id=cid))
        results = detect_docs(docs, allow=(), deny=deny)
        stop = function_words(language)
        for cid, doc, spans in zip(ids, docs, results, strict=True):
            conv, rev = convs[cid], revised[cid]
            extra_stop = frozenset(doc.lex.stop_words) if doc.lex else frozenset()
            if doc.lex:  # titles before a name ("Mrs", "señora") are not the name
                extra_stop |= {p[0] for p in doc.lex.hot("name_cue_strong") if len(p) == 1}
            rejected: set[int] = set()
            for s in conv.spans:
                if s.status == SpanStatus.REJECTED:
                    rejected.update(s.word_range())
            source_word = rev.source_word or [None] * len(rev.words)
            for span in spans:
                undecided = []
                for r in range(span.start_word, span.end_word):
                    o = source_word[r] if r < len(source_word) else None
                    if o is None or o in rejected:
                        continue
                    w = _clean(conv.words[o].text)
                    if not w or w in stop or w in extra_stop:
                        continue
                    undecided.append(o)
                if not undecided:
                    continue
                a, b = min(undecided), max(undecided) + 1
                text = conv.text(a, b)
                findings.append(RecheckFinding(
                    conversation_id=cid, category=span.category, start_word=a, end_word=b,
                    score=float(span.score), sources=tuple(span.sources), hint=hint(text),
                    allow_listed=" ".join(text.casefold().split()) in allow_folded))
    return findings


def findings_message(findings: list[RecheckFinding], limit: int = 8) -> str:
    shown = "; ".join(f.describe() for f in findings[:limit])
    more = f"; and {len(findings) - limit} more" if len(findings) > limit else ""
    n_allow = sum(f.allow_listed for f in findings)
    allow_note = (f" {n_allow} of them are on the project's allow list, which release checks do not trust "
                  "on its own." if n_allow else "")
    return (f"release refused: detection run again over the release text finds {len(findings)} item(s) "
            f"nobody decided about ({shown}{more}).{allow_note} Accept or reject each in the review (the "
            "app lists them), then sign off again. Nothing was written.")


def precheck_project(project, conversation_ids: Iterable[str] | None = None) -> list[RecheckFinding]:
    """What ``export_release`` would refuse over, found *before* signing: substitution with the
    project's stored map, then :func:`recheck_release`. Reviewers resolve these, then sign off."""
    from redactdesk.pipeline.export_formats import build_revised
    from redactdesk.substitute.engine import substitute_conversation

    ids = list(conversation_ids) if conversation_ids is not None else project.conversation_ids()
    mode = str(project.setting("substitute.mode", "pseudonym"))
    mode = "pseudonym" if mode == "generalise" else mode  # surrogate words are skipped either way
    convs: dict[str, Conversation] = {}
    revised: dict[str, RevisedConversation] = {}
    for cid in ids:
        conv = project.load_conversation(cid)
        if not conv.words:
            continue
        result = substitute_conversation(conv, mode=mode, secret=project.secret,
                                         existing_map=project.pseudonyms(cid), language=conv.language,
                                         gazetteer_edits=project.gazetteer_entries(conv.language))
        convs[cid] = conv
        revised[cid] = build_revised(conv, result.revised_words, result.replacements)
    return recheck_release(convs, revised, deny=[(t, c or "GENERIC_ID") for t, c in project.terms("deny")],
                           allow_signed=[t for t, _ in project.terms("allow")])

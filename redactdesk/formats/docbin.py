"""spaCy DocBin (``corpus.spacy``): one Doc per turn, tokens = the words, entities = the spans —
the binary training format of ``spacy train`` (``DocBin().from_disk(path)`` reads it back).

A blank pipeline's vocabulary is enough (no model is loaded); ``user_data`` keeps the conversation
id, turn, speaker and each token's times so nothing of the corpus JSON is lost.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator
from pathlib import Path

from redactdesk.core.types import Conversation
from redactdesk.formats.files import atomic_write_bytes
from redactdesk.formats.interchange import paragraphs, shown_spans


@contextlib.contextmanager
def _builtin_msgpack_only() -> Iterator[None]:
    """srsly looks up msgpack plug-ins (entry points of every installed package) each time it packs or
    unpacks, once per Doc of a DocBin: about 1 ms a turn. None is installed that a DocBin of plain
    text, times and labels would need, so the lookup is off while a DocBin is written or read."""
    import srsly.msgpack as srsly_msgpack

    registries = [r for r in (getattr(srsly_msgpack, "msgpack_encoders", None),
                              getattr(srsly_msgpack, "msgpack_decoders", None)) if hasattr(r, "entry_points")]
    before = [r.entry_points for r in registries]
    for r in registries:
        r.entry_points = False
    try:
        yield
    finally:
        for r, b in zip(registries, before, strict=True):
            r.entry_points = b


def _vocab(language: str) -> object:
    """The vocabulary ``spacy.blank(language)`` would have, made without a pipeline: creating one
    imports every installed spaCy plug-in (with Presidio installed, transformers: seconds)."""
    from spacy.util import get_lang_class
    from spacy.vocab import create_vocab

    return create_vocab(language, get_lang_class(language).Defaults)


def docbin_bytes(conversations: Iterable[Conversation]) -> bytes:
    """The serialised DocBin of every turn of ``conversations``."""
    from spacy.tokens import Doc, DocBin
    from spacy.tokens import Span as SpacySpan
    from spacy.util import filter_spans

    vocabs: dict[str, object] = {}
    db = DocBin(store_user_data=True)
    with _builtin_msgpack_only():
        for conv in conversations:
            lang = conv.language if conv.language in ("en", "es") else "xx"
            vocab = vocabs.setdefault(lang, _vocab(lang))
            spans = shown_spans(conv)
            for ti, p in enumerate(paragraphs(conv)):
                first, last = p.offsets[0][0], p.offsets[-1][0] + 1
                words = [conv.words[i].text for i, _, _ in p.offsets]
                doc = Doc(vocab, words=words, spaces=[True] * (len(words) - 1) + [False])
                ents = [SpacySpan(doc, max(s.start_word, first) - first, min(s.end_word, last) - first,
                                  label=s.category)
                        for s in spans if max(s.start_word, first) < min(s.end_word, last)]
                doc.set_ents(filter_spans(ents))  # a project's open suggestions may overlap; entities may not
                doc.user_data.update({"conversation_id": conv.id, "turn": ti, "speaker": p.speaker,
                                      "times": [[round(conv.words[i].start, 4), round(conv.words[i].end, 4)]
                                                for i, _, _ in p.offsets]})
                db.add(doc)
        return db.to_bytes()


def write_docbin(conversations: Iterable[Conversation], path: str | Path) -> Path:
    return atomic_write_bytes(path, docbin_bytes(conversations))


def read_docbin_texts(path: str | Path) -> list[str]:
    """The text of every Doc in a DocBin file, in order."""
    from spacy.tokens import DocBin

    vocab = _vocab("xx")
    with _builtin_msgpack_only():
        return [doc.text for doc in DocBin().from_disk(path).get_docs(vocab)]

"""Read and write labelled corpora: CoNLL (token TAB tag, IOB2, blank line between utterances)
and JSONL (one ``{"tokens": [...], "tags": [...]}`` object per line, optional ``role``/``id``).

Consecutive utterances of one document (CoNLL: between ``-DOCSTART-`` lines; JSONL: the same
``conversation_id``) are turns of one call: each gets the previous one's tokens as ``context``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path

from redactdesk.learn.errors import DataFormatError
from redactdesk.learn.tags import repair_iob2
from redactdesk.learn.utterances import Utterance


def _fail(path: Path, line: int, msg: str) -> DataFormatError:
    return DataFormatError(f"{path}:{line}: {msg}")


def read_conll(path: str | os.PathLike[str]) -> list[Utterance]:
    """CoNLL: first column token, last column tag; blank lines end utterances; ``-DOCSTART-`` skipped."""
    p = Path(path)
    out: list[Utterance] = []
    tokens: list[str] = []
    tags: list[str] = []
    start_line = 1
    doc = 0
    context: list[str] | None = None

    def flush() -> None:
        nonlocal context
        if tokens:
            try:
                out.append(Utterance(tokens=list(tokens), tags=repair_iob2(tags), turn_index=len(out),
                                     conversation_id=f"doc{doc}", context=context))
            except DataFormatError as exc:
                raise _fail(p, start_line, str(exc)) from None
            context = list(tokens)
            tokens.clear()
            tags.clear()

    with p.open(encoding="utf-8") as fh:
        for n, raw in enumerate(fh, 1):
            line = raw.rstrip("\n").rstrip("\r")
            if not line.strip():
                flush()
                start_line = n + 1
                continue
            if line.startswith("-DOCSTART-"):
                flush()
                doc += 1
                context = None
                continue
            cols = line.split("\t")
            if len(cols) < 2:
                raise _fail(p, n, "expected 'token<TAB>tag'")
            if not tokens:
                start_line = n
            tokens.append(cols[0])
            tags.append(cols[-1].strip())
        flush()
    return out


def read_jsonl(path: str | os.PathLike[str]) -> list[Utterance]:
    p = Path(path)
    out: list[Utterance] = []
    with p.open(encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                d = json.loads(line)
            except json.JSONDecodeError as exc:
                raise _fail(p, n, f"not JSON ({exc.msg})") from None
            if not isinstance(d, dict) or not isinstance(d.get("tokens"), list) or not isinstance(d.get("tags"), list):
                raise _fail(p, n, 'expected an object with "tokens" and "tags" lists')
            try:
                out.append(Utterance(
                    tokens=[str(t) for t in d["tokens"]], tags=repair_iob2([str(t) for t in d["tags"]]),
                    role=d.get("role"), confidences=d.get("confidences"),
                    conversation_id=d.get("conversation_id", d.get("id")),
                    turn_index=d.get("turn_index", len(out)), language=d.get("language", "en"),
                    labelled=True, context=d.get("context"),
                ))
            except DataFormatError as exc:
                raise _fail(p, n, str(exc)) from None
            u = out[-1]
            if u.context is None and len(out) > 1 and u.conversation_id is not None \
                    and out[-2].conversation_id == u.conversation_id:
                u.context = list(out[-2].tokens)
    return out


def read_corpus(path: str | os.PathLike[str]) -> list[Utterance]:
    """Read a labelled corpus, JSONL when the name ends in .jsonl/.json, CoNLL otherwise."""
    p = Path(path)
    if not p.is_file():
        raise DataFormatError(f"{p}: no such corpus file")
    utts = read_jsonl(p) if p.suffix.lower() in (".jsonl", ".json") else read_conll(p)
    utts = [u for u in utts if u.tokens]
    if not utts:
        raise DataFormatError(f"{p}: no utterances found")
    for u in utts:
        u.labelled = True
    return utts


def write_conll(utterances: Iterable[Utterance], path: str | os.PathLike[str]) -> int:
    p = Path(path)
    n = 0
    doc: object = object()
    with p.open("w", encoding="utf-8") as fh:
        for u in utterances:
            if u.tags is None:
                raise DataFormatError(f"utterance {u.key} has no tags to write")
            if u.conversation_id != doc and u.conversation_id is not None:
                fh.write("-DOCSTART-\tO\n\n")
            doc = u.conversation_id
            for tok, tag in zip(u.tokens, u.tags, strict=True):
                fh.write(f"{tok.replace(chr(9), ' ')}\t{tag}\n")
            fh.write("\n")
            n += 1
    return n


def write_jsonl(utterances: Iterable[Utterance], path: str | os.PathLike[str]) -> int:
    p = Path(path)
    n = 0
    with p.open("w", encoding="utf-8") as fh:
        for u in utterances:
            d = {"tokens": u.tokens, "tags": u.tags, "role": u.role, "conversation_id": u.conversation_id,
                 "turn_index": u.turn_index, "language": u.language}
            if u.confidences is not None and any(c is not None for c in u.confidences):
                d["confidences"] = u.confidences
            fh.write(json.dumps(d, ensure_ascii=False) + "\n")
            n += 1
    return n

"""The files of a release that other tools open directly: Label Studio and Prodigy tasks, doccano
JSONL, a spaCy DocBin, a Hugging Face ``audiofolder`` metadata file, RTTM speaker turns, STM/CTM
transcripts, WebVTT/SRT subtitles and Audacity label tracks of the masked ranges.

Every file is built from the revised conversation (surrogates and their items, never originals),
and every text file is leak-scanned with the rest of the release. Per-conversation files live in
a folder named after the format (``rttm/<id>.rttm``); corpus-wide JSONL files carry a
``conversation_id`` on every line so the leak scan knows whose values to look for.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from redactdesk.pipeline import export_formats as ef

METADATA = "metadata.jsonl"  # datasets.load_dataset("audiofolder", data_dir=release)
DOCBIN = "corpus.spacy"
PRODIGY = "prodigy.jsonl"
DOCCANO = "doccano.jsonl"

README_LINES = """\
labelstudio/<id>.json    Label Studio task: audio, dialogue paragraphs with word times, the items as
                    predictions (labeling config: `redactdesk tasks config`)
prodigy.jsonl       Prodigy tasks: text, tokens, spans (token_start/token_end), audio + audio_spans
doccano.jsonl       doccano sequence labeling: one turn per line, [start, end, label] character spans
corpus.spacy        spaCy DocBin, one Doc per turn, the items as entities (spacy.tokens.DocBin().from_disk)
metadata.jsonl      Hugging Face audiofolder metadata: datasets.load_dataset("audiofolder", data_dir=THIS)
rttm/<id>.rttm      speaker turns (NIST RTTM)
stm/<id>.stm        one segment per turn (NIST STM); ctm/<id>.ctm: word times (NIST CTM)
vtt/<id>.vtt, srt/<id>.srt   subtitles of the revised words
audacity/<id>.txt   Audacity label track of the masked ranges (File > Import > Labels)
"""

Inside = Callable[..., Path]


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8", newline="\n")


def write_conversation_files(inside: Inside, rev: ef.RevisedConversation, audio_rel: str | None) -> None:
    """Per-conversation interchange files of one revised conversation."""
    from redactdesk.formats.ctm import format_ctm
    from redactdesk.formats.labelstudio import labelstudio_task
    from redactdesk.formats.rttm import format_rttm, rttm_turns
    from redactdesk.formats.stm import format_stm
    from redactdesk.formats.subtitles import format_srt, format_vtt

    conv = rev.to_conversation(audio_rel)
    cid = rev.id
    task = labelstudio_task(conv, f"../{audio_rel}" if audio_rel else None, model_version="redactdesk-release")
    _write(inside("labelstudio", f"{cid}.json"), json.dumps([task], ensure_ascii=False, allow_nan=False, indent=1)
           + "\n")
    _write(inside("rttm", f"{cid}.rttm"), format_rttm(rttm_turns(conv)))
    _write(inside("stm", f"{cid}.stm"), format_stm(conv))
    _write(inside("ctm", f"{cid}.ctm"), format_ctm(rev.words, file_id=cid))
    _write(inside("vtt", f"{cid}.vtt"), format_vtt(rev.words))
    _write(inside("srt", f"{cid}.srt"), format_srt(rev.words))


def write_corpus_files(root: Path, revised: Sequence[ef.RevisedConversation], audio_rel: dict[str, str]) -> None:
    """Corpus-wide files: Prodigy and doccano JSONL, the spaCy DocBin, audiofolder metadata."""
    from redactdesk.formats.docbin import write_docbin
    from redactdesk.formats.doccano import doccano_lines
    from redactdesk.formats.prodigy import prodigy_line

    convs = [rev.to_conversation(audio_rel.get(rev.id)) for rev in revised]
    _write(root / PRODIGY, "".join(prodigy_line(c, audio_rel.get(c.id)) + "\n" for c in convs))
    _write(root / DOCCANO, "".join(line + "\n" for c in convs for line in doccano_lines(c)))
    write_docbin(convs, root / DOCBIN)
    _check_docbin(root / DOCBIN, root / DOCCANO)
    rows = [metadata_row(rev, audio_rel[rev.id]) for rev in revised if rev.id in audio_rel]
    if rows:
        _write(root / METADATA, "".join(json.dumps(r, ensure_ascii=False, allow_nan=False) + "\n" for r in rows))


def _check_docbin(docbin: Path, doccano: Path) -> None:
    """The DocBin is compressed, so the leak scan cannot read it: it must hold exactly the turns of
    doccano.jsonl (which is scanned), or the release stops here."""
    from redactdesk.formats.docbin import read_docbin_texts

    want = [json.loads(line)["text"] for line in doccano.read_text(encoding="utf-8").splitlines() if line]
    if read_docbin_texts(docbin) != want:
        raise RuntimeError("corpus.spacy does not hold the same turns as doccano.jsonl; nothing was released")


def metadata_row(rev: ef.RevisedConversation, audio_rel: str) -> dict[str, Any]:
    """One audiofolder row: the masked audio's path and the revised transcript with speakers."""
    return {"file_name": audio_rel, "conversation_id": rev.id, "language": rev.language,
            "duration": rev.duration, "transcription": " ".join(w.text for w in rev.words),
            "speakers": list(dict.fromkeys(t.speaker for t in rev.turns)), "items": len(rev.items),
            "categories": sorted({it.category for it in rev.items})}


def write_audacity(inside: Inside, cid: str, ranges: Iterable[Any]) -> None:
    """Audacity label track of the ranges masked in ``cid``'s audio."""
    from redactdesk.formats.audacity import format_labels, mask_labels

    _write(inside("audacity", f"{cid}.txt"), format_labels(mask_labels(ranges)))

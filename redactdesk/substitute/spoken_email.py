"""E-mail addresses as the ASR wrote them, read back into spoken tokens ("x dot y at z dot com").

Reference transcripts say "maria dot lopez at example dot org"; Whisper writes
"Richard. Garcia. Addexample .com.", "john .medina57 .example .org.", "Holly .tompsonetexample .com.",
"reyes .cabezas 70 a roba Coreo. Puntoexample .com". :func:`respeak` turns such tokens into the
spoken form the e-mail parser reads: a leading "." becomes the dot word, letters and digits glued
together are split, an at-word or dot-word glued to a mail-domain word is split off ("addexample"
→ "at example"), "a roba"/"aroba" is "arroba", and where no at-word was heard at all the one before
the first mail-domain word is put back. Pseudonym mode then says a surrogate address in words
instead of giving up with a placeholder.
"""

from __future__ import annotations

import re

from redactdesk.lang.folding import strip_accents

DOT = {"en": "dot", "es": "punto"}
AT = {"en": "at", "es": "arroba"}
AT_HEARD = {"en": ("at", "ad", "et", "add", "ed", "it"), "es": ("arroba", "aroba", "arova", "roba", "at")}
DOT_HEARD = {"en": ("dot",), "es": ("punto", "dot")}
# first labels of mail domains callers say (RFC 2606 names and the big providers, in both languages)
MAIL_WORDS = ("example", "ejemplo", "mail", "correo", "coreo", "gmail", "hotmail", "yahoo", "outlook", "webmail",
              "inbox", "post", "mailbox", "icloud", "live", "protonmail")
TLDS = ("com", "org", "net", "es", "co", "uk", "io", "edu", "gov", "info")


def _pieces(token: str) -> list[str]:
    return re.findall(r"@|\.|[^\W\d_]+|\d+", token.lower())


def _unglue(word: str, language: str) -> list[str]:
    """"addexample" → ["at", "example"]; "puntoexample" → ["punto", "example"]; others unchanged."""
    plain = strip_accents(word)
    for mail in MAIL_WORDS:
        if plain.endswith(mail) and len(plain) > len(mail):
            head = plain[: -len(mail)]
            for at in sorted(AT_HEARD[language], key=len, reverse=True):
                if head.endswith(at):
                    rest = head[: -len(at)]
                    return ([rest] if rest else []) + [AT[language], mail]
            for dot in DOT_HEARD[language]:
                if head.endswith(dot):
                    rest = head[: -len(dot)]
                    return ([rest] if rest else []) + [DOT[language], mail]
    return [word]


def respeak(tokens: list[str], language: str) -> list[str]:
    """Spoken-form tokens of an e-mail address as the ASR wrote it (see the module docstring)."""
    lang = language if language in DOT else "en"
    out: list[str] = []
    for tok in tokens:
        for p in _pieces(tok):
            if p == ".":
                out.append(DOT[lang])
            elif p == "@":
                out.append(AT[lang])
            else:
                out += _unglue(p, lang)
    # "a roba" (es): the at-word split in two
    joined: list[str] = []
    for w in out:
        if joined and lang == "es" and joined[-1] == "a" and w in ("roba", "rroba"):
            joined[-1] = AT[lang]
        elif lang == "es" and w in ("aroba", "arova"):
            joined.append(AT[lang])
        else:
            joined.append(w)
    while joined and joined[-1] in DOT_HEARD[lang]:
        joined.pop()  # the sentence's full stop read as a dot
    while joined and joined[0] in DOT_HEARD[lang]:
        joined.pop(0)
    if AT[lang] not in joined:
        first = next((i for i, w in enumerate(joined) if i > 0 and strip_accents(w) in MAIL_WORDS), None)
        if first is None:  # no mail word: the label before the last top-level domain starts the domain
            tld = max((i for i, w in enumerate(joined) if w in TLDS), default=None)
            if tld is not None and tld >= 3 and joined[tld - 1] in DOT_HEARD[lang]:
                first = tld - 2
        if first is not None:
            if joined[first - 1] in DOT_HEARD[lang]:
                joined[first - 1] = AT[lang]
            else:
                joined.insert(first, AT[lang])
    return [w for i, w in enumerate(joined)
            if not (w in DOT_HEARD[lang] and i + 1 < len(joined) and joined[i + 1] == AT[lang])]

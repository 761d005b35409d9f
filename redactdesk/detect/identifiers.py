"""The "identifiers" source: structured identifiers written or read aloud, validated by the libraries
that define them.

- every format python-stdnum validates (national IDs, social-security and tax numbers, VAT and
  company numbers, bank accounts, IBANs of every country — :mod:`redactdesk.detect.stdnum_catalog`);
- telephone numbers in every written form phonenumbers finds (:mod:`redactdesk.detect.written_phones`);
- IPv4 / IPv6 and MAC addresses, social-media handles (:mod:`redactdesk.detect.network_ids`; said
  aloud, "rt at homedepot": :mod:`redactdesk.detect.spoken_handles`);
- postcodes: UK, Canada, Netherlands, US ZIP / ZIP+4, 5-digit European codes beside a place
  (:mod:`redactdesk.detect.postcodes`);
- written dates ("5-MAY-2021", "2021-05-21", "May 5, 2021": :mod:`redactdesk.detect.written_dates`).

Written forms are found on the words joined by spaces; spoken forms ("u one three two nine five
zero x", "m one one a a") on the normaliser's tokens (``doc.norm``), whose word map gives the words
back. How much evidence a stdnum match needs depends on how often a random string of its shape
would pass (:func:`~redactdesk.detect.stdnum_catalog.chance`):

- a context word naming that kind of number nearby ("PESEL", "VAT number", "IBAN"): any valid format;
- a vague ID word ("ID", "tax", "social"): a strong check (chance <= 2 %: a birth date and a check
  digit, two check digits), 8+ characters;
- no context: a distinctive shape — letters and digits, a country prefix, or separators exactly as the
  format documents them ("59-119/9013", "85 07 30 033 28") — and a check (chance <= 20 %). A bare
  digit string never stands on a checksum alone (a mod-11 check passes one random number in
  eleven): the pattern source's digit-run rules cover those.

Words such as "ISBN", "IMEI", "order number" before a candidate stop it (book, device and order
numbers are no national numbers). The context words live in the lexicon under ``identifier_words``.
Where a written stretch is both a phone number and a valid identifier, the phone wins unless an
identifier's name is nearer than any phone word; letters-and-digits identifiers (IBANs) are read
before phones, so no phone is cut out of them.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from redactdesk.detect import gb_nino
from redactdesk.detect.char_spans import CharSpan
from redactdesk.detect.network_ids import find_handles, find_ips, find_macs, mac_words
from redactdesk.detect.normalize import ALNUM, LETTER, NUM, WORD, said_dashes
from redactdesk.detect.postcodes import find_postcodes, is_region_code, region_codes, spoken_postcode
from redactdesk.detect.sources import DetectDoc, Hit, check_params
from redactdesk.detect.spoken_handles import find_spoken_handles
from redactdesk.detect.stdnum_catalog import chance, documented_layout, formats_for, layout
from redactdesk.detect.stdnum_catalog import compact as compact_of
from redactdesk.detect.written_dates import find_dates, is_written_date
from redactdesk.detect.written_phones import find_cued_phone_shapes, find_phones
from redactdesk.lang.alphabet import ONE_LETTER_WORDS
from redactdesk.lang.lexicon import Lexicon, phrases

SOURCE = "identifiers"

_HAS_DIGIT = re.compile(r"\d")
# letters (a name's) run into two to four digits, standing as a word of their own
_JOINED_HANDLE = re.compile(r"(?<![\w@#./+-])[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+_?(?![\w@/-]|\.\w)")
_NAME_DIGITS = re.compile(r"(?<![\w@./+-])(?P<name>[A-Za-z][a-z]{2,19})\d{2,4}(?![\w@/-]|\.\w)")
_PLATE_AFTER_CUE = re.compile(
    r"(?<!\w)(?P<cue>(?i:(?:licen[cs]e|number|registration|car|vehicle)\s+plates?(?:\s+number)?|registration(?:\s+number)?"
    r"|reg\.?|plate\s+number|matr[ií]cula|kennzeichen|immatriculation|targa))"
    r"(?:\s+(?i:is|was|reads|es))?\s*[:#]?\s*"
    r"(?P<plate>[A-Z0-9]{1,4}(?:[- ][A-Z0-9]{1,4}){0,3})(?![\w-])")
# a British plate typed in lower case ("reg is ab12 cde"): only after a word that names a plate
_LOWER_UK_PLATE_AFTER_CUE = re.compile(
    _PLATE_AFTER_CUE.pattern.split("(?P<plate>")[0] + r"(?P<plate>[a-z]{2}\d{2} ?[a-z]{3})(?![\w-])")
# any capitals: the DVLA leaves out I, Q and Z in places, test data does not ("SB16QGB")
_UK_PLATE = re.compile(r"(?<![\w-])[A-Z]{2}\d{2} ?[A-Z]{3}(?![\w-])")
_ID_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9.\-/]*")
_LETTER_WORD = re.compile(r"[A-Z]{1,4}")
_LOWER_NINO = re.compile(r"(?<![\w-])[a-z]{2} \d{2} \d{2} \d{2} [a-z](?![\w-])")  # "jg 10 37 58 a"
_IBAN_HEAD = re.compile(r"[A-Za-z]{2}\d{2}")  # an IBAN's country and check digits
_LOWER_BANK_CODE = re.compile(r"[a-z]{4}")
_SEPARATOR_WORD = re.compile(r"[-/.–]")  # "116 - 82 - 00276"
_LABEL = re.compile(r"[A-Za-z]{2,12}:(?=\w)")  # "IBAN:DE89..." / "ID:123"
_OUTER = ".,;:!?\"'“”‘’«»()[]{}…*"
_SEPARATED = re.compile(r"[\s.\-/]")
_COUNTRY_CODE = re.compile(r"\(?\+\d{1,3}\)?")
_MAX_RUN_WORDS = 12  # an IBAN in groups of four: up to nine words
_MIN_ID = 5
_TRIM = 3  # tokens a spoken candidate may lose at either end

# which context group confirms which category
_GROUP_CATEGORIES = {
    "national": frozenset({"NATIONAL_ID", "SSN", "ES_ID", "PASSPORT"}),
    "passport": frozenset({"PASSPORT"}),
    "vat": frozenset({"VAT_ID", "ES_ID"}),
    "bank": frozenset({"IBAN", "BANK_ACCOUNT", "ROUTING"}),
    "generic": frozenset(),
}
_PREFERENCE = ("IBAN", "SSN", "ES_ID", "NATIONAL_ID", "PASSPORT", "VAT_ID", "BANK_ACCOUNT", "ROUTING", "GENERIC_ID")
_NOT_STRONG = frozenset({"DATE", "DATE_OF_BIRTH"})
_SORT_CODE_SHAPE = re.compile(r"\d{2}([-. ])\d{2}\1\d{2}")  # a UK sort code is written as a two-digit date is
_MAX_CHANCE = 0.2  # one check digit passes ~1 string in 10: enough beside a distinctive shape
_MAX_CHANCE_GENERIC = 0.02  # a vague word ("ID", "tax") and bare digits: a date or two checks inside
# one-letter words that are also everyday words (the normaliser's ambiguous letters)


@functools.lru_cache(maxsize=4)
def _context_groups(lex: Lexicon) -> tuple[tuple[str, tuple[tuple[str, ...], ...]], ...]:
    """(group, phrases) for every kind of context a candidate identifier can have."""
    own = (lex.raw.get("identifier_words") or {})

    def mine(key: str) -> tuple[tuple[str, ...], ...]:
        return phrases(own.get(key) or [])

    return (
        ("national", mine("national_id")),
        ("passport", lex.hot("passport")),  # a passport number is none of the national numbers it may pass
        ("vat", mine("vat_id")),
        ("bank", lex.hot("iban") + lex.hot("bank_account") + lex.hot("routing")),
        ("generic", mine("id_generic") + lex.hot("ssn") + lex.hot("es_id")),  # "social", "documento": vaguer
        ("other", mine("not_personal") + mine("other_reference") + lex.hot("phone") + lex.hot("card")),
    )


@functools.lru_cache(maxsize=4)
def _context_index(lex: Lexicon) -> dict[str, tuple[tuple[str, tuple[str, ...]], ...]]:
    """First word -> (group, phrase) for every context phrase (a window is scanned once)."""
    index: dict[str, list[tuple[str, tuple[str, ...]]]] = {}
    for group, said in _context_groups(lex):
        for ph in said:
            index.setdefault(ph[0], []).append((group, ph))
    return {k: tuple(v) for k, v in index.items()}


@dataclass
class _Written:
    """The words joined by spaces (newlines at turn breaks) and the word behind each character."""

    text: str
    owner: list[int]

    @classmethod
    def of(cls, doc: DetectDoc) -> _Written:
        cached = doc.cache.get("written_text")
        if cached is not None:
            return cached
        breaks = set(doc.breaks)
        parts: list[str] = []
        owner: list[int] = []
        for i, w in enumerate(doc.words):
            if i:
                parts.append("\n" if i in breaks else " ")
                owner.append(-1)
            parts.append(w)
            owner.extend([i] * len(w))
        out = cls("".join(parts), owner)
        doc.cache["written_text"] = out
        return out

    def words(self, start: int, end: int) -> tuple[int, int] | None:
        ids = [w for w in self.owner[start:end] if w >= 0]
        return (min(ids), max(ids) + 1) if ids else None


@dataclass
class _Candidate:
    w0: int
    w1: int
    raw: str  # as written (spoken: the compact letters and digits)
    compact: str
    spoken: bool
    partial: bool = False  # leaves out digits of its run: a context word alone is not enough


_SINGLE_DIGIT = re.compile(r"[-–]?\d[.,]?")


def _read_out_digits(words: Sequence[str], w0: int, w1: int) -> bool:
    """Digits read out one at a time ("5 3 -5 -8 ...", as Whisper writes a card or phone said digit
    by digit, or inside a longer run): the pattern source reads such runs whole, with their context."""
    n = w1 - w0
    if n < 4:
        return False
    singles = sum(1 for w in words[w0:w1] if _SINGLE_DIGIT.fullmatch(w))
    before = w0 > 0 and _SINGLE_DIGIT.fullmatch(words[w0 - 1]) is not None
    after = w1 < len(words) and _SINGLE_DIGIT.fullmatch(words[w1]) is not None
    return singles * 2 > n or before or after


class _IdFinder:
    def __init__(self, doc: DetectDoc, params: Mapping[str, Any]) -> None:
        assert doc.norm is not None and doc.lex is not None
        self.doc = doc
        self.lex = doc.lex
        self.p = params
        self.left = int(params["context_left"])
        self.used = [False] * len(doc.words)
        self.tried = [False] * len(doc.words)
        self.hits: list[Hit] = []
        self.written = _Written.of(doc)
        self._classes: list[tuple[str, str] | None] | None = None
        # a dash said inside a code read aloud ("s w one a dash one a a") joins its pieces and adds
        # no character
        self.said_dashes = said_dashes(doc.lex)

    # --- bookkeeping -----------------------------------------------------------------------------

    def free(self, w0: int, w1: int) -> bool:
        return not any(self.used[w0:w1])

    def add(self, w0: int, w1: int, category: str, score: float, reason: str) -> None:
        """A hit. Validated identifiers are ``strong`` (their check stands alone in the vote and wins an
        overlap with an unvalidated guess); dates are not."""
        for k in range(w0, w1):
            self.used[k] = True
        strong = category not in _NOT_STRONG and score >= 0.75
        self.hits.append(Hit(w0, w1, category, score, SOURCE, reason, strong))

    def add_chars(self, c: CharSpan, category: str | None = None, reason: str | None = None) -> bool:
        r = self.written.words(c.start, c.end)
        if r is None or not self.free(*r):
            return False
        self.add(r[0], r[1], category or c.category, c.score, reason or c.reason)
        return True

    def phrase_near(self, phrases: tuple[tuple[str, ...], ...], w0: int, w1: int, left: int, right: int = 0
                    ) -> str | None:
        found = self.doc.find_phrase(phrases, w0 - left, w0)
        if found is None and right:
            found = self.doc.find_phrase(phrases, w1, w1 + right)
        return " ".join(found[1]) if found else None

    def id_context(self, w0: int, w1: int) -> tuple[str, str] | None:
        """(group, phrase) of the closest identifier context in the words before [w0, w1) (the phrase
        ending closest to w0; the longest phrase among those)."""
        index = _context_index(self.lex)
        lower = self.doc.lower
        best: tuple[int, int, str, str] | None = None
        for i in range(max(0, w0 - self.left), w0):
            for group, ph in index.get(lower[i], ()):
                end = i + len(ph)
                if end > w0 or tuple(lower[i:end]) != ph:
                    continue
                key = (w0 - end, -len(ph))
                if best is None or key < best[:2]:
                    best = (key[0], key[1], group, " ".join(ph))
        return (best[2], best[3]) if best else None

    # --- passes ----------------------------------------------------------------------------------

    def run(self) -> list[Hit]:
        text = self.written.text
        has_digits = bool(_HAS_DIGIT.search(text))
        spoken_digits = any(tk.kind == NUM for tk in self.doc.norm.tokens)
        if self.p["network"] and ("@" in text or "u/" in text):
            self.handles(text)
        if self.p["network"]:
            for h in find_spoken_handles(self.doc, self.used):
                self.add(h.start_word, h.end_word, h.category, h.score, h.reason)
        if not has_digits and not spoken_digits:
            return self._last(text)
        deferred: list[CharSpan] = []
        if has_digits:
            if self.p["network"]:
                self.network(text)
            if self.p["dates"]:
                self.dates(text)
            if self.p["stdnum"] and any(ch.islower() for ch in text):
                self._ninos_in_lower_case(text)
            if self.p["stdnum"]:  # letters and digits first: a phone-like stretch inside an IBAN is no phone
                self.stdnum_written(with_letters=True)
            if self.p["phones"]:
                deferred = self.phones(text)
            if self.p["stdnum"]:
                self.stdnum_written(with_letters=False)
            for c in deferred:
                self.add_chars(c)
            if self.p["postcodes"]:
                self.postcodes_written(text)
            if self.p["stdnum"]:
                self.plates_written(text)
            if self.p["network"]:
                self.names_with_digits(text)
        if spoken_digits and (self.p["stdnum"] or self.p["postcodes"]):
            self.spoken()
        return self._last(text)

    def _last(self, text: str) -> list[Hit]:
        """The passes every text ends with, after every other family took its words: user names
        joined by underscores, then relative dates."""
        if self.p["network"] and "_" in text:
            self.joined_handles(text)
        return self.relative_dates() if self.p["dates"] else self.hits

    def plates_written(self, text: str) -> None:
        """A British number plate as written ("AB12 CDE", "AB12CDE"): two letters, the age pair of
        digits, three letters — a vehicle is its keeper's; no postcode or stdnum format has the shape."""
        for m in _UK_PLATE.finditer(text):
            c = CharSpan(m.start(), m.end(), "GENERIC_ID", 0.75, "a British number plate")
            self.add_chars(c)
        # any country's plate after a word that names one ("license plate is 0181 EM", "Kennzeichen
        # BL-HC-17"): capitals and digits in up to four groups, a digit and a letter among them ("the
        # registration is 2019" is a year)
        for m in _PLATE_AFTER_CUE.finditer(text):
            plate = m.group("plate").rstrip(" -")
            compact = re.sub(r"[- ]", "", plate)
            if 4 <= len(compact) <= 10 and any(ch.isdigit() for ch in compact) and any(ch.isalpha() for ch in compact):
                start = m.start("plate")
                self.add_chars(CharSpan(start, start + len(plate), "GENERIC_ID", 0.8,
                                        f"a number plate after '{m.group('cue').strip()}'"))
        for m in _LOWER_UK_PLATE_AFTER_CUE.finditer(text):
            self.add_chars(CharSpan(m.start("plate"), m.end("plate"), "GENERIC_ID", 0.8,
                                    f"a British number plate in lower case after '{m.group('cue').strip()}'"))

    def relative_dates(self) -> list[Hit]:
        """"tomorrow", "next friday", "on the fifth" (after every other family: they never overlap one)."""
        from redactdesk.detect.relative_dates import find_relative_dates

        for h in find_relative_dates(self.doc, self.used):
            self.add(h.start_word, h.end_word, h.category, h.score, h.reason)
        return self.hits

    def handles(self, text: str) -> None:
        for c in find_handles(text):
            self.add_chars(c)

    def names_with_digits(self, text: str) -> None:
        """A first name or surname run into digits ("laura88", "evan24", "Kirk65"): how usernames and
        e-mail boxes are made, never how a sentence writes a name or a number. Run last: an identifier
        of another family keeps its letters and digits."""
        from redactdesk.detect.worldnames import load_world_names
        from redactdesk.lang.folding import fold_key

        names = load_world_names()
        for m in _NAME_DIGITS.finditer(text):
            if names.is_plain_name(fold_key(m.group("name"))):  # "page12", "room101": everyday words
                self.add_chars(CharSpan(m.start(), m.end(), "USERNAME", 0.7, "a name run into digits, as a username is made"))

    def joined_handles(self, text: str) -> None:
        """Words joined by underscores, with a small letter ("darkstar_1987", "lexi_bailey_",
        "I post as dark_star"): how user names are made, never how a sentence writes words. Written
        in capitals it is a constant of code ("MAX_SIZE"), no one's name. Run last, as above."""
        for m in _JOINED_HANDLE.finditer(text):
            if any(c.islower() for c in m.group()):
                self.add_chars(CharSpan(m.start(), m.end(), "USERNAME", 0.7,
                                        "words joined by underscores, as a user name"))

    def network(self, text: str) -> None:
        """IP and MAC addresses, and a place's coordinates (where a device, or its owner, is)."""
        from redactdesk.detect.coordinates import find_coordinates

        for c in find_coordinates(text):
            self.add_chars(c)
        found = sorted(find_ips(text) + find_macs(text), key=lambda c: (-(c.end - c.start), c.start))
        for c in found:
            r = self.written.words(c.start, c.end)
            if r is None:
                continue
            if c.needs and not self.phrase_near(mac_words(self.lex), r[0], r[1], self.left):
                continue
            self.add_chars(c)

    def dates(self, text: str) -> None:
        for c in find_dates(text, self.lex):
            r = self.written.words(c.start, c.end)
            if r is None or not self.free(*r) or self._after_country_code(r[0]):
                continue
            value = text[c.start:c.end]
            groups = len(re.findall(r"\d+", value))
            whole = groups >= 3 or (groups == 2 and re.search(r"[^\W\d_]", value) is not None)
            if not whole and self.doc.context("expiry", r[0], r[1], left=8):
                continue  # a card expiry ("exp 09/27"): the pattern source reads those; a whole date stays
            if _SORT_CODE_SHAPE.fullmatch(value) and self.doc.context("routing", r[0], r[1], left=4):
                continue  # "sort code 07-04-36": a bank's sort code (the pattern source's), no date
            dob = self.doc.context("dob", r[0], r[1], left=14, right=3)
            if dob:
                self.add_chars(c, "DATE_OF_BIRTH", f"date near '{dob}'")
            else:
                self.add_chars(c)

    def phones(self, text: str) -> list[CharSpan]:
        """Phone numbers; those with an identifier word nearer than any phone word wait until the
        identifier pass has had its look (an NHS number is written like a US phone number)."""
        deferred = []
        for c in find_phones(text, self.lex.phone_region):
            r = self.written.words(c.start, c.end)
            if r is None or _read_out_digits(self.doc.words, *r):
                continue
            ctx = self.id_context(r[0], r[1])
            if ctx and ctx[0] in ("national", "vat", "bank"):
                deferred.append(c)
                continue
            self.add_chars(c)
        phone_words = self.lex.hot("phone")
        said = self.doc.find_phrase(phone_words, 0, len(self.doc.words)) is not None
        for c in find_cued_phone_shapes(text) if said else ():
            r = self.written.words(c.start, c.end)
            if r is not None and not any(self.used[k] for k in range(*r)) and self._phone_word_before(*r):
                self.add_chars(c)
        return deferred

    def _phone_word_before(self, w0: int, w1: int) -> bool:
        """A phone word ("Phone:", "Tel.", "call me at") is the closest identifier context before."""
        ctx = self.id_context(w0, w1)
        return ctx is not None and tuple(ctx[1].split()) in self.lex.hot("phone")

    def _after_country_code(self, w0: int) -> bool:
        """Whether the word before ``w0`` is a telephone country code ("+1", "+44", "+687")."""
        return w0 > 0 and bool(_COUNTRY_CODE.fullmatch(self.doc.words[w0 - 1]))

    # stdnum ---------------------------------------------------------------------------------------

    def _word_class(self, i: int) -> tuple[str, str] | None:
        """("D", core) for a word that can be (part of) an identifier, ("L", core) for a short capitalised
        letter group ("AT", "FN", "IVA") that can prefix or follow one, None otherwise."""
        raw = self.doc.words[i]
        if _SEPARATOR_WORD.fullmatch(raw):
            return "S", raw
        w = raw.strip(_OUTER)
        m = _LABEL.match(w)
        if m:
            w = w[m.end():]
        if not w or len(w) > 64:
            return None
        if _ID_WORD.fullmatch(w) and _HAS_DIGIT.search(w):
            return "D", w
        if _LETTER_WORD.fullmatch(w):
            return "L", w
        if i > 0 and _LOWER_BANK_CODE.fullmatch(w) and _IBAN_HEAD.fullmatch(self.doc.words[i - 1].strip(_OUTER)):
            return "L", w  # "gb29 nwbk 6016 ...": an IBAN typed in lower case, its bank code after its head
        return None

    def stdnum_written(self, with_letters: bool) -> None:
        """Runs of identifier-like words; ``with_letters``: only candidates holding letters (else only
        all-digit ones)."""
        n = len(self.doc.words)
        breaks = set(self.doc.breaks)
        if self._classes is None:
            self._classes = [self._word_class(k) if _HAS_DIGIT.search(w) or len(w) <= 5 else None
                             for k, w in enumerate(self.doc.words)]
        classes = self._classes
        i = 0
        while i < n:
            cls = classes[i] if not self.used[i] else None
            if cls is None:
                i += 1
                continue
            run = [(i, cls[1], cls[0])]
            j = i + 1
            while j < n and j not in breaks and len(run) < _MAX_RUN_WORDS and not self.used[j]:
                c = classes[j]
                if c is None:
                    break
                run.append((j, c[1], c[0]))
                j += 1
            if any(kind == "D" for _, _, kind in run):
                for k, _, _ in run:
                    self.tried[k] = True
                self._windows_written(run, with_letters)
            i = j

    def _windows_written(self, run: list[tuple[int, str, str]], with_letters: bool) -> None:
        m = len(run)
        digit_words = [k for k, (_, _, kind) in enumerate(run) if kind == "D"]
        if not digit_words:
            return
        for size in range(m, 0, -1):
            for a in range(0, m - size + 1):
                part = run[a:a + size]
                w0, w1 = part[0][0], part[-1][0] + 1
                if not self.free(w0, w1) or (part[0][2] == "L" and size == 1) or "S" in (part[0][2], part[-1][2]):
                    continue
                raw = " ".join(core for _, core, _ in part)
                compact = compact_of(raw)
                if compact.isdigit() == with_letters:
                    continue
                partial = a > digit_words[0] or a + size <= digit_words[-1]
                if self._try(_Candidate(w0, w1, raw, compact, False, partial)):
                    # the rest of the run on either side may hold another identifier
                    if a:
                        self._windows_written(run[:a], with_letters)
                    if a + size < m:
                        self._windows_written(run[a + size:], with_letters)
                    return

    def _try(self, cand: _Candidate) -> bool:
        c = cand.compact
        if not _MIN_ID <= len(c) <= 64 or not _HAS_DIGIT.search(c):
            return False
        if not cand.spoken and is_written_date(cand.raw, self.lex):
            return False  # "expires on 2031-04-17": a date, whatever number format it also passes
        fmts = formats_for(c)
        if not fmts or _placeholder(c):
            return False
        letters = not c.isdigit()
        if not letters and not cand.spoken and self._after_country_code(cand.w0):
            return False  # "+1 768 538 6348": a phone number, whatever it also passes
        separated = bool(_SEPARATED.search(cand.raw))
        ctx = self.id_context(cand.w0, cand.w1)
        if ctx and ctx[0] == "other":
            return False
        if not ctx and not letters and not separated:
            return False  # a bare digit string: the pattern source's digit-run rules decide
        valid = [f for f in fmts if f.is_valid(cand.raw)]
        if not valid:
            return False
        if len(c) == 9 and c.isdigit() and not any(f.category == "SSN" for f in valid) and ctx and (
                tuple(ctx[1].split()) in self.lex.hot("ssn")):
            return False  # "my SSN is 078-05-1120": a number its label calls an SSN is one, if not a valid one
        best = self._evidence(cand, valid, ctx, letters, separated)
        if best is None:
            return False
        fmt, score, why = best
        self.add(cand.w0, cand.w1, fmt.category, score,
                 f"valid {fmt.short_title} (stdnum {fmt.name})" + (" read aloud" if cand.spoken else "") + f"; {why}")
        return True

    def _evidence(self, cand: _Candidate, valid: list[Any], ctx: tuple[str, str] | None, letters: bool,
                  separated: bool) -> tuple[Any, float, str] | None:
        group, phrase = ctx if ctx else (None, "")
        fits = _GROUP_CATEGORIES.get(group or "", frozenset())
        options = []
        for f in valid:
            pref = _PREFERENCE.index(f.category) if f.category in _PREFERENCE else len(_PREFERENCE)
            if f.category in fits and not cand.partial:
                options.append((0.95, pref, f, f"after '{phrase}'"))
                continue
            # the cheap tests first: a route must be open before the chance is worth estimating
            if group is not None and len(cand.compact) >= 8 and not cand.partial \
                    and chance(f, cand.compact) <= _MAX_CHANCE_GENERIC:
                options.append((0.85, pref, f, f"after '{phrase}'"))
            elif letters and len(cand.compact) >= 7 and chance(f, cand.compact) <= _MAX_CHANCE:
                options.append((0.8, pref, f, "letters and digits in its documented pattern"))
            elif separated and not cand.spoken and not cand.partial and _documented_layout(cand.raw, f) \
                    and chance(f, cand.compact) <= _MAX_CHANCE:
                options.append((0.8, pref, f, "written in its documented layout"))
        if not options:
            return None
        score, _, f, why = max(options, key=lambda o: (o[0], -o[1]))
        return f, score, why

    # postcodes --------------------------------------------------------------------------------------

    def place_near(self, w0: int, w1: int, regions: bool = True) -> str | None:
        """Why words [w0, w1) sit in an address: a postcode word, a city name, or (``regions``) a US
        state or Canadian province."""
        from redactdesk.detect.gazetteer import load_gazetteer
        zipw = self.doc.context("postcode", w0, w1, left=6, right=2)
        if zipw:
            return f"after '{zipw}'"
        words, lower = self.doc.words, self.doc.lower
        if regions and w0 > 0 and is_region_code(words[w0 - 1]):
            return f"after '{words[w0 - 1].strip(',.')}'"
        names = region_codes()[1]  # state and province names (the gazetteer calls them cities too)
        gaz = load_gazetteer()
        for a in range(max(0, w0 - 4), min(len(lower), w1 + 3)):
            if w0 <= a < w1:
                continue
            for size in (3, 2, 1):
                seg = lower[a:a + size]
                if len(seg) < size or (a < w0 < a + size):
                    continue
                region = " ".join(seg) in names
                if (region and regions) or (not region and gaz.place(seg) == "CITY"):
                    return f"beside '{' '.join(words[a:a + size]).strip(',.')}'"
        return None

    def postcodes_written(self, text: str) -> None:
        for c in find_postcodes(text):
            r = self.written.words(c.start, c.end)
            if r is None or not self.free(*r):
                continue
            why = self.place_near(r[0], r[1], regions=c.needs == "region") if c.needs else None
            if c.needs and not why:
                continue
            self.add_chars(c, reason=c.reason + (f" {why}" if why else ""))
        if any(ch.islower() for ch in text):
            self._postcodes_in_lower_case(text)

    def _ninos_in_lower_case(self, text: str) -> None:
        """A UK National Insurance number typed in lower case and in pairs ("my ni number is jg 10 37
        58 a"): the letter groups of the runs are capitals, so only the digits were found and the
        letters went out. After a national-insurance word the whole number is the item."""
        for m in _LOWER_NINO.finditer(text):
            r = self.written.words(m.start(), m.end())
            if r is None or not self.free(*r) or not gb_nino.is_valid(m.group(0)):
                continue
            ctx = self.id_context(r[0], r[1])
            if ctx and ctx[0] == "national":
                self.add(r[0], r[1], "NATIONAL_ID", 0.9, f"UK National Insurance number in lower case after '{ctx[1]}'")

    def _postcodes_in_lower_case(self, text: str) -> None:
        """A postcode typed in lower case, as chats are ("postcode ls6 2pq"): the codes' shapes are
        read in capitals, so the text is read again in capitals (letter for letter: the offsets
        hold). A code with lower-case letters needs a postcode word before it or a place beside it;
        the loose shapes test data uses ("ab12 3cd") and the Dutch one, whose letters are words in
        lower case ("in 1989 in Columbus"), need the word."""
        upper = "".join(ch.upper() if len(ch.upper()) == 1 else ch for ch in text)
        for c in find_postcodes(upper):
            if not any(ch.islower() for ch in text[c.start:c.end]) or not any(ch.isalpha() for ch in text[c.start:c.end]):
                continue
            r = self.written.words(c.start, c.end)
            if r is None or not self.free(*r):
                continue
            cue = self.doc.context("postcode", r[0], r[1], left=4)
            why = f"after '{cue}'" if cue else None
            if why is None and "shaped" not in c.reason and "Dutch" not in c.reason:  # "1989 in", "1847 by"
                why = self.place_near(r[0], r[1], regions=c.needs == "region")
            if why:
                self.add_chars(c, reason=c.reason + f" in lower case {why}")

    # spoken forms --------------------------------------------------------------------------------

    def spoken(self) -> None:
        """Identifiers and postcodes read aloud: runs of digit and letter tokens of the normaliser."""
        toks = self.doc.norm.tokens
        units = [self._unit(k) for k in range(len(toks))]
        amb = [u == "?" for u in units]
        # an everyday one-letter word ("a", "i") is a letter between two other pieces of a run, or at
        # its edge beside a letter and a digit ("a five h ...", "... six g a")
        def piece(k: int, seg: int) -> str | None:
            return units[k] if 0 <= k < len(units) and units[k] != "?" and toks[k].seg == seg else None

        for k, u in enumerate(units):
            if u != "?":
                continue
            seg = toks[k].seg
            before, after = piece(k - 1, seg), piece(k + 1, seg)
            before2, after2 = piece(k - 2, seg), piece(k + 2, seg)
            inside = before is not None and after is not None
            leads = after is not None and after.isdigit() and after2 is not None and after2.isalpha()
            ends = before is not None and before.isalpha() and before2 is not None and before2.isdigit()
            units[k] = toks[k].text.upper() if inside or leads or ends else None
        self._postcode_tail_letters(units, amb)
        n = len(toks)
        i = 0
        while i < n:
            if units[i] is None:
                i += 1
                continue
            j = i + 1
            while j < n and units[j] is not None and toks[j].seg == toks[i].seg:
                j += 1
            run = [u or "" for u in units[i:j]]
            if any(u.isdigit() for u in run) or any(toks[k].kind == ALNUM for k in range(i, j)):
                self._spoken_run(i, j, run)
            i = j

    def _postcode_tail_letters(self, units: list[str | None], amb: list[bool]) -> None:
        """Everyday one-letter words that end a postcode spelled out: "s w one a one a a" is SW1A 1AA
        (the last two "a" have no piece after them, so the rule above left them words)."""
        toks = self.doc.norm.tokens
        for k in range(1, len(units)):
            if units[k] is not None or not amb[k] or units[k - 1] is None or toks[k - 1].seg != toks[k].seg:
                continue
            s = k
            while s > 0 and units[s - 1] is not None and toks[s - 1].seg == toks[k].seg:
                s -= 1
            head = "".join(units[s:k])  # type: ignore[arg-type]
            for extra in (2, 1):
                tail = range(k, k + extra)
                if tail.stop > len(units) or not all(amb[x] and units[x] is None and toks[x].seg == toks[k].seg
                                                     for x in tail):
                    continue
                compact = head + "".join(toks[x].text.upper() for x in tail)
                if any(spoken_postcode(compact[i:]) for i in range(max(0, len(compact) - 7), len(compact) - 4)):
                    for x in tail:
                        units[x] = toks[x].text.upper()
                    break

    def _unit(self, k: int) -> str | None:
        """What token ``k`` contributes to an identifier read aloud: digits, a letter, "?" for a letter
        that is also a word, nothing ("") for a said dash, None when it ends a run."""
        tk = self.doc.norm.tokens[k]
        if any(self.used[tk.w0:tk.w1]) or all(self.tried[tk.w0:tk.w1]):
            return None
        if tk.kind in (NUM, ALNUM, LETTER):
            return None if tk.ordinal else tk.text.upper()
        if tk.kind == WORD:
            if tk.text in self.said_dashes:
                return ""
            if len(tk.text) == 1 and tk.text.isalpha():
                return "?" if tk.text in ONE_LETTER_WORDS.get(self.lex.language, frozenset()) else tk.text.upper()
            if tk.text in self.lex.unambiguous_letter_names:
                return self.lex.letter_names.get(tk.text, "").upper() or None
        return None

    def _spoken_run(self, t0: int, t1: int, units: list[str]) -> None:
        """Tokens [t0, t1) with what each contributes (``units``): the longest stretch that validates."""
        toks = self.doc.norm.tokens
        norm = self.doc.norm
        letters = any(not u.isdigit() for u in units)
        w0, w1 = norm.tokens_words(t0, t1)
        if not letters:
            ctx = self.id_context(w0, w1)
            if not ctx or ctx[0] == "other":
                return  # bare spoken digits: phones, cards, amounts ... are the pattern source's
        trim = min(_TRIM, t1 - t0 - 1)
        windows = sorted(((a, b) for a in range(t0, t0 + trim + 1) for b in range(t1 - trim, t1 + 1) if b > a),
                         key=lambda ab: (-(ab[1] - ab[0]), ab[0]))
        digit_toks = [k for k in range(t0, t1) if units[k - t0].isdigit() or toks[k].kind == ALNUM]
        for a, b in windows:
            wa, wb = norm.tokens_words(a, b)
            if not self.free(wa, wb):
                continue
            compact = "".join(units[a - t0:b - t0])
            partial = bool(digit_toks) and (a > digit_toks[0] or b <= digit_toks[-1])
            if self.p["stdnum"] and self._try(_Candidate(wa, wb, compact, compact, True, partial)):
                break
            # postcodes are read digit by digit or in pairs ("nineteen fifty four" is a year)
            paired = all(len(u) <= 2 for u in units[a - t0:b - t0])
            if self.p["postcodes"] and letters and paired and not partial and self._spoken_postcode(wa, wb, compact):
                break

    def _spoken_postcode(self, w0: int, w1: int, compact: str) -> bool:
        c = spoken_postcode(compact)
        if c is None:
            return False
        why = self.place_near(w0, w1, regions=c.needs != "place")
        if c.needs and not why:
            return False
        self.add(w0, w1, "POSTCODE", c.score + (0.1 if why else 0.0), c.reason + (f" {why}" if why else ""))
        return True


def _placeholder(compact: str) -> bool:
    """"00000000T", "11111111": filler digits, no one's number."""
    digits = [c for c in compact if c.isdigit()]
    return len(digits) >= 6 and len(set(digits)) <= 2


def _documented_layout(raw: str, fmt: Any) -> bool:
    """Whether ``raw`` is laid out as the format writes its numbers (its ``format()`` or its documented
    examples: "85 07 30 033 28", "59-119/9013"); plain thousands grouping ("100.155.212") says nothing."""
    if not documented_layout(raw):
        return False
    lay = layout(raw)
    formatted = fmt.formatted(raw)
    return lay in fmt.layouts or (formatted is not None and documented_layout(formatted) and layout(formatted) == lay)


def find_identifiers(doc: DetectDoc, params: Mapping[str, Any] | None = None) -> list[Hit]:
    """All identifier hits in one document."""
    src = IdentifierSource()
    return _IdFinder(doc, src.validate(params)).run()


class IdentifierSource:
    """Validated identifiers: stdnum formats, IBANs, written phones, IP / MAC, coordinates, postcodes,
    written dates."""

    name = SOURCE
    categories = frozenset(
        "IBAN NATIONAL_ID VAT_ID SSN ES_ID PASSPORT BANK_ACCOUNT ROUTING GENERIC_ID PHONE IP_ADDRESS MAC_ADDRESS "
        "POSTCODE DATE DATE_OF_BIRTH USERNAME GEO_COORDINATES".split()
    )
    trusted = categories
    defaults: dict[str, Any] = {"context_left": 8, "stdnum": True, "phones": True, "network": True,
                                "postcodes": True, "dates": True}

    def validate(self, params: Mapping[str, Any] | None) -> dict[str, Any]:
        return check_params(self.name, params, self.defaults)

    def apply(self, docs: Sequence[DetectDoc], params: Mapping[str, Any]) -> list[list[Hit]]:
        return [_IdFinder(d, params).run() for d in docs]

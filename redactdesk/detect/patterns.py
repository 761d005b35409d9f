"""Pattern recognizers on the normalised text, validated with stdnum / phonenumbers, scored by context.

Every hit maps back to whole words through the normaliser. The order of the passes matters: written
or spoken addresses (email, web, IP) first, then IBANs, dates, street addresses, hotword values
(user names, passwords), then digit / letter runs, then name cues. A token used by one pass is not
reused by a later one.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from redactdesk.detect.age_decades import find_age_decades
from redactdesk.detect.coordinates import said_coordinates
from redactdesk.detect.currencies import currency_codes
from redactdesk.detect.definitions import find_defined_names
from redactdesk.detect.foreign_script import find_foreign_script
from redactdesk.detect.network_ids import mac_words
from redactdesk.detect.normalize import ALNUM, LETTER, NUM, SYM, WORD, NToken
from redactdesk.detect.org_cues import find_organisations_by_cue
from redactdesk.detect.relative_dates import day_words
from redactdesk.detect.sources import DetectDoc, Hit, check_params
from redactdesk.detect.validators import (
    EMAIL_SHAPE,
    es_id_kind,
    full_year,
    is_book_number,
    is_card,
    is_date,
    is_email,
    is_iban,
    is_ip,
    is_routing,
    is_ssn,
    national_phone_region,
    parse_expiry,
    phone_check,
)
from redactdesk.detect.worldnames import load_world_names, word_set, word_view
from redactdesk.detect.written_dates import is_written_date, month_alternation
from redactdesk.detect.written_phones import grouped_as_phone
from redactdesk.lang.calendar import month_keys
from redactdesk.lang.digits import CURRENCY_SIGNS
from redactdesk.lang.lexicon import Lexicon, context_words, word_list

_NEXT_OR_LAST = frozenset({"next", "last"})
_MAC_JOINERS = frozenset({"colon", "dash", "hyphen", "-", ":"})
_ARTICLES = frozenset({"the", "a", "this", "that", "his", "her", "my", "their", "our", "your"})

SOURCE = "patterns"
MAX_VALUE_PIECES = 24  # digits and letters of a value said one at a time (a passport: 9, a password: more)

_ES_ID_SHAPE = re.compile(r"(?:\d{8}|[xyz]\d{7})[a-z]", re.IGNORECASE)  # a DNI or NIE, its check letter last
_URL = re.compile(
    r"(?<![\w@.])(?:https?://)?(?:www\.)?[a-z0-9][a-z0-9-]*(?:\.[a-z0-9-]+)*\.([a-z]{2,})(?:/[\w./-]*)?(?![\w@])"
)
_EMAIL = re.compile(r"(?<![\w.'])" + EMAIL_SHAPE + r"(?![^\W\d_])")
_IP = re.compile(r"(?<![\w.])\d{1,3}(?:\.\d{1,3}){3}(?![\w.])")
_NUMERIC_DATE = re.compile(r"(?<![\w/])(\d{1,2})[/.-](\d{1,2})[/.-](\d{2,4})(?![\w/])")
# what comes before "años" when it is a span of time, not someone's age
_YEARS_OF_TIME = frozenset("hace durante desde por en cada últimos ultimos próximos proximos dentro unos "
                           "algunos varios muchos pocos".split())
# words after which four digits from 1900 to 2099 are a year ("since 2010", "in 1998")
_YEAR_BEFORE = frozenset("since in from until till by before after around circa during of year desde en hasta "
                         "antes después durante año".split())
_ARTICLES_FOR_ONE = frozenset({"un", "una", "uno", "a", "an"})  # "one" said as an article
_AGE_AFTER = frozenset({"years old", "year old", "yrs old", "yr old", "year olds", "years olds", "month old",
                        "months old", "week old", "weeks old"})
# a card's expiry as printed on it: "09/27", "9/2027", "11-25" (only after an expiry word: alone it
# is a fraction, a score or a day of a month)
_MONTH_YEAR = re.compile(r"(?<![\w/.-])(\d{1,2})\s?[/-]\s?(\d{2}|\d{4})(?![\w/.-]|[.,]\d)")
# an amount written with its currency's sign: "$1,200", "US$5.99", "€45.50", "45,50€", "£3.2m", "(£250)"
_NUMBER = r"\d+(?:[,.'\u00a0\u202f]\d{3})*(?:[.,]\d{1,2})?(?:k|m|bn|K|M)?"
_SIGN = f"[{re.escape(CURRENCY_SIGNS)}]"
_WRITTEN_MONEY = re.compile(rf"\(?(?:[A-Z]{{1,3}})?{_SIGN}{_NUMBER}\)?|\(?{_NUMBER}{_SIGN}\)?")
_CURRENCY_SIGN = frozenset(CURRENCY_SIGNS)
_IBAN_COUNTRIES = frozenset("es gb de fr it nl pt ie be at ch lu pl se dk fi no mt cy gr".split())


@functools.lru_cache(maxsize=1)
def _us_states() -> frozenset[str]:
    from redactdesk.lang.names import address

    return frozenset(s.lower() for s in address("en_US").states)


@functools.lru_cache(maxsize=1)
def _street_words() -> tuple[frozenset[str], frozenset[str]]:
    """(English street suffixes, Spanish street prefixes) from Faker plus common abbreviations."""
    from redactdesk.lang.names import address

    En, Es = address("en_US"), address("es_ES")
    en = {s.lower() for s in En.street_suffixes} | {
        "street", "avenue", "road", "lane", "drive", "court", "boulevard", "way", "place", "terrace", "circle",
        "parkway", "highway", "square", "trail", "alley", "crescent", "close", "row", "walk", "plaza",
        "st", "ave", "rd", "dr", "ln", "blvd", "ct", "pl", "hwy", "pkwy", "cir", "ter", "sq",
    }
    es = {s.lower().rstrip(".") for s in Es.street_prefixes} | {
        "calle", "avenida", "avda", "plaza", "paseo", "camino", "carretera", "ronda", "travesía", "glorieta",
        "pasaje", "vía", "via", "urbanización", "rambla", "alameda", "callejón", "cuesta", "c",
    }
    return frozenset(en), frozenset(es)


def _written_range(word: str) -> bool:
    """Is a written word a short range from one number to a larger one of as many digits ("pages
    120-135"), or a span of years: a season, a reign, a life ("2019-2020", "1998–2004", "(1637–1715)"),
    also with the second year cut to its last two digits ("the 1896–97 season", "1973-78")? A
    reference with a dash is still flagged after no identifier word when its parts are no such range
    ("123-456", "555-123")."""
    m = _RANGE.fullmatch(word)
    if m is None:
        return False
    a, b = int(m.group(1)), int(m.group(2))
    if len(m.group(1)) == 4 and len(m.group(2)) == 2:
        return 1500 <= a <= 2099 and a % 100 < b <= a % 100 + 30
    if len(m.group(1)) != len(m.group(2)):
        return False
    if len(m.group(1)) == 4:
        return 1000 <= a < b <= 2099 and b - a <= 120
    return a < b <= a + max(10, a // 2)


def _years_old(letters: str) -> bool:
    """Are letters spelled after a number "y.o." (years old: "a 54 y.o. male")?"""
    return letters.lower() == "yo"


def _years_said(groups: Sequence[str]) -> bool:
    """Are the number groups of a run two or more years, as people say them, each no earlier than
    the one before: "nineteen oh two nineteen sixty seven" (19 02 19 67), "eighteen ninety six ninety
    seven" (18 96 97: the second cut to its last two digits), "two thousand and three two thousand and
    four" (2003 2004)? Digits said one by one ("one nine nine six ...") are no years."""
    years: list[int] = []
    k = 0
    while k < len(groups):
        g = groups[k]
        if len(g) == 4 and 1500 <= int(g) <= 2099:
            years.append(int(g))
            k += 1
        elif len(g) == 2 and 15 <= int(g) <= 20 and k + 1 < len(groups) and len(groups[k + 1]) == 2:
            years.append(int(g + groups[k + 1]))
            k += 2
        elif len(g) == 2 and years and years[-1] % 100 < int(g):
            years.append(years[-1] // 100 * 100 + int(g))
            k += 1
        else:
            return False
    return len(years) >= 2 and all(x <= y <= x + 120 for x, y in zip(years, years[1:], strict=False))


@dataclass
class _Run:
    t0: int
    t1: int  # token range [t0, t1)
    digits: str
    letters: bool
    numbers: bool


# a user name's shape, after a weak cue only ("logged in as user jdoe_88"): letters and an underscore,
# or letters and digits, in one word ("jdoe_88", "mike.t_92", "gamer4life"); no plain word, no number
_HANDLE_SHAPE = re.compile(r"(?=[a-z0-9._]*(?:_|[a-z]\d))[a-z][a-z0-9]*(?:[._][a-z0-9]+)*_?")
# a written date or time ("2021-11-03T14:22:10Z", "03/11/2021 14:22"): no user name, whatever cue it follows
_DATE_TIME_SHAPE = re.compile(r"(?:\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4})"
                              r"(?:[T ]?\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?"
                              r"|\d{1,2}:\d{2}(?::\d{2})?")
# between a birth-date cue and a date: another event, or a turn of the clause, which the date belongs to
_OTHER_EVENTS = frozenset({"but", "moved", "move", "married", "graduated", "started", "joined", "left", "retired",
                           "died", "passed", "divorced", "hired", "since", "until", "then", "later", "mudé", "mudó",
                           "pero", "casé", "casó", "después", "luego"})
_THOUSANDS = re.compile(r"\d{1,3}(?:,\d{3})+")  # "11,000", "1,250,000": a quantity as English writes it
# "181/815/0815", "+++010/8068/17183+++", "BR16.727.230/0001-97" (a country's letters before it)
_DOTTED_SORT_CODE = re.compile(r"\d{2}\.\d{2}\.\d{2}")
_SLASHED_DIGITS = re.compile(r"(?:[a-z]{2})?\+*\d+(?:[/.\-–]\d+)+\+*")
# strong name cues that are also verbs said of anything ("a man called John" / "she called twice"):
# an everyday word after them is no name
_VERB_CUES = frozenset({("called",), ("calls", "her"), ("calls", "him"), ("calls", "me"), ("goes", "by"),
                        ("nicknamed",)})
_SCALE_WORDS = frozenset({"million", "millions", "billion", "billions", "trillion", "trillions", "bn", "mn",
                          "millón", "millones", "billón", "billones"})
# a run said as years after these may be a code read in pairs ("the code is nineteen ninety nine twenty oh five")
_NOT_BEFORE_YEARS = frozenset({"is", "was", "are", "were", "it's", "its", "code", "codes", "pin", "number", "no",
                               "num", "password", "passcode", "key", "es", "era", "son", "código", "número", "clave"})
_RANGE = re.compile(r"(\d{1,4})[-\u2013](\d{1,4})")  # "120-135", "2019-2020": from one number to another
_NUMBER_AND_UNIT = re.compile(r"\d+[a-z]{1,4}")  # "1080p", "320kbps", "1990s": a quantity, no code


_SEASON = -1  # the month of a date that names a season instead


@functools.lru_cache(maxsize=8)
def _season_regex(lex: Any) -> re.Pattern[str] | None:
    """A season of the lexicon's ``season_words`` and a year, spoken years in pairs ("19 98") too."""
    seasons = word_list(lex, "season_words")
    if not seasons:
        return None
    return re.compile(r"(?<!\w)(?:" + "|".join(sorted(map(re.escape, seasons), key=len, reverse=True))
                      + r")(?: (?:of|de|del))? (\d{4}|\d{2} \d{2})(?![\w/.-])", re.IGNORECASE)


def _name_letters(word: str) -> bool:
    """Letters, with an apostrophe or a hyphen inside as names have them ("o'sullivan", "smith-jones");
    no contraction ("it's", "i'm", "don't": a short tail after the apostrophe)."""
    word = word.replace("’", "'")
    core = word.replace("'", "").replace("-", "")
    if "'" in word and len(word.rsplit("'", 1)[1]) < 3:
        return False
    return core.isalpha() and word[:1].isalpha() and word[-1:].isalpha()


def written_code(seg: Sequence[NToken], named: bool = False) -> bool:
    """One written word of letters and digits, not a number with its unit ("1080p", "1990s"): 7+
    characters ("ACUPA7085R", "4417ZX93", "XR1001R58"), or 5+ after a word naming a reference
    (``named``: "booking reference AB123"). Reference, policy and ID numbers are written so;
    everyday writing has few such words."""
    if len(seg) != 1 or seg[0].kind != ALNUM:
        return False
    text = seg[0].text
    # after a word naming a reference, a number and letters is the reference whatever it looks like
    # ("licence plate WX 4521C", "policy 88213B")
    return len(text) >= (5 if named else 7) and (named or not _NUMBER_AND_UNIT.fullmatch(text))


@functools.lru_cache(maxsize=4)
def _said_symbols(lex: Lexicon) -> tuple[tuple[str, ...], ...]:
    """The symbols a password or user name says (the lexicon's ``said_symbols``: "exclamation mark"):
    no hotwords, so no frame word of any item ("Mark" stays a name)."""
    return tuple(tuple(str(p).lower().split()) for p in lex.raw.get("said_symbols") or ())


# where a value's name says it is used, between the name and "is": "my username on the forum is ...",
# "mi usuario en el foro es ..."
_WHERE_WORDS = frozenset({"on", "at", "for", "in", "with", "en", "para", "de", "del", "con"})
_IS_WORDS = frozenset({"is", "was", "es", "era", "fue"})


def _after_where_said(toks: list, t: int) -> int:
    """The token after a short phrase of where the value is used and its "is" ("on the forum is"),
    said between a value's name and the value; ``t`` where none is."""
    if t >= len(toks) or toks[t].kind != WORD or toks[t].text not in _WHERE_WORDS:
        return t
    for k in range(t + 1, min(t + 5, len(toks))):
        if toks[k].kind != WORD:
            return t
        if toks[k].text in _IS_WORDS:
            return k + 1
    return t


def _described_not_said(toks: Sequence[Any], start: int, end: int, lex: Lexicon) -> bool:
    """A secret described rather than said: the would-be value after "password is" ends in a
    possessive ("my mother's maiden name", "my dog's name"), or a description word is in it or right
    after it (the lexicon's ``secret_descriptions``: "the last four digits of my phone", "los últimos
    cuatro dígitos"). Nothing to flag."""
    if toks[end - 1].kind == WORD and toks[end - 1].text.endswith(("'s", "’s")):
        return True
    described = word_list(lex, "secret_descriptions")
    return any(tk.kind == WORD and tk.text in described for tk in toks[start:end + 1])


class _Finder:
    def __init__(self, doc: DetectDoc, params: Mapping[str, Any]) -> None:
        assert doc.norm is not None and doc.lex is not None
        self.doc = doc
        self.norm = doc.norm
        self.lex = doc.lex
        self.p = params
        self.toks: list[NToken] = doc.norm.tokens
        self.claimed = [False] * len(self.toks)
        self.hits: list[Hit] = []
        self.left = int(params["context_left"])

    # --- helpers -------------------------------------------------------------------------------

    def words(self, t0: int, t1: int) -> tuple[int, int]:
        return self.norm.tokens_words(t0, t1)

    def free(self, t0: int, t1: int) -> bool:
        return not any(self.claimed[t0:t1])

    def add(self, t0: int, t1: int, category: str, score: float, reason: str, strong: bool = False) -> None:
        w0, w1 = self.words(t0, t1)
        for k in range(t0, t1):
            self.claimed[k] = True
        self.hits.append(Hit(w0, w1, category, score, SOURCE, reason, strong))

    def add_words(self, w0: int, w1: int, category: str, score: float, reason: str, strong: bool = False) -> None:
        for k, tk in enumerate(self.toks):
            if tk.w0 < w1 and w0 < tk.w1:
                self.claimed[k] = True
        self.hits.append(Hit(w0, w1, category, score, SOURCE, reason, strong))

    def add_found(self, hits: list[Hit]) -> None:
        """Claim the hits a helper module found on the words still free."""
        for h in hits:
            self.add_words(h.start_word, h.end_word, h.category, h.score, h.reason, strong=h.strong)

    def _free_words(self, w0: int, w1: int) -> bool:
        return not any(self.claimed[k] for k, tk in enumerate(self.toks) if tk.w0 < w1 and w0 < tk.w1)

    def chars_to_tokens(self, cs: int, ce: int) -> tuple[int, int] | None:
        ids = [t for t in self.norm.char_tok[cs:ce] if t >= 0]
        return (min(ids), max(ids) + 1) if ids else None

    def ctx(self, key: str, w0: int, w1: int, left: int | None = None, right: int = 0) -> str | None:
        return self.doc.context(key, w0, w1, self.left if left is None else left, right)

    def birth_cue(self, w0: int, w1: int, left: int, right: int = 0) -> str | None:
        """The birth-date cue near words ``[w0, w1)``, unless another event or a turn of the clause stands
        between the cue and the date ("i was born in dublin but moved here in two thousand and five": the
        year of the move is no birth date)."""
        found = self.doc.find_phrase(self.lex.hot("dob"), w0 - left, w0)
        if found is not None and not any(w in _OTHER_EVENTS for w in self.doc.lower[found[0] + len(found[1]):w0]):
            return " ".join(found[1])
        return self.ctx("dob", w0, w1, left=0, right=right) if right else None

    def _calling_verb(self, w0: int) -> str | None:
        """A verb of calling said right before word ``w0``, at most two small words between ("call
        five five five one two three four", "ring us on ...", "llame al ..."): the number is one to dial."""
        found = self.doc.find_phrase(self.lex.hot("phone_verbs"), w0 - 3, w0)
        if found is None:
            return None
        after = found[0] + len(found[1])  # the small words between the verb and the number
        return " ".join(found[1]) if all(self.doc.lower[k] in self.lex.stop_words for k in range(after, w0)) else None

    def word_after(self, w1: int, n: int = 2) -> list[str]:
        return self.doc.lower[w1 : w1 + n]

    def is_letter_tok(self, k: int) -> str | None:
        """The letter a token stands for (LETTER tokens, Spanish letter names such as "zeta")."""
        if not 0 <= k < len(self.toks):
            return None
        tk = self.toks[k]
        if tk.kind == LETTER:
            return tk.text
        if tk.kind == WORD and tk.text in self.lex.letter_names:
            return self.lex.letter_names[tk.text]
        if tk.kind == WORD and len(tk.text) == 1 and tk.text.isalpha():
            return tk.text
        return None

    # --- passes --------------------------------------------------------------------------------

    def run(self) -> list[Hit]:
        self.addresses_written()
        self.spoken_macs()
        self.iban()
        self.street_addresses()
        self.dates()
        self.said_coordinates()
        self.hotword_values()
        self.written_money()
        self.money()
        self.organizations()
        self.add_found(find_organisations_by_cue(self.doc, self._free_words))
        self.add_found(find_defined_names(self.doc, self._free_words))
        self.add_found(find_age_decades(self.doc, self._free_words))
        self.grouped_digits()
        for run in self.runs():
            self.classify(run)
        self.spelled_in_capitals()
        self.names()
        self.months()
        self.add_found(find_foreign_script(self.doc, self._free_words))
        return self.hits

    def said_coordinates(self) -> None:
        """Coordinates read aloud ("forty point seven one two eight north seventy four point zero zero
        six zero west"): one item, as written ones are (:mod:`redactdesk.detect.coordinates`)."""
        if "point" not in self.norm.text and "punto" not in self.norm.text and "coma" not in self.norm.text:
            return
        for cs, ce in said_coordinates(self.norm.text):
            tr = self.chars_to_tokens(cs, ce)
            if tr and self.free(*tr):
                self.add(*tr, "GEO_COORDINATES", 0.9, "latitude and longitude read aloud", strong=True)

    def grouped_digits(self) -> None:
        """Nine digits or more written in groups joined by slashes or dots ("181/815/0815 5",
        "+++010/8068/17183+++", "BR16.727.230/0001-97") are a reference, as nine digits in a run
        always are: the run rules saw no number in such a word. Dates, IP addresses and amounts were
        read before."""
        toks = self.toks
        for k, tk in enumerate(toks):
            if tk.kind == WORD and not self.claimed[k] and _DOTTED_SORT_CODE.fullmatch(tk.text):
                w0, w1 = self.words(k, k + 1)
                if (self.ctx("routing", w0, w1, left=10) or "").startswith("sort"):
                    # "sort code 20.32.19": written with dots the code is one word, no digit run
                    self.add(k, k + 1, "ROUTING", 0.85, "6-digit sort code after 'sort code'")
                    continue
            m = _SLASHED_DIGITS.fullmatch(tk.text) if tk.kind == WORD and not self.claimed[k] else None
            if m is None or sum(c.isdigit() for c in tk.text) < 9 or ("/" not in tk.text and tk.text.count(".") < 2):
                continue  # one dot: a decimal ("0.123456789 mm"), no reference
            end = k + 1  # a check digit written apart: "181/815/0815 5"
            if end < len(toks) and toks[end].kind == NUM and len(toks[end].text) <= 2 and toks[end].seg == tk.seg \
                    and not self.claimed[end]:
                end += 1
            if self.free(k, end):
                self.add(k, end, "GENERIC_ID", 0.6, "nine digits or more in groups joined by slashes or dots")

    def _site_at_domain(self, w0: int, w1: int) -> bool:
        """Is the email read aloud over words [w0, w1) a site's name and its domain written with its
        dots in cased text, with a word for a website or a stop word before the "at" ("our site at
        brightwater.com", "find us at help.acme.com")? "john at gmail.com" stays an email."""
        doc = self.doc
        if not doc.cased() or "." not in doc.words[w1 - 1].strip(".,;:!?"):
            return False
        site_words = {w for ph in self.lex.hot("url") for w in ph}
        return doc.lower[w0] in site_words or doc.lower[w0] in self.lex.stop_words

    def addresses_written(self) -> None:
        text = self.norm.text
        for m in _EMAIL.finditer(text):
            tr = self.chars_to_tokens(m.start(), m.end())
            if not tr or not self.free(*tr):
                continue
            w0, w1 = self.words(*tr)
            spoken = w1 - w0 > 1
            if spoken and self._site_at_domain(w0, w1):
                # "visit our site at brightwater.com": a web address, no one's mailbox
                dom = self.chars_to_tokens(m.start() + m.group(0).index("@") + 1, m.end())
                if dom and self.free(*dom):
                    self.add(*dom, "URL", 0.7, "web address / domain after a word for a site")
                continue
            if is_email(m.group(0), written=not spoken):
                self.add(*tr, "EMAIL", 0.95, "email address" + (" spoken as 'at ... dot ...'" if spoken else ""))
        for m in _IP.finditer(text):
            tr = self.chars_to_tokens(m.start(), m.end())
            if tr and self.free(*tr) and is_ip(m.group(0)):
                self.add(*tr, "IP_ADDRESS", 0.9, "IPv4 address (four groups of at most 3 digits)")
        for m in _URL.finditer(text):
            tr = self.chars_to_tokens(m.start(), m.end())
            if not tr or not self.free(*tr):
                continue
            from redactdesk.lang.lexicon import TLDS

            w0, w1 = self.words(*tr)
            # written with its "www." or scheme in one word, any domain of letters is a web address
            # ("www.hospital.ng"); a bare "name.xx" keeps to the list ("e.g", "St.Louis", "No.5")
            marked = w1 - w0 == 1 and m.group(0).startswith(("www.", "http://", "https://"))
            if (m.group(1) not in TLDS and not marked) or m.group(0).replace(".", "").isdigit():
                continue
            written_tld = " ".join(self.doc.words[w0:w1]).rstrip(".,;:!?)").rsplit(".", 1)[-1]
            if written_tld[:1].isupper() and not written_tld.isupper():
                continue  # "H.No. 25" (house number), "St.Louis": an abbreviation, no domain
            score = 0.85 if (self.ctx("url", w0, w1) or m.group(0).startswith("www")) else 0.7
            self.add(*tr, "URL", score, "web address / domain")

    def _hex_of(self, k: int) -> str | None:
        """The hexadecimal digits token ``k`` says ("001", "a", "ea"), or None."""
        tk = self.toks[k]
        text = tk.text
        if tk.kind == NUM and text.isdigit() and not tk.ordinal:
            return text
        if tk.kind in (LETTER, WORD, ALNUM) and text and all(c in "0123456789abcdef" for c in text) and (
                tk.kind != WORD or len(text) == 1):
            return text
        return None

    def spoken_macs(self) -> None:
        """A MAC address read aloud: twelve hexadecimal digits, said as digits and the letters a to f —
        six pairs joined by a said "colon", "dash" or "hyphen" ("zero zero colon one a colon two b ..."),
        or run together after a word for it ("my mac address is zero zero one a two b three c ...")."""
        toks, n = self.toks, len(self.toks)
        if sum(t.kind == NUM for t in toks) < 2:
            return  # twelve hex digits hold some digits: most turns have none
        joiners = _MAC_JOINERS
        i = 0
        while i < n:
            if self.claimed[i] or self._hex_of(i) is None:
                i += 1
                continue
            groups, cur, k, joined = [], "", i, False
            while k < n and toks[k].seg == toks[i].seg and not self.claimed[k]:
                h = self._hex_of(k)
                if h is not None and len(cur) + len(h) <= 12:
                    cur += h
                elif toks[k].text in joiners and cur:
                    groups.append(cur)
                    cur, joined = "", True
                else:
                    break
                k += 1
                if sum(map(len, groups)) + len(cur) == 12 and (not joined or len(cur) % 2 == 0):
                    break
            groups.append(cur)
            hexes = "".join(groups)
            end = k
            if len(hexes) == 12 and any(c.isalpha() for c in hexes):
                w0, w1 = self.words(i, end)
                # (pairs joined; a said dash between digits alone the normaliser already took: "zero zero dash one a")
                if (joined and len(groups) >= 4 and all(len(g) % 2 == 0 for g in groups)) or (
                        not joined and self.doc.find_phrase(mac_words(self.lex), w0 - 6, w0) is not None):
                    self.add(i, end, "MAC_ADDRESS", 0.85, "MAC address read aloud (twelve hex digits)", strong=True)
                    i = end
                    continue
            i += 1

    def iban(self) -> None:
        """Country code (two letters, or Spanish "es" as a word) then digits and letters, ISO 13616 valid."""
        toks = self.toks
        n = len(toks)
        for i in range(n):
            if self.claimed[i]:
                continue
            tk = toks[i]
            # the country code: a 2-letter glued letter run, a 2-letter word, or an alnum "es91"
            if tk.kind == LETTER and not tk.glue and i + 1 < n and toks[i + 1].kind == LETTER and toks[i + 1].glue:
                cc, j = tk.text + toks[i + 1].text, i + 2
                if j < n and toks[j].kind == LETTER and toks[j].glue:
                    continue
            elif tk.kind == WORD and tk.text in _IBAN_COUNTRIES:
                cc, j = tk.text, i + 1
            elif tk.kind == ALNUM and tk.text[:2] in _IBAN_COUNTRIES and tk.text[2:4].isdigit():
                cc, j = "", i
            else:
                continue
            if cc and cc not in _IBAN_COUNTRIES:
                continue
            compact = cc
            best = None
            k = j
            while k < n and toks[k].seg == tk.seg and toks[k].kind in (NUM, LETTER, ALNUM) and len(compact) < 34:
                if toks[k].ordinal:
                    break
                compact += toks[k].text
                k += 1
                if len(compact) >= 15 and is_iban(compact):
                    best = k
            if best is not None and self.free(i, best):
                w0, w1 = self.words(i, best)
                c = self.ctx("iban", w0, w1, left=12)
                self.add(i, best, "IBAN", 0.97, f"valid IBAN ({cc.upper() or compact[:2].upper()}) read aloud"
                         + (f"; context '{c}'" if c else ""))

    # dates ------------------------------------------------------------------------------------

    def _date_regexes(self) -> list[tuple[re.Pattern[str], str]]:
        return _date_regexes(self.lex)


    def dates(self) -> None:
        text = self.norm.text
        found: list[tuple[int, int, int | None, int, int | None]] = []  # cs, ce, day, month, year
        for rx, kind in self._date_regexes():
            for m in rx.finditer(text):
                g = m.groups()
                if kind == "dmy_num":
                    d, month, yy = int(g[0]), int(g[1]), int(g[2].replace(" ", ""))
                    y = full_year(yy) if yy < 100 else yy
                    if 1 <= month <= 12 and is_date(y, month, d):
                        found.append((m.start(), m.end(), d, month, y))
                    continue
                if kind == "mdy":
                    mon, day, yr = g[0], g[1], g[2]
                elif kind == "dmy":
                    day, mon, yr = g[0], g[1], g[2]
                else:
                    mon, day, yr = g[0], None, g[1]
                month = self.lex.months[mon]
                d = int(day.replace(" ", "")) if day else None
                y = int(yr.replace(" ", "")) if yr else None
                if y is not None and not (1000 if d is not None else 1900) <= y <= 2099:
                    continue  # a day and a month's name make an earlier century's year a date ("December 10, 1815")
                if d is not None and not (1 <= d <= 31 and is_date(y or 2000, month, d, 1000)):
                    continue
                if mon in self.lex.ambiguous_months and d is None and y is None:
                    continue
                found.append((m.start(), m.end(), d, month, y))
        if self.lex.language == "en":
            found += self._said_dates(text)
        elif self.lex.language == "es":  # "el doce de marzo del ochenta": the year of two digits after "del"
            for m in _said_date_regex(self.lex).finditer(text):
                d, mon, yy = int(m.group(1)), self.lex.months[m.group(2)], int(m.group(3))
                tr = self.chars_to_tokens(m.start(3), m.end(3))
                if tr is not None and all(w.isalpha() for w in self.doc.lower[slice(*self.words(*tr))]) and is_date(
                        full_year(yy), mon, d):
                    found.append((m.start(), m.end(), d, mon, full_year(yy)))
        for m in _NUMERIC_DATE.finditer(text):
            a, b, c = (int(x) for x in m.groups())
            y = full_year(c) if c < 100 else c
            if (1 <= a <= 12 and is_date(y, a, b)) or (1 <= b <= 12 and is_date(y, b, a)):
                found.append((m.start(), m.end(), b, a, y))
        for m in _MONTH_YEAR.finditer(text):
            month, y = parse_expiry([m.group(1), m.group(2)]) or (0, 0)
            if 2000 <= y <= 2049:
                tr = self.chars_to_tokens(m.start(), m.end())
                if tr and self.ctx("expiry", *self.words(*tr), left=8):
                    found.append((m.start(), m.end(), None, month, y))
        if (rx := _season_regex(self.lex)) is not None:  # "the summer of 1998", "Spring 2018", "verano de 1998"
            for m in rx.finditer(text):
                if 1900 <= (y := int(m.group(1).replace(" ", ""))) <= 2099:
                    found.append((m.start(), m.end(), None, _SEASON, y))
        # longest first, no overlaps
        found.sort(key=lambda f: (-(f[1] - f[0]), f[0]))
        for cs, ce, d, month, y in found:
            tr = self.chars_to_tokens(cs, ce)
            if not tr or not self.free(*tr):
                continue
            w0, w1 = self.words(*tr)
            if month == _SEASON:  # a season and its year: no town ("Spring 2018"), no card's expiry
                self.add(*tr, "DATE", 0.7, "season and year", strong=True)
                continue
            self._add_date(tr, w0, w1, d, y)
        # spoken numeric dates of birth ("oh three fifteen nineteen eighty five") come from digit runs

    def _said_dates(self, text: str) -> list[tuple[int, int, int | None, int, int | None]]:
        """Dates as people say them and nobody writes: a year in two words' worth of digits after the
        month ("the twenty third of april eighty seven"), and the month as an ordinal, British style
        ("twenty third of the fourth eighty seven", "the third of the twelfth nineteen ninety"). Only
        number words count (a written "April 23 87" is no date), and the month's ordinal must be said
        as one ("the third of the five players" is none); ASR writes the ordinals said with digits ("12th of
        the 5th, 88", "the 12th of May 88"), and those count too."""
        out: list[tuple[int, int, int | None, int, int | None]] = []

        def said(cs: int, ce: int, ordinal: bool = False) -> bool:
            tr = self.chars_to_tokens(cs, ce)
            if tr is None:
                return False
            w0, w1 = self.words(*tr)
            if ordinal and self.toks[tr[1] - 1].ordinal and all(
                    _WRITTEN_ORDINAL.fullmatch(w) for w in self.doc.lower[w0:w1]):
                return True  # "12th of the 5th": an ordinal written as ASR writes one said
            return all(w.isalpha() for w in self.doc.lower[w0:w1]) and (not ordinal or self.toks[tr[1] - 1].ordinal)

        for m in _said_date_regex(self.lex).finditer(text):
            d, mon, yy = int(m.group(1)), self.lex.months[m.group(2)], int(m.group(3))
            # the year said, or written after a day written as an ordinal ("the 12th of May 88")
            if (said(m.start(3), m.end(3)) or said(m.start(1), m.end(1), ordinal=True)) and is_date(full_year(yy), mon, d):
                out.append((m.start(), m.end(), d, mon, full_year(yy)))
        for m in _month_and_digits_regex(self.lex).finditer(text):  # "date of birth a u g four three"
            digits = m.group(3).replace(" ", "")
            year = full_year(int(digits)) if len(digits) == 2 else int(digits) if len(digits) == 4 else 0
            mon = self.lex.months[m.group(2)]
            day = int(m.group(1)) if m.group(1) else None
            start = m.start() if day is not None and is_date(year or 2000, mon, day) else m.start(2)
            tr = self.chars_to_tokens(start, m.end())
            if 1900 <= year <= 2099 and tr is not None and said(m.start(3), m.end(3)) and self.ctx(
                    "dob", *self.words(*tr), left=10):  # "m a y two zero zero one", "eight m a r c h two zero zero one"
                out.append((start, m.end(), day if start == m.start() else None, mon, year))
        for m in _month_and_day_digits_regex(self.lex).finditer(text):  # "the meeting is march one two"
            mon, day = m.group(1), int(m.group(2)) * 10 + int(m.group(3))
            if 10 <= day <= 31 and said(m.start(2), m.end(3)) and (
                    is_date(2000, self.lex.months[mon], day)):
                out.append((m.start(), m.end(), day, self.lex.months[mon], None))
        for m in _ORDINAL_MONTH_DATE.finditer(text):
            d, mon = int(m.group(1)), int(m.group(2))
            y = m.group(3)
            year = None if y is None else int(y.replace(" ", ""))
            year = full_year(year) if year is not None and year < 100 else year
            if not (1 <= mon <= 12 and said(m.start(2), m.end(2), ordinal=True)
                    and said(m.start(1), m.end(1), ordinal=True)):  # "one of the first" counts
                continue
            if (year is None or 1900 <= year <= 2099) and is_date(year or 2000, mon, d):
                out.append((m.start(), m.end(), d, mon, year))
        return out

    def _add_date(self, tr: tuple[int, int], w0: int, w1: int, day: int | None, year: int | None) -> None:
        if _DOTTED_SORT_CODE.fullmatch(" ".join(self.doc.words[w0:w1])) and (
                self.ctx("routing", w0, w1, left=10) or "").startswith("sort"):
            self.add(*tr, "ROUTING", 0.85, "6-digit sort code after 'sort code'")  # "sort code 20.12.19"
            return
        exp = self.ctx("expiry", w0, w1, left=8)
        if exp and day is None:
            self.add(*tr, "CARD_EXPIRY", 0.9, f"month and year after '{exp}'")
            return
        # a day, a month and a year that make a calendar date outweigh a tagger's name over part of
        # them ("Born on Jan 5th, 1990": "Jan 5th" is no person)
        whole = day is not None and year is not None
        dob = self.birth_cue(w0, w1, left=14, right=3)
        if dob:
            self.add(*tr, "DATE_OF_BIRTH", 0.9, f"date near '{dob}'", strong=whole)
            return
        self.add(*tr, "DATE", 0.75 if year else 0.65, "calendar date" + (" with year" if year else ""), strong=whole)

    def months(self) -> None:
        """A month name on its own (not part of a date): quasi-identifier, low score."""
        for i, tk in enumerate(self.toks):
            if self.claimed[i] or tk.kind != WORD or tk.text not in self.lex.months:
                continue
            if (tk.text in self.lex.ambiguous_months or len(tk.text) <= 3) and not self._month_after_preposition(i):
                continue
            w0, w1 = tk.w0, tk.w1
            if self.birth_cue(w0, w1, left=10):
                self.add(i, i + 1, "DATE_OF_BIRTH", 0.6, "month name near a birth-date cue")
            else:
                self.add(i, i + 1, "MONTH", 0.5, "month name")

    def _month_after_preposition(self, i: int) -> bool:
        """Is token ``i``, a full month name that is also another word ("may", "march"), said
        right after a word that puts a month in time ("in may", "since march"; not "you may")?"""
        preps = word_list(self.lex, "month_prepositions")
        if i > 1 and self.toks[i - 1].text in _NEXT_OR_LAST and self.toks[i - 2].text in _ARTICLES:
            return False  # "the next may be better", "the last may be first": "next" is a noun, "may" a verb
        return (i > 0 and self.toks[i].text in month_keys(self.lex.language) and self.toks[i - 1].kind == WORD
                and self.toks[i - 1].text in preps and not self.claimed[i - 1])

    # street addresses ---------------------------------------------------------------------------

    def street_addresses(self) -> None:
        """Spanish "calle Mayor doce" (type, name, number). English and the other orders are
        :mod:`redactdesk.detect.addresses` (the gazetteer source): the number-name-suffix loop that
        stood here took its suffixes from Faker, the lists our generator writes calls with, and read
        "two big mountains" and "born in nineteen eighty four in lake charles" as addresses; without it
        the public dev sets' character precision rose (written names 84.9 -> 85.4 %, spoken 85.0 ->
        85.4 %) and no set lost recall (``benchmarks/bench_detect_public.py``)."""
        if self.lex.language == "en":
            return
        _, es = _street_words()
        toks = self.toks
        n = len(toks)
        for i, tk in enumerate(toks):
            if tk.kind != WORD or tk.text not in es or self.claimed[i]:
                continue
            if tk.text in ("c", "via", "vía", "plaza", "camino") and not self.ctx("address", tk.w0, tk.w1, left=6):
                continue
            k = i + 1
            while k < n and toks[k].seg == tk.seg and k - i <= 6 and toks[k].kind in (WORD, LETTER):
                if toks[k].kind == WORD and toks[k].text in ("número", "numero", "nº", "n"):
                    break
                k += 1
            if k >= n or toks[k].seg != tk.seg:
                continue
            if toks[k].kind == WORD:
                k += 1
            if k < n and toks[k].kind == NUM and not toks[k].ordinal and k - i >= 2:
                end = self._unit(k + 1)
                if self.free(i, end):
                    self.add(i, end, "ADDRESS", 0.85, "street type, street name and number", strong=True)
                    self._city_after(end)

    _UNIT_WORDS = frozenset({"apartment", "apt", "suite", "unit", "floor", "flat", "piso", "planta", "puerta",
                             "escalera", "portal", "número", "numero", "nº"})
    _SIDE_WORDS = frozenset({"izquierda", "derecha", "izda", "dcha", "bajo", "ático", "atico", "centro",
                             "exterior", "interior", "primero", "segundo", "tercero", "cuarto", "quinto", "sexto",
                             "séptimo", "octavo", "noveno", "décimo", "entresuelo", "principal"})

    def _city_after(self, t: int) -> None:
        """The town that follows a street address ("..., in Boston", "... Sevilla"), skipping a postcode."""
        from redactdesk.detect.gazetteer import load_gazetteer

        gaz = load_gazetteer()
        toks = self.toks
        seg = toks[t - 1].seg
        k = t
        while k < len(toks) and toks[k].seg == seg and (
            toks[k].text in ("in", "en", "de", "and", "y", "zip", "code", "código", "postal")
            or (toks[k].kind == NUM and not toks[k].ordinal)
        ):
            k += 1
        if k >= len(toks) or toks[k].seg != seg or toks[k].kind != WORD:
            return
        lower = self.doc.lower
        w = toks[k].w0
        for n in (4, 3, 2, 1):
            if w + n <= len(lower) and gaz.place(lower[w : w + n]) and self._free_words(w, w + n):
                cat = gaz.place(lower[w : w + n]) or "CITY"
                self.add_words(w, w + n, cat, 0.85, "place name after a street address", strong=True)
                return

    def _unit(self, end: int) -> int:
        """Extend an address over "apartment 4 b", "suite 200", "piso 3", "tercero b", "primero derecha"."""
        toks = self.toks
        seg = toks[end - 1].seg
        k = end
        while k < len(toks) and toks[k].seg == seg:
            tk = toks[k]
            if tk.kind == WORD and tk.text in self._UNIT_WORDS and k + 1 < len(toks) and toks[k + 1].kind in (
                NUM, LETTER, ALNUM
            ):
                k += 2
            elif tk.kind == NUM and tk.ordinal and self.lex.language == "es":
                k += 1
            elif k > end - 1 and (
                tk.kind == LETTER
                or (tk.kind == WORD and (tk.text in self._SIDE_WORDS or (len(tk.text) == 1 and tk.text.isalpha())))
            ) and (
                toks[k - 1].kind in (NUM, ALNUM) or toks[k - 1].text in self._SIDE_WORDS or toks[k - 1].ordinal
            ) and (tk.kind != WORD or len(tk.text) == 1 or self.lex.language == "es"):
                k += 1
            else:
                break
        return k

    # hotword values: user names, passwords, passports ------------------------------------------

    _LEAD_IN = frozenset(
        "is it's its was would be will my the a an : es sería será mi el la su your es: um uh eh".split()
    )

    def hotword_values(self) -> None:
        doc = self.doc
        for key, cat, score in (("username", "USERNAME", 0.8), ("password", "PASSWORD", 0.85),
                                ("passport", "PASSPORT", 0.85)):
            for ph in doc.said(key):
                for w in doc.occurrences(ph):
                    self._value_after(w + len(ph), cat, score, " ".join(ph))
        for ph in doc.said("username_weak"):
            for w in doc.occurrences(ph):
                k = w + len(ph)
                if k < len(doc.words) and _HANDLE_SHAPE.fullmatch(doc.words[k].strip(".,;:!?()\"'").lower()) and (
                        self._free_words(k, k + 1)):
                    self.add_words(k, k + 1, "USERNAME", 0.75, f"a user name's shape after '{' '.join(ph)}'",
                                   strong=True)

    def _value_after(self, w: int, cat: str, score: float, hot: str) -> None:
        t = self.norm.token_of_word(w)
        if t is None:
            return
        from redactdesk.detect.gazetteer import load_gazetteer

        common = load_gazetteer().common
        toks = self.toks
        stop = self.lex.stop_words
        k = _after_where_said(toks, t)
        skipped = 0
        while k < len(toks) and skipped < 4 and toks[k].kind == WORD and (
            toks[k].text in self._LEAD_IN or toks[k].text in stop
        ):
            k += 1
            skipped += 1
        start = k
        # the symbols said inside a user name or password join its words: "sunny underscore days"
        joiners = {ph[0] for ph in (*self.lex.underscore, *self.lex.dot, *self.lex.dash) if len(ph) == 1}

        def joined(i: int) -> bool:  # a joiner between two pieces of the value
            return (toks[i].kind == WORD and toks[i].text in joiners and i > start and i + 1 < len(toks)
                    and toks[i + 1].text not in stop and toks[i + 1].kind in (WORD, NUM, ALNUM, LETTER))

        # everyday words with a number after them open a value: "skywalker ninety nine", "sunny days
        # ninety" (up to two words for a user name), "blue sky forty two" (up to three for a password)
        words_then_number, said = start, 0
        most = 3 if cat == "PASSWORD" else 2 if cat == "USERNAME" else 0
        while words_then_number < len(toks) and toks[words_then_number].kind == WORD:
            if not joined(words_then_number):
                if said >= most or toks[words_then_number].text in stop:
                    break
                said += 1
            words_then_number += 1
        if not (words_then_number < len(toks) and toks[words_then_number].kind in (NUM, ALNUM)):
            words_then_number = start
        words = 0
        pieces = 0  # a value said a digit or a letter at a time is one word of many pieces
        while k < len(toks) and words < 6 and pieces < MAX_VALUE_PIECES:
            tk = toks[k]
            if tk.kind in (LETTER, NUM, ALNUM, SYM) or tk.glue:
                if not tk.glue and not (k > start and toks[k - 1].kind == tk.kind and tk.kind in (LETTER, NUM)):
                    words += 1
                k += 1
                pieces += 1
                continue
            if joined(k) and cat != "PASSPORT":
                k += 1
                pieces += 1
                continue
            symbol = next((ph for ph in _said_symbols(self.lex) if tuple(tk2.text for tk2 in toks[k:k + len(ph)]) == ph),
                          None) if k > start and cat != "PASSPORT" else None
            if symbol:  # "tiger one two three exclamation mark": the symbol said is part of the value
                k += len(symbol)
                pieces += 1
                continue
            after_joiner = k > start and toks[k - 1].kind == WORD and toks[k - 1].text in joiners
            if (
                tk.kind == WORD
                and tk.text not in stop
                and (tk.text not in common or k < words_then_number or after_joiner)
                and not any(tk.text == p[0] for p in self.lex.hot(cat.lower()))
            ):
                if k > start and toks[k - 1].kind == WORD and cat != "PASSWORD" and not (
                        after_joiner or k < words_then_number):
                    break  # one free word for a user name ("mrbigchef"), more only if spelled or joined
                k += 1
                words += 1
                pieces += 1
                continue
            break
        while k > start and not self.free(start, k):
            k -= 1  # digits another reading took ("sunny days march 2021": a date): the words stay the value
        if k > start:
            value = [tk for tk in toks[start:k]]
            if cat == "PASSPORT" and not any(tk.kind in (NUM, ALNUM) for tk in value):
                return
            if _described_not_said(toks, start, k, self.lex):
                return
            if cat == "USERNAME" and _DATE_TIME_SHAPE.fullmatch(
                    " ".join(self.doc.words[toks[start].w0:toks[k - 1].w1]).strip(".,;:()\"'")):
                return  # "Last login: 2021-11-03T14:22:10Z": when, not who
            # the value right after its name stands alone: a name the tagger reads in it ("skywalker")
            # would otherwise win the overlap and leave its digits unflagged
            self.add(start, k, cat, score, f"value after hotword '{hot}'", strong=True)

    # digit and letter runs -----------------------------------------------------------------------

    def runs(self) -> list[_Run]:
        out: list[_Run] = []
        toks = self.toks
        i = 0
        n = len(toks)
        while i < n:
            tk = toks[i]
            if self.claimed[i] or tk.kind not in (NUM, LETTER, ALNUM) or tk.ordinal:
                i += 1
                continue
            if self._page_marker(i):
                i += 1  # "(2015, p. 42)", "pp. 12-15": a page's number, no reference
                while i < n and toks[i].kind == NUM and toks[i].seg == tk.seg:
                    i += 1
                continue
            j = i + 1
            while (
                j < n
                and not self.claimed[j]
                and toks[j].kind in (NUM, LETTER, ALNUM)
                and not toks[j].ordinal
                and toks[j].seg == tk.seg
                and not self._written_apart(j)
            ):
                j += 1
            seg = toks[i:j]
            digits = "".join(t.text for t in seg if t.kind == NUM)
            out.append(_Run(i, j, digits, any(t.kind in (LETTER, ALNUM) for t in seg), any(t.kind != LETTER for t in seg)))
            i = j
        return out

    def _page_marker(self, i: int) -> bool:
        """Is token ``i`` a written "p." or "pp." before a number ("Okonkwo (2015, p. 42)")?"""
        tk = self.toks[i]
        return (self.doc.starts is None and tk.kind == LETTER and tk.w1 - tk.w0 == 1
                and self.doc.words[tk.w0].strip("([") in ("p.", "pp.") and i + 1 < len(self.toks)
                and self.toks[i + 1].kind == NUM)

    def _written_apart(self, j: int) -> bool:
        """Does a semicolon written after the number before token ``j`` part it from the number there ("(N =
        120; 64 women)", "445566; 778899")? Written, a semicolon separates items; a timed transcript's marks
        are guesses; letters and digits on both sides stay one code, as before (fail closed: "AB12; CD34")."""
        prev = self.toks[j - 1]
        return (self.doc.starts is None and prev.w1 <= self.toks[j].w0 and prev.kind == NUM == self.toks[j].kind
                and self.doc.words[prev.w1 - 1].rstrip(")]").endswith(";")) or self._page_marker(j)

    def classify(self, run: _Run) -> None:
        toks = self.toks
        seg = toks[run.t0 : run.t1]
        if self._letter_count_said(run.t0, run.t1):
            # "Jen with one N, J-E-N", "Ann with two Ns": how a name is spelt, no code; the letters after it stay
            # the spelling (before, "one N, J-E-N" was one reference)
            if run.t1 - run.t0 > 2:
                self.classify(_Run(run.t0 + 2, run.t1, "", True, any(t.kind != LETTER for t in seg[2:])))
            return
        if not run.letters:
            self.digit_run(run.t0, run.t1)
            return
        if not run.numbers:
            self.letter_run(run.t0, run.t1)
            return
        # mixed: letters at the edges may belong to a Spanish ID, else split letters from digits
        text = "".join(t.text for t in seg)
        w0, w1 = self.words(run.t0, run.t1)
        kind = es_id_kind(text)
        if kind:
            self.add(run.t0, run.t1, "ES_ID", 0.95, f"valid Spanish {kind} (check letter)")
            return
        edges = self._es_id_with_edge_letters(run.t0, run.t1, text)
        if edges is not None:
            t0, t1, kind = edges
            self.add(t0, t1, "ES_ID", 0.95, f"valid Spanish {kind} (check letter), a letter that is a word too")
            return
        if _ES_ID_SHAPE.fullmatch(text) and (c := self.ctx("es_id", w0, w1, left=10)):
            # "dni ... seis siete zeta": the check letter misheard or misread. No valid ES_ID, but the
            # letter is the identifier's all the same (the number read without it left it behind)
            self.add(run.t0, run.t1, "NATIONAL_ID", 0.6,
                     f"Spanish DNI/NIE shape after '{c}' (check letter fails: misheard?)", strong=True)
            return
        if self.ctx("passport", w0, w1, left=10):
            self.add(run.t0, run.t1, "PASSPORT", 0.85, "letters and digits after 'passport'")
            return
        for key, cat in (("username", "USERNAME"), ("password", "PASSWORD")):
            c = self.ctx(key, w0, w1, left=10)
            if c:
                self.add(run.t0, run.t1, cat, 0.8, f"letters and digits after '{c}'")
                return
        n_letters = sum(ch.isalpha() for t in seg if t.kind in (LETTER, ALNUM) for ch in t.text)
        n_digits = sum(ch.isdigit() for t in seg if t.kind in (NUM, ALNUM) for ch in t.text)
        named = bool(self.ctx("generic_id", w0, w1))
        # one written word in hyphenated groups ("PX-7734-221-B") is held to a written code's length
        one_word = len(seg) > 1 and all(t.w0 == seg[0].w0 and t.w1 == seg[0].w1 for t in seg)
        # said aloud after a reference word, a code may hold more letters ("a b one two c d e": a plate)
        if (n_digits >= 3 or named and n_digits >= 2 and n_letters >= 3) and (
                written_code(seg, named) if len(seg) == 1 else
                len(text) >= (5 if named else 7) if one_word else
                n_letters <= (6 if named else 3) and (named or len(text) >= 6)):
            c = self.ctx("generic_id", w0, w1)
            t0 = run.t0
            if c and t0 > 0 and not self.claimed[t0 - 1] and toks[t0 - 1].kind == WORD and toks[t0 - 1].seg == seg[0].seg:
                raw = self.doc.words[toks[t0 - 1].w0].strip()
                if (toks[t0 - 1].w1 == seg[0].w0 and 2 <= len(raw) <= 3 and raw.isalpha() and raw.isupper()
                        and toks[t0 - 1].text not in context_words(self.lex)):
                    t0 -= 1  # "licence plate WX 4521C": the code's letters written apart in capitals
            # after its name the code stands alone: the tagger's firm "WX" won the overlap and left "4521C"
            self.add(t0, run.t1, "GENERIC_ID", 0.75 if c else 0.6,
                     "letters and digits" + (f" after '{c}'" if c else " (alphanumeric code)"), strong=bool(c))
            return
        if one_word:
            return  # "BA-2490" without a reference word: a flight, a model, no spelled letters
        if self._spelled_with_digits(seg) and not self.ctx("name", w0, w1, left=10):
            # "it says a c u p a seven zero eight five r here": the letters spelled out are flagged,
            # and the digits said with them are the same code's (fail closed: they were left in the text)
            self.add(run.t0, run.t1, "GENERIC_ID", 0.6, "letters spelled out with digits (one code)")
            return
        # otherwise treat the pieces separately (a short letter+digit word such as "34k" is neither)
        i = run.t0
        while i < run.t1:
            j = i + 1
            while j < run.t1 and toks[j].kind == toks[i].kind:
                j += 1
            if toks[i].kind == LETTER:
                self.letter_run(i, j)
            elif toks[i].kind == NUM:
                self.digit_run(i, j)
            i = j

    def _letter_count_said(self, t0: int, t1: int) -> bool:
        """Does the run at tokens ``[t0, t1)`` open with a count of a letter said after "with" (the
        lexicon's ``letter_count_words``: "Jen with one N, J-E-N"), how a name is spelt, with nothing
        but letters after it ("with one a two b three c" is a code)?"""
        toks = self.toks
        if t1 - t0 < 2 or t0 == 0 or toks[t0].kind != NUM or toks[t0 + 1].kind != LETTER:
            return False
        w = toks[t0].w0
        return (w > 0 and self.doc.lower[w - 1] in word_list(self.lex, "letter_count_words") and toks[t0].text in ("1", "2")
                and all(t.kind == LETTER for t in toks[t0 + 2:t1]))  # "with one a two b three c": a code

    @staticmethod
    def _spelled_with_digits(seg: Sequence[Any]) -> bool:
        """Does a run said aloud hold two or more letters spelled one after another right beside a
        number ("a g r i f r p p eight eight two"; not "b twelve", not "section b two a")?"""
        if any(t.kind == ALNUM for t in seg):
            return False  # a written code ("34k", "B12"): the written rules decide
        for k in range(len(seg) - 1):
            a, b = seg[k], seg[k + 1]
            if {a.kind, b.kind} != {LETTER, NUM}:
                continue
            j, step = (k, -1) if a.kind == LETTER else (k + 1, 1)
            letters = ""
            while 0 <= j < len(seg) and seg[j].kind == LETTER:
                letters += seg[j].text
                j += step
            if len(letters) >= 2 and not (step == 1 and (letters.lower() in currency_codes() or _years_old(letters))):
                return True  # "five u. s. d.": an amount's currency, no code (currencies.py); "54 y.o.": an age
        return False

    def spelled_in_capitals(self) -> None:
        """A name spelled out that the recogniser wrote as one word in capitals ("Can you spell the
        last name? MDDINA."): Whisper writes spelled letters so, often with a letter misheard, which
        no name list then knows. Only in cased writing, only just after a name or spelling cue."""
        if not any(w[:1].islower() for w in self.doc.words):
            return
        for k, tk in enumerate(self.toks):
            if tk.kind != WORD or self.claimed[k]:
                continue
            w0, w1 = self.words(k, k + 1)
            raw = self.doc.words[w0].strip(".,;:!?\"'()")
            if w1 - w0 != 1 or not (3 <= len(raw) <= 20 and raw.isalpha() and raw.isupper()):
                continue
            c = self.ctx("name", w0, w1, left=10)
            if c:
                self.add(k, k + 1, "PERSON", 0.85, f"a name spelled in capitals after '{c}'", strong=True)

    def _es_id_with_edge_letters(self, t0: int, t1: int, text: str) -> tuple[int, int, str] | None:
        """A Spanish identifier whose first or check letter is also a word, said beside the run and
        read as the word: "y cuatro siete uno dos nueve nueve cero m" (an NIE's Y is "and"), "z tres
        cero ocho seis dos cero tres e" (the check letter E is "and" too). Only where the letters
        make the identifier valid, its check letter included: (first token, end token, kind)."""
        if self.lex.language != "es":
            return None
        toks = self.toks

        def letter(k: int) -> str | None:
            if not 0 <= k < len(toks) or self.claimed[k] or toks[k].seg != toks[t0].seg:
                return None
            tk = toks[k]
            return tk.text.upper() if tk.kind in (WORD, LETTER) and len(tk.text) == 1 and tk.text.isalpha() else None

        before, after = letter(t0 - 1), letter(t1)
        for lead, trail in ((before, None), (None, after), (before, after)):
            if (lead is None and trail is None) or (lead is not None and lead not in "XYZ"):
                continue  # an NIE opens with X, Y or Z
            kind = es_id_kind((lead or "") + text + (trail or ""))
            if kind:
                return t0 - (lead is not None), t1 + (trail is not None), kind
        return None

    def letter_run(self, t0: int, t1: int) -> None:
        seg = self.toks[t0:t1]
        letters = "".join(t.text for t in seg)
        if len(letters) < 2:
            return
        if letters.lower() in ("am", "pm") and t0 > 0 and (
                self.toks[t0 - 1].kind == NUM or re.fullmatch(r"\d{1,2}[:.]\d{2}", self.toks[t0 - 1].text)):
            return  # "10:30 a.m.": the time of day, no spelling
        if _years_old(letters) and t0 > 0 and self.toks[t0 - 1].kind == NUM:
            return  # "a 54 y.o. male": years old, no spelling
        w0, w1 = self.words(t0, t1)
        for key, cat, score in (("username", "USERNAME", 0.8), ("password", "PASSWORD", 0.8),
                                ("email", "EMAIL", 0.6), ("name", "PERSON", 0.85), ("passport", "PASSPORT", 0.6)):
            c = self.ctx(key, w0, w1, left=10)
            if c:
                self.add(t0, t1, cat, score, f"{len(letters)} letters spelled out after '{c}'", strong=cat == "PERSON")
                return
        # spelling of a word said just before ("smith, s m i t h")
        from redactdesk.detect.gazetteer import fold

        before = {fold(w) for w in self.doc.lower[max(0, w0 - 40) : w0]}
        if fold(letters) in before:
            self.add(t0, t1, "PERSON", 0.8, "letters spelling a word said just before", strong=True)
            return
        self.add(t0, t1, "SPELLED_LETTERS", 0.7, f"{len(letters)} letters spelled out")

    def _age_said(self, w0: int, w1: int) -> bool:
        """Is the number at words ``[w0, w1)`` what a person is, said as an age: "she's eighty one",
        "my dad is seventy three and lives alone", "i'm forty two." — a person (the lexicon's
        ``age_subjects``, a pronoun or "my" + a kin word) is it, or has just turned it ("she turned 67
        last week": ``age_turn_verbs``), and the clause ends after it, so no unit follows ("she is five
        minutes away", "i'm six foot two", "it turned 90 degrees")."""
        lower, lex = self.doc.lower, self.lex
        subjects = word_list(lex, "age_subjects")
        if not subjects or w0 < 1:
            return False
        ends = word_list(lex, "age_clause_ends")
        view = word_view(self.doc)  # "i'm forty two." / "he's 34, works in sales": punctuation ends it
        if (w1 < len(lower) and w1 not in self.doc.breaks and lower[w1] not in ends
                and not (view.stop_after[w1 - 1] or view.comma_after[w1 - 1])):
            return False
        prev = lower[w0 - 1]
        if prev in subjects or prev in word_list(lex, "age_turn_verbs"):  # "i'm", "she's"; "she turned 67."
            return True
        kin, owners = word_list(lex, "kin_words"), word_list(lex, "age_kin_owners")

        def my_kin(w: int, word: str) -> bool:  # "my dad", "our son"
            return word in kin and w >= 1 and lower[w - 1] in owners

        if prev.endswith("'s") and w0 >= 2:  # "my son's nine"
            return my_kin(w0 - 1, prev[:-2])
        if prev not in ("is", "am") or w0 < 2:
            return False
        return lower[w0 - 2] in subjects or my_kin(w0 - 2, lower[w0 - 2])  # "he is", "my dad is"

    def _extension_joins_its_phone(self, w0: int, ext_words: int) -> None:
        """The extension just added (its digits from word ``w0``) and a phone number ending right
        before its name ("... five zero one nine nine extension twelve", "020 7946 0958 ext. 2211") are
        one phone: two items, the name between them left out, read as two numbers in the revised
        text."""
        ext_hit = self.hits[-1]
        e = w0 - ext_words
        if e < 1 or any(self.doc.lower[k] not in self.lex.stop_words and not self._ext_name_word(k)
                        for k in range(e, w0)):
            return
        for k, h in enumerate(self.hits[:-1]):  # digits read as a reference before an extension are a phone's
            if h.category in ("PHONE", "GENERIC_ID") and h.end_word == e:
                self.hits[k] = Hit(h.start_word, ext_hit.end_word, "PHONE", max(h.score, ext_hit.score), SOURCE,
                                   h.reason + " with its extension", h.strong)
                self.hits.pop()
                return

    def _ext_name_word(self, k: int) -> bool:
        word = self.doc.lower[k].strip(".,:;")
        return any(word == ph[0] for ph in self.lex.hot("phone_extension"))

    def digit_run(self, t0: int, t1: int) -> None:
        """Classify a run of digit tokens (the PIINUM idea of seed 003 plus validation and context)."""
        if t1 <= t0:
            return
        toks = self.toks
        seg = toks[t0:t1]
        digits = "".join(t.text for t in seg)
        n = len(digits)
        groups = [t.text for t in seg]
        w0, w1 = self.words(t0, t1)
        lex = self.lex
        after = self.word_after(w1, 2)
        before = self.doc.lower[w0 - 1] if w0 > 0 else ""
        money = (after and (after[0] in _flat(lex.hot("money_after")) or " ".join(after) in _flat(lex.hot("money_after")))) or before in ("$", "€", "£")
        timeish = after and after[0] in _flat(lex.hot("time_after"))
        if not money and self._not_personal(w0, w1):
            return  # an ISBN, a barcode, a device number: nobody's
        if w1 - w0 == 1 and is_written_date(self.doc.words[w0], lex) and not (
                n == 6 and (self.ctx("routing", w0, w1, left=4) or "").startswith("sort")):
            return  # "2019-06-01": a date, the written-date reader's (no reference after "ID:"); not
                    # "sort code 07-04-36", a sort code written as a date is

        # Spanish IDs: 8 digits + letter (DNI), X/Y/Z + 7 digits + letter (NIE), letter + 7 + control (CIF)
        nxt = self.is_letter_tok(t1) if t1 < len(toks) and toks[t1].seg == seg[0].seg else None
        prv = self.is_letter_tok(t0 - 1) if t0 > 0 and toks[t0 - 1].seg == seg[0].seg else None
        if nxt and not self.claimed[t1]:
            for a, text in ((t0, digits + nxt), ((t0 - 1) if prv else None, (prv or "") + digits + nxt)):
                if a is None or (a < t0 and self.claimed[a]):
                    continue
                kind = es_id_kind(text)
                if kind:
                    self.add(a, t1 + 1, "ES_ID", 0.95, f"valid Spanish {kind} (check letter)")
                    return
        if prv and not self.claimed[t0 - 1]:
            kind = es_id_kind(prv + digits)
            if kind:
                self.add(t0 - 1, t1, "ES_ID", 0.95, f"valid Spanish {kind}")
                return

        # cards: the whole run, else the longest Luhn-valid stretch of whole tokens
        card_ctx = self.ctx("card", w0, w1, left=12)
        # a national or tax number after its name is no card, even when it passes Luhn (the
        # identifier source validates it); a card inside a longer run needs a card word
        named_id = not card_ctx and self.doc.find_phrase(_identifier_names(lex), w0 - 12, w0) is not None
        if is_card(digits) and not named_id:
            self.add(t0, t1, "CREDIT_CARD", 0.98 if card_ctx else 0.9,
                     f"Luhn-valid {n}-digit card number read as digits" + (f"; context '{card_ctx}'" if card_ctx else ""))
            return
        if n > 13 and card_ctx:
            best = None
            for a in range(t0, t1):
                for b in range(t1, a, -1):
                    d = "".join(t.text for t in toks[a:b])
                    # a digit or two left over is the card's, misheard ("... nine zero one two" whose
                    # first fifteen pass Luhn); three or more may be its expiry or code, read with it
                    rest = [len("".join(t.text for t in toks[t0:a])), len("".join(t.text for t in toks[b:t1]))]
                    if is_card(d) and all(r == 0 or r >= 3 for r in rest) and (best is None or len(d) > best[2]):
                        best = (a, b, len(d))
            if best:
                a, b, _ = best
                self.digit_run(t0, a)
                wa, wb = self.words(a, b)
                self.add(a, b, "CREDIT_CARD", 0.9,
                         f"Luhn-valid {best[2]}-digit card number inside a longer digit run"
                         + (f"; context '{card_ctx}'" if card_ctx else ""))
                self.digit_run(b, t1)
                return
        if card_ctx and 13 <= n <= 19:
            self.add(t0, t1, "CREDIT_CARD", 0.6, f"{n} digits after '{card_ctx}' (fails Luhn: misheard?)")
            return

        # card expiry and security code: the shape decides when one question asks for both
        exp = self.ctx("expiry", w0, w1, left=10)
        cvv = self.ctx("cvv", w0, w1, left=10)
        if exp and cvv and 6 <= n <= 8 and len(seg) >= 2:  # one answer to "expiry and security code?": "0532 396"
            for k in range(1, len(seg)):
                head, rest = "".join(groups[:k]), "".join(groups[k:])
                # MMYY only: "exp 7 3 3 5 5 1" is a reference, no 7/33 and a code
                me = parse_expiry(groups[:k]) if len(head) == 4 and len(rest) in (3, 4) else None
                if me and 2000 <= me[1] <= 2049:
                    self.add(t0, t0 + k, "CARD_EXPIRY", 0.9, f"month/year {me[0]:02d}/{me[1] % 100:02d} after '{exp}'")
                    self.add(t0 + k, t1, "CVV", 0.9, f"{len(rest)} digits after the expiry, '{cvv}' asked")
                    return
        if exp and 3 <= n <= 6 and not (cvv and n == 3):
            me = parse_expiry(groups)
            if me and 2000 <= me[1] <= 2049:
                self.add(t0, t1, "CARD_EXPIRY", 0.9, f"month/year {me[0]:02d}/{me[1] % 100:02d} after '{exp}'")
                return
        # "the last four digits of my social security number are ...": the last digits of a number
        # (whose "security number" is no card's code)
        last = self.ctx("card_last_digits", w0, w1, left=9)
        if last and n == 4:
            ssn_ctx = self.ctx("ssn", w0, w1, left=8)
            cat = "SSN" if ssn_ctx and not card_ctx else "CREDIT_CARD"
            self.add(t0, t1, cat, 0.75, f"last four digits ('{last}')")
            return
        if cvv and n in (3, 4) and not self.ctx("postcode", w0, w1, left=6):  # "post code": no card's code
            self.add(t0, t1, "CVV", 0.9, f"{n} digits after '{cvv}'")
            return
        pw = self.ctx("password", w0, w1, left=8)
        if pw and 4 <= n <= 8:
            self.add(t0, t1, "PASSWORD", 0.85, f"{n} digits after '{pw}'")
            return

        if money and n < 9:
            if self.p["money"] and not self._a_currency_not_an_amount(t0, t1):
                self.add(t0, t1, "MONEY", 0.6, "amount followed by a currency word")
            return

        # dates of birth read as digits ("oh three one five eighty five")
        dob = self.birth_cue(w0, w1, left=10)
        dob_d = self.doc.context_distance("dob", w0, left=10)
        # another number's word nearer than the birth date's names this number ("dob 14.02.87 and
        # sort code 20-32-19 acc no 31926819")
        other_d = min((d for d in (self.doc.context_distance(k, w0, left=10) for k in ("generic_id", "routing"))
                       if d is not None), default=None)
        if dob and 4 <= n <= 8 and (other_d is None or (dob_d is not None and dob_d < other_d)):
            self.add(t0, t1, "DATE_OF_BIRTH", 0.8, f"digits near '{dob}'")
            return

        # US national numbers
        ssn_ctx = self.ctx("ssn", w0, w1, left=12)
        if ssn_ctx and n == 9:
            self.add(t0, t1, "SSN", 0.97 if is_ssn(digits) else 0.7,
                     ("valid" if is_ssn(digits) else "9-digit") + f" SSN after '{ssn_ctx}'")
            return
        rt = self.ctx("routing", w0, w1, left=10)
        if rt and n == 9:
            self.add(t0, t1, "ROUTING", 0.95 if is_routing(digits) else 0.6,
                     ("checksum-valid" if is_routing(digits) else "9-digit") + f" routing number after '{rt}'")
            return
        if rt and n == 6 and rt.split()[0] == "sort":  # a British bank's sort code: six digits, no check
            self.add(t0, t1, "ROUTING", 0.85, f"6-digit sort code after '{rt}'")
            return

        # a phone's extension: "call me back on extension four five two", "ext. 2211"
        ext = self.ctx("phone_extension", w0, w1, left=2)
        if ext and 2 <= n <= 6 and not timeish and not money:
            self.add(t0, t1, "PHONE", 0.75, f"{n}-digit extension after '{ext}'")
            self._extension_joins_its_phone(w0, len(ext.split()))
            return

        # phone numbers (region-aware, phonenumbers)
        if 7 <= n <= 15 and not timeish:
            phone_ctx = self.ctx("phone", w0, w1, left=12) or self._calling_verb(w0)
            plus = before in lex.plus or self.doc.words[w0].strip().startswith("+")
            valid, possible = phone_check(digits, lex.phone_region, plus=plus)
            if not valid and not plus and n >= 10:
                v2, p2 = phone_check(digits, lex.phone_region, plus=True)
                valid, possible = valid or v2, possible or p2
            id_ctx = self.ctx("generic_id", w0, w1, left=6) or self.ctx("bank_account", w0, w1, left=8)
            region = lex.phone_region
            if phone_ctx and not valid and (home := national_phone_region(digits)):
                valid, region = True, home  # "my mobile is 07700 900 123": a British number, as dialled there
            if phone_ctx and (valid or possible or n == 7):
                self.add(t0, t1, "PHONE", 0.95 if valid else 0.75,
                         ("valid" if valid else "possible") + f" {region} phone number after '{phone_ctx}'")
                return
            if valid and not (id_ctx and not phone_ctx) and not card_ctx and not named_id and grouped_as_phone(
                    " ".join(self.doc.words[w0:w1]).strip(".,;:!?()"), lex.phone_region):
                self.add(t0, t1, "PHONE", 0.8, f"valid {lex.phone_region} phone number read as digits")
                return

        bank = self.ctx("bank_account", w0, w1, left=10)
        if bank and 6 <= n <= 24:
            self.add(t0, t1, "BANK_ACCOUNT", 0.8, f"{n} digits after '{bank}'")
            return
        zipc = self.ctx("postcode", w0, w1, left=6)
        # 4 digits (Australia, Austria, Belgium, Denmark, Switzerland ...) and 6 (India, Russia,
        # Singapore ...) only after a postcode word; 5 beside a place too
        if (n == 5 and (zipc or before in _us_states() or self._near_place(w0, w1))) or (n in (4, 6) and zipc):
            self.add(t0, t1, "POSTCODE", 0.85 if zipc else 0.65,
                     f"{n} digits after '{zipc}'" if zipc else "5 digits beside a place name or street")
            return
        if n == 9 and lex.language == "en" and [len(g) for g in groups] == [3, 2, 4] and is_ssn(digits):
            self.add(t0, t1, "SSN", 0.7, "valid SSN read in 3-2-4 groups")
            return
        if n <= 3 and self.p["age"]:
            v = int(digits)
            nxt = [tk.text for tk in self.toks[t1 : t1 + 3]]  # "67-year-old" is one word, three tokens
            # "tiene 12 años" is an age, "desde hace diez años" a span of time
            age_after = " ".join(nxt[:2]) in _AGE_AFTER or " ".join(nxt) == "years of age" or nxt[:1] == ["y/o"] or (
                nxt[:2] == ["y", "o"] and self.doc.words[self.toks[t1].w0].lower().startswith("y.o")) or (
                nxt[:1] == ["años"] and before not in _YEARS_OF_TIME) or (
                nxt[:1] == ["año"] and v == 1 and before in ("tiene", "tengo", "tienes", "cumple", "cumplió"))
            # "tengo una pregunta", "tengo un perro": after "tengo" an article is no age of one
            article = w1 - w0 == 1 and self.doc.lower[w0] in _ARTICLES_FOR_ONE
            age_before = self.ctx("age", w0, w1, left=3) and not article
            if v <= 120 and (age_after or (age_before and not timeish)):
                self.add(t0, t1, "AGE", 0.7, "age in years")
                return
            if 2 <= v <= 120 and not timeish and not money and self._age_said(w0, w1):
                self.add(t0, t1, "AGE", 0.6, "a person is a number, and the clause ends")
                return
        if timeish:
            return
        if n == 4 and 1900 <= int(digits) <= 2099 and before in _YEAR_BEFORE:
            return  # "a customer since 2010": a year, whatever identifier word came before
        gid = self.ctx("generic_id", w0, w1)
        if gid and n >= 3:
            self.add(t0, t1, "GENERIC_ID", 0.8, f"{n}-digit number after '{gid}'")
            return
        if any(w in _SCALE_WORDS for w in self.doc.lower[w0:w1]):
            return  # "for 44 billion", "twenty four million": a quantity; no reference is said in millions
        if before not in _NOT_BEFORE_YEARS and _years_said(groups) and (
                all(w.isalpha() for w in self.doc.lower[w0:w1]) or self._listed_years(w0, w1)):
            return  # "nineteen oh two nineteen sixty seven": the years of a life, a reign, a season said
                    # (not after "is", "code", "number": "the code is nineteen ninety nine twenty oh five")
        if n >= 9:
            self.add(t0, t1, "GENERIC_ID", 0.7, f"{n}-digit run (9+ digits are always flagged)")
            return
        if w1 - w0 == 1 and _THOUSANDS.fullmatch(self.doc.words[w0].strip(".,;:!?()")):
            return  # "will cut 11,000 jobs": a quantity written in thousands, no reference
        if w1 - w0 == 1 and _written_range(self.doc.words[w0].strip(".,;:!?()")):
            return  # "pages 120-135", "the 2019-2020 season": a range, no reference
        if n >= int(self.p["min_bare_run"]):
            self.add(t0, t1, "GENERIC_ID", 0.45, f"{n}-digit run without context")

    def _listed_years(self, w0: int, w1: int) -> bool:
        """Are the written words ``[w0, w1)`` years listed with commas ("1839, 1842, 1843")?"""
        words = self.doc.words[w0:w1]
        return len(words) >= 2 and all(w.rstrip(".;:!?)").endswith(",") for w in words[:-1]) and all(
            re.fullmatch(r"\(?\d{4}[,.;:!?)]*", w) for w in words)

    def _not_personal(self, w0: int, w1: int) -> bool:
        """A book, product or device number (ISBN, EAN, IMEI ...): after such a word (the lexicon's
        ``identifier_words.not_personal``) or a valid ISBN as written ("978-3-16-148410-0")."""
        if self.doc.find_phrase(_not_personal_words(self.lex), w0 - 6, w0) is not None:
            return True
        return is_book_number(" ".join(self.doc.words[w0:w1]))

    def _near_place(self, w0: int, w1: int) -> bool:
        """A place name or street address within a few words (the postcode slot of an address)."""
        from redactdesk.detect.gazetteer import load_gazetteer

        gaz = load_gazetteer()
        lower = self.doc.lower
        en, es = _street_words()
        for a in range(max(0, w0 - 4), min(len(lower), w1 + 4)):
            if w0 <= a < w1:
                continue
            for k in (4, 3, 2, 1):
                if a + k <= len(lower) and gaz.place(lower[a : a + k]):
                    return True
            if lower[a] in en or lower[a] in es:
                return True
        return False

    def _unknown_word(self, word: str, gaz: Any) -> bool:
        """An alphabetic word that is no stop word, everyday word, context word or month: likely a name."""
        return (
            word.isalpha()
            and len(word) > 1
            and word not in self.lex.stop_words
            and word not in gaz.common
            and word not in context_words(self.lex)
            and word not in self.lex.months
            and word not in self.lex.weekdays
            and not gaz.place([word])
        )

    def _names_after_kin(self) -> None:
        """A name right after a word for kin or a friend ("my little sis Maddie!!", "my son Oisín",
        "my cousin dave"): written with a capital and no everyday word, or a first name of the list
        that is no everyday word, or said aloud, one that is, with what the person did after it ("my
        neighbour bill said": the lexicon's ``name_after_kin_verbs``; "my sister may come" is none).
        A capitalised surname after it joins ("my aunt Ngozi Adichie")."""
        from redactdesk.detect.worldnames import everyday_words, load_world_names, strip_word
        from redactdesk.lang.folding import fold_key

        kin = word_list(self.lex, "kin_words")
        doc = self.doc
        words, lower, n = doc.words, doc.lower, len(doc.words)
        if not kin or not any(w in kin for w in lower):
            return
        cased = doc.cased()
        names, everyday, stop = load_world_names(), everyday_words(), self.lex.stop_words

        def proper(k: int) -> bool:
            raw = strip_word(words[k])
            key = fold_key(raw)
            if not raw.replace("-", "").replace("'", "").isalpha() or key in stop or key in kin:
                return False
            if cased:  # the capital says it: "my wife Rose", "my son Will", "sis Maddie"
                return raw[:1].isupper() and not raw.isupper()
            return names.is_first(key) and not names.is_common(key) and key not in everyday

        verbs = word_list(self.lex, "name_after_kin_verbs")

        def acts(k: int) -> bool:  # "my neighbour bill said": an everyday word that is a first name, then what it did
            key = fold_key(strip_word(words[k]))
            return (not cased and names.is_first(key) and key not in stop and key not in kin
                    and k + 1 < n and k + 1 not in doc.breaks and lower[k + 1] in verbs)

        for i, w in enumerate(lower):
            k = i + 1
            if w not in kin or k >= n or k in doc.breaks or words[i][-1:] in ",.;:!?" or not (proper(k) or acts(k)):
                continue
            if cased and strip_word(words[i])[:1].isupper():
                continue  # title case ("Crocs Kids Handle It", "Brother And Sister"), or a title ("Sister Mary")
            e = k + 1
            if cased and e < n and e not in doc.breaks and words[k][-1:] not in ",.;:!?" and proper(e):
                e += 1
            if self._free_words(k, e):
                self.add_words(k, e, "PERSON", 0.7, f"name after '{w}'", strong=True)

    def _name_answers(self, gaz: Any) -> None:
        """The answer to "your full name?" in the next turn: its first words that are not everyday
        words are the name (works for names no gazetteer holds)."""
        doc = self.doc
        lower = doc.lower
        breaks = list(doc.breaks)
        lead = frozenset({"yes", "yeah", "yep", "sure", "okay", "ok", "so", "it's", "its", "it", "is", "this", "i'm",
                          "i", "am", "my", "name", "um", "uh", "er", "well", "oh", "soy", "sí", "si", "me", "llamo",
                          "mi", "nombre", "es", "pues", "vale", "bueno", "eh", "claro", "of", "course", "the"})
        for k, start in enumerate(breaks[1:], 1):
            prev = breaks[k - 1]
            if doc.find_phrase(self.lex.hot("name_question"), prev, start) is None:
                continue
            end = breaks[k + 1] if k + 1 < len(breaks) else len(lower)
            w = start
            while w < end and w - start < 4 and lower[w] in lead:
                w += 1
            e = w
            while e < end and e - w < 3 and (gaz.is_name(lower[e]) or self._unknown_word(lower[e], gaz)):
                e += 1
            if e > w and self._free_words(w, e):
                self.add_words(w, e, "PERSON", 0.75, "answer to a question for the name", strong=True)

    # money ---------------------------------------------------------------------------------------

    def _a_currency_not_an_amount(self, t0: int, t1: int) -> bool:
        """One unit of a currency with no money word near ("convert one euro to dollars", "a dollar
        is worth") names a currency, nobody's amount; "I owe you 1 dollar" is one."""
        return t1 == t0 + 1 and self.toks[t0].text in ("1", "a", "un", "una") and not self.ctx(
            "money", *self.words(t0, t1), left=5)

    def money(self) -> None:
        """Amounts: "124 dollars and 50 cents", "124 euros con 50 céntimos", or bare numbers after a
        money word ("the balance is 124 50")."""
        if not self.p["money"]:
            return
        lex = self.lex
        cur = _flat(lex.hot("money_after"))
        toks = self.toks
        n = len(toks)
        i = 0
        while i < n:
            tk = toks[i]
            if self.claimed[i] or not (tk.kind == NUM and not tk.ordinal or tk.text in ("un", "una", "a")):
                i += 1
                continue
            j = i + 1
            while j < n and toks[j].kind == NUM and not toks[j].ordinal and toks[j].seg == tk.seg:
                j += 1
            end = None
            if j < n and toks[j].text in cur:
                end = j + 1
                # "... and 50 cents" / "... con 50 (céntimos)"
                if end + 1 < n and toks[end].text in ("and", "con", "y") and toks[end + 1].kind == NUM:
                    end += 2
                    if end < n and toks[end].text in cur:
                        end += 1
                elif end < n and toks[end].kind == NUM and not toks[end].ordinal and toks[end].seg == tk.seg \
                        and toks[end].text.isdigit() and int(toks[end].text) < 100 and (
                        end + 1 == n or toks[end + 1].kind != NUM):
                    end += 1  # "182 pounds 40", "twelve dollars fifty": the pence or cents said after
            elif tk.kind == NUM and j - i <= 2 and not (i > 0 and toks[i - 1].kind == NUM) and (
                len("".join(t.text for t in toks[i:j])) >= 2
            ):
                w0, w1 = self.words(i, j)
                c = self.doc.context("money", w0, w1, left=5, right=1)
                if c and not self.ctx("generic_id", w0, w1, left=5) and not self.ctx("card", w0, w1, left=5):
                    digits = "".join(t.text for t in toks[i:j])
                    if len(digits) <= 7:
                        end = j
            if end == j + 1 and self._a_currency_not_an_amount(i, j):
                end = None
            if end is not None and self.free(i, end):
                self.add(i, end, "MONEY", 0.8, "amount of money")
                i = end
                continue
            i = j if j > i else i + 1

    def written_money(self) -> None:
        """Amounts written with a currency's sign, in the word or beside it: "$1,200", "€45.50",
        "45,50€", "€ 30", "1.200 €"."""
        if not self.p["money"]:
            return
        words = self.doc.words
        n = len(words)
        for w, word in enumerate(words):
            bare = word.rstrip(".,;:!?")
            if _WRITTEN_MONEY.fullmatch(bare) and self._free_words(w, w + 1):
                self.add_words(w, w + 1, "MONEY", 0.8, "amount written with its currency sign")
            elif bare in _CURRENCY_SIGN:  # the sign a word apart: "€ 30", "1.200 €"
                for a, b in ((w, w + 2), (w - 1, w + 1)):
                    if a < 0 or b > n:
                        continue
                    num = words[b - 1] if a == w else words[a]
                    if re.fullmatch(_NUMBER, num.rstrip(".,;:!?")) and self._free_words(a, b):
                        self.add_words(a, b, "MONEY", 0.8, "amount written with its currency sign")
                        break

    # organisations -------------------------------------------------------------------------------

    def organizations(self) -> None:
        """A proper name joined to an organisation word: "Smith Bank", "Banco Gilabert", "Acme Inc"."""
        from redactdesk.detect.gazetteer import load_gazetteer

        gaz = load_gazetteer()
        lex = self.lex
        lower = self.doc.lower
        words = self.doc.words
        stop = lex.stop_words
        suffixes = self.doc.said("org_suffix")
        kin_firms, kin_owners = word_list(lex, "org_kin_words"), word_list(lex, "kin_owners")
        lines = frozenset(self.doc.lines)  # a line of written text ends a firm's name

        def proper(k: int) -> bool:
            if not 0 <= k < len(lower) or not lower[k].isalpha() or (lower[k] in stop and not gaz.is_name(lower[k])):
                return False
            return gaz.is_name(lower[k]) or (words[k][:1].isupper() and k not in self.doc.breaks
                                              and lower[k] not in gaz.common)

        for ph in suffixes:
            m = len(ph)
            for w in self.doc.occurrences(ph):
                if lex.language == "es":
                    a, b = w, w + m
                    if a > 0 and lower[a - 1] in kin_owners and m == 1 and lower[a] in kin_firms:
                        continue  # "mis hermanos juan y pedro": siblings, no firm
                    k = b
                    while k < len(lower) and proper(k) and k - b < 3 and k not in lines:
                        k += 1
                    if k > b and self._free_words(a, k):
                        self.add_words(a, k, "ORGANIZATION", 0.75, f"name after '{' '.join(ph)}'", strong=True)
                else:
                    k = w
                    while k - 1 >= 0 and proper(k - 1) and w - k < 3 and k not in lines:  # "John Smith⏎Acme Corp"
                        k -= 1
                    if k < w and self._free_words(k, w + m):
                        self.add_words(k, w + m, "ORGANIZATION", 0.75, f"name before '{' '.join(ph)}'", strong=True)

    # names after cues ----------------------------------------------------------------------------

    def names(self) -> None:
        from redactdesk.detect.gazetteer import load_gazetteer

        gaz = load_gazetteer()
        doc = self.doc
        lower = doc.lower
        stop = self.lex.stop_words
        amb = gaz.ambiguous
        hot_first = {p[0] for k in ("card", "phone", "email", "generic_id", "username", "password") for p in self.lex.hot(k)}
        # "the last name is spelled W A L S H": the words that speak of a name are none
        hot_first |= {w for p in self.lex.hot("name") for w in p}
        titles = word_set("titles")
        hot_first |= titles  # "speaking with mister Rahman": the title is no name, the name follows it
        hot_first |= day_words(self.lex)  # "she called yesterday": a day is no name
        first_names = load_world_names()
        cased = doc.cased()
        # written text: a full stop ends a name after its cue; a timed transcript's stops are ASR's guesses
        ends = word_view(doc).stop_after if doc.starts is None else [False] * len(doc.words)
        for strength, key in (("strong", "name_cue_strong"), ("weak", "name_cue_weak")):
            for ph in doc.said(key):
                n = len(ph)
                for w in doc.occurrences(ph):
                    s = w + n
                    e = s
                    opening = (
                        strength == "weak"
                        and ph in _OPENING_CUES
                        and s < (doc.breaks[1] if len(doc.breaks) > 1 else len(lower))
                        and s < len(lower)
                        and self._unknown_word(lower[s], gaz)
                        and not any(lower[s] in ph for ph in self.lex.hot("org_cue_employer"))  # "soy clienta de"
                    )
                    if opening and self._free_words(s, s + 1):
                        # the call's first turn: "this is Astrid", "le atiende Ildikó" name the agent
                        self.add_words(s, s + 1, "PERSON", 0.7, f"name after '{' '.join(ph)}' in the opening turn",
                                       strong=True)
                        continue
                    # a month that is a given name, alone after "i'm", "soy", "thanks" and before the
                    # utterance's end or a comma, is what the person is called ("soy abril,", "thanks may")
                    month_named = (strength == "weak" and ph in _INTRO_CUES and ph != ("this", "is") and s < len(lower)
                                   and lower[s] in self.lex.months and first_names.is_first(lower[s]) and (
                                       s + 1 == len(lower) or s + 1 in doc.breaks
                                       or doc.words[s].rstrip()[-1:] in (",", ".", "!", "?")))
                    particles = word_set("name_particles")
                    while e < len(lower) and e - s - sum(w in particles for w in lower[s:e]) < 3:
                        word = lower[e]
                        t = self.norm.token_of_word(e)
                        if word in particles and t is not None and not self.claimed[t] and e + 1 < len(lower) and (
                                e + 1 not in doc.breaks):
                            e += 1  # "de la Cruz", "van der Berg": particles inside a name
                            continue
                        # written after a title, a capitalised word is a surname whatever else it is: "Mrs. May", "Mr. Will"
                        titled = (e == s and cased and len(ph) == 1 and ph[0] in titles and doc.words[e][:1].isupper()
                                  and gaz.is_name(word))
                        # right after a cue of two words or more a given name that is a stop word too is
                        # the name: "you're speaking with may", "my name is may" (not "speaking with good")
                        stop_named = e == s and word in stop and word not in hot_first and first_names.is_first(
                            word) and ((strength == "strong" and len(ph) > 1) or month_named)
                        if t is None or self.claimed[t] or not _name_letters(word) or (
                                (word in stop or word in hot_first) and not titled and not stop_named):
                            break
                        if e > s and (doc.breaks and e in doc.breaks):
                            break
                        if e > s and ends[e - 1]:
                            break  # "I saw Dr. Smith. Jones was there too": a sentence's end ends the name
                        if e > s and cased and not doc.words[e][:1].isupper():
                            break  # cased writing: "el señor Martínez de atención al cliente" ends at Martínez
                        known = gaz.is_name(word)
                        intro = ph in _INTRO_CUES
                        if strength == "weak" and (not known or (word in amb and not (intro and e == s))):
                            break
                        if e > s and not known and word in amb:
                            break
                        if e > s and not known and strength == "strong" and word in gaz.common:
                            break
                        if e == s and ph in _VERB_CUES and not known and word in gaz.common and not (
                                cased and doc.words[e][:1].isupper()):
                            break  # "our customer called twice": the verb, no name after it
                        e += 1
                    while e > s and lower[e - 1] in particles:
                        e -= 1  # no name ends in a particle ("ask for de")
                    if e > s and self._free_words(s, e):
                        strong = strength == "strong" or (month_named and e == s + 1)
                        self.add_words(s, e, "PERSON", 0.75 if strong else 0.55,
                                       f"name after '{' '.join(ph)}'", strong=strong)
        self._name_answers(gaz)
        self._names_after_kin()
        from redactdesk.detect.quotations import quotation_speakers

        for s, e in quotation_speakers(doc):
            if self._free_words(s, e):
                self.add_words(s, e, "PERSON", 0.75, "name of a quotation's speaker", strong=True)
        # a name before a cue: "Karen speaking", "Juan al habla"; before what a sentence says of a
        # person only a word of no list ("Stoloff was born in"): listed names there are the lists' find
        said_of = set(self.lex.hot("name_cue_said_of"))
        for ph in (*doc.said("name_cue_right"), *doc.said("name_cue_said_of")):
            for w in doc.occurrences(ph):
                e = w
                s = e
                while ph not in said_of and s - 1 >= 0 and e - s < 3 and lower[s - 1].isalpha() and gaz.is_name(
                        lower[s - 1]) and lower[s - 1] not in stop:
                    s -= 1
                if s == e and e > 0 and self._unknown_word(lower[e - 1], gaz) and (e - 1) not in doc.breaks[:1]:
                    s = e - 1  # "Paulette speaking": a word that is no everyday word, right before the cue
                    if s < e and self._free_words(s, e):
                        self.add_words(s, e, "PERSON", 0.7, f"unknown word before '{' '.join(ph)}'", strong=True)
                    continue
                if s < e and self._free_words(s, e):
                    self.add_words(s, e, "PERSON", 0.6, f"name before '{' '.join(ph)}'")


# weak cues that name the agent when they come in the call's first turn
_OPENING_CUES = frozenset({("this", "is"), ("soy",), ("my", "name", "is")})

# weak cues after which even an everyday-word name is taken ("this is Heather", "thanks Rose")
_INTRO_CUES = frozenset({("this", "is"), ("i'm",), ("thanks",), ("thank", "you"), ("soy",), ("gracias",)})


@functools.lru_cache(maxsize=4)
def _date_regexes(lex: Any) -> list[tuple[re.Pattern[str], str]]:
    months = month_alternation(lex)
    year = r"(\d{4}|\d{2} \d{2})"
    if lex.language == "es":
        return [
            (re.compile(rf"(?<![\w])(\d{{1,2}}) de ({months})(?: de(?:l)? {year})?(?![\w])"), "dmy"),
            (re.compile(rf"(?<![\w])({months}) de(?:l)? {year}(?![\w])"), "my"),
            (re.compile(r"(?<![\w])(\d{1,2}) (?:de|del) (\d{1,2}) (?:de|del) (\d{4}|\d{2}|\d \d)(?![\w])"), "dmy_num"),
        ]
    # a day and a year said digit by digit ("one six aug one nine eight six"): as many single digits
    day, year = r"(\d{1,2}|\d \d)", r"(\d{4}|\d{2} \d{2}|\d \d \d \d)"
    return [
        (re.compile(rf"(?<![\w])({months}) (?:the )?(\d{{1,2}})(?:,? (?:of )?{year})?(?![\w])"), "mdy"),
        (re.compile(rf"(?<![\w])(?:the )?(\d{{1,2}}) of ({months})(?:,? {year})?(?![\w])"), "dmy"),
        (re.compile(rf"(?<![\w]){day} ({months})(?:,? {year})?(?![\w])"), "dmy"),
        (re.compile(rf"(?<![\w])({months}),? (?:of )?{year}(?![\w])"), "my"),
    ]


# "23 of the 4 87", "the 3 of the 12 19 90": the month as an ordinal (checked on its tokens)
_WRITTEN_ORDINAL = re.compile(r"\d{1,2}(?:st|nd|rd|th)[.,]?")
_ORDINAL_MONTH_DATE = re.compile(r"(?<![\w])(?:the )?(\d{1,2}) of the (\d{1,2})(?: (\d{4}|\d{2} \d{2}|\d{2}))?(?![\w])")


@functools.lru_cache(maxsize=4)
def _month_and_day_digits_regex(lex: Any) -> re.Pattern[str]:
    """"march 1 2": a month and its day said digit by digit, no digit after them."""
    months = month_alternation(lex)
    return re.compile(rf"(?<![\w])({months}) (\d) (\d)(?![\w]| \d)")


@functools.lru_cache(maxsize=4)
def _month_and_digits_regex(lex: Any) -> re.Pattern[str]:
    """"aug 4 3", "8 may 2 001": a month and a year said digit by digit, a day before them or not (a
    date of birth's, after its cue); the caller checks that the digits make two or four."""
    months = month_alternation(lex)
    return re.compile(rf"(?<![\w])(?:(\d{{1,2}}) )?({months}) (\d+(?: \d+){{1,3}})(?![\w])")


@functools.lru_cache(maxsize=4)
def _said_date_regex(lex: Any) -> re.Pattern[str]:
    """"the 23 of april 87", "12 de marzo del 80": day, month and a year of two digits, as said."""
    months = month_alternation(lex)
    if lex.language == "es":
        return re.compile(rf"(?<![\w])(\d{{1,2}}) de ({months}) del (\d{{2}})(?![\w])")
    return re.compile(rf"(?<![\w])(?:the )?(\d{{1,2}}) of ({months}) (\d{{2}})(?![\w])")


@functools.lru_cache(maxsize=4)
def _not_personal_words(lex: Any) -> tuple[tuple[str, ...], ...]:
    from redactdesk.lang.lexicon import phrases

    return phrases((lex.raw.get("identifier_words") or {}).get("not_personal") or [])


@functools.lru_cache(maxsize=4)
def _identifier_names(lex: Any) -> tuple[tuple[str, ...], ...]:
    """Names of national, tax and VAT numbers (the lexicon's ``identifier_words``)."""
    from redactdesk.lang.lexicon import phrases

    words = lex.raw.get("identifier_words") or {}
    return phrases(words.get("national_id") or []) + phrases(words.get("vat_id") or [])


@functools.lru_cache(maxsize=64)
def _flat_cached(phrases: tuple[tuple[str, ...], ...]) -> frozenset[str]:
    return frozenset(" ".join(p) for p in phrases)


def _flat(phrases: tuple[tuple[str, ...], ...]) -> frozenset[str]:
    return _flat_cached(phrases)


def find_patterns(doc: DetectDoc, params: Mapping[str, Any] | None = None) -> list[Hit]:
    """All pattern hits in one document."""
    p = PatternSource().validate(params)
    return _Finder(doc, p).run()


class PatternSource:
    """Validated patterns on the normalised text (cards, IBAN, phones, IDs, emails, dates, ...)."""

    name = SOURCE
    categories = frozenset(
        "CREDIT_CARD PHONE EMAIL URL IP_ADDRESS SSN ES_ID IBAN DATE DATE_OF_BIRTH MONTH CARD_EXPIRY CVV "
        "GENERIC_ID BANK_ACCOUNT ROUTING USERNAME PASSWORD PASSPORT POSTCODE ADDRESS AGE MONEY "
        "SPELLED_LETTERS PERSON ORGANIZATION CITY COUNTRY".split()
    )
    # everything but PERSON and ORGANIZATION: a name cue alone is not enough, it needs the gazetteer or
    # a tagger to agree ("i work for fun"); hits that stand alone say so (strong)
    trusted = categories - {"PERSON", "ORGANIZATION"}
    defaults: dict[str, Any] = {"min_bare_run": 5, "context_left": 8, "money": True, "age": True}

    def validate(self, params: Mapping[str, Any] | None) -> dict[str, Any]:
        return check_params(self.name, params, self.defaults)

    def apply(self, docs: Sequence[DetectDoc], params: Mapping[str, Any]) -> list[list[Hit]]:
        return [_Finder(d, params).run() for d in docs]

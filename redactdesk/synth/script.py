"""Synthetic call-centre dialogues with ground-truth personal-data spans (text only, no audio).

``generate_call(seed, language)`` returns a :class:`~redactdesk.core.Conversation` whose words are the
spoken form (one token per spoken word), alternating "agent" / "customer" turns, and accepted
ground-truth spans. Values come from Faker seeded by the call seed (never real people). Words get
estimated times (``ESTIMATED_*``) so the conversation is valid; :mod:`redactdesk.synth.voice` replaces
them with exact times when it voices the call.

Seeds 1000.. make the bundled demo; evaluation sets must use seeds >= ``EVALUATION_SEED_MIN``.
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from faker import Faker
from stdnum import luhn
from stdnum.es import dni, nie

from redactdesk.core.types import Conversation, Span, SpanStatus, Turn, Word
from redactdesk.lang.alphabet import plain_letters
from redactdesk.synth import spoken
from redactdesk.synth.errors import SynthError
from redactdesk.synth.templates import BLOCKS, FILLERS, SCENARIOS

GENERATOR_VERSION = 1
DEMO_SEED = 1000
EVALUATION_SEED_MIN = 100_000
GROUND_TRUTH_SOURCE = "ground_truth"

ESTIMATED_WORD = 0.35  # seconds per word when no audio exists
ESTIMATED_GAP = 0.08  # between words of a turn
ESTIMATED_TURN_GAP = 0.6  # between turns
ESTIMATED_LEAD = 0.5  # silence before the first word

_LOCALES = {"en": "en_US", "es": "es_ES"}

# Spoken-form switches; a key left out is drawn from the seed.
VARIATION_CHOICES: dict[str, tuple] = {
    "digits": ("single", "pairs", "mixed"),  # how digit strings are read; mixed = per item
    "zero": ("zero", "oh"),  # English only; Spanish always says "cero"
    "doubles": (False, True),  # "double five" (English only)
    "spelling": ("letters", "as_in"),  # "S M I T H" or "S as in Sam M as in Mary ..."
    "date_style": ("month_first", "day_first", "numeric"),
    "expiry_style": ("numeric", "text"),
    "fillers": (False, True),  # callers start some answers with "um", "okay", "pues" ...
}

# placeholder -> category (None: not personal data)
PLACEHOLDERS: dict[str, str | None] = {
    "org": "ORGANIZATION", "agent": "PERSON", "full_name": "PERSON", "first": "PERSON",
    "surname": "PERSON", "spelled": "PERSON", "dob": "DATE_OF_BIRTH", "account": "GENERIC_ID",
    "ticket": "GENERIC_ID", "address": "ADDRESS", "city": "CITY", "postcode": "POSTCODE",
    "phone": "PHONE", "email": "EMAIL", "card": "CREDIT_CARD", "expiry": "CARD_EXPIRY", "cvv": "CVV",
    "amount": "MONEY", "es_id": "ES_ID", "honorific": None,
}
_ENTITY = {"full_name": "customer", "first": "customer", "surname": "customer", "spelled": "customer"}

# Kinds of personal data every generated call carries (tests check this).
REQUIRED_CATEGORIES = {
    "en": {"PERSON", "CREDIT_CARD", "CARD_EXPIRY", "CVV", "PHONE", "EMAIL", "ADDRESS", "DATE_OF_BIRTH",
           "GENERIC_ID", "ORGANIZATION", "CITY", "MONEY"},
}
REQUIRED_CATEGORIES["es"] = REQUIRED_CATEGORIES["en"] | {"ES_ID"}

US_CITIES = [
    "Portland", "Denver", "Austin", "Boston", "Seattle", "Chicago", "Phoenix", "Atlanta", "Dallas",
    "Houston", "Miami", "Orlando", "Tampa", "Nashville", "Memphis", "Louisville", "Columbus",
    "Cleveland", "Detroit", "Milwaukee", "Minneapolis", "Omaha", "Tucson", "Albuquerque", "Sacramento",
    "Fresno", "Oakland", "San Diego", "San Antonio", "Salt Lake City", "Las Vegas", "Kansas City",
    "Saint Louis", "Pittsburgh", "Baltimore", "Richmond", "Raleigh", "Charlotte", "Buffalo", "Spokane",
]
_EN_STREET_TYPES = ["Street", "Avenue", "Road", "Lane", "Drive", "Court", "Boulevard", "Way", "Place"]
_ES_STREET_TYPES = ["calle", "avenida", "paseo", "plaza", "camino"]
_ES_FLOORS = ["primero", "segundo", "tercero", "cuarto", "quinto", "sexto"]
_ES_DOORS = ["A", "B", "C", "D", "izquierda", "derecha"]
_EN_DOMAINS = ["example.com", "example.org", "example.net", "mail.example.com"]
_ES_DOMAINS = ["ejemplo.es", "ejemplo.com", "correo.example.com"]
_LETTERS = "ABCDEFGHJKLMNPRSTUVWXYZ"
_PUNCT = ".,?!¿¡;:\"()"


@dataclass
class Item:
    """One personal value in its spoken form."""

    category: str | None
    tokens: list[str]
    value: str  # canonical written form (digits without spaces, the e-mail address ...)
    note: str = ""  # how it was said, for the span's reason


@functools.lru_cache(maxsize=2)
def _faker(language: str) -> Faker:
    return Faker(_LOCALES[language])


def resolve_variation(variation: dict[str, Any] | None, seed: int, language: str) -> dict[str, Any]:
    """Fill the unset variation keys from the seed; reject unknown keys or values."""
    given = dict(variation or {})
    rng = random.Random(f"redactdesk-synth-variation:{language}:{seed}")
    scenarios = sorted(SCENARIOS[language])
    rng.random()  # keeps the later draws where they were before scenarios rotated by seed
    out: dict[str, Any] = {"scenario": scenarios[seed % len(scenarios)]}  # consecutive seeds cover all
    for key, choices in VARIATION_CHOICES.items():
        out[key] = rng.choice(choices)  # always draw, so giving one key leaves the others unchanged
    for key, value in given.items():
        allowed = scenarios if key == "scenario" else VARIATION_CHOICES.get(key)
        if allowed is None:
            known = ", ".join(["scenario", *VARIATION_CHOICES])
            raise SynthError(f"unknown variation {key!r}; known: {known}")
        if value not in allowed:
            raise SynthError(f"variation {key!r} must be one of {list(allowed)}, got {value!r}")
        out[key] = value
    if language == "es":
        out["zero"], out["doubles"] = "zero", False
    return out


class _Values:
    """Draws the call's personal values (Faker, seeded) and renders them in spoken form."""

    def __init__(self, seed: int, language: str, scenario: dict, var: dict[str, Any]) -> None:
        self.lang = language
        self.var = var
        self.rng = random.Random(f"redactdesk-synth-values:{language}:{seed}")
        self.fake = _faker(language)
        self.fake.seed_instance(seed)
        self.scenario = scenario
        self.items: dict[str, Item] = {}
        self._draw()

    # -- digit strings ---------------------------------------------------------------------------
    def _grouping(self) -> str:
        g = self.var["digits"]
        return self.rng.choice(("single", "pairs")) if g == "mixed" else g

    def _digits(self, digits: str, chunks: list[int] | None = None, grouping: str | None = None) -> list[str]:
        g = grouping or self._grouping()
        return spoken.digits_spoken(digits, self.lang, grouping=g, zero=self.var["zero"],
                                    doubles=self.var["doubles"], chunks=chunks)

    def _num(self, n: int) -> str:
        return "".join(str(self.rng.randint(0, 9)) for _ in range(n))

    # -- values ----------------------------------------------------------------------------------
    def _surname(self) -> str:
        for _ in range(200):
            s = self.fake.last_name()
            if s.isalpha() and 3 <= len(plain_letters(s)) <= 9:
                return s
        raise SynthError("could not draw a plain surname from Faker")  # pragma: no cover

    def _draw(self) -> None:
        lang, fake, rng, var = self.lang, self.fake, self.rng, self.var
        female = rng.random() < 0.5
        self.customer_gender = "female" if female else "male"
        self.agent_gender = "male" if rng.random() < 0.5 else "female"
        first = (fake.first_name_female() if female else fake.first_name_male())
        agent = (fake.first_name_female() if self.agent_gender == "female" else fake.first_name_male())
        surname = self._surname()
        full = f"{first} {surname}" + (f" {self._surname()}" if lang == "es" else "")
        org_word = rng.choice(self.scenario["org"])
        org_name = self._surname()
        org = f"{org_name} {org_word}" if lang == "en" else f"{org_word} {org_name}"
        items = self.items
        items["org"] = Item("ORGANIZATION", spoken.words_of(org), org)
        items["agent"] = Item("PERSON", spoken.words_of(agent), agent, "agent's first name")
        items["full_name"] = Item("PERSON", spoken.words_of(full), full, "customer's full name")
        items["first"] = Item("PERSON", spoken.words_of(first), first, "customer's first name")
        items["surname"] = Item("PERSON", [surname], surname, "customer's surname")
        items["spelled"] = Item("PERSON", spoken.spell(surname, lang, style=var["spelling"]), surname,
                                f"surname spelled ({var['spelling']})")
        items["honorific"] = Item(None, ["señora" if female else "señor"] if lang == "es"
                                  else ["Ms" if female else "Mr"], "")

        y, m, d = rng.randint(1950, 2003), rng.randint(1, 12), rng.randint(1, 28)
        items["dob"] = Item("DATE_OF_BIRTH", spoken.date_spoken(y, m, d, lang, style=var["date_style"],
                                                                 zero=var["zero"]),
                            f"{y:04d}-{m:02d}-{d:02d}", f"date ({var['date_style']})")

        n = rng.choice((8, 9, 10))
        acc = str(rng.randint(1, 9)) + self._num(n - 1)
        items["account"] = Item("GENERIC_ID", self._digits(acc), acc, "account number")
        if lang == "en":
            letters = rng.choice(_LETTERS) + rng.choice(_LETTERS)
            num = self._num(6)
            items["ticket"] = Item("GENERIC_ID", [*letters, *self._digits(num)], letters + num, "reference")
        else:
            num = str(rng.randint(1, 9)) + self._num(7)
            items["ticket"] = Item("GENERIC_ID", self._digits(num), num, "reference")

        self._address()
        self._phone()
        self._email(first, surname)
        self._card()
        cents = rng.randint(12, 1500) * 100 + (0 if rng.random() < 0.3 else rng.randint(1, 99))
        style = "short" if lang == "en" and rng.random() < 0.25 else "full"
        items["amount"] = Item("MONEY", spoken.money_spoken(cents, lang, style=style), f"{cents / 100:.2f}")
        if lang == "es":
            self._es_id()

    def _address(self) -> None:
        lang, rng, fake = self.lang, self.rng, self.fake
        number = rng.choice((rng.randint(1, 99), rng.randint(100, 9999)))
        if lang == "es":
            number = number % 150 + 1  # Spanish street numbers stay small
        if lang == "en":
            street = f"{rng.choice((fake.last_name, fake.first_name))()} {rng.choice(_EN_STREET_TYPES)}"
            style = rng.choice(("cardinal", "digits"))
            if style == "cardinal" or number < 100:
                num_words = spoken.number_words(number, "en")
                if number >= 1000 and number % 1000 >= 100:  # 4217 -> forty two seventeen
                    num_words = self._digits(str(number), grouping="pairs")
            else:
                num_words = self._digits(str(number))
            unit: list[str] = []
            text = f"{number} {street}"
            if rng.random() < 0.4:
                unit_no, letter = str(rng.randint(1, 30)), rng.choice(("", "A", "B", "C"))
                unit = ["apartment", *spoken.number_words(int(unit_no), "en"), *([letter] if letter else [])]
                text += f" Apt {unit_no}{letter}"
            tokens = [*num_words, *spoken.words_of(street), *unit]
            city = rng.choice(US_CITIES)
            post = fake.zipcode()
            post_tokens = self._digits(post, grouping="single")
        else:
            name = rng.choice((fake.last_name, lambda: f"{fake.first_name()} {fake.last_name()}"))()
            kind = rng.choice(_ES_STREET_TYPES)
            street = f"{kind} {'de ' if rng.random() < 0.6 else ''}{name}"
            tokens = [*spoken.words_of(street), *(["número"] if rng.random() < 0.5 else []),
                      *spoken.number_words(number, "es")]
            floor = f"{rng.choice(_ES_FLOORS)} {rng.choice(_ES_DOORS)}"
            if rng.random() < 0.7:
                tokens += spoken.words_of(floor)
            text = " ".join(tokens)
            city = fake.city()
            post = fake.postcode()
            post_tokens = self._digits(post, chunks=[2, 3])
        self.items["address"] = Item("ADDRESS", tokens, text, "street address")
        self.items["city"] = Item("CITY", spoken.words_of(city), city)
        self.items["postcode"] = Item("POSTCODE", post_tokens, post)

    def _phone(self) -> None:
        rng = self.rng
        if self.lang == "en":
            digits = f"{rng.randint(2, 9)}{self._num(2)}{rng.randint(2, 9)}{self._num(6)}"
            chunks = [3, 3, 4]
        else:
            digits = f"{rng.choice('6796')}{self._num(8)}"
            chunks = [3, 2, 2, 2] if rng.random() < 0.6 else [3, 3, 3]
        g = self._grouping()
        self.items["phone"] = Item("PHONE", self._digits(digits, chunks=chunks, grouping=g), digits,
                                   f"phone read as {g}")

    def _email(self, first: str, surname: str) -> None:
        rng = self.rng
        f, s = plain_letters(first.split()[0]).lower(), plain_letters(surname).lower()
        pattern = rng.choice(("{f}.{s}", "{f}{s}", "{i}.{s}", "{f}_{s}", "{f}.{s}{n}", "{s}{n}"))
        local = pattern.format(f=f, s=s, i=f[0], n=rng.randint(1, 99))
        domain = rng.choice(_EN_DOMAINS if self.lang == "en" else _ES_DOMAINS)
        address = f"{local}@{domain}"
        self.items["email"] = Item("EMAIL", spoken.email_spoken(address, self.lang, zero=self.var["zero"]),
                                   address, "e-mail read aloud")

    def _card(self) -> None:
        rng, fake, lang = self.rng, self.fake, self.lang
        number = fake.credit_card_number(card_type=rng.choice(("visa16", "mastercard", "discover")))
        if not (len(number) == 16 and luhn.is_valid(number)):  # pragma: no cover - Faker contract
            raise SynthError("Faker produced a card number that is not a 16-digit Luhn number")
        g = self._grouping()
        self.items["card"] = Item("CREDIT_CARD", self._digits(number, chunks=[4, 4, 4, 4], grouping=g),
                                  number, f"card read as {g}")
        month, year = rng.randint(1, 12), rng.randint(2026, 2032)
        self.items["expiry"] = Item("CARD_EXPIRY", spoken.expiry_spoken(month, year, lang,
                                                                        style=self.var["expiry_style"],
                                                                        zero=self.var["zero"]),
                                    f"{month:02d}/{year % 100:02d}")
        cvv = self._num(3)
        self.items["cvv"] = Item("CVV", self._digits(cvv, grouping="single"), cvv)

    def _es_id(self) -> None:
        rng = self.rng  # Faker's es_ES nif()/nie() ignore the instance seed, so draw them here
        if rng.random() < 0.7:
            body = str(rng.randint(1, 9)) + self._num(7)
            value = body + dni.calc_check_digit(body)
            ok = dni.is_valid(value)
            tokens = [*self._digits(value[:8], chunks=[2, 3, 3]), value[8]]
        else:
            body = rng.choice("XYZ") + self._num(7)
            value = body + nie.calc_check_digit(body)
            ok = nie.is_valid(value)
            tokens = [value[0], *self._digits(value[1:8], chunks=[1, 3, 3]), value[8]]
        if not ok:  # pragma: no cover - Faker contract
            raise SynthError("Faker produced an invalid Spanish DNI/NIE")
        self.items["es_id"] = Item("ES_ID", tokens, value, "DNI" if len(value) == 9 and value[0].isdigit()
                                   else "NIE")


def _split_plain(text: str) -> list[str]:
    return [t for t in (w.strip(_PUNCT) for w in text.split()) if t]


def _render_line(line: str, values: _Values) -> list[tuple[str, str | None]]:
    """Tokens of one phrasing, each with the placeholder it came from (None for plain words)."""
    out: list[tuple[str, str | None]] = []
    for part in re.split(r"(\{\w+\})", line):
        if part.startswith("{") and part.endswith("}"):
            key = part[1:-1]
            if key not in values.items:
                raise SynthError(f"template placeholder {part} has no value for this call")
            out += [(tok, key) for tok in values.items[key].tokens]
        else:
            out += [(tok, None) for tok in _split_plain(part)]
    return out


def generate_call(seed: int, language: str = "en", *, variation: dict | None = None) -> Conversation:
    """One synthetic call: spoken-form words, agent/customer turns, accepted ground-truth spans.

    Deterministic for a given (seed, language, variation). Word times are estimates
    (``ESTIMATED_WORD`` per word plus pauses) until :func:`redactdesk.synth.voice.synthesize` voices it.
    """
    spoken.check_language(language)
    if not isinstance(seed, int) or seed < 0:
        raise SynthError(f"seed must be a non-negative integer, got {seed!r}")
    var = resolve_variation(variation, seed, language)
    scenario = SCENARIOS[language][var["scenario"]]
    values = _Values(seed, language, scenario, var)
    phrase_rng = random.Random(f"redactdesk-synth-phrases:{language}:{seed}")

    # (speaker, [(token, placeholder)])
    turns: list[tuple[str, list[tuple[str, str | None]]]] = []
    choices: list[int] = []
    for step in scenario["steps"]:
        speaker, phrasings = BLOCKS[language][step] if isinstance(step, str) else step
        k = phrase_rng.randrange(len(phrasings))
        choices.append(k)
        tokens = _render_line(phrasings[k], values)
        filler = phrase_rng.random() < 0.3
        if var["fillers"] and speaker == "customer" and filler:
            tokens = [(phrase_rng.choice(FILLERS[language]), None), *tokens]
        if turns and turns[-1][0] == speaker:
            turns[-1][1].extend(tokens)
        else:
            turns.append((speaker, tokens))

    words: list[Word] = []
    core_turns: list[Turn] = []
    spans: list[Span] = []
    span_values: list[str] = []
    t = ESTIMATED_LEAD
    for speaker, tokens in turns:
        first = len(words)
        prev_key: str | None = None
        for tok, key in tokens:
            words.append(Word(text=tok, start=round(t, 3), end=round(t + ESTIMATED_WORD, 3),
                              speaker=speaker, aligned=True))
            t += ESTIMATED_WORD + ESTIMATED_GAP
            item = values.items.get(key) if key else None
            if item is not None and item.category is not None:
                if prev_key == key and spans and spans[-1].end_word == len(words) - 1:
                    spans[-1].end_word = len(words)
                else:
                    spans.append(Span(start_word=len(words) - 1, end_word=len(words), category=item.category,
                                      status=SpanStatus.ACCEPTED, score=1.0, sources=(GROUND_TRUTH_SOURCE,),
                                      reason=f"synthetic ground truth: {item.note or item.category.lower()}",
                                      entity=_ENTITY.get(key, key)))
                    span_values.append(item.value)
            prev_key = key
        core_turns.append(Turn(speaker=speaker, start_word=first, end_word=len(words)))
        t += ESTIMATED_TURN_GAP - ESTIMATED_GAP

    meta = {
        "synthetic": True,
        "generator": "redactdesk.synth",
        "generator_version": GENERATOR_VERSION,
        "seed": seed,
        "scenario": var["scenario"],
        "variation": var,
        "phrasings": choices,
        "speakers": {
            "agent": {"role": "agent", "gender": values.agent_gender},
            "customer": {"role": "customer", "gender": values.customer_gender},
        },
        "span_values": span_values,
        "times": "estimated",
    }
    return Conversation(id=f"call_{language}_{seed}", language=language, words=words, turns=core_turns,
                        spans=spans, duration=round(t - ESTIMATED_TURN_GAP + ESTIMATED_GAP + 0.5, 3),
                        meta=meta)


def generate_corpus(seeds: Iterable[int], language: str = "en", *,
                    variation: dict | None = None) -> list[Conversation]:
    """Many text-only calls (e.g. an evaluation set: use seeds >= EVALUATION_SEED_MIN)."""
    return [generate_call(s, language, variation=variation) for s in seeds]

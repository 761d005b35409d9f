"""The transcript tagger as an active-learning model: token distributions, embeddings, fine-tuning.

The CRF learns from nothing; this learner starts from the bundled transcript tagger
(``resources/models/tagger_en``, :mod:`redactdesk.detect.tagger`) and is fine-tuned on the turns
annotators settle, so the queue starts from a model that already knows names, places and
organisations in ASR text.

**Token distributions.** The tagger is spaCy's transition-based NER: reading left to right, it
picks one BILUO action per word (B-, I-, L-, U-<label> or O). :meth:`TaggerModel.marginals` runs
that greedy parse itself and keeps, for every word, the softmax of the action scores over the
actions valid at that point, folded to IOB2 (B = B + U, I = I + L). These are the distributions
the four entropy scorers of seed 004 read (:mod:`redactdesk.learn.entropy`), in the same
:class:`~redactdesk.learn.crf.Marginals` shape the CRF gives. Inside an entity only I/L of its
label are valid, so there the distribution is about where the entity ends. Words that clean to
nothing (punctuation) are ``O`` with certainty, as at detection time.

**Embeddings.** The mean of the tagger's own token vectors (its CNN encoder's output) per
utterance: :meth:`TaggerModel.embeddings`, for diverse batches and K-means seeds.

**Learning.** :meth:`TaggerModel.updated` returns a fine-tuned *copy* (the model in use is never
changed in place, so a background update cannot disturb the queue): a few epochs over the newly
labelled utterances plus a replay sample of earlier ones, so earlier lessons are not forgotten.
Categories the tagger never knew (a project's ``PHONE``, ``CITY``) are added as new labels.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from redactdesk.learn.crf import Marginals
from redactdesk.learn.errors import ModelError
from redactdesk.learn.tags import OUTSIDE, category_of, spans_to_tags, tags_to_spans
from redactdesk.learn.utterances import Utterance

MODEL_KIND = "spacy-ner"
BLOB_MAGIC = "redactdesk-tagger-learner/1"
BATCH = 256  # utterances per forward pass


@dataclass(frozen=True)
class UpdateSettings:
    """Fine-tuning of one update: ``epochs`` over new + replayed utterances in minibatches.

    Gentle steps, because the model starts strong: on the spoken form of BTC part h (held out of the
    tagger's training; 1,500 turns to learn from, 496 to test) the bundled tagger alone scores token
    F1 0.624; fine-tuned on all 1,500 with 4 epochs at 0.001 it scores 0.647, with 2 epochs at
    0.0005 and dropout 0.2 it scores 0.691 (the CRF trained on them: 0.577)."""

    epochs: int = 2
    minibatch: int = 8
    dropout: float = 0.2
    learn_rate: float = 0.0005
    replay: int = 100  # earlier labelled utterances mixed into each update (0: none)
    seed: int = 0

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def clean_tokens(tokens: Sequence[str], keep_case: bool = False) -> tuple[list[str], list[int]]:
    """Words as a tagger reads them (lower case unless ``keep_case``: the contextual tagger lower-cases
    itself), with their positions in ``tokens`` (words that clean to nothing skipped)."""
    from redactdesk.detect.tagger import clean_token

    words, idx = [], []
    for i, t in enumerate(tokens):
        w = clean_token(t, keep_case)
        if w:
            words.append(w)
            idx.append(i)
    return words, idx


class TokenDistributions:
    """What both tagger learners give the queue, from their ``_run`` (per-utterance token
    distributions and embeddings) and ``labels``: distributions, embeddings, repaired tags."""

    labels: list[str]

    def _run(self, utterances: Sequence[Utterance]) -> tuple[list[np.ndarray], np.ndarray]:
        raise NotImplementedError

    def marginals(self, utterances: Sequence[Utterance]) -> Marginals:
        """Per-token IOB2 distributions of every utterance (see the module docstring)."""
        dists, _ = self._run(utterances)
        return stack_distributions(dists, self.labels)

    def analyse(self, utterances: Sequence[Utterance]) -> tuple[Marginals, np.ndarray]:
        """Distributions and embeddings in one pass (what a pool needs)."""
        dists, emb = self._run(utterances)
        return stack_distributions(dists, self.labels), emb

    def embeddings(self, utterances: Sequence[Utterance]) -> np.ndarray:
        return self._run(utterances)[1]

    def predict(self, utterances: Sequence[Utterance], marg: Marginals | None = None) -> list[list[str]]:
        """IOB2 tags: each word's most likely label, repaired to valid IOB2."""
        marg = marg if marg is not None else self.marginals(utterances)
        out = []
        for k in range(len(marg)):
            p = marg.of(k)
            tags = [marg.labels[j] for j in p.argmax(axis=1)] if len(p) else []
            out.append(spans_to_tags(len(tags), tags_to_spans(tags)))
        return out


class TaggerModel(TokenDistributions):
    """A spaCy NER pipeline used as the active-learning model (see the module docstring)."""

    kind = MODEL_KIND

    def __init__(self, nlp: Any, info: dict[str, Any] | None = None) -> None:
        if "ner" not in nlp.pipe_names:
            raise ModelError("the tagger pipeline has no 'ner' component")
        self.nlp = nlp
        self.info: dict[str, Any] = dict(info or {})

    @property
    def language(self) -> str:
        """The language of the word vectors (the pipeline's own)."""
        return str(self.nlp.lang or "en")

    # ------------------------------------------------------------------ loading and storing
    @classmethod
    def bundled(cls, language: str = "en") -> TaggerModel:
        """A fresh copy of the bundled tagger (not the detection source's cached pipeline)."""
        from redactdesk.detect.tagger import model_dir
        from redactdesk.lang import spacy_pipelines

        path = model_dir(language)
        if not (path / "meta.json").exists():
            raise ModelError(f"no bundled transcript tagger for language {language!r} ({path})")
        return cls(spacy_pipelines.load(path), {"base": f"bundled:{language}"})

    def to_bytes(self) -> bytes:
        import srsly

        # actions no training example has used yet (labels just added) are kept out of the choice by
        # the parser's class mask; spaCy does not serialise it, so it travels beside the weights
        unseen = sorted(int(c) for c in self.ner.model.attrs.get("unseen_classes", ()))
        # word vectors stay out: they are recomputed from the bundled wordpiece table on demand
        return srsly.msgpack_dumps({"magic": BLOB_MAGIC, "config": self.nlp.config.to_str(),
                                    "nlp": self.nlp.to_bytes(exclude=["vectors"]), "info": self.info,
                                    "unseen": unseen})

    @classmethod
    def from_bytes(cls, blob: bytes) -> TaggerModel:
        import srsly
        from thinc.api import Config

        from redactdesk.lang import spacy_pipelines

        try:
            data = srsly.msgpack_loads(blob)
            if not isinstance(data, dict) or data.get("magic") != BLOB_MAGIC:
                raise ValueError("not a tagger learner blob")
            nlp = spacy_pipelines.from_config(Config().from_str(data["config"]), auto_fill=True)
            nlp.from_bytes(data["nlp"], exclude=["vectors"])
            nlp.get_pipe("ner").model.attrs["unseen_classes"] = {int(c) for c in data.get("unseen") or ()}
        except ModelError:
            raise
        except Exception as exc:  # noqa: BLE001 - any damage reads as one error, without the bytes
            raise ModelError(f"the stored tagger model cannot be read ({type(exc).__name__})") from None
        return cls(nlp, data.get("info") or {})

    def copy(self) -> TaggerModel:
        return TaggerModel.from_bytes(self.to_bytes())

    @staticmethod
    def default_settings(seed: int = 0) -> UpdateSettings:
        return UpdateSettings(seed=seed)

    # ------------------------------------------------------------------ labels
    @property
    def ner(self) -> Any:
        return self.nlp.get_pipe("ner")

    @property
    def categories(self) -> list[str]:
        return [str(c) for c in self.ner.labels]

    @property
    def labels(self) -> list[str]:
        """IOB2 labels of the distributions: ``O``, then ``B-``/``I-`` of each category."""
        out = [OUTSIDE]
        for c in self.categories:
            out += [f"B-{c}", f"I-{c}"]
        return out

    # ------------------------------------------------------------------ prediction
    def _docs(self, utterances: Sequence[Utterance]) -> tuple[list[Any], list[list[int]]]:
        from spacy.tokens import Doc

        docs, where = [], []
        for u in utterances:
            words, idx = clean_tokens(u.tokens)
            docs.append(Doc(self.nlp.vocab, words=words or ["."]))
            where.append(idx)
        self._fill(t.text for d in docs for t in d)
        return docs, where

    def _fill(self, words: Any) -> None:
        """Word vectors for ``words`` when the tagger reads them (:mod:`redactdesk.lang.word_vectors`)."""
        from redactdesk.lang.word_vectors import fill_vectors

        try:
            fill_vectors(self.nlp, words, self.language)
        except ValueError as exc:
            raise ModelError(str(exc)) from None

    def _encode(self, docs: list[Any]) -> None:
        """Run every component before ``ner`` (the encoder), which sets ``doc.tensor``."""
        for name, proc in self.nlp.pipeline:
            if name == "ner":
                break
            proc.set_annotations(docs, proc.predict(docs))

    def _parse(self, docs: list[Any]) -> list[np.ndarray]:
        """Greedy parse of encoded docs: per doc, the (n_words, n_labels) IOB2 distributions."""
        ner = self.ner
        moves = ner.moves
        names = [moves.get_class_name(i) for i in range(moves.n_moves)]
        labels = self.labels
        col = {lab: i for i, lab in enumerate(labels)}
        fold = np.zeros((len(names), len(labels)))
        kind = np.array([n.split("-", 1)[0] if "-" in n else n for n in names])
        label_of = [n.split("-", 1)[1] if "-" in n else "" for n in names]
        for a, n in enumerate(names):
            if n == OUTSIDE or not label_of[a]:
                fold[a, col[OUTSIDE]] = 1.0
            else:
                fold[a, col[("B-" if kind[a] in "BU" else "I-") + label_of[a]]] = 1.0
        has_label = np.array([bool(x) for x in label_of])
        begin = (np.isin(kind, ["B", "U"]) & has_label) | (kind == "O")
        out = [np.zeros((len(d), len(labels))) for d in docs]
        open_label: list[str | None] = [None] * len(docs)
        batch = moves.init_batch(docs)
        step = ner.model.predict(docs)
        pairs = [(s, k) for k, s in enumerate(batch) if not s.is_final()]
        while pairs:
            states = [s for s, _ in pairs]
            scores = step.predict(states)
            for row, (state, k) in zip(scores, pairs, strict=True):
                i = state.B(0)
                last = i == len(docs[k]) - 1
                lab = open_label[k]
                if lab is None:  # outside: B (not on the last word), U or O
                    valid = begin & ~((kind == "B") & last)
                else:  # inside an entity of ``lab``: I (not on the last word) or L of that label
                    valid = np.array([label_of[a] == lab and (kind[a] == "L" or (kind[a] == "I" and not last))
                                      for a in range(len(names))])
                z = np.where(valid, row, -np.inf)
                z = np.exp(z - z.max())
                p = z / z.sum()
                out[k][i] = p @ fold
                best = int(np.argmax(np.where(valid, row, -np.inf)))
                open_label[k] = label_of[best] if kind[best] in ("B", "I") else None
            ner.transition_states(states, scores)
            pairs = [(s, k) for s, k in pairs if not s.is_final()]
        step.clear_memory() if hasattr(step, "clear_memory") else None
        return out

    def _run(self, utterances: Sequence[Utterance]) -> tuple[list[np.ndarray], np.ndarray]:
        """Token distributions over each utterance's own tokens, and the mean token vector per utterance."""
        dists: list[np.ndarray] = []
        vecs: list[np.ndarray] = []
        n_lab = len(self.labels)
        for a in range(0, len(utterances), BATCH):
            chunk = utterances[a:a + BATCH]
            docs, where = self._docs(chunk)
            self._encode(docs)
            parsed = self._parse(docs)
            for u, d, idx, doc in zip(chunk, parsed, where, docs, strict=True):
                full = np.zeros((len(u.tokens), n_lab))
                full[:, 0] = 1.0  # punctuation-only words: O
                if idx:
                    full[idx] = d
                dists.append(full)
                t = np.asarray(doc.tensor, dtype=float)
                vecs.append(t.mean(axis=0) if t.size else np.zeros(1))
        width = max((v.shape[0] for v in vecs), default=1)
        emb = np.zeros((len(vecs), width))
        for i, v in enumerate(vecs):
            emb[i, : v.shape[0]] = v
        return dists, emb

    # ------------------------------------------------------------------ learning
    def _example(self, u: Utterance) -> Any | None:
        from spacy.tokens import Doc, Span
        from spacy.training import Example

        words, idx = clean_tokens(u.tokens)
        if not words:
            return None
        tags = [(u.tags or [OUTSIDE] * len(u.tokens))[i] for i in idx]
        ref = Doc(self.nlp.vocab, words=words)
        ref.ents = [Span(ref, a, b, label=c) for a, b, c in tags_to_spans(tags)]
        return Example(Doc(self.nlp.vocab, words=words), ref)

    def updated(self, new: Sequence[Utterance], earlier: Sequence[Utterance] = (),
                settings: UpdateSettings | None = None) -> TaggerModel:
        """A fine-tuned copy: trained on ``new`` and a replay sample of ``earlier`` labelled utterances."""
        from spacy.util import fix_random_seed, minibatch

        st = settings or UpdateSettings()
        fix_random_seed(st.seed)  # dropout draws too: the same labels give the same version
        model = self.copy()
        rng = random.Random(st.seed)
        replay = list(earlier)
        rng.shuffle(replay)
        data = [u for u in list(new) + replay[: st.replay] if u.tags is not None]
        for cat in sorted({c for u in data for c in map(category_of, u.tags or []) if c}):
            if cat not in model.ner.labels:
                model.ner.add_label(cat)
        examples = [e for e in (model._example(u) for u in data) if e is not None]
        if not examples:
            return model
        model._fill(t.text for e in examples for t in e.predicted)
        optimizer = model.nlp.resume_training()
        optimizer.learn_rate = st.learn_rate
        for _ in range(st.epochs):
            rng.shuffle(examples)
            for batch in minibatch(examples, size=st.minibatch):
                model.nlp.update(batch, sgd=optimizer, drop=st.dropout)
        model.info = {**self.info, "updates": int(self.info.get("updates", 0)) + 1}
        return model


def stack_distributions(dists: list[np.ndarray], labels: list[str]) -> Marginals:
    """Per-utterance (n_tokens, n_labels) distributions as one :class:`Marginals`."""
    lengths = np.array([len(d) for d in dists], dtype=np.int64)
    starts = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.int64) if len(dists) else lengths
    probs = np.concatenate(dists) if dists and lengths.sum() else np.zeros((0, len(labels)))
    return Marginals(probs=probs, starts=starts, lengths=lengths, labels=list(labels))


# ------------------------------------------------------------------ the tagger learner's model
def bundled_learner(language: str = "en") -> Any:
    """The tagger learner's warm start: the contextual tagger with adapters
    (:class:`~redactdesk.learn.encoder_learner.EncoderModel`) where PyTorch and the bundled model
    are here, else the spaCy tagger (:class:`TaggerModel`)."""
    from redactdesk.learn.encoder_learner import EncoderModel, available

    if available(language):
        try:
            return EncoderModel.bundled(language)
        except ModelError:
            pass
    return TaggerModel.bundled(language)


def learner_from_bytes(blob: bytes) -> Any:
    """A stored version of the tagger learner, whichever model it is."""
    from redactdesk.learn.encoder_learner import EncoderModel

    if EncoderModel.is_blob(blob):
        return EncoderModel.from_bytes(blob)
    return TaggerModel.from_bytes(blob)

"""The contextual tagger as the active-learning model: fine-tuned with low-rank adapters.

The learner starts from the bundled contextual tagger (``resources/models/encoder_en``, the model
detection runs: :mod:`redactdesk.detect.encoder`) and learns the turns annotators settle. Its
network is rebuilt in PyTorch from the exported graph (:func:`~redactdesk.learn.encoder_model.from_onnx`:
8-bit weights dequantized — no second copy of the weights ships); fine-tuning leaves that network
frozen and trains a low-rank adapter beside each linear map of every layer (LoRA, rank
``EncoderSettings.rank``) and the tag head. A version is those few hundred thousand numbers
(about 1.3 MB), not a whole model.

Measured on the spoken form of BTC part h (held out of the tagger's training; 1,500 turns to learn
from, 496 to test, token-level F1): the bundled tagger alone 0.693; all 1,500 learned with adapters
of rank 8, 4 epochs at 0.001: 0.738 (every weight fine-tuned: 0.735; the head alone on frozen
states: 0.70-0.72; the CRF baseline on the same split: 0.590); 50 turns, 2 epochs: 1.4 s on 2 cores.

How an update learns -- retrained from the bundled tagger on all labelled turns while they are
few, then steps from the version in use averaged with it -- and why: :class:`EncoderSettings`.

It has the interface of :class:`~redactdesk.learn.tagger_model.TaggerModel` (the spaCy tagger
learner, still used where PyTorch or the contextual tagger is missing): token distributions for
the entropy scorers, utterance embeddings (the mean of the last layer's states) for diverse batches
and K-means seeds, ``updated`` returning a fine-tuned copy, bytes for the project's model versions.
Categories the tagger never knew (a project's ``PHONE``, ``CITY``) get new rows in the head, which
start unlikely and are learned from the labels.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from redactdesk.learn.errors import ModelError
from redactdesk.learn.tagger_model import TokenDistributions, UpdateSettings, clean_tokens
from redactdesk.learn.tags import category_of
from redactdesk.learn.utterances import Utterance

BLOB_MAGIC = "redactdesk-encoder-learner/1"
IGNORE = -100
MAX_PIECES = 126  # pieces of one utterance the network reads at once (it was trained on 128)
NEW_LABEL_BIAS = -6.0  # a category the tagger never knew starts this unlikely


@dataclass(frozen=True)
class EncoderSettings:
    """How an update learns. While at most ``from_base`` turns are labelled, it retrains fresh adapters
    on the bundled tagger from all of them: ``epochs`` at ``learn_rate`` (the same labels give the same
    version, whatever order they came in). Past that, it goes on from the version in use: ``step_epochs``
    over the new and ``replay`` earlier utterances at ``step_learn_rate``, and the result is averaged
    with that version (``keep``: the earlier weights' share). Batches of about ``batch_pieces`` word
    pieces, AdamW, adapters of rank ``rank``.

    Why (random order on the spoken form of BTC part h, 2 orders, 10 to 150 labels, token F1 of
    each version): going on from the version in use at 0.001, as wave 2 first did, swings by up to
    0.07 between consecutive versions (0.724 -> 0.657 at 80 labels; 0.616 at 150); retraining from
    the bundled tagger climbs steadily (0.711 at 40, 0.715 at 150), and so does stepping at 0.0003
    averaged with the version before (slower: 0.703 at 90, 0.714 at 150)."""

    epochs: int = 4
    learn_rate: float = 0.001
    from_base: int = 100
    step_epochs: int = 2
    step_learn_rate: float = 0.0003
    keep: float = 0.5
    batch_pieces: int = 1024
    replay: int = 100
    rank: int = 8
    seed: int = 0

    to_dict = UpdateSettings.to_dict


class _Base:
    """The bundled network, its piece table and tokenizer, loaded once per process."""

    _cache: dict[str, _Base] = {}

    def __init__(self, language: str) -> None:
        import torch

        from redactdesk.detect import encoder
        from redactdesk.learn.encoder_model import from_onnx

        folder = encoder.model_dir(language)
        meta = json.loads((folder / "tags.json").read_text(encoding="utf-8"))
        if "initializers" not in meta:
            raise ModelError("the bundled contextual tagger was exported without its weight map")
        self.language = language
        self.tags: list[str] = list(meta["tags"])
        self.digest = hashlib.sha256((folder / encoder.MODEL_FILE).read_bytes()).hexdigest()[:16]
        network = from_onnx(folder, meta["initializers"])
        self.state = network.state_dict()
        self.layers = len(network.layers)
        self.table = torch.from_numpy(encoder.piece_table())
        from tokenizers import Tokenizer

        self.tokenizer = Tokenizer.from_file(str(encoder.base_model_dir() / "tokenizer.json"))
        self.tokenizer.no_truncation()
        self.tokenizer.no_padding()

    @classmethod
    def get(cls, language: str) -> _Base:
        if language not in cls._cache:
            cls._cache[language] = _Base(language)
        return cls._cache[language]


def available(language: str = "en") -> bool:
    """Can this machine run the learner (PyTorch, onnx, the bundled contextual tagger)?"""
    try:
        import onnx  # noqa: F401
        import torch  # noqa: F401

        from redactdesk.detect import encoder

        return (encoder.model_dir(language) / encoder.MODEL_FILE).exists() and encoder.load_encoder(language) is not None
    except ImportError:
        return False


class EncoderModel(TokenDistributions):
    """The contextual tagger with adapters, as the active-learning model (see the module docstring)."""

    kind = "spacy-ner"  # the models table's kind of the tagger learner (its first model was spaCy's)
    full_epochs = 4  # the simulation's full-data model: all the pool, 4 epochs (2: 0.73, 4: 0.74 on BTC h)

    def __init__(self, base: _Base, labels: Sequence[str], trained: dict[str, Any] | None,
                 info: dict[str, Any] | None = None, rank: int = EncoderSettings.rank, seed: int = 0) -> None:
        import torch

        from redactdesk.learn.encoder_model import PieceTagger, add_adapters

        self.base = base
        self._labels = list(labels)
        self.info: dict[str, Any] = dict(info or {})
        self.rank = rank
        net = PieceTagger(len(base.tags), layers=base.layers)
        net.load_state_dict(base.state)
        add_adapters(net, rank, seed)
        if len(self._labels) > len(base.tags):  # rows of categories the bundled tagger never knew
            old = net.head
            net.head = torch.nn.Linear(old.in_features, len(self._labels))
            with torch.no_grad():
                net.head.weight.zero_()
                net.head.bias.fill_(NEW_LABEL_BIAS)
                net.head.weight[: len(base.tags)] = old.weight
                net.head.bias[: len(base.tags)] = old.bias
        if trained:  # what was learned; a head learned before categories were added fills its first rows
            state = net.state_dict()
            with torch.no_grad():
                for name, value in trained.items():
                    value = torch.as_tensor(value)
                    state[name][: value.shape[0]] = value
        self.net = net.eval()

    # ------------------------------------------------------------------ loading and storing
    @classmethod
    def bundled(cls, language: str = "en") -> EncoderModel:
        if not available(language):
            raise ModelError(f"no contextual tagger learner for language {language!r} (PyTorch, onnx or the model "
                             "is missing)")
        base = _Base.get(language)
        return cls(base, base.tags, None, {"base": f"bundled-encoder:{language}", "base_digest": base.digest})

    def to_bytes(self) -> bytes:
        from safetensors.torch import save

        from redactdesk.learn.encoder_model import trainable_state

        header = json.dumps({"magic": BLOB_MAGIC, "labels": self._labels, "info": self.info, "rank": self.rank,
                             "language": self.base.language, "base_digest": self.base.digest}).encode("utf-8")
        weights = save({k: v.contiguous() for k, v in trainable_state(self.net).items()})
        return len(header).to_bytes(4, "big") + header + weights

    @classmethod
    def from_bytes(cls, blob: bytes) -> EncoderModel:
        try:
            from safetensors.torch import load

            n = int.from_bytes(blob[:4], "big")
            header = json.loads(blob[4:4 + n].decode("utf-8"))
            if header.get("magic") != BLOB_MAGIC:
                raise ValueError("not an encoder learner blob")
            base = _Base.get(header.get("language") or "en")
            if header.get("base_digest") != base.digest:
                raise ModelError("this learner version was trained on another bundled contextual tagger")
            trained = load(blob[4 + n:])
            return cls(base, header["labels"], trained, header.get("info") or {}, int(header.get("rank") or 8))
        except ModelError:
            raise
        except Exception as exc:  # noqa: BLE001 - any damage reads as one error, without the bytes
            raise ModelError(f"the stored tagger model cannot be read ({type(exc).__name__})") from None

    def copy(self) -> EncoderModel:
        return EncoderModel.from_bytes(self.to_bytes())

    @staticmethod
    def is_blob(blob: bytes) -> bool:
        return BLOB_MAGIC.encode("utf-8") in blob[:200]

    @staticmethod
    def default_settings(seed: int = 0) -> EncoderSettings:
        return EncoderSettings(seed=seed)

    # ------------------------------------------------------------------ labels
    @property
    def language(self) -> str:
        return self.base.language

    @property
    def labels(self) -> list[str]:
        return list(self._labels)

    @property
    def categories(self) -> list[str]:
        return [t[2:] for t in self._labels if t.startswith("B-")]

    # ------------------------------------------------------------------ prediction
    def _encode(self, utterances: Sequence[Utterance]) -> list[tuple[list[int], list[int], list[int | None]]]:
        """Per utterance: piece ids ([CLS] ... [SEP], at most MAX_PIECES), each token's first piece
        (None: a token that cleans to nothing or lies past the cut), and the piece's word."""
        from redactdesk.detect.encoder import CLS, SEP

        cleaned = [clean_tokens(u.tokens, keep_case=True) for u in utterances]
        encs = self.base.tokenizer.encode_batch([w or [""] for w, _ in cleaned], is_pretokenized=True,
                                                add_special_tokens=False)
        out = []
        for (words, idx), u, enc in zip(cleaned, utterances, encs, strict=True):
            ids = enc.ids[:MAX_PIECES]
            first: list[int | None] = [None] * len(u.tokens)
            seen: set[int] = set()
            for p, w in enumerate(enc.word_ids[:MAX_PIECES]):
                if w is not None and w not in seen and words:
                    seen.add(w)
                    first[idx[w]] = p + 1
            out.append(([CLS, *ids, SEP], [p for p in first if p is not None], first))
        return out

    def _forward(self, rows: Sequence[list[int]], grad: bool = False):
        import torch

        width = max(len(r) for r in rows)
        ids = torch.zeros((len(rows), width), dtype=torch.long)
        for k, r in enumerate(rows):
            ids[k, :len(r)] = torch.tensor(r)
        mask = (ids != 0).long()
        with torch.set_grad_enabled(grad):
            states = self.net.encode(self.base.table[ids], mask)
            return torch.log_softmax(self.net.head(self.net.drop(states)), dim=-1), states, mask

    def _run(self, utterances: Sequence[Utterance]) -> tuple[list[np.ndarray], np.ndarray]:
        """Token distributions over each utterance's own tokens, and the mean state per utterance."""
        import torch

        self.net.eval()
        n_lab = len(self._labels)
        dists: list[np.ndarray] = [np.zeros((0, n_lab))] * len(utterances)
        emb = np.zeros((len(utterances), self.net.head.in_features))
        encoded = self._encode(utterances)
        order = sorted(range(len(utterances)), key=lambda i: len(encoded[i][0]))
        k = 0
        while k < len(order):
            batch = [order[k]]
            while k + len(batch) < len(order) and len(encoded[order[k + len(batch)]][0]) * (len(batch) + 1) <= 4096:
                batch.append(order[k + len(batch)])
            logp, states, mask = self._forward([encoded[i][0] for i in batch])
            probs = torch.exp(logp).numpy()
            st = states.numpy()
            for r, i in enumerate(batch):
                rows, _, first = encoded[i]
                full = np.zeros((len(first), n_lab))
                full[:, 0] = 1.0  # punctuation-only tokens and tokens past the cut: O
                for t, p in enumerate(first):
                    if p is not None:
                        full[t] = probs[r, p]
                dists[i] = full
                emb[i] = st[r, 1:len(rows) - 1].mean(axis=0) if len(rows) > 2 else 0.0
            k += len(batch)
        return dists, emb

    # ------------------------------------------------------------------ learning
    def updated(self, new: Sequence[Utterance], earlier: Sequence[Utterance] = (),
                settings: Any = None) -> EncoderModel:
        """A fine-tuned copy that has learned ``new`` on top of ``earlier`` labelled utterances: retrained
        from the bundled tagger on all of them while they are few, else a step from this version on
        ``new`` and a replay sample of ``earlier``, averaged with it (:class:`EncoderSettings`)."""
        import torch

        from redactdesk.learn.encoder_model import trainable_state

        st = settings if isinstance(settings, EncoderSettings) else EncoderSettings(
            **{k: getattr(settings, k) for k in ("epochs", "replay", "seed") if hasattr(settings, k)})
        rng = random.Random(st.seed)
        labelled = [u for u in [*new, *earlier] if u.tags is not None]
        fresh = len(labelled) <= st.from_base or not self.info.get("updates")
        if fresh:  # in one order whatever order they came in: the same labels give the same version
            data = sorted(labelled, key=lambda u: (list(u.tokens), list(u.tags or ())))
        else:
            replay = list(earlier)
            rng.shuffle(replay)
            data = [u for u in list(new) + replay[: st.replay] if u.tags is not None]
        labels = list(self._labels)
        for cat in sorted({c for u in data for c in map(category_of, u.tags or []) if c}):
            if f"B-{cat}" not in labels:
                labels += [f"B-{cat}", f"I-{cat}"]
        before = None if fresh else trainable_state(self.net)  # what a step starts from and is averaged with
        model = EncoderModel(self.base, labels, before, self.info, self.rank, st.seed)
        index = {t: i for i, t in enumerate(labels)}
        examples = []
        for (rows, _, first), u in zip(model._encode(data), data, strict=True):
            target = [IGNORE] * len(rows)
            for t, p in enumerate(first):
                if p is not None:
                    target[p] = index.get((u.tags or [])[t], 0) if u.tags else 0
            if any(t != IGNORE for t in target):
                examples.append((rows, target))
        if not examples:
            return model
        torch.manual_seed(st.seed)
        params = [p for p in model.net.parameters() if p.requires_grad]
        opt = torch.optim.AdamW(params, lr=st.learn_rate if fresh else st.step_learn_rate, weight_decay=0.0)
        model.net.train()
        for _ in range(st.epochs if fresh else st.step_epochs):
            rng.shuffle(examples)
            examples.sort(key=lambda e: len(e[0]) + rng.random())  # like lengths together
            batches, cur = [], []
            for e in examples:
                if cur and max(len(x[0]) for x in [*cur, e]) * (len(cur) + 1) > st.batch_pieces:
                    batches.append(cur)
                    cur = []
                cur.append(e)
            batches.append(cur)
            rng.shuffle(batches)
            for b in batches:
                logp, _, _ = model._forward([r for r, _ in b], grad=True)
                width = logp.shape[1]
                y = torch.full((len(b), width), IGNORE, dtype=torch.long)
                for k, (_, t) in enumerate(b):
                    y[k, :len(t)] = torch.tensor(t)
                loss = torch.nn.functional.nll_loss(logp.reshape(-1, len(labels)), y.reshape(-1), ignore_index=IGNORE)
                opt.zero_grad()
                loss.backward()
                opt.step()
        model.net.eval()
        if before is not None and st.keep > 0:
            _average_into(model.net, before, st.keep)
        model.info = {**self.info, "updates": int(self.info.get("updates", 0)) + 1}
        return model


def _average_into(net: Any, earlier: dict[str, Any], keep: float) -> None:
    """``net``'s trained weights become ``keep`` x ``earlier`` + (1 - keep) x themselves (rows of
    categories added since ``earlier`` stay as trained)."""
    import torch

    state = net.state_dict()
    with torch.no_grad():
        for name, old in earlier.items():
            rows = old.shape[0]
            state[name][:rows] = keep * old + (1 - keep) * state[name][:rows]

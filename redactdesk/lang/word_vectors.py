"""Word vectors for the transcript tagger: what a pretrained encoder knows about any word.

The tagger trains on a few tens of thousands of sentences; most surnames, towns and firms it meets
in a call it has never seen. A pretrained encoder has: the input embeddings of the uncased MiniLM
(all-MiniLM-L6-v2, trained on a billion sentence pairs) put "kowalski" near "smith", "google" near
"microsoft", "paris" near "london". ``resources/models/wordpieces_<lang>/`` holds that embedding
table reduced by PCA (``pieces.npy``, one row per wordpiece) with its wordpiece vocabulary
(``vocab.txt``); it is built by :mod:`redactdesk.learn.build_word_vectors` from the pinned package.

A word's vector is the mean of its wordpieces' rows (the ``tokenizers`` WordPiece tokenizer splits it
as the encoder would), so every word has one — none is out of vocabulary. :func:`fill_vectors`
adds the vectors of the words a spaCy pipeline is about to read to its vocabulary (spaCy's static
vectors layer reads them by the word's text; a word missing from the table would read as zeros).
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np

# a spaCy vocabulary's vector table is emptied past this many words (a long batch job meets new
# words without end; the vectors are recomputed on demand, so nothing is lost but a little time)
MAX_TABLE_ROWS = 200_000
_LOCK = threading.Lock()


def table_dir(language: str) -> Path:
    from redactdesk.resources import resource

    return resource("models", f"wordpieces_{language}")


class WordVectors:
    """Vectors of any word from a wordpiece table (see the module docstring)."""

    def __init__(self, folder: Path) -> None:
        from tokenizers import BertWordPieceTokenizer

        self.pieces = np.load(folder / "pieces.npy").astype(np.float32)
        self.dim = int(self.pieces.shape[1])
        self._tok = BertWordPieceTokenizer(str(folder / "vocab.txt"), lowercase=True, strip_accents=True)

    def vectors(self, words: Iterable[str]) -> np.ndarray:
        """One row per word: the mean of its wordpieces' rows (zeros for a word of no pieces)."""
        words = list(words)
        out = np.zeros((len(words), self.dim), np.float32)
        for i, enc in enumerate(self._tok.encode_batch(words, add_special_tokens=False)):
            if enc.ids:
                out[i] = self.pieces[enc.ids].mean(axis=0)
        return out


@functools.lru_cache(maxsize=4)
def word_vectors(language: str) -> WordVectors | None:
    """The bundled word vectors of ``language`` (cached), or None when none are bundled."""
    folder = table_dir(language)
    if not (folder / "pieces.npy").exists():
        return None
    return WordVectors(folder)


def uses_vectors(nlp: Any) -> bool:
    """Was this spaCy pipeline built to read static word vectors (its config says so, or its
    vector table has a width)?"""
    try:
        if nlp.config["components"]["tok2vec"]["model"]["embed"].get("include_static_vectors"):
            return True
    except (KeyError, AttributeError, TypeError):
        pass
    return int(nlp.vocab.vectors.shape[1]) > 0


def fill_vectors(nlp: Any, words: Iterable[str], language: str) -> None:
    """Give every word of ``words`` its vector in ``nlp``'s vocabulary before the pipeline reads it.

    Raises ``ValueError`` when the pipeline wants vectors of a width the bundled table lacks (a
    model and table that do not belong together would tag nonsense)."""
    if not uses_vectors(nlp):
        return
    table = word_vectors(language)
    width = int(nlp.vocab.vectors.shape[1])
    if table is None or width not in (0, table.dim):
        raise ValueError(f"the tagger needs word vectors for {language!r} of the width it was trained with; "
                         "the bundled wordpiece table is missing or of another width")
    vocab = nlp.vocab
    with _LOCK:
        if width == 0:  # a pipeline read back without its table (a stored learner version)
            reset_vectors(nlp, table.dim)
        table_now, known = getattr(nlp, "_words_with_vectors", (None, set()))
        if table_now is not vocab.vectors:  # a new or reset table: what it holds is asked of it again
            known = set()
        batch = {w for w in words if w}
        new = batch - known  # words this table may lack (spaCy's own look-up makes a lexeme for each)
        missing = sorted(w for w in new if not vocab.has_vector(w))
        if missing and vocab.vectors.shape[0] + len(missing) > MAX_TABLE_ROWS:
            reset_vectors(nlp)  # the table starts again: every word of this batch needs its row back
            known, new, missing = set(), batch, sorted(batch)
        for word, vec in zip(missing, table.vectors(missing), strict=True):
            vocab.set_vector(word, vec)
        nlp._words_with_vectors = (vocab.vectors, known | new)


def reset_vectors(nlp: Any, width: int | None = None) -> None:
    """Shrink ``nlp``'s vector table to one placeholder row of its width (what a bundled model keeps
    on disk: the rows are recomputed from the wordpiece table on demand)."""
    from spacy.vectors import Vectors

    width = int(nlp.vocab.vectors.shape[1]) if width is None else width
    nlp.vocab.vectors = Vectors(data=np.zeros((1, width), np.float32),
                                keys=[nlp.vocab.strings.add("<no-word>")])

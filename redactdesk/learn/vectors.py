"""Fixed-length utterance vectors for K-means centroids and near-duplicate checks.

An utterance becomes a TF-IDF weighted bag of its tokens' atoms (word, shape, word class,
gazetteer, hits -- not affixes, which only echo the word), L2-normalised. K-means runs on a
truncated-SVD projection of those vectors (dense, a few dozen dimensions); near-duplicate checks
use the sparse vectors' cosine similarity.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from redactdesk.learn.crf import Encoded
from redactdesk.learn.features import FeatureExtractor

_SKIP_PREFIXES = ("p2=", "p3=", "s2=", "s3=")


def bag_of_atoms(enc: Encoded, extractor: FeatureExtractor) -> sp.csr_matrix:
    """TF-IDF, L2-normalised rows; one row per utterance."""
    from sklearn.feature_extraction.text import TfidfTransformer

    atom_ids: dict[str, int] = {}
    sig_cols: list[list[int]] = []
    for atoms in extractor.atoms:
        sig_cols.append([atom_ids.setdefault(a, len(atom_ids)) for a in atoms if not a.startswith(_SKIP_PREFIXES)])
    rows, cols = [], []
    tok_utt = np.repeat(np.arange(len(enc)), enc.lengths)
    for u, s in zip(tok_utt.tolist(), enc.sigs.tolist(), strict=True):
        c = sig_cols[s]
        rows.extend([u] * len(c))
        cols.extend(c)
    counts = sp.csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(len(enc), max(len(atom_ids), 1)))
    counts.sum_duplicates()
    return TfidfTransformer(sublinear_tf=True).fit_transform(counts).tocsr()


def dense_projection(bag: sp.csr_matrix, dims: int = 48, seed: int = 0) -> np.ndarray:
    """Truncated SVD of the bag (or the bag itself, densified, when it is narrower than ``dims``)."""
    from sklearn.decomposition import TruncatedSVD

    n, m = bag.shape
    if m <= dims or n <= dims:
        return np.asarray(bag.todense())
    return TruncatedSVD(n_components=dims, random_state=seed).fit_transform(bag)


def kmeans_labels(x: np.ndarray, k: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Cluster labels and centroids (K-means; mini-batch K-means on large pools)."""
    from sklearn.cluster import KMeans, MiniBatchKMeans

    k = max(1, min(k, x.shape[0]))
    if x.shape[0] > 20_000:
        km = MiniBatchKMeans(n_clusters=k, random_state=seed, n_init=1, batch_size=4096)
    else:
        km = KMeans(n_clusters=k, random_state=seed, n_init=1, max_iter=100)
    labels = km.fit_predict(x)
    return labels, km.cluster_centers_

"""``ActiveLearner``: the active-learning service the app and the CLI use on a project.

    learner = ActiveLearner(project, strategy="diverse+t-kmax", batch=10)
    items = learner.queue()            # what to label next: [QueueItem(conversation_id, turn_index, score, margin)]
    version = learner.retrain()        # train on every labelled utterance, store the model + metrics
    learner.learning_curve()           # [(n_labelled, cross-validated F1)] over stored versions
    learner.crossval()                 # k-fold scores per category over the labelled turns (store_crossval)
    learner.stopping_hint()            # "the model has stopped changing"?
    learner.suggest(conversation)      # the model's spans, as a detection source

Which utterances count as labelled is defined in :mod:`redactdesk.learn.utterances`. Before the
first label exists, :meth:`queue` uses the *seed* strategy (by default K-means + the source model's
entropy, Eq. 1 of seed 004), so a new project can start from a good seed. Both defaults score by
H K-Max, which does not grow with an utterance's length: scores of turns from calls of any length
are on one scale (utterances are turns or pause-split segments of at most 30 s).

Threads. A learner is not thread-safe: use it from one thread at a time, through a project
connection no other thread uses meanwhile. ``learner.project`` may be swapped between calls, so a GUI
can keep one learner whose every call runs in a background job on the jobs' own connection (see
``redactdesk.gui.panels.active_learning``). Long calls take ``check``, a function called now and then
that raises to cancel (e.g. a job's ``check``). :func:`model_summary` and :func:`mark_turn_labelled`
need no learner, for the thread that owns the window's connection.

Retraining in steps: ``job = learner.prepare_retrain()`` (reads the project), ``result = job()`` (pure
computation; any thread), ``learner.commit(result)`` (writes the project). :meth:`retrain` does the
three in a row.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from redactdesk.core.types import Conversation, Span, SpanStatus
from redactdesk.learn.crf import CrfModel
from redactdesk.learn.crossval import (
    CrossValidation,
    crf_fit_predict,
    cross_validate_turns,
    tagger_fit_predict,
    xval_curves,
)
from redactdesk.learn.entropy import sequence_scores, token_entropy
from redactdesk.learn.errors import LearnError, ModelError
from redactdesk.learn.features import FeatureConfig, FeatureExtractor
from redactdesk.learn.metrics import Scores, cross_validate
from redactdesk.learn.selection import Pool, Strategy, get_strategy
from redactdesk.learn.stopping import StoppingHint, stopping_hint, tag_kappa
from redactdesk.learn.tags import tags_to_spans
from redactdesk.learn.training import TrainingSettings
from redactdesk.learn.transfer import MODEL_KIND, load_source
from redactdesk.learn.utterances import Utterance, utterances_from_conversation
from redactdesk.learn.versions import MODEL_NAME, active_id, kind_of, project_learner, set_active
from redactdesk.learn.versions import prune as prune_versions
from redactdesk.learn.versions import rollback as rollback_version
from redactdesk.store.errors import NotFound

SOURCE_NAME = "crf"  # the span source name the CRF's suggestions carry
TAGGER_SOURCE_NAME = "tagger-al"  # ... and the fine-tuned tagger's
TAGGER_STOP_SAMPLE = 200  # the tagger's stability check reads fewer utterances (it is slower per word)
LABELLED_SETTING = "learn.labelled_turns"
STRATEGY_SETTING = "learn.strategy"
# K-Max (the mean of an utterance's 3 most uncertain words) does not grow with the utterance's length,
# so a long segment and a short turn are ranked on the same scale; H Sum stays selectable.
DEFAULT_STRATEGY = "diverse+t-kmax"
DEFAULT_SEED_STRATEGY = "kmeans+s-kmax"
STOP_SAMPLE = 2000  # unlabelled utterances the stability check compares predictions on
PREVIEW_WORDS = 12  # words of a queued turn shown in the queue

Check = Callable[[], None]  # raises to cancel long work


def _no_check() -> None:
    return None


@dataclass(frozen=True)
class QueueItem:
    """One utterance to label: a turn of a conversation, its strategy score and its margin.

    ``margin`` is the gap between the best and second-best label of the turn's least certain
    word (as in INCEpTION): near 0 means the model could go either way. None before any model exists.
    """

    conversation_id: str
    turn_index: int
    score: float
    margin: float | None
    start_word: int = 0
    end_word: int = 0
    preview: str = ""  # the turn's first words, ready to show


def _preview(tokens: list[str]) -> str:
    text = " ".join(tokens[:PREVIEW_WORDS])
    return text + " ..." if len(tokens) > PREVIEW_WORDS else text


@dataclass
class ModelVersion:
    """A stored model: its project id, how many labelled utterances trained it, and its metrics."""

    id: int
    n_labelled: int
    metrics: dict[str, Any]
    created: str = ""
    stored: bool = True  # False: pruned (the scores stay, the model is gone; no rollback to it)

    @property
    def f1(self) -> float | None:
        return self.metrics.get("f1")

    @property
    def per_category_f1(self) -> dict[str, float]:
        per = (self.metrics.get("cv") or {}).get("per_category", {})
        return {c: float(v["f1"]) for c, v in per.items()}

    @property
    def scored_at(self) -> int:
        """Labelled utterances of the model the score belongs to: the CRF's F1 is cross-validated on
        this version's labels; the tagger's is measured on the new labels *before* learning them
        (test-then-train), so it scores the previous version."""
        return int(self.metrics.get("scored_n", self.n_labelled))


@dataclass(frozen=True)
class ModelSummary:
    """Stored model versions (oldest first) with the learning curve and the stopping hint.

    ``active`` is the id of the version in use (after a rollback, not the newest)."""

    versions: tuple[ModelVersion, ...] = ()
    active: int | None = None
    learner: str = ""  # "tagger" or "crf"

    @property
    def latest(self) -> ModelVersion | None:
        """The version in use (the newest one unless a reviewer rolled back)."""
        if not self.versions:
            return None
        return next((v for v in self.versions if v.id == self.active), self.versions[-1])

    @property
    def curve(self) -> list[tuple[int, float]]:
        """(labelled utterances, held-out F1) of every version that has a score."""
        return [(v.scored_at, float(v.f1)) for v in self.versions if v.f1 is not None]

    @property
    def xval_curves(self) -> dict[str, list[tuple[int, float]]]:
        """The cross-validated learning curve, overall (``"all"``) and per category (see
        :func:`redactdesk.learn.crossval.xval_curves`)."""
        return xval_curves(self.versions)

    def hint(self, **kw: Any) -> StoppingHint:
        if not self.versions:
            return stopping_hint([], None, **kw)
        return stopping_hint([v.metrics.get("kappa") for v in self.versions],
                             self.versions[-1].metrics.get("pool_max_entropy"), **kw)


def model_versions(project: Any, learner: str | None = None) -> list[ModelVersion]:
    """The versions of the project's learner (or ``learner``) stored in a project (metrics only, no blobs)."""
    kind = kind_of(project_learner(project, learner))
    return [ModelVersion(int(r["id"]), int(r["n_labelled"]), r["metrics"], r["created"], bool(r.get("stored", True)))
            for r in project.models(MODEL_NAME) if r["kind"] == kind]


def model_summary(project: Any, learner: str | None = None) -> ModelSummary:
    name = project_learner(project, learner)
    versions = tuple(model_versions(project, name))
    return ModelSummary(versions, active_id(project, kind_of(name)) if versions else None, name)


def marked_turns(project: Any) -> dict[str, list[int]]:
    """Turns a person marked labelled, per conversation id."""
    return dict(project.setting(LABELLED_SETTING, {}) or {})


def mark_turn_labelled(project: Any, conversation_id: str, turn_index: int, labelled: bool = True) -> None:
    """Record that a person settled a turn (e.g. "nothing personal here"), so it trains the model."""
    marked = marked_turns(project)
    turns = set(marked.get(conversation_id, []))
    if labelled:
        turns.add(int(turn_index))
    else:
        turns.discard(int(turn_index))
    marked[conversation_id] = sorted(turns)
    project.set_setting(LABELLED_SETTING, marked)


@dataclass
class TrainResult:
    """What a background retrain hands back to :meth:`ActiveLearner.commit`."""

    model: Any  # CrfModel or TaggerModel
    n_labelled: int
    metrics: dict[str, Any]
    stop_tags: list[list[str]] = field(default_factory=list)
    blob: bytes = b""  # the model as stored in the project
    kind: str = MODEL_KIND  # the models table's kind: "crf" or "spacy-ner"


def save_version(project: Any, result: TrainResult) -> ModelVersion:
    """Store a finished retrain in the project as a new model version, now the one in use; older
    versions beyond the project's ``learn.keep_versions`` lose their model (:func:`versions.prune`)."""
    with project.transaction():
        model_id = project.save_model(MODEL_NAME, result.kind, result.blob or _model_blob(result), result.metrics,
                                      result.n_labelled)
        set_active(project, result.kind, model_id)
        prune_versions(project, result.kind)
    return ModelVersion(model_id, result.n_labelled, result.metrics)


def store_crossval(project: Any, model_id: int, result: CrossValidation) -> None:
    """Keep a cross-validation run with the version it followed (``metrics["xval"]``)."""
    project.update_model_metrics(model_id, {"xval": result.to_dict()})


def _model_blob(result: TrainResult) -> bytes:
    if result.kind != MODEL_KIND:
        return result.model.to_bytes()
    return result.model.to_bytes({"name": MODEL_NAME, "metrics": {"f1": result.metrics.get("f1")}})


class ActiveLearner:
    """Active learning over one open project (see the module docstring)."""

    def __init__(self, project: Any, strategy: str | Strategy | None = None, batch: int = 10, *,
                 seed_strategy: str | Strategy = DEFAULT_SEED_STRATEGY, source: str | CrfModel | None = "bundled",
                 features: FeatureConfig | None = None, training: TrainingSettings | None = None,
                 mode: str = "multi", cv_folds: int = 3, cv_sample: int = 2000, random_seed: int = 0,
                 learner: str | None = None, update: Any = None) -> None:
        if batch < 1:
            raise LearnError("the batch size must be at least 1")
        self.project = project
        self.learner = project_learner(project, learner)
        self.kind = kind_of(self.learner)
        self.update_settings = update  # the tagger's UpdateSettings (None: defaults)
        spec = strategy or project.setting(STRATEGY_SETTING) or DEFAULT_STRATEGY
        self.strategy = get_strategy(spec)
        self.seed_strategy = get_strategy(seed_strategy)
        self.batch = batch
        self.training = training or TrainingSettings()
        self.mode = mode
        self.cv_folds = cv_folds
        self.cv_sample = cv_sample
        self.random_seed = random_seed
        self._source_spec = source
        self._source: Any = source if source is not None and not isinstance(source, str) else None
        self.extractor = FeatureExtractor(features or FeatureConfig())
        self.model: CrfModel | None = None
        self.model_id: int | None = None
        self._utts: list[Utterance] = []
        self._conv_ids: list[str] = []
        self._pool: Pool | None = None
        self._load_latest()

    # ------------------------------------------------------------------ settings
    def set_strategy(self, spec: str | Strategy, *, save: bool = True) -> None:
        """Change the query strategy (kept in the project's settings, with an audit entry like every
        settings change, unless ``save`` is False)."""
        self.strategy = get_strategy(spec)
        if not save:
            return
        from redactdesk.core.types import Decision, Role
        from redactdesk.store import utc_now

        with self.project.transaction():
            settings = self.project.settings()
            old = settings.get(STRATEGY_SETTING)
            if STRATEGY_SETTING in settings and old == self.strategy.spec:
                return
            self.project.set_setting(STRATEGY_SETTING, self.strategy.spec)
            self.project.log(Decision(action="setting", actor=self.project.actor, role=Role(self.project.role),
                                      at=utc_now(), before={"key": STRATEGY_SETTING, "value": old},
                                      after={"key": STRATEGY_SETTING, "value": self.strategy.spec, "signed": False}))

    @property
    def source(self) -> Any:
        """The transferred model (loaded on first use; None if there is none): the bundled CRF source
        model for the CRF learner, the bundled transcript tagger -- the warm start -- for the tagger."""
        if self._source is None and self._source_spec is not None:
            try:
                if self.kind == MODEL_KIND:
                    self._source = load_source(self._source_spec, language=self._language())  # type: ignore[arg-type]
                else:
                    from redactdesk.learn.tagger_model import bundled_learner

                    _, _, lang = str(self._source_spec).partition(":")
                    self._source = bundled_learner(lang or self._language())
            except ModelError:
                self._source_spec = None
        return self._source

    def _language(self) -> str:
        """The project's main language (from its turns; English when there are none)."""
        from collections import Counter

        langs = Counter(u.language for u in self._utts)
        return langs.most_common(1)[0][0] if langs else "en"

    def _load_latest(self) -> None:
        """Load the version in use (the newest unless a reviewer rolled back)."""
        self.model, self.model_id = None, None
        model_id = active_id(self.project, self.kind)
        if model_id is None:
            return
        blob = self.project.model_blob(model_id)
        if blob and self.kind != MODEL_KIND:
            from redactdesk.learn.tagger_model import learner_from_bytes

            try:
                self.model = learner_from_bytes(blob)
            except ModelError:
                return
            self.model_id = model_id
            return
        if blob:
            try:
                self.model = CrfModel.from_bytes(blob, extractor=self.extractor)  # shares interned signatures
            except ModelError:
                try:  # trained with other feature settings: keep its own extractor
                    self.model = CrfModel.from_bytes(blob)
                except ModelError:
                    return
            self.model_id = int(model_id)

    def rollback(self, model_id: int) -> ModelVersion:
        """Make an earlier stored version the one in use (audited); the next update starts from it."""
        row = rollback_version(self.project, model_id, self.learner)
        self.load_active()
        return ModelVersion(int(row["id"]), int(row["n_labelled"]), row["metrics"], row["created"])

    def load_active(self) -> None:
        """Load the version the project says is in use (e.g. after a rollback through another connection)."""
        self._load_latest()
        if self._pool is not None:
            self._pool.set_target(None)

    # ------------------------------------------------------------------ data
    def marked_turns(self) -> dict[str, list[int]]:
        return marked_turns(self.project)

    def mark_labelled(self, conversation_id: str, turn_index: int, labelled: bool = True) -> None:
        """Record that a person settled a turn (e.g. "nothing personal here"), so it trains the model."""
        mark_turn_labelled(self.project, conversation_id, turn_index, labelled)

    def refresh(self, check: Check | None = None) -> list[Utterance]:
        """Reload every turn of the project (call after labels change)."""
        check = check or _no_check
        marked = self.marked_turns()
        utts: list[Utterance] = []
        ids = self.project.conversation_ids()
        for cid in ids:
            check()
            try:
                conv = self.project.load_conversation(cid)
            except NotFound:  # deleted meanwhile (through another connection)
                continue
            utts += utterances_from_conversation(conv, marked.get(conv.id, ()))
        old = {(u.key, tuple(u.tokens)) for u in self._utts}
        new = {(u.key, tuple(u.tokens)) for u in utts}
        self._utts = utts
        self._conv_ids = list(ids)
        if self._pool is None or old != new:
            self._pool = Pool(utts, self.extractor, source=self.source, mode=self.mode, seed=self.random_seed)
        else:
            self._pool.utterances = utts  # same words: keep cached encodings and vectors
        return utts

    def sync(self, conversation_ids: Iterable[str] | None = None, check: Check | None = None) -> list[Utterance]:
        """Bring the utterances up to date after edits: re-read only ``conversation_ids`` when the
        project still holds the conversations last read, else (or when None) everything."""
        if conversation_ids is None or not self._utts or self.project.conversation_ids() != self._conv_ids:
            return self.refresh(check)
        for cid in sorted(set(conversation_ids)):
            (check or _no_check)()
            try:
                conv = self.project.load_conversation(cid)
            except NotFound:  # deleted meanwhile
                return self.refresh(check)
            self.update_conversation(conv)
        return self._utts

    def labelled_keys(self) -> frozenset[tuple[str, int]]:
        """(conversation id, turn index) of every labelled utterance."""
        return frozenset((str(u.conversation_id), int(u.turn_index or 0)) for u in self.utterances() if u.labelled)

    def update_conversation(self, conv: Conversation) -> None:
        """Re-read one conversation's turns (cheaper than :meth:`refresh` after edits in one call)."""
        if not self._utts:
            self.refresh()
            return
        marked = self.marked_turns().get(conv.id, ())
        fresh = {u.turn_index: u for u in utterances_from_conversation(conv, marked)}
        same_words = True
        for i, u in enumerate(self._utts):
            if u.conversation_id == conv.id:
                new = fresh.pop(u.turn_index, None)
                if new is None or new.tokens != u.tokens:
                    same_words = False
                    break
                self._utts[i] = new
        if not same_words or fresh:
            self.refresh()
        elif self._pool is not None:
            self._pool.utterances = self._utts

    def utterances(self) -> list[Utterance]:
        if not self._utts:
            self.refresh()
        return self._utts

    def counts(self) -> dict[str, int]:
        utts = self.utterances()
        n_lab = sum(u.labelled for u in utts)
        return {"utterances": len(utts), "labelled": n_lab, "unlabelled": len(utts) - n_lab}

    # ------------------------------------------------------------------ queue
    def queue(self, n: int | None = None, *, refresh: bool = True, check: Check | None = None) -> list[QueueItem]:
        """The next ``n`` (default: the batch size) unlabelled turns to label, best first."""
        check = check or _no_check
        utts = self.refresh(check) if refresh or not self._utts else self._utts
        check()
        pool = self._pool
        assert pool is not None
        candidates = np.array([i for i, u in enumerate(utts) if not u.labelled], dtype=np.int64)
        if not len(candidates):
            return []
        has_target = self.model is not None and any(u.labelled for u in utts)
        pool.set_target(self.model if has_target else None)
        strategy = self.strategy if has_target else self.seed_strategy
        if "s" in strategy.needs() and pool.source is None:
            strategy = get_strategy(strategy.spec.replace("s-", "t-")) if has_target else get_strategy("kmeans")
        sel = strategy.select(pool, candidates, n or self.batch, np.random.default_rng(self.random_seed))
        check()
        margins = None
        if pool.target is not None or pool.source is not None:
            margins = pool.margins("t" if pool.target is not None else "s")
        out = []
        for idx, score in zip(sel.indices.tolist(), sel.scores.tolist(), strict=True):
            u = utts[idx]
            out.append(QueueItem(conversation_id=str(u.conversation_id), turn_index=int(u.turn_index or 0),
                                 score=float(score), margin=None if margins is None else float(margins[idx]),
                                 start_word=u.start_word, end_word=u.start_word + len(u),
                                 preview=_preview(u.tokens)))
        return out

    # ------------------------------------------------------------------ training
    def prepare_retrain(self, check: Check | None = None, *, refresh: bool = True) -> Callable[[], TrainResult]:
        """Read what training needs from the project; the returned job trains (calling ``check``
        between its steps) and touches neither the project nor the learner."""
        check = check or _no_check
        utts = self.refresh(check) if refresh or not self._utts else self._utts
        labelled = [u for u in utts if u.labelled]
        if not labelled:
            raise LearnError("nothing is labelled yet: settle the spans of some turns (or mark them labelled) first")
        if self.kind != MODEL_KIND:
            from redactdesk.learn.tagger_update import prepare_tagger_update

            base = self.model if self.model is not None else self.source
            if base is None:
                raise LearnError("the transcript tagger is not available, so the tagger learner cannot start; "
                                 "choose the CRF learner")
            return prepare_tagger_update(base, self.model_id, utts, check=check, settings=self.update_settings,
                                         strategy=self.strategy.spec, mode=self.mode, seed=self.random_seed,
                                         stop_sample=TAGGER_STOP_SAMPLE)
        unlabelled = [u for u in utts if not u.labelled]
        rng = np.random.default_rng(self.random_seed)
        stop_idx = np.sort(rng.permutation(len(unlabelled))[:STOP_SAMPLE]) if unlabelled else np.zeros(0, int)
        stop_set = [unlabelled[i] for i in stop_idx]
        previous = self.model
        extractor, settings, folds, seed = self.extractor, self.training, self.cv_folds, self.random_seed
        cv_data = labelled
        if len(labelled) > self.cv_sample:  # per-category F1 estimated on a sample: retrains stay quick
            pick = np.sort(np.random.default_rng(seed).permutation(len(labelled))[: self.cv_sample])
            cv_data = [labelled[i] for i in pick]
        mode, spec = self.mode, self.strategy.spec
        enc_lab = CrfModel(extractor=extractor).encode(labelled)
        enc_stop = CrfModel(extractor=extractor).encode(stop_set)

        def job() -> TrainResult:
            check()
            model = settings.new_model(extractor).fit(labelled, enc=enc_lab)

            def fit_predict(train: list[Utterance], test: list[Utterance]) -> list[list[str]]:
                check()
                return settings.new_model(extractor).fit(train).predict(test)

            cv = cross_validate(cv_data, fit_predict, folds=folds, seed=seed)
            check()
            stop_tags = model.predict(enc_stop) if len(stop_set) else []
            kappa = None
            if previous is not None and len(stop_set):
                same = previous.extractor is extractor
                kappa = tag_kappa(previous.predict(enc_stop if same else previous.encode(stop_set)), stop_tags)
            max_h = mean_h = None
            if len(stop_set):
                marg = model.marginals(enc_stop)
                h = token_entropy(marg.probs, marg.outside, mode)
                max_h = float(h.max())
                mean_h = float(sequence_scores(h, marg.starts, marg.lengths, "mean").mean())
            metrics = _metrics(cv, len(labelled), kappa, max_h, mean_h, spec, model)
            result = TrainResult(model, len(labelled), metrics, stop_tags)
            result.blob = _model_blob(result)
            return result

        return job

    def prepare_crossval(self, check: Check | None = None, *, refresh: bool = True) -> Callable[[], CrossValidation]:
        """Read the labelled turns; the returned job cross-validates the learner on them (per category,
        k-fold, see :mod:`redactdesk.learn.crossval`) and touches neither the project nor the learner."""
        check = check or _no_check
        utts = self.refresh(check) if refresh or not self._utts else self._utts
        labelled = [u for u in utts if u.labelled]
        if self.kind == MODEL_KIND:
            order = np.random.default_rng(self.random_seed).permutation(len(labelled))  # no labelling order kept
            labelled = [labelled[i] for i in order]
            fit_predict = crf_fit_predict(self.training, self.extractor)
        else:
            from redactdesk.learn.tagger_update import label_signature

            base = self.source  # the bundled tagger: it never learned this project's labels
            if base is None:
                raise LearnError("the transcript tagger is not available, so the tagger learner cannot be "
                                 "cross-validated")
            learned = {sig: i for i, sig in enumerate((self.model.info.get("trained") if self.model else None) or ())}
            labelled.sort(key=lambda u: learned.get(label_signature(u), len(learned)))  # learning order, new last
            fit_predict = tagger_fit_predict(base)
        seed = self.random_seed

        def job() -> CrossValidation:
            return cross_validate_turns(labelled, fit_predict, seed=seed, check=check)

        return job

    def crossval(self) -> CrossValidation:
        """Cross-validate the learner on the labelled turns now (see :meth:`prepare_crossval`)."""
        return self.prepare_crossval()()

    def commit(self, result: TrainResult) -> ModelVersion:
        """Store a finished retrain as a new model version and make it the current model."""
        version = save_version(self.project, result)
        self.adopt(result.model, version.id)
        return version

    def adopt(self, model: CrfModel, model_id: int | None = None) -> None:
        """Make ``model`` the current model (``model_id``: its stored version, when already saved)."""
        self.model = model
        self.model_id = model_id
        if self._pool is not None:
            self._pool.set_target(None)

    def retrain(self) -> ModelVersion:
        """Train on every labelled utterance, cross-validate, store the version; returns it."""
        return self.commit(self.prepare_retrain()())

    # ------------------------------------------------------------------ history
    def versions(self) -> list[ModelVersion]:
        return model_versions(self.project)

    def summary(self) -> ModelSummary:
        return model_summary(self.project)

    def learning_curve(self) -> list[tuple[int, float]]:
        """(labelled utterances, cross-validated F1) of every stored version that has a score."""
        return self.summary().curve

    def stopping_hint(self, **kw: Any) -> StoppingHint:
        return self.summary().hint(**kw)

    # ------------------------------------------------------------------ suggestions
    def suggest(self, conv: Conversation, min_score: float = 0.5) -> list[Span]:
        """The current model's spans for a conversation (status suggested, source ``crf`` or ``tagger-al``)."""
        if self.model is None:
            return []
        utts = utterances_from_conversation(conv)
        if not utts:
            return []
        source_name = SOURCE_NAME
        if self.kind == MODEL_KIND:
            enc = self.model.encode(utts)
            tags = self.model.predict(enc)
            marg = self.model.marginals(enc)
        else:
            source_name = TAGGER_SOURCE_NAME
            marg = self.model.marginals(utts)
            tags = self.model.predict(utts, marg)
        label_col = {lab: i for i, lab in enumerate(marg.labels)}
        version = "(new version)" if self.model_id is None else f"v{self.model_id}"
        out: list[Span] = []
        for k, (u, seq) in enumerate(zip(utts, tags, strict=True)):
            probs = marg.of(k)
            for start, end, cat in tags_to_spans(seq):
                p = float(np.mean([probs[i, label_col[seq[i]]] for i in range(start, end)]))
                if p < min_score:
                    continue
                out.append(Span(start_word=u.start_word + start, end_word=u.start_word + end, category=cat,
                                status=SpanStatus.SUGGESTED, score=round(min(max(p, 0.0), 1.0), 4),
                                sources=(source_name,),
                                reason=f"active-learning model {version}: {cat} p={p:.2f}"))
        return out


def _metrics(cv: Scores | None, n_labelled: int, kappa: float | None, max_h: float | None, mean_h: float | None,
             strategy: str, model: CrfModel) -> dict[str, Any]:
    return {
        "n_labelled": n_labelled,
        "f1": None if cv is None else cv.f1,
        "precision": None if cv is None else cv.precision,
        "recall": None if cv is None else cv.recall,
        "cv": None if cv is None else cv.to_dict(),
        "kappa": kappa,
        "pool_max_entropy": max_h,
        "pool_mean_entropy": mean_h,
        "strategy": strategy,
        "labels": model.labels,
        "features": model.config.to_dict(),
    }

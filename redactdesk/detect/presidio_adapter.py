"""redactdesk's detector as a Presidio ``EntityRecognizer`` (extra ``redactdesk[presidio]``).

Why: teams that already run Presidio can add redactdesk's spoken-language recognizers (numbers said
as words, spelled letters, hotword context, event grammar) to their ``AnalyzerEngine`` with one
``registry.add_recognizer(RedactdeskRecognizer())`` and keep their pipeline, anonymizer and
reports. Results carry Presidio's entity names where one exists (``PHONE`` → ``PHONE_NUMBER``),
else the taxonomy's category id; the explanation names the redactdesk sources, never the text.

Presidio is imported only here; the rest of redactdesk never needs it.
"""

from __future__ import annotations

from typing import Any

try:
    from presidio_analyzer import AnalysisExplanation, EntityRecognizer, RecognizerResult
except ImportError as exc:  # pragma: no cover - depends on the extra
    raise ImportError("the Presidio adapter needs presidio-analyzer: pip install 'redactdesk[presidio]'") from exc

from redactdesk.formats.presidio import CATEGORY_TO_PRESIDIO


def entity_name(category: str) -> str:
    """The Presidio entity name of a taxonomy category (the category id when Presidio has none)."""
    return CATEGORY_TO_PRESIDIO.get(category, category)


class RedactdeskRecognizer(EntityRecognizer):
    """Runs ``redactdesk.detect.pipeline.detect_texts`` over the text Presidio analyses."""

    def __init__(self, supported_language: str = "en", supported_entities: list[str] | None = None,
                 name: str = "RedactdeskRecognizer", sources: Any = None) -> None:
        if supported_entities is None:
            from redactdesk.resources import load_taxonomy

            supported_entities = sorted({entity_name(c) for c in load_taxonomy().ids()})
        self._sources = sources
        super().__init__(supported_entities=supported_entities, name=name, supported_language=supported_language)

    def load(self) -> None:
        """Nothing to load up front: redactdesk's models load on first use and stay cached."""

    def analyze(self, text: str, entities: list[str], nlp_artifacts: Any = None) -> list[RecognizerResult]:
        from redactdesk.detect.pipeline import detect_texts

        wanted = set(entities or self.supported_entities)
        out = []
        for s in detect_texts([text], self.supported_language, sources=self._sources)[0]:
            entity = entity_name(s["category"])
            if entity not in wanted:
                continue
            explanation = AnalysisExplanation(recognizer=self.name, original_score=s["score"],
                                              textual_explanation=f"redactdesk {s['category']} ({s['source']})")
            out.append(RecognizerResult(entity_type=entity, start=s["start"], end=s["end"], score=s["score"],
                                        analysis_explanation=explanation,
                                        recognition_metadata={RecognizerResult.RECOGNIZER_NAME_KEY: self.name,
                                                              RecognizerResult.RECOGNIZER_IDENTIFIER_KEY: self.id}))
        return out

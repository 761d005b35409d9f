"""Limits every importer enforces before and while reading, so hostile input fails closed.

Change them here (one place); messages quote these limits, never the values that broke them.
"""

from __future__ import annotations

MAX_TRANSCRIPT_BYTES = 200 * 1024 * 1024  # a transcript file (checked before reading and while reading)
MAX_AUDIO_BYTES = 4 * 1024 * 1024 * 1024  # an audio file (WAV's own 4 GiB limit)
MAX_JSON_DEPTH = 64  # nesting of JSON objects and arrays
MAX_SECONDS = 7 * 24 * 3600.0  # a time in a transcript (a week)
MAX_CHANNEL = 255  # a channel number in a transcript
MAX_WORD_CHARS = 1000  # one word's text
MAX_LABEL_CHARS = 256  # speaker, tier, category, entity and similar names
MAX_INDEX = 100_000_000  # a word index (turn and span ranges)
MAX_PROBLEMS_SHOWN = 100  # problems printed in one ImportFailed message
MAX_PROBLEMS_KEPT = 10_000  # problems kept in ImportFailed.problems (the rest are only counted)
MAX_WORDS = 2_000_000  # words in one transcript (a week of speech is about 1.5 million)

"""The everyday tools around the review, installed on a main window in one call.

Find in transcripts (:mod:`search`), playback speed and loop (:mod:`speed`), spectrogram range
(:mod:`spectro_settings`), the colour scheme (:mod:`theme`), the question before quitting during a
job (:mod:`quitguard`) and, last because it collects every action with a key, the remappable
shortcuts (:mod:`shortcuts`). Each lives in its own module and only adds to the window (actions,
menu entries, status-bar notes), so the window's own code stays as it was.
"""

from __future__ import annotations

from redactdesk.gui import quitguard, search, shortcuts, spectro_settings, speed, theme


def install(window) -> None:
    search.install(window)
    speed.install(window)
    spectro_settings.install(window)
    theme.install(window)
    quitguard.install(window)
    shortcuts.install(window)  # after every action exists

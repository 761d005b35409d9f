"""Playback through sounddevice: play a time range, report the position, stop.

With no PortAudio library (``OSError`` on import) or no output device (``PortAudioError``), the
player says so once (``unavailable`` signal / ``reason``) and everything else keeps working.
"""

from __future__ import annotations

import threading

import numpy as np
from PySide6.QtCore import QObject, QTimer, Signal

from redactdesk.gui.audiosource import AudioSource


def _load_sounddevice():
    try:
        import sounddevice
    except OSError as exc:  # PortAudio library missing
        return None, f"no PortAudio library ({exc}); install libportaudio2 to hear audio"
    except ImportError as exc:
        return None, f"sounddevice is not installed ({exc})"
    return sounddevice, None


class Player(QObject):
    """Plays ``[t0, t1)`` of an :class:`AudioSource`; emits the position about 30 times a second."""

    position_changed = Signal(float)
    playing_changed = Signal(bool)
    unavailable = Signal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.sd, self.reason = _load_sounddevice()
        self._stream = None
        self._lock = threading.Lock()
        self._buffer = np.zeros((0, 1), dtype=np.float32)
        self._frame = 0
        self._t0 = 0.0
        self._rate = 16000
        self._finished = False
        self._timer = QTimer(self, interval=33)
        self._timer.timeout.connect(self._tick)
        self.position: float | None = None

    def probe(self) -> str | None:
        """Why playback will not work (no PortAudio, no output device), or None when it should."""
        if self.sd is None:
            return self.reason
        try:
            self.sd.query_devices(kind="output")
        except (self.sd.PortAudioError, OSError, ValueError) as exc:
            return f"no audio output device ({exc})"
        return None

    @property
    def available(self) -> bool:
        return self.sd is not None and self.reason is None

    @property
    def playing(self) -> bool:
        return self._stream is not None

    def play(self, source: AudioSource, t0: float, t1: float | None = None, *, max_seconds: float = 600.0) -> bool:
        """Start playing; False (and ``unavailable`` emitted) when there is no way to play."""
        self.stop()
        if self.sd is None:
            self.unavailable.emit(self.reason or "no audio output")
            return False
        t0 = max(0.0, t0)
        t1 = min(source.duration, t1 if t1 is not None else t0 + max_seconds)
        if t1 <= t0:
            return False
        data = source.read_seconds(t0, t1)
        with self._lock:
            self._buffer = np.ascontiguousarray(data, dtype=np.float32)
            self._frame = 0
            self._finished = False
        self._t0 = t0
        self._rate = source.rate
        try:
            stream = self.sd.OutputStream(samplerate=source.rate, channels=data.shape[1], dtype="float32",
                                          callback=self._callback)
            stream.start()
        except (self.sd.PortAudioError, OSError, ValueError) as exc:
            self.reason = f"no audio output device ({exc})"
            self.unavailable.emit(self.reason)
            return False
        self.reason = None
        self._stream = stream
        self.position = t0
        self._timer.start()
        self.playing_changed.emit(True)
        return True

    def _callback(self, outdata, frames, time_info, status) -> None:  # audio thread
        with self._lock:
            chunk = self._buffer[self._frame:self._frame + frames]
            n = len(chunk)
            outdata[:n] = chunk
            if n < frames:
                outdata[n:] = 0
                self._finished = True
            self._frame += n
        if n < frames:
            raise self.sd.CallbackStop

    def _tick(self) -> None:
        with self._lock:
            frame, finished = self._frame, self._finished
        self.position = self._t0 + frame / self._rate
        self.position_changed.emit(self.position)
        if finished:
            self.stop()

    def stop(self) -> None:
        self._timer.stop()
        stream, self._stream = self._stream, None
        if stream is not None:
            try:
                stream.stop()
                stream.close()
            except Exception:
                pass
            self.playing_changed.emit(False)

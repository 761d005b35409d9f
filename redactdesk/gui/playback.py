"""Playback through sounddevice: play a time range, report the position, stop.

With no PortAudio library (``OSError`` on import) or no output device (``PortAudioError``), the
player says so once (``unavailable`` signal / ``reason``) and everything else keeps working.

``speed`` (0.5–1.5) plays slower or faster with the pitch kept (:mod:`redactdesk.audio.timestretch`):
the first few seconds are stretched before the sound starts, the rest in a worker thread while it
plays. ``loop`` plays the range again and again until stopped (reviewers re-listening to a span).
"""

from __future__ import annotations

import threading

import numpy as np
from PySide6.QtCore import QObject, QTimer, Signal

from redactdesk.audio.timestretch import stretch
from redactdesk.gui.audiosource import AudioSource

FIRST_STRETCH_SECONDS = 2.0  # stretched before the sound starts (about 0.1 s of work per channel)
STRETCH_CHUNK_SECONDS = 8.0  # the rest follows in a worker thread, in pieces this long


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
        self._filled = 0
        self._t0 = 0.0
        self._rate = 16000
        self._speed_now = 1.0
        self._finished = False
        self._complete = True  # the whole (stretched) range is in the buffer
        self._generation = 0
        self.speed = 1.0
        self.loop = False
        self.loops = 0  # how many times the range started again (loop)
        self._timer = QTimer(self, interval=33)
        self._timer.timeout.connect(self._tick)
        self.position: float | None = None
        self.source: AudioSource | None = None
        self.range: tuple[float, float] | None = None

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

    @property
    def complete(self) -> bool:
        """The whole range (stretched when the speed is not 1) is ready to play."""
        with self._lock:
            return self._complete

    def buffered(self) -> np.ndarray:
        """A copy of the samples ready to play (frames, channels)."""
        with self._lock:
            return self._buffer[:self._filled].copy()

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
        speed = self.speed
        first, cut = data, len(data)
        if abs(speed - 1.0) > 1e-6:
            cut = min(len(data), int(FIRST_STRETCH_SECONDS * source.rate))
            first = stretch(data[:cut], source.rate, speed)
        with self._lock:
            if cut < len(data):  # room for the rest, filled by the worker (stretched lengths vary a little)
                room = len(first) + int((len(data) - cut) / speed * 1.05) + source.rate
                self._buffer = np.zeros((room, data.shape[1]), dtype=np.float32)
                self._buffer[:len(first)] = first
            else:
                self._buffer = np.ascontiguousarray(first, dtype=np.float32)
            self._filled = len(first)
            self._frame = 0
            self._finished = False
            self._complete = cut >= len(data)
            self._generation += 1
            self.loops = 0
        if not self._complete:
            threading.Thread(target=self._stretch_rest, args=(data[cut:], source.rate, speed, self._generation),
                             daemon=True).start()
        self._t0 = t0
        self._speed_now = speed
        self.source, self.range = source, (t0, t1)  # what plays: a speed change restarts it from the position
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

    def _stretch_rest(self, rest: np.ndarray, rate: int, speed: float, generation: int) -> None:  # worker
        step = int(STRETCH_CHUNK_SECONDS * rate)
        for a in range(0, len(rest), step):
            part = stretch(rest[a:a + step], rate, speed)
            with self._lock:
                if generation != self._generation:
                    return  # stopped or playing something else meanwhile
                n = min(len(part), len(self._buffer) - self._filled)
                self._buffer[self._filled:self._filled + n] = part[:n]
                self._filled += n
                self._complete = a + step >= len(rest)

    def _callback(self, outdata, frames, time_info, status) -> None:  # audio thread
        with self._lock:
            chunk = self._buffer[self._frame:min(self._frame + frames, self._filled)]
            n = len(chunk)
            outdata[:n] = chunk
            self._frame += n
            while n < frames and self.loop and self._complete and self._filled:
                self.loops += 1  # from the start again
                chunk = self._buffer[:min(frames - n, self._filled)]
                outdata[n:n + len(chunk)] = chunk
                n += len(chunk)
                self._frame = len(chunk)
            stop = n < frames and self._complete
            if n < frames:
                outdata[n:] = 0  # the end, or the stretching thread has not caught up yet
            if stop:
                self._finished = True
        if stop:
            raise self.sd.CallbackStop

    def _tick(self) -> None:
        with self._lock:
            frame, finished = self._frame, self._finished
        self.position = self._t0 + frame / self._rate * self._speed_now
        self.position_changed.emit(self.position)
        if finished:
            self.stop()

    def stop(self) -> None:
        self._timer.stop()
        with self._lock:
            self._generation += 1  # a stretching thread still under way drops its work
        stream, self._stream = self._stream, None
        if stream is not None:
            try:
                stream.stop()
                stream.close()
            except Exception:
                pass
            self.playing_changed.emit(False)

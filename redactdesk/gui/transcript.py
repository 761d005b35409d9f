"""Transcript view: turns by speaker with times; each word a token; spans highlighted.

Drawn by hand (not rich text) so every word has a known rectangle: click = seek and select, drag
or double-click = mark words, hover = what the span is and why it was suggested. A span shows its
category in three ways (colour, underline pattern from the taxonomy, a small label with the
suggestion's score), so colour is never the only cue. Words whose times are estimates
(``aligned=False``) are drawn in italics with a dotted orange overline.

The layout is stable under decisions: each span's badge keeps the width it had when the span was
first laid out (room for "CATEGORY 0.00"; a longer category after a change is elided, a rejected
span keeps its slot), so accepting, rejecting or recategorising never re-wraps a line and the words
stay under the mouse. Shift+click selects the words from the cursor to the clicked word (the window
uses the selection for M and for reviewers' "Mark missed").
"""

from __future__ import annotations

import bisect
import html
from dataclasses import dataclass

from PySide6.QtCore import QPoint, QPointF, QRect, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QFont, QFontMetrics, QMouseEvent, QPainter, QPen
from PySide6.QtWidgets import QAbstractScrollArea, QToolTip

from redactdesk.core.types import Conversation, Span, SpanStatus
from redactdesk.gui import style

GUTTER = 132
MARGIN = 14
TURN_GAP = 12
LOW_CONFIDENCE = 0.5


@dataclass
class _Line:
    top: float
    bottom: float
    baseline: float
    first: int  # word indices [first, last]
    last: int
    turn: int


@dataclass
class _Tag:
    span_index: int
    rect: QRectF
    text: str


class TranscriptView(QAbstractScrollArea):
    """Scrollable, word-addressable transcript of one conversation."""

    word_clicked = Signal(int)
    span_clicked = Signal(int)  # span id
    span_requested = Signal(int, int)  # start_word, end_word (exclusive)
    range_selected = Signal(int, int)  # Shift+click: start_word, end_word (exclusive), no picker
    context_requested = Signal(object, object, QPoint)  # word index | None, turn index | None, global pos

    def __init__(self, taxonomy, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("transcript")
        self.taxonomy = taxonomy
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.viewport().setMouseTracking(True)
        self.viewport().setAutoFillBackground(True)
        pal = self.viewport().palette()
        pal.setColor(self.viewport().backgroundRole(), QColor(style.PAPER))
        self.viewport().setPalette(pal)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.conv: Conversation | None = None
        self.spans: list[Span] = []
        self.show_rejected = True
        self.current_span_id: int | None = None
        self.cursor_word: int | None = None
        self.playing_word: int | None = None
        self._drag: tuple[int, int] | None = None  # anchor, current word while dragging
        self.missed: list[tuple[int, int, str]] = []  # reviewers' MISSED_ marks: start, end (exclusive), tag
        self._missed_of: str | None = None
        self.highlight: tuple[int, int] | None = None  # words [start, end) a list pointed at (found, undecided)
        self.selection: tuple[int, int] | None = None  # words [start, end) selected (drag, Shift+click)
        self.selection_anchor: int | None = None
        self._tag_widths: dict[int, float] = {}  # span id -> badge width, kept while the conversation is shown
        self._press_word: int | None = None
        self._rects: list[QRectF] = []
        self._lines: list[_Line] = []
        self._line_tops: list[float] = []
        self._tags: list[_Tag] = []
        self._word_spans: list[list[int]] = []
        self._height = 0
        self._layout_width = -1
        self.set_font_size(12)

    # ------------------------------------------------------------------ data
    def set_font_size(self, points: int) -> None:
        self.font_ = QFont(self.font())
        self.font_.setPointSize(points)
        self.italic = QFont(self.font_)
        self.italic.setItalic(True)
        self.small = QFont(self.font_)
        self.small.setPointSizeF(max(7.0, points * 0.72))
        self.small_bold = QFont(self.small)
        self.small_bold.setBold(True)
        self.speaker_font = QFont(self.font_)
        self.speaker_font.setPointSizeF(points * 0.85)
        self.speaker_font.setBold(True)
        self.fm = QFontMetrics(self.font_)
        self.fm_small = QFontMetrics(self.small_bold)
        self.fm_italic = QFontMetrics(self.italic)
        self._tag_widths = {}
        self._relayout()

    def set_conversation(self, conv: Conversation | None) -> None:
        self.conv = conv
        self._widths_key = None
        self.current_span_id = None
        self.cursor_word = None
        self.playing_word = None
        self._drag = None
        self.highlight = None
        self.selection = None
        self.selection_anchor = None
        self._tag_widths = {}
        self.set_spans(conv.spans if conv else [])
        self.verticalScrollBar().setValue(0)

    def update_words(self, conv: Conversation) -> None:
        """The same conversation with edited words or speakers: lay out again, keep scroll and cursor."""
        value = self.verticalScrollBar().value()
        self.conv = conv
        self._widths_key = None
        self._tag_widths = {}
        self.set_spans(conv.spans)
        self.verticalScrollBar().setValue(value)

    def set_spans(self, spans: list[Span]) -> None:
        self.spans = list(spans)
        n = len(self.conv.words) if self.conv else 0
        self._word_spans = [[] for _ in range(n)]
        for i, s in enumerate(self.spans):
            if s.status == SpanStatus.REJECTED and not self.show_rejected:
                continue
            for w in range(max(0, s.start_word), min(n, s.end_word)):
                self._word_spans[w].append(i)
        self._relayout()

    def set_current(self, span_id: int | None, word: int | None) -> None:
        self.current_span_id = span_id
        self.cursor_word = word
        span = next((s for s in self.spans if s.id == span_id), None)
        if span is not None:
            self.ensure_visible(span.start_word, span.end_word - 1)
        elif word is not None:
            self.ensure_visible(word, word)
        self.viewport().update()

    def show_pending(self, start: int | None, end: int | None = None) -> None:
        """Highlight words ``[start, end)`` as being marked (while the category is chosen); None clears."""
        self._drag = None if start is None else (start, (end if end is not None else start + 1) - 1)
        self.viewport().update()

    def set_selection(self, start: int | None, end: int | None = None, anchor: int | None = None) -> None:
        """Select words ``[start, end)`` (drawn like a drag); None clears. ``anchor``: the fixed end."""
        n = len(self.conv.words) if self.conv else 0
        if start is None or not n:
            self.selection = None
            self.selection_anchor = None
        else:
            start = min(max(0, start), n - 1)
            end = min(max(start + 1, end if end is not None else start + 1), n)
            self.selection = (start, end)
            self.selection_anchor = start if anchor is None else anchor
            self.ensure_visible(start, end - 1)
        self.viewport().update()

    def set_highlight(self, start: int | None, end: int | None = None) -> None:
        """Frame words ``[start, end)`` (a place an export refusal or finding pointed at); None clears."""
        n = len(self.conv.words) if self.conv else 0
        if start is None or not n:
            self.highlight = None
        else:
            start = min(max(0, start), n - 1)
            end = min(max(start + 1, end if end is not None else start + 1), n)
            self.highlight = (start, end)
            self.ensure_visible(start, end - 1)
        self.viewport().update()

    def set_missed(self, conversation_id: str, marks: list[tuple[int, int, str]]) -> None:
        """Reviewers' MISSED_ marks of ``conversation_id`` (drawn only while it is the one shown)."""
        self._missed_of = conversation_id
        self.missed = list(marks)
        self.viewport().update()

    def _visible_missed(self) -> list[tuple[int, int, str]]:
        return self.missed if self.conv is not None and self._missed_of == self.conv.id else []

    def set_playing_word(self, index: int | None) -> None:
        if index == self.playing_word:
            return
        self.playing_word = index
        if index is not None:
            self.ensure_visible(index, index)
        self.viewport().update()

    # ------------------------------------------------------------------ layout
    def _tag_text(self, span: Span) -> str:
        if span.status == SpanStatus.SUGGESTED:
            return f"{span.category} {span.score:.2f}"
        if span.status == SpanStatus.REJECTED:
            return f"✗ {span.category}"
        return span.category

    def _tag_width(self, span: Span) -> float:
        """The badge's width: reserved when the span is first laid out, so decisions never re-wrap."""
        fms = self.fm_small
        want = max(fms.horizontalAdvance(f"{span.category} 0.00"), fms.horizontalAdvance(self._tag_text(span))) + 8
        if span.id is None:
            return want
        return self._tag_widths.setdefault(span.id, want)

    def _word_widths(self) -> list[float]:
        """Pixel width of every word, measured once per conversation and font."""
        key = (id(self.conv), len(self.conv.words), self.font_.pointSize())
        if getattr(self, "_widths_key", None) != key:
            self._widths = [(self.fm if w.aligned else self.fm_italic).horizontalAdvance(w.text)
                            for w in self.conv.words]
            self._widths_key = key
        return self._widths

    def _relayout(self) -> None:
        self._rects = []
        self._lines = []
        self._tags = []
        width = max(200, self.viewport().width())
        self._layout_width = width
        if not self.conv or not self.conv.words:
            self._height = 0
            self._line_tops = []
            self._update_scroll()
            self.viewport().update()
            return
        words = self.conv.words
        turns = self.conv.turns or self.conv.turns_from_speakers()
        fm, fms = self.fm, self.fm_small
        widths = self._word_widths()
        space = fm.horizontalAdvance(" ")
        line_h = fm.height() + 12
        ascent = fm.ascent()
        x0 = GUTTER + MARGIN
        x_max = width - MARGIN
        self._rects = [QRectF() for _ in words]
        ends = {}  # word index -> spans ending there (for tags; rejected ones keep their slot)
        for i, s in enumerate(self.spans):
            if 0 < s.end_word <= len(words):
                ends.setdefault(s.end_word - 1, []).append(i)
        y = MARGIN
        for t_index, turn in enumerate(turns):
            start, end = max(0, turn.start_word), min(len(words), turn.end_word)
            if end <= start:
                continue
            x = x0
            line = _Line(y, y + line_h, y + 4 + ascent, start, start, t_index)
            for w in range(start, end):
                f_w = widths[w]
                tag_w = 0.0
                tags = [(si, self._tag_text(self.spans[si])) for si in ends.get(w, [])]
                for si, _text in tags:
                    tag_w += self._tag_width(self.spans[si]) + 4
                if x > x0 and x + f_w + tag_w > x_max:
                    self._lines.append(line)
                    y += line_h
                    x = x0
                    line = _Line(y, y + line_h, y + 4 + ascent, w, w, t_index)
                self._rects[w] = QRectF(x, y + 4, f_w, fm.height())
                line.last = w
                x += f_w
                for si, text in tags:
                    tw = self._tag_width(self.spans[si])
                    rect = QRectF(x + 4, y + 4 + (fm.height() - fms.height() - 2) / 2, tw, fms.height() + 2)
                    self._tags.append(_Tag(si, rect, text))
                    x += tw + 4
                x += space
            self._lines.append(line)
            y += line_h + TURN_GAP
        self._line_tops = [ln.top for ln in self._lines]
        self._height = int(y + MARGIN)
        self._update_scroll()
        self.viewport().update()

    def _update_scroll(self) -> None:
        sb = self.verticalScrollBar()
        sb.setRange(0, max(0, self._height - self.viewport().height()))
        sb.setPageStep(self.viewport().height())
        sb.setSingleStep(self.fm.height() + 12)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if self.viewport().width() != self._layout_width:
            self._relayout()
        else:
            self._update_scroll()

    # ------------------------------------------------------------------ geometry helpers
    def word_rect(self, index: int) -> QRect:
        """The word's rectangle in viewport coordinates (for tests and tooltips)."""
        r = self._rects[index]
        return r.translated(0, -self.verticalScrollBar().value()).toAlignedRect()

    def word_at(self, pos: QPoint | QPointF, *, nearest: bool = False) -> int | None:
        if not self._lines:
            return None
        y = pos.y() + self.verticalScrollBar().value()
        i = bisect.bisect_right(self._line_tops, y) - 1
        if i < 0 or i >= len(self._lines):
            return None
        line = self._lines[i]
        if y > line.bottom and not nearest:
            return None
        best, best_d = None, None
        for w in range(line.first, line.last + 1):
            r = self._rects[w]
            if r.left() - 4 <= pos.x() <= r.right() + 4:
                return w
            d = min(abs(pos.x() - r.left()), abs(pos.x() - r.right()))
            if best_d is None or d < best_d:
                best, best_d = w, d
        return best if nearest else None

    def turn_at(self, pos: QPoint | QPointF) -> int | None:
        """Index (in the drawn turns) of the turn whose line is at ``pos`` (its gutter or its words)."""
        y = pos.y() + self.verticalScrollBar().value()
        i = bisect.bisect_right(self._line_tops, y) - 1
        if 0 <= i < len(self._lines) and y <= self._lines[i].bottom:
            return self._lines[i].turn
        return None

    def speaker_rect(self, turn_index: int) -> QRect:
        """The speaker label's area of a turn in viewport coordinates (the gutter of its first line)."""
        line = next(ln for ln in self._lines if ln.turn == turn_index)
        return QRectF(MARGIN, line.top, GUTTER - MARGIN, line.bottom - line.top).translated(
            0, -self.verticalScrollBar().value()).toAlignedRect()

    def tag_at(self, pos: QPoint | QPointF) -> _Tag | None:
        p = QPointF(pos.x(), pos.y() + self.verticalScrollBar().value())
        for tag in self._tags:
            if tag.rect.adjusted(-2, -2, 2, 2).contains(p):
                return tag
        return None

    def ensure_visible(self, first: int, last: int) -> None:
        if not self._rects or first >= len(self._rects):
            return
        last = min(last, len(self._rects) - 1)
        top = self._rects[first].top() - 28
        bottom = self._rects[last].bottom() + 28
        sb = self.verticalScrollBar()
        view_h = self.viewport().height()
        if top < sb.value():
            sb.setValue(int(top))
        elif bottom > sb.value() + view_h:
            sb.setValue(int(min(top, bottom - view_h)))

    def scrollContentsBy(self, dx: int, dy: int) -> None:
        self.viewport().update()

    # ------------------------------------------------------------------ painting
    def paintEvent(self, event) -> None:
        p = QPainter(self.viewport())
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.setRenderHint(QPainter.RenderHint.TextAntialiasing)
        if not self.conv or not self.conv.words:
            p.setPen(QColor(style.MUTED))
            msg = "No transcript yet — import one or run Tools ▸ Transcribe" if self.conv else \
                "Choose a conversation on the left"
            p.drawText(self.viewport().rect(), Qt.AlignmentFlag.AlignCenter, msg)
            return
        off = self.verticalScrollBar().value()
        p.translate(0, -off)
        top, bottom = off, off + self.viewport().height()
        first = max(0, bisect.bisect_right(self._line_tops, top) - 1)
        words = self.conv.words
        turns = self.conv.turns or self.conv.turns_from_speakers()
        speakers = sorted({t.speaker for t in turns})
        drag = None
        if self._drag is not None:
            drag = (min(self._drag), max(self._drag))
        elif self.selection is not None:
            drag = (self.selection[0], self.selection[1] - 1)
        last_turn = -1
        for ln in self._lines[first:]:
            if ln.top > bottom:
                break
            if ln.turn != last_turn:
                self._paint_turn_header(p, ln, turns[ln.turn], speakers)
                last_turn = ln.turn
            else:  # later lines of a long turn: their start time, small, beside the bar
                p.setFont(self.small)
                p.setPen(QColor("#afb8c1"))
                p.drawText(QRectF(MARGIN, ln.top + 4, GUTTER - MARGIN - 8, self.fm.height()),
                           Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                           style.fmt_time(words[ln.first].start))
            self._paint_line(p, ln, words, drag)
        for tag in self._tags:
            if tag.rect.bottom() >= top and tag.rect.top() <= bottom:
                span = self.spans[tag.span_index]
                if span.status != SpanStatus.REJECTED or self.show_rejected:
                    self._paint_tag(p, tag)
        p.end()

    def speaker_label(self, speaker: str) -> str:
        """A turn's label: the speaker's role when the name is just that (or a diarizer's id), else
        the name with the role beside it (a renamed speaker keeps its role)."""
        speakers = self.conv.meta.get("speakers") if self.conv else None
        role = speakers.get(speaker) if isinstance(speakers, dict) else None
        if isinstance(role, dict):
            role = role.get("role")
        if not isinstance(role, str) or not role:
            return speaker
        if role.lower() == speaker.lower() or speaker.startswith("SPEAKER_"):
            return role.capitalize()
        return f"{speaker} · {role}"

    def _paint_turn_header(self, p: QPainter, ln: _Line, turn, speakers: list[str]) -> None:
        colour = QColor(style.SPEAKER_COLOURS[speakers.index(turn.speaker) % len(style.SPEAKER_COLOURS)])
        label = self.speaker_label(turn.speaker)
        p.setFont(self.speaker_font)
        p.setPen(colour)
        fm = QFontMetrics(self.speaker_font)
        p.drawText(QPointF(MARGIN, ln.baseline), fm.elidedText(label, Qt.TextElideMode.ElideRight, GUTTER - 16))
        start = self.conv.words[ln.first].start
        p.setFont(self.small)
        p.setPen(QColor(style.MUTED))
        p.drawText(QPointF(MARGIN, ln.baseline + QFontMetrics(self.small).height() + 1), style.fmt_time(start, decimals=1))
        pen = QPen(colour, 3)
        p.setPen(pen)
        p.drawLine(QPointF(GUTTER, ln.top + 5), QPointF(GUTTER, ln.top + 5 + self.fm.height()))

    def _segments(self, ln: _Line) -> list[tuple[int, int, int]]:
        """(span index, first word, last word) runs of each span on one line."""
        out: list[tuple[int, int, int]] = []
        open_: dict[int, int] = {}
        for w in range(ln.first, ln.last + 2):
            here = set(self._word_spans[w]) if w <= ln.last else set()
            for si in list(open_):
                if si not in here:
                    out.append((si, open_.pop(si), w - 1))
            for si in here:
                open_.setdefault(si, w)
        return out

    def _paint_line(self, p: QPainter, ln: _Line, words, drag) -> None:
        rects = self._rects
        # drag selection
        if drag is not None and drag[0] <= ln.last and drag[1] >= ln.first:
            a, b = max(drag[0], ln.first), min(drag[1], ln.last)
            r = QRectF(rects[a].left() - 3, rects[a].top() - 2, rects[b].right() - rects[a].left() + 6,
                       rects[a].height() + 4)
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(QColor("#cfe0fc"))
            p.drawRoundedRect(r, 4, 4)
        # a place a list pointed at (export refusal, re-detection finding): amber fill under the words
        hl = self.highlight
        if hl is not None and hl[0] <= ln.last and hl[1] - 1 >= ln.first:
            a, b = max(hl[0], ln.first), min(hl[1] - 1, ln.last)
            r = QRectF(rects[a].left() - 5, rects[a].top() - 4, rects[b].right() - rects[a].left() + 10,
                       rects[a].height() + 8)
            p.setPen(QPen(QColor(style.FOUND), 2))
            p.setBrush(QColor(style.FOUND_FILL))
            p.drawRoundedRect(r, 5, 5)
        segments = self._segments(ln)
        # span backgrounds and frames
        for si, a, b in segments:
            span = self.spans[si]
            colour = style.category_colour(self.taxonomy, span.category)
            current = span.id == self.current_span_id
            r = QRectF(rects[a].left() - 3, rects[a].top() - 2, rects[b].right() - rects[a].left() + 6,
                       rects[a].height() + 4)
            if span.status == SpanStatus.REJECTED:
                p.setBrush(Qt.BrushStyle.NoBrush)
                pen = QPen(QColor("#afb8c1"), 1, Qt.PenStyle.DotLine)
            else:
                p.setBrush(style.span_fill(colour, span.status, current))
                pen = QPen(style.darker(colour, 120), 1,
                           Qt.PenStyle.DashLine if span.status == SpanStatus.SUGGESTED else Qt.PenStyle.SolidLine)
            if current:
                pen = QPen(QColor(style.INK), 2)
            p.setPen(pen)
            p.drawRoundedRect(r, 4, 4)
        # spoken word
        if self.playing_word is not None and ln.first <= self.playing_word <= ln.last:
            r = rects[self.playing_word].adjusted(-2, -1, 2, 1)
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(QColor(style.SPOKEN))
            p.drawRoundedRect(r, 3, 3)
        # words
        ink, muted, grey = QColor(style.INK), QColor(style.MUTED), QColor(style.LOW_CONFIDENCE)
        for w in range(ln.first, ln.last + 1):
            word = words[w]
            rejected_only = self._word_spans[w] and all(
                self.spans[si].status == SpanStatus.REJECTED for si in self._word_spans[w])
            if not word.aligned:
                p.setFont(self.italic)
                p.setPen(muted)
            else:
                p.setFont(self.font_)
                low = word.confidence is not None and word.confidence < LOW_CONFIDENCE
                p.setPen(grey if (low or rejected_only) else ink)
            p.drawText(QPointF(rects[w].left(), ln.baseline), word.text)
            if not word.aligned:  # dotted overline: the word's time is an estimate
                pen = QPen(QColor(style.UNALIGNED), 1.5, Qt.PenStyle.DotLine)
                p.setPen(pen)
                y = rects[w].top() + 1
                p.drawLine(QPointF(rects[w].left(), y), QPointF(rects[w].right(), y))
        # pattern underlines
        for si, a, b in segments:
            span = self.spans[si]
            if span.status == SpanStatus.REJECTED:
                continue
            colour = style.darker(style.category_colour(self.taxonomy, span.category), 135)
            style.draw_pattern_line(p, rects[a].left() - 1, rects[b].right() + 1, ln.baseline + 5, colour,
                                    style.category_pattern(self.taxonomy, span.category), 2.0)
        # reviewers' MISSED_ marks: a red wave under the words and a red frame around them
        for a, b, _tag in self._visible_missed():
            a, b = max(a, ln.first), min(b - 1, ln.last)
            if a > b:
                continue
            r = QRectF(rects[a].left() - 4, rects[a].top() - 3, rects[b].right() - rects[a].left() + 8,
                       rects[a].height() + 6)
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.setPen(QPen(QColor(style.MISSED), 1.5, Qt.PenStyle.DashDotLine))
            p.drawRoundedRect(r, 4, 4)
            style.draw_pattern_line(p, rects[a].left() - 1, rects[b].right() + 1, ln.baseline + 9,
                                    QColor(style.MISSED), "wave", 1.6)
        # cursor
        if self.cursor_word is not None and ln.first <= self.cursor_word <= ln.last:
            r = rects[self.cursor_word].adjusted(-3, -3, 3, 3)
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.setPen(QPen(QColor(style.ACCENT), 1.5))
            p.drawRoundedRect(r, 4, 4)

    def _paint_tag(self, p: QPainter, tag: _Tag) -> None:
        span = self.spans[tag.span_index]
        colour = style.category_colour(self.taxonomy, span.category)
        p.setFont(self.small_bold)
        text = self.fm_small.elidedText(tag.text, Qt.TextElideMode.ElideRight, int(tag.rect.width()) - 4)
        if span.status == SpanStatus.REJECTED:  # the slot stays (no re-wrap); a quiet dotted badge
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.setPen(QPen(QColor("#afb8c1"), 1, Qt.PenStyle.DotLine))
            p.drawRoundedRect(tag.rect, 6, 6)
            p.setPen(QColor("#8c959f"))
            p.drawText(tag.rect, Qt.AlignmentFlag.AlignCenter, text)
            return
        if span.status == SpanStatus.ACCEPTED:
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(style.darker(colour, 115))
            p.drawRoundedRect(tag.rect, 6, 6)
            p.setPen(QColor("#ffffff") if colour.lightness() < 170 else QColor(style.INK))
        else:
            fill = QColor(colour)
            fill.setAlpha(40)
            p.setBrush(fill)
            p.setPen(QPen(style.darker(colour, 130), 1, Qt.PenStyle.DashLine))
            p.drawRoundedRect(tag.rect, 6, 6)
            p.setPen(style.darker(colour, 170))
        p.drawText(tag.rect, Qt.AlignmentFlag.AlignCenter, text)

    # ------------------------------------------------------------------ tooltips
    def tooltip_html(self, index: int) -> str:
        word = self.conv.words[index]
        parts = [f"<b>{html.escape(word.text)}</b> &nbsp;<span style='color:{style.MUTED}'>"
                 f"{style.fmt_time(word.start, decimals=2)}–{style.fmt_time(word.end, decimals=2)}</span>"]
        if word.confidence is not None:
            parts.append(f"ASR confidence {word.confidence:.2f}")
        if not word.aligned:
            parts.append("<i>time estimated (word not aligned)</i>")
        for si in self._word_spans[index]:
            span = self.spans[si]
            try:
                label = self.taxonomy.get(span.category).label
            except KeyError:
                label = span.category
            colour = style.category_colour(self.taxonomy, span.category).name()
            parts.append(
                f"<hr><span style='color:{colour}'>■</span> <b>{html.escape(label)}</b> ({span.category})"
                f" — {span.status.value}<br>score {span.score:.2f}"
                + (f" · from {html.escape(', '.join(span.sources))}" if span.sources else "")
                + (f"<br><i>{html.escape(span.reason)}</i>" if span.reason else ""))
        for a, b, tag in self._visible_missed():
            if a <= index < b:
                parts.append(f"<hr><span style='color:{style.MISSED}'>■</span> <b>{html.escape(tag)}</b>"
                             " — marked missed by a reviewer")
        return "<br>".join(parts)

    def viewportEvent(self, event) -> bool:
        if event.type() == event.Type.ToolTip and self.conv:
            w = self.word_at(event.pos())
            tag = self.tag_at(event.pos())
            if tag is not None:
                w = self.spans[tag.span_index].start_word
            if w is not None:
                QToolTip.showText(event.globalPos(), self.tooltip_html(w), self.viewport())
            else:
                QToolTip.hideText()
            return True
        return super().viewportEvent(event)

    # ------------------------------------------------------------------ mouse
    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() != Qt.MouseButton.LeftButton or not self.conv:
            return super().mousePressEvent(event)
        self.setFocus()
        tag = self.tag_at(event.position())
        if tag is not None:
            self._press_word = None
            span = self.spans[tag.span_index]
            if span.id is not None:
                self.span_clicked.emit(span.id)
            return
        word = self.word_at(event.position())
        if word is not None and event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
            anchor = self.selection_anchor if self.selection is not None and self.selection_anchor is not None else (
                self.cursor_word if self.cursor_word is not None else word)
            self._press_word = None
            self._drag = None
            self.set_selection(min(anchor, word), max(anchor, word) + 1, anchor=anchor)
            self.range_selected.emit(min(anchor, word), max(anchor, word) + 1)
            return
        self._press_word = word
        self._drag = None

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if self._press_word is not None and event.buttons() & Qt.MouseButton.LeftButton:
            w = self.word_at(event.position(), nearest=True)
            if w is not None and (w != self._press_word or self._drag is not None):
                self._drag = (self._press_word, w)
                self.viewport().update()
        return super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if event.button() != Qt.MouseButton.LeftButton:
            return super().mouseReleaseEvent(event)
        drag, self._drag = self._drag, None
        press, self._press_word = self._press_word, None
        if drag is not None and drag[0] != drag[1]:
            a, b = min(drag), max(drag)
            self.viewport().update()
            self.span_requested.emit(a, b + 1)
        elif press is not None:
            self.word_clicked.emit(press)

    def contextMenuEvent(self, event) -> None:
        if not self.conv or not self.conv.words:
            return super().contextMenuEvent(event)
        pos = event.pos()
        if event.reason() == event.Reason.Keyboard and self.cursor_word is not None:  # Menu key, Shift+F10
            self.ensure_visible(self.cursor_word, self.cursor_word)
            r = self.word_rect(self.cursor_word)
            pos = r.center()
            self.context_requested.emit(self.cursor_word, self.turn_at(pos), self.viewport().mapToGlobal(
                r.bottomLeft()))
            event.accept()
            return
        tag = self.tag_at(pos)
        word = self.spans[tag.span_index].start_word if tag is not None else (
            self.word_at(pos) if pos.x() > GUTTER else None)
        turn = self.turn_at(pos)
        if word is None and turn is None:
            return super().contextMenuEvent(event)
        self.context_requested.emit(word, turn, event.globalPos())
        event.accept()

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:
        if event.button() != Qt.MouseButton.LeftButton or not self.conv:
            return super().mouseDoubleClickEvent(event)
        w = self.word_at(event.position())
        if w is not None:
            self._press_word = None
            self.span_requested.emit(w, w + 1)

    # ------------------------------------------------------------------ keys (review keys are actions)
    def keyPressEvent(self, event) -> None:
        if not self.conv or not self.conv.words:
            return super().keyPressEvent(event)
        n = len(self.conv.words)
        w = self.cursor_word if self.cursor_word is not None else -1
        key = event.key()
        if event.modifiers() in (Qt.KeyboardModifier.NoModifier, Qt.KeyboardModifier.KeypadModifier):
            target = None
            if key == Qt.Key.Key_Right:
                target = min(n - 1, w + 1)
            elif key == Qt.Key.Key_Left:
                target = max(0, w - 1)
            elif key in (Qt.Key.Key_Down, Qt.Key.Key_Up):
                target = self._word_on_next_line(max(0, w), 1 if key == Qt.Key.Key_Down else -1)
            elif key == Qt.Key.Key_Home:
                target = 0
            elif key == Qt.Key.Key_End:
                target = n - 1
            if target is not None:
                self.word_clicked.emit(target)
                return
        super().keyPressEvent(event)

    def _word_on_next_line(self, w: int, step: int) -> int:
        for i, ln in enumerate(self._lines):
            if ln.first <= w <= ln.last:
                j = i + step
                if 0 <= j < len(self._lines):
                    target = self._lines[j]
                    x = self._rects[w].center().x()
                    return min(range(target.first, target.last + 1),
                               key=lambda k: abs(self._rects[k].center().x() - x))
                return w
        return w

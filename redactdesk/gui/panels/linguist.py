"""Pseudonyms panel (linguist; read-only for reviewers): the conversation's original → surrogate map.

Lists every map entry with all the places it is said, lets a linguist edit a surrogate (it applies
to every linked occurrence: the name, its spelling, the e-mail built from it), lock it, regenerate
it, and link or unlink spans as one entity; shows the revised transcript beside the original with
the changed words marked (the two panes scroll together, turn by turn), and the revision warnings.
The list keeps its selection when it is rebuilt (after every change), so Apply after Regenerate acts
on the regenerated entry; Apply with nothing to apply says why in the status bar. Every change is an
undoable command that writes the audit log through the project (``put_pseudonyms(action=...)`` /
``update_span``).
"""

from __future__ import annotations

import html
import uuid
from typing import Any

from PySide6.QtCore import QSignalBlocker, Qt, QTimer
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QPushButton,
    QSplitter,
    QTextBrowser,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from redactdesk.core.types import Conversation, Decision
from redactdesk.gui.commands import ProjectCommand
from redactdesk.gui.panels import register_panel
from redactdesk.store import utc_now
from redactdesk.substitute import (
    SubstitutionError,
    SubstitutionResult,
    load_gazetteer,
    substitute_conversation,
)
from redactdesk.substitute.gazetteer import LISTS

KEY_ROLE = Qt.ItemDataRole.UserRole
SPAN_ROLE = Qt.ItemDataRole.UserRole + 1
MARK = "background-color:#fde2b8; text-decoration:underline; font-weight:600"


def compute(ctx: Any, conv: Conversation, salts: dict[str, str] | None = None) -> SubstitutionResult:
    """Substitute the current conversation with its stored map (no writes)."""
    project = ctx.project
    return substitute_conversation(conv, secret=project.secret, existing_map=project.pseudonyms(conv.id),
                                   gazetteer_edits=project.gazetteer_entries(conv.language),
                                   taxonomy=ctx.taxonomy, salts=salts)


class PutPseudonym(ProjectCommand):
    """Change one map row (edit, lock/unlock, regenerate); undo puts the old row back."""

    def __init__(self, ctx: Any, conversation_id: str, before: dict[str, Any], after: dict[str, Any],
                 action: str, text: str) -> None:
        super().__init__(ctx, text, conversation_id)
        self.action = action
        self.before = dict(before)
        self.after = dict(after)

    def apply(self, action: str) -> None:
        self.ctx.project.put_pseudonyms(self.conversation_id, [self.after], action=action)

    def revert(self, action: str) -> None:
        self.ctx.project.put_pseudonyms(self.conversation_id, [self.before], action=action)


class SetEntities(ProjectCommand):
    """Link spans as one entity (or unlink them): ``Span.entity`` of each span."""

    def __init__(self, ctx: Any, conversation_id: str, changes: dict[int, tuple[str | None, str | None]],
                 action: str, text: str) -> None:
        super().__init__(ctx, text, conversation_id)
        self.action = action
        self.changes = changes  # span id -> (old entity, new entity)

    def apply(self, action: str) -> None:
        with self.ctx.project.transaction():
            for sid, (_, new) in self.changes.items():
                self.ctx.project.update_span(sid, action=action, entity=new)

    def revert(self, action: str) -> None:
        with self.ctx.project.transaction():
            for sid, (old, _) in self.changes.items():
                self.ctx.project.update_span(sid, action=action, entity=old)


class SetSpanBounds(ProjectCommand):
    """Grow spans over a fragment of their original said beside them (auto-fix); undo restores them."""

    def __init__(self, ctx: Any, conversation_id: str, changes: dict[int, tuple[tuple[int, int], tuple[int, int]]],
                 text: str) -> None:
        super().__init__(ctx, text, conversation_id)
        self.changes = changes  # span id -> ((old start, old end), (new start, new end))

    def _set(self, which: int, action: str) -> None:
        with self.ctx.project.transaction():
            for sid, bounds in self.changes.items():
                start, end = bounds[which]
                self.ctx.project.update_span(sid, action=action, start_word=start, end_word=end)

    def apply(self, action: str) -> None:
        self._set(1, action)

    def revert(self, action: str) -> None:
        self._set(0, action)


class EditGazetteer(ProjectCommand):
    """Add an entry to (or remove one from) a project gazetteer list; undo restores its presence."""

    def __init__(self, ctx: Any, conversation_id: str | None, language: str, list_name: str, entry: str,
                 add: bool) -> None:
        super().__init__(ctx, f"{'Add to' if add else 'Remove from'} {list_name}", conversation_id)
        self.action = "gazetteer_add" if add else "gazetteer_remove"
        self.language, self.list_name, self.entry, self.add = language, list_name, entry, add
        gaz = load_gazetteer(language, ctx.project.gazetteer_entries(language))
        self.present_before = gaz.contains(list_name, entry)

    def _set(self, present: bool, action: str) -> None:
        project = self.ctx.project
        with project.transaction():
            project.set_gazetteer_entry(self.language, self.list_name, self.entry, "add" if present else "remove")
            # the log names the list, not the entry (a linguist might type a real name)
            project.log(Decision(action=action, actor=project.actor, role=project.role,
                                 at=utc_now(),
                                 conversation_id=self.conversation_id,
                                 after={"language": self.language, "list": self.list_name}))

    def apply(self, action: str) -> None:
        self._set(self.add, action)

    def revert(self, action: str) -> None:
        self._set(self.present_before, action)


def _transcript_html(words: list[str], marked: set[int], turns: list[tuple[str, int, int]]) -> str:
    lines = []
    for speaker, a, b in turns:
        out = []
        for i in range(a, b):
            w = html.escape(words[i])
            out.append(f'<span style="{MARK}">{w}</span>' if i in marked else w)
        lines.append(f"<p><b>{html.escape(speaker)}:</b> {' '.join(out)}</p>")
    return "".join(lines)


class LinguistPanel(QWidget):
    """See the module docstring. ``result`` holds the current substitution (None without a call)."""

    def __init__(self, ctx: Any) -> None:
        super().__init__()
        self.ctx = ctx
        self.result: SubstitutionResult | None = None
        self.rows: dict[str, dict[str, Any]] = {}
        self._regen = 0
        self._closed = False

        self.summary = QLabel()
        self.summary.setObjectName("muted")
        self.tree = QTreeWidget()
        self.tree.setObjectName("pseudonymTree")
        self.tree.setHeaderLabels(["Category", "Original", "Surrogate", "Said", "Locked"])
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.tree.setAlternatingRowColors(True)
        self.tree.itemSelectionChanged.connect(self._on_select)

        self.edit = QLineEdit()
        self.edit.setObjectName("surrogateEdit")
        self.edit.setPlaceholderText("new surrogate for the selected entry")
        self.edit.setMinimumWidth(160)
        self.edit.returnPressed.connect(self.apply_edit)
        self.apply_button = QPushButton("Apply")
        self.apply_button.setObjectName("applySurrogate")
        self.apply_button.clicked.connect(self.apply_edit)
        self.lock_button = QPushButton("Lock")
        self.lock_button.clicked.connect(self.toggle_lock)
        self.regen_button = QPushButton("Regenerate")
        self.regen_button.setObjectName("regenerateSurrogate")
        self.regen_button.clicked.connect(self.regenerate)
        self.link_button = QPushButton("Link spans")
        self.link_button.setToolTip("Make the selected entries' spans one entity (one surrogate)")
        self.link_button.clicked.connect(self.link_selected)
        self.unlink_button = QPushButton("Unlink")
        self.unlink_button.clicked.connect(self.unlink_selected)
        self.autofix_button = QPushButton("Auto-fix")
        self.autofix_button.setObjectName("autoFixWarnings")
        self.autofix_button.setToolTip("Resolve the revision warnings a rule can resolve (re-draw a surrogate, "
                                       "take a repeated fragment into its span); the rest stay listed")
        self.autofix_button.clicked.connect(self.auto_fix)
        edit_row = QHBoxLayout()  # the edit box on a row of its own: wide enough for a full name
        edit_row.addWidget(self.edit, 1)
        edit_row.addWidget(self.apply_button)
        bar = QGridLayout()  # two by two: the panel fits a narrow dock (a 1024 px window)
        for i, w in enumerate((self.lock_button, self.regen_button, self.link_button, self.unlink_button)):
            bar.addWidget(w, i // 2, i % 2)
        bar.setColumnStretch(2, 1)

        self.original_view = QTextBrowser()
        self.original_view.setObjectName("originalTranscript")
        self.revised_view = QTextBrowser()
        self.revised_view.setObjectName("revisedTranscript")
        side = QSplitter(Qt.Orientation.Horizontal)
        for title, view in (("Original", self.original_view), ("Revised", self.revised_view)):
            box = QWidget()
            lay = QVBoxLayout(box)
            lay.setContentsMargins(0, 0, 0, 0)
            lay.addWidget(QLabel(title))
            lay.addWidget(view)
            side.addWidget(box)
        self._scroll_syncing = False
        for src, dst in ((self.original_view, self.revised_view), (self.revised_view, self.original_view)):
            src.verticalScrollBar().valueChanged.connect(lambda _v, a=src, b=dst: self._follow_scroll(a, b))
        self.warnings = QListWidget()
        self.warnings.setObjectName("revisionWarnings")
        self.warnings.itemActivated.connect(self._jump_warning)

        self.list_choice = QComboBox()
        self.list_choice.setObjectName("gazetteerList")
        self.list_choice.addItems([n for n in LISTS if n not in ("street_types", "address_words", "org_words",
                                                                 "titles", "post_nominals")])
        self.list_entry = QLineEdit()
        self.list_entry.setPlaceholderText("gazetteer entry (surrogates are drawn from these lists)")
        self.list_add = QPushButton("Add to list")
        self.list_add.clicked.connect(lambda: self.edit_gazetteer(True))
        self.list_remove = QPushButton("Remove from list")
        self.list_remove.clicked.connect(lambda: self.edit_gazetteer(False))
        self.list_entry.setMinimumWidth(120)
        gaz_bar = QWidget()
        gl = QVBoxLayout(gaz_bar)
        gl.setContentsMargins(0, 0, 0, 0)
        row1, row2 = QHBoxLayout(), QHBoxLayout()
        row1.addWidget(self.list_choice)
        row1.addWidget(self.list_entry, 1)
        row2.addStretch(1)
        row2.addWidget(self.list_add)
        row2.addWidget(self.list_remove)
        gl.addLayout(row1)
        gl.addLayout(row2)
        bottom = QWidget()
        bl = QVBoxLayout(bottom)
        bl.setContentsMargins(0, 0, 0, 0)
        warn_row = QHBoxLayout()
        warn_row.addWidget(QLabel("Revision warnings"), 1)
        warn_row.addWidget(self.autofix_button)
        bl.addLayout(warn_row)
        bl.addWidget(self.warnings)
        bl.addWidget(gaz_bar)

        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.tree)
        split.addWidget(side)
        split.addWidget(bottom)
        for i, stretch in enumerate((3, 4, 1)):
            split.setStretchFactor(i, stretch)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        self.summary.setWordWrap(True)
        lay.addWidget(self.summary)
        lay.addLayout(edit_row)
        lay.addLayout(bar)
        lay.addWidget(split)

        self._timer = QTimer(self, singleShot=True, interval=50)
        self._timer.timeout.connect(self.refresh)
        ctx.conversation_changed.connect(self._timer.start)
        ctx.spans_changed.connect(self._timer.start)
        ctx.role_changed.connect(self.on_role_changed)
        if hasattr(ctx, "closing"):
            ctx.closing.connect(self._close)
        self.refresh()

    # ------------------------------------------------------------------ state
    @property
    def editable(self) -> bool:
        return bool(self.ctx.can("edit_pseudonyms"))

    def on_role_changed(self, role: str) -> None:
        self._update_buttons()

    def _close(self) -> None:
        self._closed = True
        self._timer.stop()
        for sig in (self.ctx.conversation_changed, self.ctx.spans_changed):
            sig.disconnect(self._timer.start)

    def refresh(self) -> None:
        """Re-run substitution for the current conversation and redraw everything."""
        if self._closed:
            return
        conv = self.ctx.conversation
        keep = self._selection()
        self.tree.clear()
        self.warnings.clear()
        self.result = None
        if conv is None:
            self.summary.setText("No conversation open")
            self.original_view.clear()
            self.revised_view.clear()
            self._update_buttons()
            return
        try:
            self.result = compute(self.ctx, conv)
        except SubstitutionError as exc:
            self.summary.setText(f"Cannot substitute: {exc}")
            self._update_buttons()
            return
        if self.editable:  # keep the map in the project file so every edit has a row to undo to
            stored = {r["key"]: r for r in self.ctx.project.pseudonyms(conv.id)}
            new = [r for r in self.result.map_rows if stored.get(r["key"], {}).get("surrogate") != r["surrogate"]
                   or bool(stored.get(r["key"], {}).get("locked")) != bool(r["locked"])]
            if new:
                self.ctx.project.put_pseudonyms(conv.id, new)
        self.rows = {r["key"]: r for r in self.result.map_rows}
        self._fill_tree()
        self._restore_selection(keep)
        self._fill_transcripts(conv)
        for w in self.result.warnings:
            self.warnings.addItem(f"{w.kind}: {w.message}")
            self.warnings.item(self.warnings.count() - 1).setData(KEY_ROLE, w.span_ids[0] if w.span_ids else None)
            self.warnings.item(self.warnings.count() - 1).setData(SPAN_ROLE, w.item_key or None)
        n_items = sum(1 for it in self.result.items if it.occurrences)
        self.summary.setText(f"{conv.id}: {n_items} entries, {len(self.result.replacements)} replacements, "
                             f"{len(self.result.warnings)} warnings" + ("" if self.editable else " (read only)"))
        self._update_buttons()

    def _fill_tree(self) -> None:
        assert self.result is not None
        for it in self.result.items:
            if not it.occurrences:
                continue
            said = sorted({o.said_surrogate for o in it.occurrences})
            top = QTreeWidgetItem([it.category, it.original, it.surrogate, f"{len(it.occurrences)}×",
                                   "🔒" if it.locked else ""])
            top.setData(0, KEY_ROLE, it.key)
            top.setToolTip(2, " / ".join(said))
            top.setToolTip(1, it.original)  # the column may be cut short in a narrow dock
            for o in it.occurrences:
                child = QTreeWidgetItem([o.form, o.said_original, o.said_surrogate, f"span {o.span_id}", ""])
                child.setData(0, KEY_ROLE, it.key)
                child.setData(0, SPAN_ROLE, o.span_id)
                top.addChild(child)
            self.tree.addTopLevelItem(top)
        for col in range(4):
            self.tree.resizeColumnToContents(col)
        self._fit_columns()

    def _fit_columns(self) -> None:
        """In a narrow dock the Original column gives way so the Surrogate column stays in view."""
        room = self.tree.viewport().width() - self.tree.columnWidth(0)
        cap = max(70, int(room * 0.45))
        for col in (1, 2):
            if self.tree.columnWidth(col) > cap:
                self.tree.setColumnWidth(col, cap)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if self.tree.topLevelItemCount():
            for col in (1, 2):
                self.tree.resizeColumnToContents(col)
            self._fit_columns()

    def _fill_transcripts(self, conv: Conversation) -> None:
        assert self.result is not None
        orig_marked: set[int] = set()
        rev_marked: set[int] = set()
        for r in self.result.replacements:  # mark the words that changed (all of them when the count differs)
            before = [w.text.lower() for w in conv.words[r.start_word:r.end_word]]
            after = [w.text.lower() for w in self.result.revised_words[r.revised_start:r.revised_end]]
            if len(before) == len(after):
                diff = [k for k, (x, y) in enumerate(zip(before, after, strict=True)) if x != y]
            else:
                diff = list(range(max(len(before), len(after))))
            orig_marked.update(r.start_word + k for k in diff if k < len(before))
            rev_marked.update(r.revised_start + k for k in diff if k < len(after))
        turns = [(t.speaker, t.start_word, t.end_word) for t in conv.turns] or [("", 0, len(conv.words))]
        rturns = [(t.speaker, t.start_word, t.end_word) for t in self.result.revised_turns] or [
            ("", 0, len(self.result.revised_words))]
        self.original_view.setHtml(_transcript_html([w.text for w in conv.words], orig_marked, turns))
        self.revised_view.setHtml(_transcript_html([w.text for w in self.result.revised_words], rev_marked, rturns))

    # ------------------------------------------------------------------ scrolling together
    def _follow_scroll(self, src: QTextBrowser, dst: QTextBrowser) -> None:
        """Scroll ``dst`` to the same turn (and the same place in it) as ``src``: turns are paragraphs
        in both panes, but revised turns can be longer or shorter, so plain proportions drift."""
        if self._scroll_syncing:
            return
        sb, db = src.verticalScrollBar(), dst.verticalScrollBar()
        y = sb.value()
        if sb.maximum() and y >= sb.maximum():
            value = db.maximum()
        else:
            doc = src.document()
            layout = doc.documentLayout()
            block, frac = doc.begin(), 0.0
            while block.isValid():
                r = layout.blockBoundingRect(block)
                if r.bottom() > y:
                    frac = (y - r.top()) / r.height() if r.height() else 0.0
                    break
                block = block.next()
            target = dst.document().findBlockByNumber(block.blockNumber()) if block.isValid() else None
            if target is not None and target.isValid() and doc.blockCount() == dst.document().blockCount():
                r = dst.document().documentLayout().blockBoundingRect(target)
                value = round(r.top() + max(0.0, frac) * r.height())
            else:
                value = round(y / sb.maximum() * db.maximum()) if sb.maximum() else 0
        self._scroll_syncing = True
        try:
            db.setValue(value)
        finally:
            self._scroll_syncing = False

    # ------------------------------------------------------------------ selection
    def _selection(self) -> tuple[list[str], list[int], set[str]]:
        """(selected entry keys, selected occurrence span ids, keys selected as whole entries)."""
        whole = {i.data(0, KEY_ROLE) for i in self.tree.selectedItems() if i.data(0, SPAN_ROLE) is None}
        spans = [int(i.data(0, SPAN_ROLE)) for i in self.tree.selectedItems() if i.data(0, SPAN_ROLE) is not None]
        return self.selected_keys(), spans, whole

    def _restore_selection(self, keep: tuple[list[str], list[int], set[str]]) -> None:
        """Select again what was selected before the list was rebuilt (keys and occurrences)."""
        _keys, spans, whole = keep
        if not spans and not whole:
            return
        first = None
        with QSignalBlocker(self.tree):
            for i in range(self.tree.topLevelItemCount()):
                top = self.tree.topLevelItem(i)
                if top.data(0, KEY_ROLE) in whole:
                    top.setSelected(True)
                    first = first or top
                for j in range(top.childCount()):
                    child = top.child(j)
                    if child.data(0, SPAN_ROLE) is not None and int(child.data(0, SPAN_ROLE)) in spans:
                        child.setSelected(True)
                        first = first or child
            if first is not None:
                self.tree.setCurrentItem(first, 0, self.tree.selectionModel().SelectionFlag.NoUpdate)
        self._update_buttons()

    def selected_keys(self) -> list[str]:
        return list(dict.fromkeys(i.data(0, KEY_ROLE) for i in self.tree.selectedItems() if i.data(0, KEY_ROLE)))

    def selected_span_ids(self) -> list[int]:
        ids: list[int] = []
        for item in self.tree.selectedItems():
            sid = item.data(0, SPAN_ROLE)
            if sid is not None:
                ids.append(int(sid))
            else:
                ids += [int(item.child(j).data(0, SPAN_ROLE)) for j in range(item.childCount())
                        if item.child(j).data(0, SPAN_ROLE) is not None]
        return list(dict.fromkeys(ids))

    def select_key(self, key: str) -> None:
        for i in range(self.tree.topLevelItemCount()):
            item = self.tree.topLevelItem(i)
            if item.data(0, KEY_ROLE) == key:
                self.tree.setCurrentItem(item)
                return
        raise KeyError("no such pseudonym entry in this conversation")

    def _on_select(self) -> None:
        keys = self.selected_keys()
        if len(keys) == 1 and keys[0] in self.rows:
            self.edit.setText(self.rows[keys[0]]["surrogate"])
        items = self.tree.selectedItems()
        if len(items) == 1 and items[0].data(0, SPAN_ROLE) is not None:
            self.ctx.select(int(items[0].data(0, SPAN_ROLE)))
        self._update_buttons()

    def _jump_warning(self, item) -> None:
        """Open the warning at its item: the entry in the list and its span in the review."""
        key = item.data(SPAN_ROLE)
        if key:
            try:
                self.select_key(key)
            except KeyError:
                pass
        sid = item.data(KEY_ROLE)
        if sid is not None:
            self.ctx.select(int(sid))

    def _update_buttons(self) -> None:
        one = len(self.selected_keys()) == 1 and self.editable
        self.edit.setReadOnly(not self.editable)
        for b in (self.lock_button, self.regen_button):
            b.setEnabled(one)
        self.apply_button.setEnabled(self.editable)  # always clickable: says why when there is nothing to do
        self.apply_button.setToolTip("" if one else "Select one entry in the list to give it this surrogate")
        if one:
            self.lock_button.setText("Unlock" if self.rows.get(self.selected_keys()[0], {}).get("locked") else "Lock")
        self.link_button.setEnabled(self.editable and len(self.selected_span_ids()) > 1)
        for w in (self.list_add, self.list_remove):
            w.setEnabled(self.editable)
        self.list_entry.setReadOnly(not self.editable)
        self.unlink_button.setEnabled(self.editable and bool(self.selected_span_ids()))
        self.autofix_button.setEnabled(self.editable and bool(self.result and self.result.warnings))

    # ------------------------------------------------------------------ actions
    def _row(self) -> dict[str, Any] | None:
        keys = self.selected_keys()
        if len(keys) != 1 or keys[0] not in self.rows or self.ctx.conversation is None:
            return None
        stored = {r["key"]: r for r in self.ctx.project.pseudonyms(self.ctx.conversation.id)}
        row = stored.get(keys[0], self.rows[keys[0]])
        return {k: row[k] for k in ("key", "category", "original", "surrogate", "locked")}

    def _push(self, before: dict[str, Any], after: dict[str, Any], action: str, text: str) -> bool:
        assert self.ctx.conversation is not None
        return self.ctx.push_command(PutPseudonym(self.ctx, self.ctx.conversation.id, before, after, action, text))

    def apply_edit(self, text: str | None = None) -> bool:
        """Give the selected entry a new surrogate (every linked occurrence follows); undoable.
        When there is nothing to apply the status bar says why."""
        row = self._row()
        value = (self.edit.text() if text is None or isinstance(text, bool) else text).strip()
        why = None
        if not self.editable:
            why = f"The {self.ctx.role.value} role sees the pseudonyms read only"
        elif row is None:
            why = ("Nothing applied: select one entry in the list first (the surrogate replaces that entry's)"
                   if len(self.selected_keys()) != 1 else "Nothing applied: the entry is gone — select it again")
        elif not value:
            why = "Nothing applied: type the new surrogate first"
        elif value == row["surrogate"]:
            why = f"Nothing applied: “{value}” is already the surrogate"
        if why is not None:
            self.ctx.status(why, 6000)
            return False
        key = row["key"]
        ok = self._push(row, {**row, "surrogate": value}, "pseudonym_edit", f"Edit {row['category']} surrogate")
        self._reselect(key)
        return ok

    def toggle_lock(self) -> bool:
        row = self._row()
        if row is None or not self.editable:
            return False
        locked = not bool(row["locked"])
        ok = self._push(row, {**row, "locked": locked}, "pseudonym_lock" if locked else "pseudonym_unlock",
                        f"{'Lock' if locked else 'Unlock'} {row['category']} surrogate")
        self._reselect(row["key"])
        return ok

    def regenerate(self) -> bool:
        """Draw another surrogate for the selected entry (refused when it is locked)."""
        row = self._row()
        conv = self.ctx.conversation
        if row is None or conv is None or not self.editable:
            return False
        if row["locked"]:
            self.ctx.status("Unlock the entry before regenerating it")
            return False
        existing = [r for r in self.ctx.project.pseudonyms(conv.id) if r["key"] != row["key"]]
        new_value = row["surrogate"]
        for _ in range(20):
            self._regen += 1
            res = substitute_conversation(conv, secret=self.ctx.project.secret, existing_map=existing,
                                          gazetteer_edits=self.ctx.project.gazetteer_entries(conv.language),
                                          taxonomy=self.ctx.taxonomy, salts={row["key"]: f"regen{self._regen}"},
                                          check=False)
            new_value = next((r["surrogate"] for r in res.map_rows if r["key"] == row["key"]), row["surrogate"])
            if new_value != row["surrogate"]:
                break
        if new_value == row["surrogate"]:
            self.ctx.status("No other surrogate fits this entry")
            return False
        ok = self._push(row, {**row, "surrogate": new_value}, "pseudonym_regenerate",
                        f"Regenerate {row['category']} surrogate")
        self._reselect(row["key"])
        return ok

    def auto_fix(self) -> bool:
        """Resolve what a rule can resolve (``substitute.autofix``), as undoable commands; the status
        bar says how many warnings are left for the linguist."""
        conv = self.ctx.conversation
        if conv is None or self.result is None or not self.editable:
            return False
        from redactdesk.substitute.autofix import plan_fixes

        project = self.ctx.project
        stored = project.pseudonyms(conv.id)
        plan = plan_fixes(conv, self.result, secret=project.secret, existing_map=stored,
                          gazetteer_edits=project.gazetteer_entries(conv.language), taxonomy=self.ctx.taxonomy)
        rows = {r["key"]: r for r in stored}
        done = 0
        for key, row in plan.surrogates.items():
            before = rows.get(key, {**row, "surrogate": self.rows.get(key, row)["surrogate"]})
            before = {k: before[k] for k in ("key", "category", "original", "surrogate", "locked")}
            if before["surrogate"] != row["surrogate"]:
                done += bool(self._push(before, row, "pseudonym_autofix", f"Auto-fix {row['category']} surrogate"))
        spans = {s.id: s for s in conv.spans}
        bounds = {sid: ((spans[sid].start_word, spans[sid].end_word), b) for sid, b in plan.span_bounds.items()
                  if sid in spans}
        if bounds:
            done += bool(self.ctx.push_command(SetSpanBounds(self.ctx, conv.id, bounds,
                                                             f"Auto-fix: grow {len(bounds)} span(s)")))
        self.refresh()
        left = len(self.result.warnings) if self.result else 0
        self.ctx.status(f"Auto-fix: {done} change(s); {left} warning(s) left for you to look at", 8000)
        return done > 0

    def link_selected(self) -> bool:
        conv = self.ctx.conversation
        ids = self.selected_span_ids()
        if conv is None or len(ids) < 2 or not self.editable:
            return False
        spans = {s.id: s for s in conv.spans}
        entity = next((spans[i].entity for i in ids if i in spans and spans[i].entity), None) or (
            f"entity-{uuid.uuid4().hex[:8]}")
        changes = {i: (spans[i].entity, entity) for i in ids if i in spans and spans[i].entity != entity}
        if not changes:
            return False
        return self.ctx.push_command(SetEntities(self.ctx, conv.id, changes, "link_entity",
                                                 f"Link {len(ids)} spans"))

    def unlink_selected(self) -> bool:
        conv = self.ctx.conversation
        ids = self.selected_span_ids()
        if conv is None or not ids or not self.editable:
            return False
        spans = {s.id: s for s in conv.spans}
        changes = {i: (spans[i].entity, None) for i in ids if i in spans and spans[i].entity}
        if not changes:
            return False
        return self.ctx.push_command(SetEntities(self.ctx, conv.id, changes, "unlink_entity",
                                                 f"Unlink {len(changes)} spans"))

    def edit_gazetteer(self, add: bool, list_name: str | None = None, entry: str | None = None) -> bool:
        """Add (or remove) a project gazetteer entry for the current conversation's language."""
        if not self.editable:
            return False
        name = list_name or self.list_choice.currentText()
        text = (entry if entry is not None else self.list_entry.text()).strip()
        language = self.ctx.conversation.language if self.ctx.conversation is not None else "en"
        if not text or name not in LISTS:
            return False
        cid = self.ctx.conversation.id if self.ctx.conversation is not None else None
        ok = self.ctx.push_command(EditGazetteer(self.ctx, cid, language, name, text, add))
        if ok:
            self.list_entry.clear()
        return ok

    def _reselect(self, key: str) -> None:
        self.refresh()
        try:
            self.select_key(key)
        except KeyError:
            return
        self._on_select()  # the edit box shows the entry's surrogate as it is now


register_panel("pseudonyms", "Pseudonyms", LinguistPanel, roles=("linguist", "reviewer"), area="right", order=30)

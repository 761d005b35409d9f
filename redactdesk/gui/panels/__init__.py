"""Side panels: a small registry the main window builds its docks from.

To add a panel, create a module in this package (any name not starting with ``_``) that calls
:func:`register_panel` at import time::

    from redactdesk.gui.panels import register_panel

    def make_my_panel(ctx):            # ctx: redactdesk.gui.context.AppContext
        w = MyPanel(ctx)               # a QWidget; connect to ctx.conversation_changed,
        return w                       # ctx.spans_changed, ctx.selection_changed, ...

    register_panel("pseudonyms", "Pseudonyms", make_my_panel,
                   roles=("linguist", "reviewer"), area="right", order=30)

The main window imports every module here (:func:`discover`), then creates one dock per panel the
current role may see, in ``order``; an import error in one panel module is reported in the status
bar and the others still load. ``area`` is "right", "left" or "bottom"; panels in the same area
are tabbed. Panels change project data only through commands (``ctx.push_command``) and run long
work with ``ctx.run_job`` (see :mod:`redactdesk.gui.context`).

A panel widget may define ``on_role_changed(role)``; it is called when the user switches role
(panels the new role may not see are hidden, newly allowed ones created). To make the keyboard
review keys (J/K/A/X/S/1-9/Space...) work while the panel has focus, set ``review_keys = True`` on
the widget (the whole panel) or ``review_keys_target = some_child`` (e.g. a list, not its search box).

The window puts every panel in a frameless scroll area (a dock narrower than the panel scrolls
instead of widening the window; keep panels about 280 px wide at their minimum: fields on rows of
their own, word-wrapped labels, combo boxes that elide). After a click on a panel's button or an
activated list row the keyboard goes back to the transcript, and after a dialog a panel opened
closes; a panel that moves the user somewhere by other means calls ``ctx.focus_review()``. Esc in a
panel without review keys does the same, and the status bar says where keys go meanwhile.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from redactdesk.core.types import Role
from redactdesk.gui.roles import ALL_ROLES, as_role

if TYPE_CHECKING:
    from PySide6.QtWidgets import QWidget

    from redactdesk.gui.context import AppContext

AREAS = ("right", "left", "bottom")


@dataclass(frozen=True)
class PanelSpec:
    """One registered panel."""

    id: str
    title: str
    factory: Callable[[AppContext], QWidget]
    roles: tuple[Role, ...]
    area: str = "right"
    order: int = 100

    def allowed(self, role: Role | str) -> bool:
        return as_role(role) in self.roles


_REGISTRY: dict[str, PanelSpec] = {}
_LOAD_ERRORS: dict[str, str] = {}


def register_panel(id: str, title: str, factory: Callable[[Any], Any],
                   roles: Iterable[Role | str] = ALL_ROLES, area: str = "right", *,
                   order: int = 100) -> PanelSpec:
    """Register (or replace) the panel ``id``; ``factory(ctx)`` returns its QWidget."""
    if area not in AREAS:
        raise ValueError(f"panel {id!r}: area must be one of {AREAS}, not {area!r}")
    role_tuple = tuple(as_role(r) for r in roles)
    if not role_tuple:
        raise ValueError(f"panel {id!r}: give at least one role")
    spec = PanelSpec(id=id, title=title, factory=factory, roles=role_tuple, area=area, order=order)
    _REGISTRY[id] = spec
    return spec


def unregister_panel(id: str) -> None:
    _REGISTRY.pop(id, None)


def registered_panels() -> list[PanelSpec]:
    return sorted(_REGISTRY.values(), key=lambda s: (s.order, s.id))


def panels_for_role(role: Role | str) -> list[PanelSpec]:
    return [s for s in registered_panels() if s.allowed(role)]


def discover() -> dict[str, str]:
    """Import every panel module of this package; returns {module: error} for those that failed."""
    for info in pkgutil.iter_modules(__path__):
        if info.name.startswith("_") or info.name in _LOAD_ERRORS:
            continue
        try:
            importlib.import_module(f"{__name__}.{info.name}")
        except Exception as exc:  # one broken panel must not keep the window from opening
            _LOAD_ERRORS[info.name] = f"{type(exc).__name__}: {exc}"
    return dict(_LOAD_ERRORS)

"""The desktop app (PySide6 + pyqtgraph): the only package that imports Qt.

Entry points: :func:`redactdesk.gui.app.run` and :func:`redactdesk.gui.app.build_main_window`.
Side panels plug in through :mod:`redactdesk.gui.panels`; shared state is
:class:`redactdesk.gui.context.AppContext`; every change is a command in :mod:`redactdesk.gui.commands`.
Importing this package does not import Qt (``peaks``, ``roles`` and ``review_queue`` are Qt-free).
"""

"""The one door for PySide6, shiboken6 and qasync workarounds.

Everything here works around the binding or the event-loop bridge, not the app's own logic. Each
workaround has its measured reason beside it and the versions it was measured on (PySide6 and
shiboken6 6.11.3, qasync 0.28.0, Python 3.11, unless its note says otherwise), and
``tests/qt_compat/`` has a test per workaround showing it still does what it claims, and where
possible that the quirk behind it is still there. On an upgrade: run those tests, measure again,
and remove what is no longer needed.

==================  ============================================================================
``pyside_import``   PySide's source probe answered for the modules already loaded
``support_code``    PySide's own support modules (compiled from source at every first import
                    of PySide, ~130 M instructions) compiled once, their code kept beside ours
``quick_enums``     PySide's Python enums (made at a Qt class's first use, ~190 classes and
                    ~3,000 members before the first paint) made in one pass, as Python makes them
``lifetime``        parentless Qt objects deleted on the GUI thread (``delete_later``), and
                    ``is_alive`` (the one use of shiboken6)
``event_loop``      asyncio joined to the running Qt loop late (``LateEventLoop``), closing a qasync
                    loop by hand (``release_loop``), its async-generator finalizer; the one place
                    that imports qasync
``item_models``     roles as plain ints in ``data()``; the layout signals of a sort with their hint;
                    ``guarded``: a ``data()`` that raises marks its cell (⚠, the error as tooltip)
                    and logs, instead of leaving the error pending to end the process later
``lazy_classes``    Qt classes a later layout makes (``QStyle``: ~500 enum members) made ahead, a
                    class per step of an idle job
``icons``           toolbar icons from the theme or Qt's images, not ``QStyle`` (its enums)
``clipboard``       ``put_mime_data``: rich content made in Python put on the clipboard, cleared
                    by an exit handler (left there, Qt's exit handler crashed the process)
``fast_exit``       ``leave``: no interpreter teardown at exit; imports no Qt, every CLI
                    command ends through it
``fault_hooks``     exceptions PySide hands to ``sys.excepthook`` (a slot's, an override's: it
                    goes on after them), other threads' and Qt's critical messages
                    (``qInstallMessageHandler``) sent to one function, chained and put back
``paint_threads``   Qt's raster fills on the painting thread (``QT_NO_GUI_THREADPOOL``): the first
                    paint handed tall fills to two pool threads and waited on them ~400 times
``platform_check``  a platform plugin that cannot load (no display, missing xcb libraries): one
                    paragraph and exit 2 instead of Qt's abort; checked before Qt is imported
                    (no child process; ``shared_libs`` reads the plugin's ELF needs) and
                    caught by a fatal-message handler around the QApplication's construction
==================  ============================================================================

Patterns the Qt layer follows where they apply (habits, not helpers; measured on the same versions,
the figures in docs/decisions.md, "Start-up and Qt"). PySide6 creates a Qt class's Python enums when
the class is first used, so the first screen avoids what it does not show:

* no Python event filter on a widget shown at start-up: override its handler (``keyPressEvent``,
  ``paintEvent``) instead; a filter receives every event, and converting each to its Python type
  made PySide create ~40 event types and their enums (``ui/finder/query_box.py``,
  ``ui/browse/table_view.py``). The same for any Python method handed a plain ``QEvent``
  (``QWidget.event``, ``changeEvent``): a typed handler (``resizeEvent``) or a signal instead
  (``ui/shell/tab_titles.CountTabs``, the window's ``paletteChanged``), a panel's filter installed
  when it is first shown (``ui/common/panels.py``);
* no slot taking the ``QObject*`` of ``destroyed``: PySide looks up its most derived type, which
  created every QtCore type not made yet (``lifetime.delete_later``);
* a ``QColor``, not a ``QBrush``, for greyed rows (QBrush's constructors made QGradient's and
  QImage's enums; ``ui/browse/table_model.py``); the offline banner's bold title by style sheet,
  not a ``QFont`` (``ui/sync/banner.py``);
* classes with many enums imported where first used: dialogs (``QFileDialog``, ``QMessageBox``:
  ``ui/shell/dialogs.py``), ``QPainter`` (``ui/browse/markers.py``).

``tests/ui/shell/test_app.py`` checks which Qt classes exist when the window is ready and after it
closed; this package's imports are enforced by the contracts in ``pyproject.toml``: the Qt layer
imports shiboken6 and qasync only through here, and nothing here imports the Qt layer.
"""

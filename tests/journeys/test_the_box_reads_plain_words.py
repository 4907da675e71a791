"""Plain words typed as people ask (issue 36): the box reads them into conditions, shows them under
it as chips a click removes, the equivalent query beside them, "search these words instead", a
typo's "Did you mean …?"; a kind word shows its tab; a saved search keeps the equivalent query.
The rows are always those of the formal query written by hand."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QLabel, QToolButton

from catalogue_desktop.core.listing.rows import column_index
from catalogue_desktop.core.records.kinds import OCCASIONS, Kind
from tests.journeys.hands import click_tab, key, type_query, when_dialog_opens
from tests.ui.shared_window import *  # noqa: F403 (the shared window's fixtures)
from tests.ui.shared_window import as_started, assert_as_started, put_back, window_state


@pytest.fixture
def session(demo_shown: tuple[Any, dict[str, Any]], qloop: Any) -> Any:
    """The shared window as its start showed it (``put_back``), asserted equal to the window's
    state after its start. (The two tests that save a search keep a window of their own: the
    book is the store's.)"""
    return as_started(demo_shown)


def test_what_a_test_leaves_is_put_back(session: Any, demo_shown: tuple[Any, dict[str, Any]]) -> None:
    """What the tests here leave in the shared window is put back before the next: the tab the
    words named with the status line saying so, a sort in words, the words searched as typed.
    Each differs from the start's state (the check can fail), and ``put_back`` undoes them."""
    fresh = demo_shown[1]
    window = session.window
    click_tab(window, Kind.EXPERTS)
    type_query(window, "most expensive courses")
    assert window.statusBar().currentMessage()
    _click(_link(window, "reading-words"))
    left = window_state(session)
    for fact in ("tab", "query", "status line", "words as typed"):
        assert left[fact] != fresh[fact], fact
    put_back(session, fresh)
    assert_as_started(session, fresh)


def _ids(tab: Any) -> list[int]:
    return sorted(tab.model.record_id(r) for r in range(tab.model.rowCount()))


def _chips(window: Any) -> list[QToolButton]:
    """The chips under the box, as shown, left to right."""
    shown = [c for c in window.findChildren(QToolButton, "reading-chip") if c.isVisible()]
    return sorted(shown, key=lambda c: c.mapTo(window, c.rect().topLeft()).x())


def _link(window: Any, name: str) -> QToolButton:
    found: QToolButton = window.findChild(QToolButton, name)
    return found


def _click(button: QToolButton) -> None:
    assert button.isVisible(), button.text()
    QTest.mouseClick(button, Qt.MouseButton.LeftButton)
    QApplication.processEvents()


def _chip(window: Any, *words: str) -> QToolButton:
    """The chip whose label holds one of ``words``."""
    return next(c for c in _chips(window) if any(w in c.text() for w in words))


def _formal_rows(window: Any, kind: Any, query: str) -> list[int]:
    tab = click_tab(window, kind)
    type_query(window, query)
    assert window.current_kind() is kind
    return _ids(tab)


def test_texas_courses_under_1500_shows_the_courses_tab_with_its_rows_and_chips(session: Any) -> None:
    window = session.window
    window.show()
    wanted = _formal_rows(window, Kind.COURSES, "state:TX fee:<1500")
    assert wanted and len(wanted) < window.current_tab().model.total_count()
    click_tab(window, Kind.EXPERTS)  # (on Dates, "courses" is the courses' dates: the tab stays)
    type_query(window, "texas courses under 1500")
    assert window.current_kind() is Kind.COURSES  # the kind word chose the tab
    assert _ids(window.current_tab()) == wanted
    labels = [c.text() for c in _chips(window)]
    assert len(labels) == 3, labels
    assert "Texas" in labels[0] and "Courses" in labels[1] and "1,500" in labels[2], labels
    assert all(label.endswith("×") for label in labels)
    equivalent = window.query_box.reading.query
    assert "state:" in equivalent and "fee:<1500" in equivalent.replace(",", ""), equivalent
    assert window.findChild(QLabel, "reading-query").full == equivalent  # shown small, beside the chips
    assert window.query_box.parsed.text == equivalent  # what the tables show
    assert window.query_box.text() == "texas courses under 1500"  # the box keeps what was typed


def test_enter_shows_the_tab_the_words_name_again(session: Any) -> None:
    window = session.window
    window.show()
    click_tab(window, Kind.EXPERTS)
    type_query(window, "texas courses under 1500")
    assert window.current_kind() is Kind.COURSES
    click_tab(window, Kind.WEBINARS)  # the person's choice: it stays while the words are the same
    assert window.current_kind() is Kind.WEBINARS
    key(window.query_box.edit, Qt.Key.Key_Return)  # asked again: the tab the words name
    assert window.current_kind() is Kind.COURSES


def test_an_order_in_words_sorts_the_tab_it_names_and_the_header_shows_it(session: Any) -> None:
    window = session.window
    window.show()
    click_tab(window, Kind.EXPERTS)
    type_query(window, "most expensive courses")
    assert window.current_kind() is Kind.COURSES
    header = window.current_tab().view.horizontalHeader()
    assert header.isSortIndicatorShown()
    assert header.sortIndicatorSection() == column_index(Kind.COURSES, "fee")
    assert header.sortIndicatorOrder() == Qt.SortOrder.DescendingOrder
    type_query(window, "soonest courses")
    assert header.sortIndicatorSection() == column_index(Kind.COURSES, "next")
    assert header.sortIndicatorOrder() == Qt.SortOrder.AscendingOrder


def test_removing_a_chip_widens_the_result(session: Any) -> None:
    window = session.window
    window.show()
    click_tab(window, Kind.COURSES)
    type_query(window, "texas courses under 1500")
    narrow = _ids(window.current_tab())
    _click(_chip(window, "1,500", "1500"))
    assert window.query_box.text() == "texas courses"
    assert window.current_kind() is Kind.COURSES
    wide = _ids(window.current_tab())
    assert set(narrow) < set(wide)
    assert wide == _formal_rows(window, Kind.COURSES, "state:TX")
    type_query(window, "texas courses under 1500")
    _click(_chip(window, "Texas"))
    assert window.query_box.text() == "courses under 1500"
    assert len(_ids(window.current_tab())) > len(narrow)
    type_query(window, "courses in chicago in december")  # the glue before the words goes too
    _click(_chip(window, "Chicago"))
    assert window.query_box.text() == "courses in december"  # (it was "courses in in december")
    type_query(window, "courses in chicago in december")
    _click(_chip(window, "Dec"))
    assert window.query_box.text() == "courses in chicago"


def test_the_chips_are_reached_with_tab_and_removed_with_space_or_enter(session: Any) -> None:
    window = session.window
    window.show()
    click_tab(window, Kind.COURSES)
    type_query(window, "texas courses under 1500")
    edit = window.query_box.edit
    edit.setFocus()
    key(edit, Qt.Key.Key_Tab)
    first = QApplication.focusWidget()
    assert first is _chips(window)[0], first
    key(first, Qt.Key.Key_Space)  # removes "Texas"
    assert window.query_box.text() == "courses under 1500"
    focused = QApplication.focusWidget()
    assert focused is _chips(window)[0], focused  # the next chip took the focus
    key(focused, Qt.Key.Key_Return)  # removes "Courses"
    assert window.query_box.text() == "under 1500"
    # Escape in the box clears what is typed, chips and all (the box is the one source of truth)
    edit.setFocus()
    key(edit, Qt.Key.Key_Escape)
    assert window.query_box.text() == "" and not _chips(window)


def test_search_these_words_instead_searches_the_words_as_typed(session: Any) -> None:
    window = session.window
    window.show()
    click_tab(window, Kind.COURSES)
    type_query(window, "texas courses under 1500")
    read_rows = _ids(window.current_tab())
    assert read_rows
    _click(_link(window, "reading-words"))
    box = window.query_box
    assert box.text() == "texas courses under 1500"
    assert box.parsed.text == "texas courses under 1500"  # the words, as the language reads them
    assert not _chips(window)
    assert _link(window, "reading-back").isVisible()
    assert window.current_kind() is Kind.COURSES
    assert _ids(window.current_tab()) == []  # no course's text holds all four words
    _click(_link(window, "reading-back"))  # "read them as a question"
    assert _ids(window.current_tab()) == read_rows and len(_chips(window)) == 3
    _click(_link(window, "reading-words"))
    type_query(window, "texas courses under 1500 ")  # the text changed: read again
    assert _ids(window.current_tab()) == read_rows and len(_chips(window)) == 3


def test_cpe_typed_on_dates_stays_on_dates(session: Any) -> None:
    """One situation's description says CPE: that is no reason to leave Dates."""
    window = session.window
    window.show()
    for typed in ("cpe", "illinois"):
        click_tab(window, OCCASIONS)
        type_query(window, typed)
        assert window.current_kind() is OCCASIONS, typed
        said = window.statusBar().currentMessage()
        assert "; showing " not in said, said


def test_words_found_only_in_other_tabs_are_said_and_the_tab_stays(session: Any) -> None:
    window = session.window
    window.show()
    click_tab(window, OCCASIONS)
    type_query(window, "cpe")
    _click(_link(window, "reading-words"))  # the word itself: found in one situation's description
    assert window.current_kind() is OCCASIONS and window.current_tab().model.rowCount() == 0
    said = window.statusBar().currentMessage()
    assert said == "No dates match; the words are found on Situations (1: Ctrl+8).", said


def test_a_tab_clicked_reads_the_words_for_it_and_stays(session: Any) -> None:
    """Places are read where the kind has them: on Webinars "chicago" stays a word (no webinar's
    text holds it; courses' do) and "under 1500" is a fee. The tab the person clicked is not
    left for the courses."""
    window = session.window
    window.show()
    click_tab(window, OCCASIONS)
    type_query(window, "chicago under 1500")
    assert window.current_kind() is OCCASIONS and window.current_tab().model.rowCount() > 0
    click_tab(window, Kind.WEBINARS)
    box = window.query_box
    assert box.parsed.text == box.equivalent("chicago under 1500") != box.text()
    assert window.current_tab().model.rowCount() == 0
    assert window.current_kind() is Kind.WEBINARS


def test_the_status_line_stays_true_while_typing(session: Any, qtbot: Any) -> None:
    window = session.window
    window.show()
    click_tab(window, OCCASIONS)
    type_query(window, "name:o'donnell")  # dates have no name: the results are on Experts
    assert window.current_kind() is Kind.EXPERTS
    said = window.statusBar().currentMessage()
    assert said.startswith("No dates match") and "showing Experts" in said, said
    box = window.query_box
    type_query(window, "ethics", enter=False)  # typed on: now Dates has matches too
    wanted = box.equivalent("ethics")
    qtbot.waitUntil(lambda: box.parsed is not None and box.parsed.text == wanted, timeout=3000)
    dates_title = window.tab_bar.full_title(window.tab_kinds().index(OCCASIONS))
    assert dates_title.startswith("Dates ") and dates_title != "Dates 0", dates_title
    said = window.statusBar().currentMessage()
    assert "No dates match" not in said, said
    # back on Dates by hand: a message that says the window is showing Experts goes
    type_query(window, "name:o'donnell")
    assert window.current_kind() is Kind.EXPERTS
    click_tab(window, OCCASIONS)
    said = window.statusBar().currentMessage()
    assert "showing Experts" not in said, said


def test_a_suggestion_click_replaces_the_typo(session: Any) -> None:
    window = session.window
    window.show()
    click_tab(window, Kind.COURSES)
    type_query(window, "chicgo")
    link = _link(window, "reading-suggestion")
    assert link.isVisible() and link.text() == "Did you mean Chicago?", link.text()
    _click(link)
    assert window.query_box.text().lower() == "chicago"
    assert _ids(window.current_tab()) == _formal_rows(window, Kind.COURSES, "city:chicago")


def test_a_saved_search_from_plain_words_keeps_its_equivalent_query(start: Any) -> None:
    session = start()
    window = session.window
    window.show()
    click_tab(window, Kind.COURSES)
    type_query(window, "texas courses under 1500")
    equivalent = window.query_box.reading.query
    assert equivalent != "texas courses under 1500"
    shown: list[str] = []

    def answer(dialog: Any) -> None:
        from PySide6.QtWidgets import QDialogButtonBox, QLabel, QLineEdit

        shown.append(dialog.findChild(QLabel, "search-query").text())
        dialog.findChild(QLineEdit, "search-name").setText("Texas under 1500")
        ok = dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok)
        QTest.mouseClick(ok, Qt.MouseButton.LeftButton)

    done = when_dialog_opens(answer)
    window.menu_actions.save_search_action.trigger()
    assert done and shown == [equivalent]  # the dialog shows what will be kept
    saved = {s["name"]: s["query"] for s in window.search_book.all()}  # read back from the store
    assert saved["Texas under 1500"] == equivalent
    wanted = _ids(window.current_tab())
    type_query(window, "")
    click_tab(window, OCCASIONS)
    window.menu_actions.searches_menu.aboutToShow.emit()  # Searches ▸ Texas under 1500: the same rows
    menu = window.menu_actions.searches_menu
    next(a for a in menu.actions() if a.text().startswith("Texas under 1500")).trigger()
    QApplication.processEvents()
    assert window.query_box.text() == equivalent
    assert window.current_kind() is Kind.COURSES and _ids(window.current_tab()) == wanted


def test_the_line_under_the_box_never_moves_the_tables(session: Any) -> None:
    window = session.window
    window.show()
    click_tab(window, Kind.COURSES)
    bar = window.tab_widget

    def top() -> int:
        QApplication.processEvents()
        return int(bar.mapTo(window, bar.rect().topLeft()).y())

    type_query(window, "")
    empty = top()
    type_query(window, "texas courses under 1500")
    assert top() == empty
    type_query(window, "fees:<3")  # an error: its line takes the same room
    assert window.query_box.error.isVisibleTo(window)
    assert top() == empty
    type_query(window, "city:dallas")
    assert top() == empty and not window.query_box.error.isVisibleTo(window)


def test_words_searched_as_typed_are_saved_as_words(start: Any) -> None:
    window = start().window
    window.show()
    click_tab(window, Kind.SITUATIONS)
    type_query(window, "cpe")
    _click(_link(window, "reading-words"))  # the word: one situation's description says CPE
    wanted = _ids(window.current_tab())
    assert len(wanted) == 1
    shown: list[str] = []

    def answer(dialog: Any) -> None:
        from PySide6.QtWidgets import QDialogButtonBox, QLineEdit

        shown.append(dialog.findChild(QLabel, "search-query").text())
        dialog.findChild(QLineEdit, "search-name").setText("CPE in the text")
        ok = dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok)
        QTest.mouseClick(ok, Qt.MouseButton.LeftButton)

    done = when_dialog_opens(answer)
    window.menu_actions.save_search_action.trigger()
    saved = {s["name"]: s["query"] for s in window.search_book.all()}
    assert done and shown == [saved["CPE in the text"]] and saved["CPE in the text"] != "cpe"
    type_query(window, "")
    window.menu_actions.searches_menu.aboutToShow.emit()  # opened again: the word, not CPE credit
    menu = window.menu_actions.searches_menu
    next(a for a in menu.actions() if a.text().startswith("CPE in the text")).trigger()
    QApplication.processEvents()
    assert window.current_kind() is Kind.SITUATIONS and _ids(window.current_tab()) == wanted
    assert not _chips(window)


def test_the_status_line_says_the_tab_the_words_named_and_the_way_back(session: Any) -> None:
    """Typed on Experts, "texas courses under 1500" shows Courses: the status line says why and how
    to go back (a new user saw the tab change and no word of it). On Dates the tab stays
    (``test_the_readme_sales_questions_stay_on_dates``)."""
    window = session.window
    window.show()
    click_tab(window, Kind.EXPERTS)
    type_query(window, "texas courses under 1500")
    assert window.current_kind() is Kind.COURSES
    back = window.tab_kinds().index(Kind.EXPERTS) + 1
    said = window.statusBar().currentMessage()
    assert said == f"Showing Courses: the words name them. Ctrl+{back} goes back to Experts.", said


def test_texas_courses_typed_on_dates_count_their_dates_too(session: Any) -> None:
    """The Dates tab's title counts the Texas courses' occasions under 1,500 (it said 0: the
    tab's kind word meant no occasion there)."""
    window = session.window
    window.show()
    dates = click_tab(window, OCCASIONS)
    type_query(window, "state:TX kind:course fee:<1500")
    wanted = _ids(dates)
    assert wanted
    type_query(window, "texas courses under 1500")
    click_tab(window, OCCASIONS)
    type_query(window, window.query_box.reading.query)  # the equivalent query, on Dates
    assert _ids(dates) == wanted


def test_words_left_as_words_are_said_beside_the_chips(session: Any) -> None:
    """What was not read is said too ("and the words “2” “day”"), not only in the query."""
    window = session.window
    window.show()
    click_tab(window, OCCASIONS)
    type_query(window, "2 day courses in spring")
    free = window.findChild(QLabel, "reading-free-words")
    assert free.isVisible() and "“2”" in free.text() and "“day”" in free.text(), free.text()
    type_query(window, "texas courses under 1500")
    assert not free.isVisible()
    type_query(window, "revenue recognition")  # a title's phrase: its chip, not said twice
    assert [c.text() for c in _chips(window)] == ['"revenue recognition" ×']
    assert not free.isVisible(), free.text()


def test_a_tab_clicked_after_words_that_name_another_stays_shown(session: Any) -> None:
    """Words typed on Dates that name a kind ("texas courses under 1500": those courses' dates)
    stay on Dates; a click on another tab then shows that tab, the words read for it, and not the
    tab the words name (a click on Experts showed Courses). Enter shows the words' tab again."""
    window = session.window
    window.show()
    click_tab(window, OCCASIONS)
    type_query(window, "texas courses under 1500")
    assert window.current_kind() is OCCASIONS and window.current_tab().model.rowCount() > 0
    for clicked in (Kind.EXPERTS, Kind.WEBINARS):
        click_tab(window, clicked)
        QApplication.processEvents()
        assert window.current_kind() is clicked
    key(window.query_box.edit, Qt.Key.Key_Return)
    assert window.current_kind() is Kind.COURSES


def test_escape_empties_the_box_and_ctrl_z_brings_the_words_back(session: Any, qtbot: Any) -> None:
    """Escape in the box empties it and shows every row; Ctrl+Z brings the question back, read
    and applied again (Escape wiped it for good)."""
    window = session.window
    window.show()
    tab = click_tab(window, Kind.COURSES)
    every = tab.model.rowCount()
    type_query(window, "texas courses under 1500")
    edit = window.query_box.edit
    matched = tab.model.rowCount()
    assert 0 < matched < every
    key(edit, Qt.Key.Key_Escape)
    assert edit.text() == "" and tab.model.rowCount() == every
    key(edit, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert edit.text() == "texas courses under 1500"
    qtbot.waitUntil(lambda: tab.model.rowCount() == matched)
    assert window.current_kind() is Kind.COURSES


def test_tax_seminars_are_the_tax_courses_and_webinars_dates(session: Any) -> None:
    """ "Seminars" (and "training") are any of the catalogue's dates, a course's or a webinar's: a
    fresh-eyes sales user asked "tax seminars this quarter" on Courses and got the courses only,
    missing the tax webinar; "online ethics training in december" found nothing ("training" was
    looked for as a word)."""
    window = session.window
    window.show()
    wanted = _formal_rows(window, OCCASIONS, "topic:tax")
    kinds = column_index(OCCASIONS, "kind")
    dates = window.current_tab()
    shown = {dates.model.index(r, kinds).data() for r in range(dates.model.rowCount())}
    assert shown >= {"Course", "Webinar"}, shown
    click_tab(window, Kind.COURSES)
    type_query(window, "tax seminars")
    assert window.current_kind() is OCCASIONS  # the dates of both kinds
    assert _ids(window.current_tab()) == wanted
    online = _formal_rows(window, OCCASIONS, "no:location topic:ethics")
    type_query(window, "online ethics training")
    assert _ids(window.current_tab()) == online and online


def test_a_tab_s_title_counts_what_a_click_on_it_shows(session: Any) -> None:
    """On Dates, "online ethics in december" is ``no:location``, which webinars do not have: the
    Webinars tab said "Webinars 0", dimmed, and showed 2 when clicked ("online" is the webinars
    there). A fresh-eyes sales user met it; a tab's title counts what its click shows."""
    window = session.window
    window.show()
    click_tab(window, OCCASIONS)
    type_query(window, "online ethics in december")
    bar = window.tab_widget.tabBar()
    webinars = window.tab_kinds().index(Kind.WEBINARS)
    titled = bar.full_title(webinars)
    tab = click_tab(window, Kind.WEBINARS)
    assert tab.model.rowCount() > 0
    assert titled == f"Webinars {tab.model.rowCount():,}", titled


def test_a_word_read_one_way_offers_the_other_reading_one_click_away(session: Any) -> None:
    """A word that is both (Washington the city and the state) is read as what the data has and
    the other is offered beside the chips: "Or Washington (state)?" (a fresh-eyes sales user
    found the state offered only in a chip's tooltip, and never saw it); its chip says which."""
    window = session.window
    window.show()
    dates = click_tab(window, OCCASIONS)
    type_query(window, "anything in washington")
    assert [c.text() for c in _chips(window)] == ["Washington ×"]
    link = _link(window, "reading-other")
    assert link.isVisible() and link.text() == "Or Washington (state)?", link.text()
    wanted = _formal_rows(window, OCCASIONS, "state:WA")
    type_query(window, "anything in washington")
    _click(_link(window, "reading-other"))
    assert window.query_box.text() == "anything in state:WA"
    assert _ids(dates) == wanted and wanted
    type_query(window, "washington state")
    assert [c.text() for c in _chips(window)] == ["Washington (state) ×"]
    assert not _link(window, "reading-other").isVisible()

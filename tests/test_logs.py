"""Tests for minikcm.logs (no upstream twin): repeated warning and error lines thinned out on the handler."""

from __future__ import annotations

import io
import logging

import pytest

from minikcm import logs


def handler_with_filter() -> tuple[logging.Logger, io.StringIO, logs.RepeatFilter]:
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(logging.Formatter("%(levelname)s %(message)s"))
    repeat = logs.RepeatFilter()
    handler.addFilter(repeat)
    logger = logging.getLogger("minikcm.test_logs.case")
    logger.handlers[:] = [handler]
    logger.propagate = False
    logger.setLevel(logging.DEBUG)
    return logger, out, repeat


def test_a_thousand_identical_errors_leave_ten_lines_with_their_count():
    logger, out, _ = handler_with_filter()
    for _ in range(1000):
        logger.error("no free place for pod %s", "default/web-1")
    lines = out.getvalue().splitlines()
    assert len(lines) == 10  # occurrences 1, 2, 4, ..., 512
    assert lines[0] == "ERROR no free place for pod default/web-1"
    assert lines[1] == "ERROR no free place for pod default/web-1 (identical line seen 2 times so far)"
    assert lines[-1].endswith("seen 512 times so far)")
    logger.error("no free place for pod %s", "default/web-1")
    assert len(out.getvalue().splitlines()) == 10  # the 1001st is quiet too
    logger.error("no free place for pod %s", "default/web-2")  # another line counts on its own
    assert out.getvalue().splitlines()[-1] == "ERROR no free place for pod default/web-2"


def test_info_and_debug_lines_are_never_thinned():
    logger, out, _ = handler_with_filter()
    for _ in range(5):
        logger.info("pod web-1 is Ready")
    assert out.getvalue().splitlines() == ["INFO pod web-1 is Ready"] * 5


def test_other_listeners_on_the_logger_still_see_every_line():
    """The filter is on the command's handler only: a scenario trace or caplog gets all of them."""
    logger, out, _ = handler_with_filter()
    seen: list[str] = []

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            seen.append(record.getMessage())

    logger.addHandler(Collect())
    for _ in range(3):
        logger.warning("watch closed")
    assert len(out.getvalue().splitlines()) == 2
    assert seen[0] == "watch closed"
    assert len(seen) == 3


SHOULD_LOG_CASES = [
    pytest.param(1, True, id="first"),
    pytest.param(2, True, id="second"),
    pytest.param(3, False, id="third-is-quiet"),
    pytest.param(1024, True, id="power-of-two"),
    pytest.param(1000, False, id="not-a-power"),
]


@pytest.mark.parametrize("n, want", SHOULD_LOG_CASES)
def test_should_log(n, want):
    assert logs.RepeatFilter.should_log(n) is want


def test_the_least_recently_seen_line_is_forgotten_first():
    repeat = logs.RepeatFilter(capacity=2)
    a, b, c = ("x", 40, "a"), ("x", 40, "b"), ("x", 40, "c")
    assert [repeat.count(a), repeat.count(b), repeat.count(a)] == [1, 1, 2]
    repeat.count(c)  # b is the least recently seen: forgotten
    assert repeat.count(b) == 1
    assert repeat.count(a) == 1  # forgotten in turn when b came back


def test_configure_leaves_a_configured_root_alone():
    root = logging.getLogger()
    before = list(root.handlers)
    try:
        root.handlers[:] = [logging.NullHandler()]
        logs.configure()
        assert len(root.handlers) == 1 and isinstance(root.handlers[0], logging.NullHandler)
        root.handlers[:] = []
        logs.configure()
        (handler,) = root.handlers
        assert any(isinstance(f, logs.RepeatFilter) for f in handler.filters)
    finally:
        root.handlers[:] = before


DURATION_CASES = [  # Go's durationTests (time/time_test.go), in seconds
    (0, "0s"), (1e-9, "1ns"), (1.1e-6, "1.1µs"), (2.2e-3, "2.2ms"), (3.3, "3.3s"), (4 * 60 + 5, "4m5s"),
    (4 * 60 + 5.001, "4m5.001s"), (5 * 3600 + 6 * 60 + 7.001, "5h6m7.001s"), (8 * 60 + 1e-9, "8m0.000000001s"),
    (-1.5, "-1.5s"), (300, "5m0s"), (0.5, "500ms"), (63020.46029032091, "17h30m20.460290321s"),
]


@pytest.mark.parametrize("seconds, text", DURATION_CASES)
def test_duration_string(seconds, text):
    """Duration.String (Go's time package)."""
    assert logs.duration_string(seconds) == text


@pytest.mark.parametrize("verbosity, level", [(0, logging.WARNING), (1, logging.INFO), (3, logging.INFO),
                                              (4, logging.DEBUG), (9, logging.DEBUG)])
def test_verbosity_level(verbosity, level):
    assert logs.verbosity_level(verbosity) == level


def test_verbosity_zero_keeps_user_actions_and_warnings(tmp_path):
    root = logging.getLogger()
    before, before_level = list(root.handlers), root.level
    access = logging.getLogger(logs.USER_ACTION_LOGGERS[0])
    try:
        root.handlers[:] = []
        logs.configure(0, str(tmp_path / "log"))
        logging.getLogger("minikcm.tools.cache.reflector").info("Starting reflector")
        logging.getLogger("minikcm.sim").warning("a warning")
        access.info("kubectl PATCH /api/v1/nodes/n: 200")
        for handler in root.handlers:
            handler.flush()
        text = (tmp_path / "log").read_text()
        assert "Starting reflector" not in text and "a warning" in text and "kubectl PATCH" in text
    finally:
        for handler in root.handlers:
            handler.close()
        root.handlers[:] = before
        root.setLevel(before_level)
        access.setLevel(logging.NOTSET)

"""Chapter 9's live explorer: the transient-fault scenario against the fault rate, with
error recovery and the submit nudge switched on and off, as the page stores it, against
the lab's closed form and its seeded arms; and the switches' labels. The browser side is
in tests/test_browser.py."""

from __future__ import annotations

import pytest

from reliability.live import Control


def test_a_switch_shows_its_labels_not_its_values():
    switch = Control("on", "a switch", (0, 1), 1, "d", labels=("off", "on"))
    assert (switch.shown(0), switch.shown(1)) == ("off", "on")
    assert Control("a", "a", (0, 1), 0, "d").shown(1) == "1"
    with pytest.raises(ValueError, match="labels"):
        Control("on", "a switch", (0, 1), 1, "d", labels=("off",))
    with pytest.raises(ValueError, match="labels"):
        Control("on", "a switch", (0, 1), 1, "d", labels=("off", 1))

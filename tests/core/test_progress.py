"""The one progress/cancel protocol: part-of-a-bar adapter, and one Cancelled hierarchy every stage raises."""

import pytest

from redactdesk.asr.base import AsrCancelled, AsrError
from redactdesk.asr.base import check_cancel as asr_check_cancel
from redactdesk.audio.errors import MaskCancelled, MaskError
from redactdesk.core.progress import Cancelled, check_cancel, part, track


def test_part_maps_a_parts_own_fraction_onto_its_share_of_the_bar():
    seen = []
    third = part(lambda f, *m: seen.append((round(f, 6), *m)), 1, 1, total=3)
    for f in (-0.5, 0.0, 0.5, 1.0, 1.7):  # out-of-range fractions stay inside the part
        third(f)
    assert seen == [(0.333333,), (0.333333,), (0.5,), (0.666667,), (0.666667,)]


def test_part_passes_on_the_message_it_got_or_the_one_it_was_given():
    seen = []
    part(lambda f, m: seen.append((f, m)))(0.25, "reading")
    part(lambda f, m: seen.append((f, m)), 0.5, 0.5, message="masking (beep)")(1.0)  # a fraction-only caller
    assert seen == [(0.25, "reading"), (1.0, "masking (beep)")]


def test_part_of_no_progress_is_none():
    assert part(None, 0.2, 0.3, message="x") is None


def test_check_cancel_raises_the_stages_own_subclass_only_when_asked():
    check_cancel(None)
    check_cancel(lambda: False, MaskCancelled)
    with pytest.raises(MaskCancelled, match="masking cancelled"):
        check_cancel(lambda: True, MaskCancelled)
    with pytest.raises(Cancelled, match="cancelled by the user"):
        check_cancel(lambda: True)


@pytest.mark.parametrize("raise_it", [lambda: asr_check_cancel(lambda: True),
                                      lambda: check_cancel(lambda: True, MaskCancelled)])
def test_every_stages_cancel_is_a_cancelled_and_still_its_stages_error(raise_it):
    with pytest.raises(Cancelled) as caught:
        raise_it()
    assert isinstance(caught.value, AsrError | MaskError)
    assert isinstance(caught.value, AsrCancelled | MaskCancelled)


def test_track_reports_before_each_item_and_stops_between_items():
    seen, stop = [], []
    with pytest.raises(Cancelled):
        for item in track(["a", "b", "c"], 3, lambda f, m: seen.append((f, m)), lambda: bool(stop)):
            if item == "b":
                stop.append(True)
    assert seen == [(0.0, "a"), (1 / 3, "b")]

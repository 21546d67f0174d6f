"""No frame a signed-out client can send holds other visitors (make run)."""

from __future__ import annotations

from tests.support.hostile_frames import CORPUS, OTHER_CLIENT_BOUND_S, held_frames
from tests.support.live_server import LiveServer


def test_no_hostile_frame_holds_another_visitor(live_site: LiveServer) -> None:
    held = held_frames(live_site.url, lambda: live_site.log_path.read_text(errors="replace"))
    assert not held, (
        f"another client waited {OTHER_CLIENT_BOUND_S} s or more (more on a loaded machine)"
        " while these frames were"
        f" handled ({len(held)} of {len(CORPUS)}):\n" + "\n".join(held)
    )

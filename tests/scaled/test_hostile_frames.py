"""No frame a signed-out client can send holds other visitors (make run-scaled: nginx in
front of several workers, PostgreSQL and Redis)."""

from __future__ import annotations

from tests.support.hostile_frames import CORPUS, OTHER_CLIENT_BOUND_S, held_frames
from tests.support.scaled_site import ScaledSite


def test_no_hostile_frame_holds_another_visitor(scaled_site: ScaledSite) -> None:
    held = held_frames(
        scaled_site.url,
        lambda: "".join(
            log.read_text(errors="replace") for log in scaled_site.run_dir.glob("worker-*.log")
        ),
    )
    assert not held, (
        f"another client waited {OTHER_CLIENT_BOUND_S} s or more (more on a loaded machine)"
        " while these frames were"
        f" handled ({len(held)} of {len(CORPUS)}):\n" + "\n".join(held)
    )

"""Tabs' states are kept under the build that wrote them.

Reflex keeps a tab's states pickled, one key per state class. During a rolling deploy
two versions of the code serve one Redis: a worker of the new version unpickling a state
the old one wrote (or the other way round) can fail on a class that changed, or carry a
value that no longer means what it did. So every key names the build (`BUILD_ID`, which
run-scaled gives its workers: rcxsite/tools/web_build.py); a tab that reaches a worker of
another build starts a fresh state there and never reads the other version's. Without a
build id (`make run`: one process, one build) the keys are Reflex's own.
"""

from __future__ import annotations

from reflex.istate.manager.token import BaseStateToken
from reflex.state import BaseState

from rcxsite.platform.settings import get_settings


def state_key(token: str, state_name: str) -> str:
    """The key of the tab `token`'s state `state_name` in this build."""
    build = get_settings().build_id
    return f"{build}:{token}_{state_name}" if build else f"{token}_{state_name}"


def _keyed_by_build(self: BaseStateToken, cls: type[BaseState]) -> str:
    return state_key(self.ident, cls.get_full_name())


def keep_states_per_build() -> None:
    """Make every state key name this process's build (once per process)."""
    BaseStateToken._state_key = _keyed_by_build  # type: ignore[method-assign]

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from rcxsite.web.server import server
from tests.support.fixtures import configure, fresh_state, mailbox, site_root

__all__ = ["client", "configure", "fresh_state", "mailbox", "site_root"]


@pytest.fixture
def client() -> Iterator[TestClient]:
    # Server exceptions are re-raised: any test that triggers a 500 fails loudly.
    with TestClient(server, raise_server_exceptions=True) as test_client:
        yield test_client

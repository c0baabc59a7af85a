"""Under ASGI each page is served in a thread made for it: the connection it opened is closed
when the page is done (config.handler), not left for the garbage collector to close in a
pass that stops every thread."""

from __future__ import annotations

import pytest
from asgiref.testing import ApplicationCommunicator
from django.db.backends.signals import connection_created

from tests.site.test_live import own_loop

pytestmark = pytest.mark.django_db(transaction=True)


async def get(application, path: str) -> int:
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
        "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"",
        "root_path": "", "headers": [(b"host", b"testserver")], "client": ("127.0.0.1", 1),
        "server": ("testserver", 80),
    }
    communicator = ApplicationCommunicator(application, scope)
    await communicator.send_input({"type": "http.request", "body": b""})
    start = await communicator.receive_output(10)
    while (await communicator.receive_output(10)).get("more_body"):
        pass
    await communicator.wait()
    return start["status"]


@own_loop
async def test_a_page_closes_the_connection_it_opened_when_it_is_done():
    from config.asgi import django_application

    opened = []

    def record(sender, connection, **kwargs):
        opened.append(connection)

    connection_created.connect(record)
    try:
        assert await get(django_application, "/healthz") == 200
    finally:
        connection_created.disconnect(record)
    assert opened, "the page used the database"
    assert all(connection.connection is None for connection in opened)

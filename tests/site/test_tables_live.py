"""A table's lobby over its WebSocket (live.lobby): a seat taken, a player ready and the game
dealt reach every open page of the table at once, each in its reader's language and for its
own browser; a socket for no such table is refused."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.layers import channel_layers
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.sessions.backends.signed_cookies import SessionStore
from django.test import Client
from tables import access
from tables.models import Table

from config.asgi import application
from tests.site.test_live import ORIGIN, fresh_channel_layer, own_loop  # noqa: F401 (autouse fixture)

pytestmark = pytest.mark.django_db(transaction=True)


def cookie_of(client: Client) -> bytes:
    token = client.session.get(access.SESSION_KEY)
    session = SessionStore()
    session[access.SESSION_KEY] = token
    session.save()
    return f"{settings.SESSION_COOKIE_NAME}={session.session_key}".encode()


async def connect(code: str, lang: str, cookie: bytes | None = None) -> WebsocketCommunicator:
    headers = [ORIGIN, *([(b"cookie", cookie)] if cookie else [])]
    socket = WebsocketCommunicator(application, f"/ws/{lang}/table/{code}/", headers=headers)
    connected, _code = await socket.connect()
    assert connected
    return socket


def open_table(client: Client) -> Table:
    response = client.post(
        "/en/stress-se/play/friends/", {"name": "Mormor", "players": "2", "seat-2": "friend"}
    )
    assert response.status_code == 303
    return Table.objects.get()


@own_loop
async def test_seats_and_the_start_are_pushed_to_every_page_in_its_language():
    creator, friend = Client(), Client()
    table = await sync_to_async(open_table)(creator)
    host = await connect(table.pk, "en", await sync_to_async(cookie_of)(creator))
    watcher = await connect(table.pk, "de")
    assert "a free seat" in await host.receive_from(timeout=5)
    assert "Spieler 2: ein freier Platz" in await watcher.receive_from(timeout=5)
    # A friend takes the seat over HTTP: both open pages hear of it with no request.
    response = await sync_to_async(friend.post)(f"/sv/table/{table.pk}/join/", {"name": "Elsa"})
    assert response.status_code == 303
    frame = await host.receive_from(timeout=5)
    assert frame.startswith('<div id="lobby" hx-swap-oob="innerHTML">')
    assert "Elsa" in frame and "a free seat" not in frame and "Remove" in frame
    seen = await watcher.receive_from(timeout=5)
    assert "Elsa" in seen and 'lang="de"' not in seen and "Entfernen" not in seen
    # Both say ready: the game is dealt and every page is told where it is.
    await sync_to_async(creator.post)(f"/en/table/{table.pk}/ready/", {})
    await host.receive_from(timeout=5)
    await watcher.receive_from(timeout=5)
    await sync_to_async(friend.post)(f"/sv/table/{table.pk}/ready/", {})
    frames = [await host.receive_from(timeout=5) for _ in range(2)]
    assert any("data-go" in f and f"/en/table/{table.pk}/play/" in f for f in frames)
    watched = [await watcher.receive_from(timeout=5) for _ in range(2)]
    assert any("/de/play/" in f and "data-go" not in f for f in watched)
    await host.disconnect()
    await watcher.disconnect()


@own_loop
async def test_a_socket_for_no_such_table_is_refused():
    socket = WebsocketCommunicator(
        application, "/ws/en/table/AAAAAAAAAAAAAAAAAAAAAA/", headers=[ORIGIN]
    )
    connected, code = await socket.connect()
    assert not connected or code == 4404


@own_loop
async def test_a_page_that_saw_the_latest_change_gets_no_first_frame():
    """A frame replacing the lobby while someone types their name would lose it: a page's
    socket is sent the lobby at once only when the table changed since the page was drawn."""
    from tables.lobby import seen_mark

    creator = Client()
    table = await sync_to_async(open_table)(creator)
    mark = await sync_to_async(lambda: seen_mark(Table.objects.get(pk=table.pk)))()
    headers = [ORIGIN]
    fresh = WebsocketCommunicator(
        application, f"/ws/en/table/{table.pk}/?seen={mark}", headers=headers
    )
    assert (await fresh.connect())[0]
    assert await fresh.receive_nothing(timeout=0.5)
    stale = WebsocketCommunicator(application, f"/ws/en/table/{table.pk}/?seen=1", headers=headers)
    assert (await stale.connect())[0]
    assert "a free seat" in await stale.receive_from(timeout=5)
    # a change still reaches the page that saw the table as it was
    await sync_to_async(Client().post)(f"/en/table/{table.pk}/join/", {"name": "Elsa"})
    assert "Elsa" in await fresh.receive_from(timeout=5)
    await fresh.disconnect()
    await stale.disconnect()


@own_loop
async def test_a_socket_closed_for_a_table_gone_is_sent_nothing_more():
    """A table pruned while its page is open: the socket is closed once, and the notices that
    follow before the page's disconnect send it nothing (an ASGI server raises on that)."""
    from live.lobby import group_name

    creator = Client()
    table = await sync_to_async(open_table)(creator)
    socket = await connect(table.pk, "en")
    assert "a free seat" in await socket.receive_from(timeout=5)
    await sync_to_async(Table.objects.filter(pk=table.pk).delete)()
    layer = channel_layers["default"]
    for _ in range(2):
        await layer.group_send(group_name(table.pk), {"type": "table.changed"})
    assert (await socket.receive_output(timeout=5))["type"] == "websocket.close"
    assert await socket.receive_nothing(timeout=0.5)
    await socket.disconnect()

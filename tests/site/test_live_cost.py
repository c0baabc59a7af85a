"""What a live change costs the server (#21): the renders of a change read the row and the
log entries the change itself wrote, never an older row than the notice names; a refused
move's board is told to its socket once, not rendered again for it."""

from __future__ import annotations

import asyncio
import json
import re
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from live import consumers, publish
from live.publish import View, remember, render_frame, row_at_least
from play import service
from play.models import Game

from rules_engine.driver import Driver
from tests.site.test_live import (
    a_move,
    connect,
    cookie_for,
    frames_until,
    fresh_channel_layer,  # noqa: F401 (a fixture: a new in-memory layer per test)
    new_row,
    own_loop,
    version_of,
)

pytestmark = pytest.mark.django_db(transaction=True)


def refused_move(row: Game, seat: int = 0) -> dict:
    """A move the engine refuses but logs (a stored change): a card played where it does
    not fit."""
    game = Driver.from_json(row.snapshot, record=[]).game
    plays = [a.to_json() for a in game.legal_actions(seat) if a.to_json()["type"] == "play"]
    for legal in plays:
        for pile in ("centre-1", "centre-2"):
            action = {k: v for k, v in legal.items() if k not in ("t", "player", "onto")}
            action["to"] = pile
            trial = Driver.from_json(row.snapshot, record=[])
            now = trial.game.now
            result = trial.submit(seat, now, {**action, "t": now, "player": seat})
            if not result.accepted and trial.record:
                return action
    raise AssertionError("no refused move found")


def a_move_of(row: Game, seat: int) -> dict:
    import random

    from tests.play_human import sensible_action

    action = sensible_action(service.driver_of(row).game, seat, random.Random(3))
    assert action is not None
    return action


def play_in_a_socket_process(monkeypatch, row: Game, **request) -> service.Change:
    """A change stored by a process holding sockets (live.publish keeps its rows)."""
    monkeypatch.setattr(publish, "SOCKETS_LOOP", asyncio.new_event_loop())
    return service.play(row.pk, timezone.now(), **request)


def test_a_change_is_rendered_from_its_own_row_and_entries(monkeypatch):
    row = new_row("stress-se", ("human", "human"))
    change = play_in_a_socket_process(
        monkeypatch, row, seat=0, action=refused_move(row), version=row.version
    )
    assert change.changed and change.entries
    since = change.row.log_length - len(change.entries)
    with CaptureQueriesContext(connection) as queries:
        kept = render_frame(row.pk, View(1, "en"), since=since, version=change.row.version)
    read = [
        q["sql"]
        for q in queries.captured_queries
        if '"play_game"' in q["sql"] or '"play_logentry"' in q["sql"]
    ]
    assert read == []
    # The same bytes as a render from the stored row and log.
    assert kept == render_frame(row.pk, View(1, "en"), since=since)


def test_a_kept_row_is_never_shown_for_a_newer_version(monkeypatch):
    row = new_row("stress-se", ("human", "human"))
    first = play_in_a_socket_process(
        monkeypatch, row, seat=0, action=refused_move(row), version=row.version
    )
    kept_version = first.row.version
    # A change another process stored: this process never heard of it.
    monkeypatch.setattr(publish, "SOCKETS_LOOP", None)
    later = service.play(
        row.pk, timezone.now(), seat=1, action=refused_move(first.row, 1), version=kept_version
    )
    assert later.row.version == kept_version + 1
    assert row_at_least(row.pk, kept_version)[0].version == kept_version
    assert row_at_least(row.pk, kept_version + 1)[0].version == kept_version + 1
    assert (
        version_of(render_frame(row.pk, View(0, "en"), since=None, version=kept_version + 1)[1])
        == kept_version + 1
    )
    # A notice that names no stored version (teach's) reads the row too.
    assert row_at_least(row.pk, "lesson-x")[0].version == kept_version + 1
    # An older change told late does not replace a newer one kept.
    remember(later.row, later.entries)
    remember(first.row, first.entries)
    assert row_at_least(row.pk, kept_version)[0].version == kept_version + 1


def count_renders(monkeypatch, *modules) -> list[tuple[int | None, bool]]:
    """Every board render through `modules`' render_frame: (the view's seat, told a message)."""
    renders: list[tuple[int | None, bool]] = []
    for module in modules:
        real = module.render_frame

        def render(game_id, view, *, _real=real, **kwargs):
            renders.append((view.seat, bool(kwargs.get("message"))))
            return _real(game_id, view, **kwargs)

        monkeypatch.setattr(module, "render_frame", render)
    return renders


@own_loop
async def test_a_refused_move_is_told_to_its_socket_once_and_not_rendered_again(monkeypatch):
    renders = count_renders(monkeypatch, publish, consumers)
    row = await sync_to_async(new_row)("stress-se", ("human", "human"))
    player = await connect(row.pk, cookie=cookie_for({row.pk: 0}))
    watcher = await connect(row.pk)
    action = await sync_to_async(refused_move)(row)
    await player.send_to(
        text_data=json.dumps({"action": json.dumps(action), "version": row.version})
    )
    told = await player.receive_from()
    head = told.split(">", 1)[0]
    assert " data-told" in head and version_of(told) == row.version + 1
    assert "That did not count" in told
    # The change shows nothing new on any screen: no other page hears of it, and nothing
    # else is rendered (the player's view without the reason neither).
    for socket in (player, watcher):
        assert await socket.receive_nothing(timeout=0.5)
    assert renders == [(0, True)]
    for socket in (player, watcher):
        await socket.disconnect()


def test_only_a_table_s_game_asks_the_page_hooks(monkeypatch):
    from play import page

    asked = []
    monkeypatch.setattr(page, "PAGE_HOOKS", [lambda row, seat: asked.append(row.pk) or {}])
    monkeypatch.setattr(page, "SECOND_LANGUAGE_HOOKS", [lambda row: asked.append(row.pk) or ""])
    demo = new_row("stress-se", ("human", "club"))
    render_frame(demo.pk, View(0, "en"), since=None)
    assert asked == []  # the demo's boards ask nobody (a query each)
    table = service.start_game(
        "stress-se", ["human", "club"], wall=timezone.now(), takeover=["club", ""]
    )
    render_frame(table.pk, View(0, "en"), since=None)
    assert asked == [table.pk, table.pk]


def test_a_game_s_urls_are_kept_per_language(client):
    from play.page import game_urls

    row = new_row()
    game_urls.cache_clear()
    for lang, other in (("sv", "en"), ("en", "sv"), ("sv", "en")):
        page = client.get(f"/{lang}/play/{row.pk}/").content.decode()
        assert f'data-move-url="/{lang}/play/{row.pk}/' in page
        assert f'data-game-url="/{lang}/play/{row.pk}/"' in page
        assert f'data-move-url="/{other}/' not in page
    # reversed once per language: the second Swedish page took them as kept
    assert game_urls.cache_info().misses == 2 and game_urls.cache_info().hits >= 1


@own_loop
async def test_a_quiet_refusal_is_told_as_its_reason_alone_and_rendered_for_nobody(monkeypatch):
    renders = count_renders(monkeypatch, publish, consumers)
    row = await sync_to_async(new_row)("stress-se", ("human", "human"))
    player = await connect(row.pk, cookie=cookie_for({row.pk: 0}))
    other = await connect(row.pk, cookie=cookie_for({row.pk: 1}))
    watcher = await connect(row.pk)  # its page was sent no board over the socket yet
    for socket in (player, other):
        await socket.send_to(text_data=json.dumps({"since": 0}))
        assert version_of(await socket.receive_from()) == row.version
    action = await sync_to_async(refused_move)(row)
    await player.send_to(
        text_data=json.dumps({"action": json.dumps(action), "version": row.version})
    )
    told = json.loads(await player.receive_from())
    # The page's board stays (the refusal moved no card): it hears the version, the log's
    # length and the reason, and no board is rendered for it.
    assert told["told"] == row.version + 1 and told["seq"] == row.log_length + 1
    assert told["message"].startswith("That did not count")
    assert told["message2"] == "" and told["lang2"] == ""
    # No other page hears of it (nothing on its screen changed), and nothing is rendered
    # but the two first boards.
    for socket in (player, other, watcher):
        assert await socket.receive_nothing(timeout=0.3)
    assert renders.count((0, False)) == 1 and (0, True) not in renders
    assert renders.count((1, False)) == 1 and (None, False) not in renders
    stored = await sync_to_async(Game.objects.get)(pk=row.pk)
    assert (stored.version, stored.log_length) == (told["told"], told["seq"])
    # The next change that shows something is a board for every page, the ones still
    # showing the board before the refusal too; the other seat's move is played though its
    # page never heard of the refusal's version.
    await other.send_to(
        text_data=json.dumps({"action": json.dumps(await sync_to_async(a_move_of)(stored, 1)),
                              "version": row.version})
    )
    for socket in (player, other, watcher):
        assert version_of(await frames_until(socket, stored.version + 1)) == stored.version + 1
    assert await other.receive_nothing(timeout=0.3)  # played, with no reason to tell
    for socket in (player, other, watcher):
        await socket.disconnect()


def test_a_refusal_is_quiet_only_when_its_change_shows_nothing_new():
    people = new_row("stress-se", ("human", "human"))
    start = timezone.now()
    alone = service.play(
        people.pk, start, seat=0, action=refused_move(people), version=people.version
    )
    assert alone.changed and alone.value.quiet
    # Against a bot, later: the bot's moves, due before the refusal, are in the same change.
    bot = new_row("stress-se", ("human", "expert"))
    later = service.play(
        bot.pk,
        start + timedelta(seconds=20),
        seat=0,
        action=refused_move(bot),
        version=bot.version,
    )
    assert any(entry.events for entry in later.entries)
    assert not later.value.quiet
    # An accepted move is never quiet.
    accepted = service.play(
        people.pk, start, seat=0, action=a_move(alone.row), version=alone.row.version
    )
    assert accepted.value.result.accepted and not accepted.value.quiet


def two_language_table(monkeypatch) -> Game:
    """A class table's game whose lesson is in English and Swedish (teach's hook, stood in
    for)."""
    from play import page

    monkeypatch.setattr(page, "SECOND_LANGUAGE_HOOKS", [lambda row: "sv"])
    return service.start_game(
        "stress-se",
        ["human", "human"],
        wall=timezone.now(),
        seed=7,
        takeover=["club", "club"],
        names=["Ann", "Ben"],
    )


@own_loop
async def test_a_two_language_phone_reads_the_socket_s_own_messages_in_both(monkeypatch):
    row = await sync_to_async(two_language_table)(monkeypatch)
    phone = await connect(row.pk, cookie=cookie_for({row.pk: 0}))
    await phone.send_to(text_data="not json")
    frame = await phone.receive_from()
    assert "That request could not be read, so nothing was changed." in frame
    assert '<p class="game__message" lang="sv">Begäran gick inte att läsa' in frame
    # A refusal told as its reason alone carries the second language too.
    await phone.send_to(text_data=json.dumps({"since": 0}))
    assert version_of(await phone.receive_from()) == row.version
    action = await sync_to_async(refused_move)(row)
    await phone.send_to(
        text_data=json.dumps({"action": json.dumps(action), "version": row.version})
    )
    told = json.loads(await phone.receive_from())
    assert told["lang2"] == "sv" and told["message2"].startswith("Det gick inte:")
    await phone.disconnect()


@own_loop
async def test_a_socket_s_own_messages_are_in_its_language():
    row = await sync_to_async(new_row)()
    socket = await connect(row.pk, lang="sv", cookie=cookie_for({row.pk: 0}))
    await socket.send_to(text_data="not json")
    assert "Begäran gick inte att läsa, så ingenting ändrades." in await socket.receive_from()
    await socket.disconnect()


def test_a_game_row_is_read_with_the_sql_built_once():
    from django.db.models.sql.compiler import SQLCompiler
    from play.store import read_row

    row = new_row("stress-se", ("human", "human"))
    service.play(row.pk, timezone.now())  # the connection's SELECT built once
    built = []
    real = SQLCompiler.as_sql

    def counting(self, *args, **kwargs):
        if self.query.model is Game and type(self) is SQLCompiler:
            built.append(self.query)
        return real(self, *args, **kwargs)

    SQLCompiler.as_sql = counting
    try:
        for _ in range(3):
            change = service.play(
                row.pk, timezone.now(), seat=0, action=refused_move(row), version=row.version
            )
            assert change.changed
    finally:
        SQLCompiler.as_sql = real
    assert built == []
    # The same row, field by field, as the ORM reads it.
    stored = Game.objects.get(pk=row.pk)
    read = read_row(row.pk)
    fields = [f.attname for f in Game._meta.concrete_fields]
    assert [getattr(read, f) for f in fields] == [getattr(stored, f) for f in fields]
    assert read._state.db == "default" and not read._state.adding
    with pytest.raises(Game.DoesNotExist):
        read_row("NoSuchGame0000")


def test_a_game_s_log_events_are_read_with_the_sql_built_once():
    from django.db.models.sql.compiler import SQLCompiler
    from play.models import LogEntry
    from play.store import read_events

    row = new_row("stress-se", ("human", "human"))
    for _ in range(3):
        row = service.play(
            row.pk, timezone.now(), seat=0, action=refused_move(row), version=row.version
        ).row
    accepted = service.play(row.pk, timezone.now(), seat=0, action=a_move(row),
                            version=row.version)
    assert accepted.value.result.accepted
    read_events(row.pk, 0)  # the connection's SELECT built once
    built = []
    real = SQLCompiler.as_sql

    def counting(self, *args, **kwargs):
        if self.query.model is LogEntry:
            built.append(self.query)
        return real(self, *args, **kwargs)

    SQLCompiler.as_sql = counting
    try:
        found = [read_events(row.pk, since) for since in range(accepted.row.log_length + 1)]
        # a board told from an older position reads its story lines the same way
        render_frame(row.pk, View(1, "en"), since=1)
    finally:
        SQLCompiler.as_sql = real
    assert built == []
    # The events of every entry from the position on, in order, as the ORM reads them.
    logged = list(LogEntry.objects.filter(game_id=row.pk).order_by("seq")
                  .values_list("events", flat=True))
    assert found == [logged[since:] for since in range(accepted.row.log_length + 1)]
    assert any(found[0]) and found[-1] == []


@own_loop
async def test_a_quiet_refusal_before_a_board_still_on_its_way_lets_that_board_come(monkeypatch):
    row, other_move = await sync_to_async(a_deal_with_a_move_of)(1)
    player = await connect(row.pk, cookie=cookie_for({row.pk: 0}))
    other = await connect(row.pk, cookie=cookie_for({row.pk: 1}))
    for socket in (player, other):
        await socket.send_to(text_data=json.dumps({"since": 0}))
        assert version_of(await socket.receive_from()) == row.version
    # The other seat's move is stored, and its notice is slow to come.
    held = []
    real_send = publish.send_notice
    monkeypatch.setattr(publish, "send_notice", lambda group, notice: held.append((group, notice)))
    moved = await sync_to_async(service.play)(
        row.pk, timezone.now(), seat=1, action=other_move, version=row.version
    )
    assert moved.value.result.accepted
    action = await sync_to_async(refused_move)(moved.row)
    await player.send_to(
        text_data=json.dumps({"action": json.dumps(action), "version": row.version})
    )
    told = json.loads(await player.receive_from())
    assert told["told"] == moved.row.version + 1 and told["message"]
    # The other seat's move's notice comes; the refusal sends none.
    assert [notice["version"] for _group, notice in held] == [moved.row.version]
    for group, notice in held:
        real_send(group, notice)
    # The other seat's move comes as a board with its story line (drawn from the newest row,
    # the refusal's).
    board = await player.receive_from()
    assert version_of(board) == told["told"]
    assert re.search(r"<div hidden data-announce><p>[^<]+</p>", board)
    assert await player.receive_nothing(timeout=0.3)
    for socket in (player, other):
        await socket.disconnect()


def a_deal_with_a_move_of(seat: int) -> tuple[Game, dict]:
    """A two-person game and an accepted move of `seat` after which the other seat can
    still play a card (not a deal stuck and waiting for a call)."""
    import random

    from tests.play_human import sensible_action

    for seed in range(1, 40):
        row = service.start_game("stress-se", ["human", "human"], seed=seed, wall=timezone.now())
        trial = service.driver_of(row)
        action = sensible_action(trial.game, seat, random.Random(3))
        if action is None:
            continue
        if trial.submit(seat, 0, {**action, "t": 0, "player": seat}).accepted and any(
            a.to_json()["type"] == "play" for a in trial.game.legal_actions(1 - seat)
        ):
            return row, action
    raise AssertionError("no such deal")


@own_loop
async def test_a_socket_s_messages_go_to_their_handlers_with_no_hand_off_to_the_sync_thread(
    monkeypatch,
):
    import channels.consumer

    handed = []
    real = channels.consumer.aclose_old_connections

    async def counting():
        handed.append(1)
        await real()

    monkeypatch.setattr(channels.consumer, "aclose_old_connections", counting)
    row = await sync_to_async(new_row)("stress-se", ("human", "human"))
    player = await connect(row.pk, cookie=cookie_for({row.pk: 0}))
    watcher = await connect(row.pk)
    await player.send_to(text_data=json.dumps({"since": 0}))
    await player.receive_from()
    await player.send_to(
        text_data=json.dumps({"action": json.dumps(a_move(row)), "version": row.version})
    )
    assert version_of(await frames_until(watcher, row.version + 1)) == row.version + 1
    assert handed == []  # connect, the page's frames and the notices: none waited for it
    for socket in (player, watcher):
        await socket.disconnect()


@own_loop
async def test_the_in_memory_layer_sweeps_at_most_once_a_second_and_delivers_in_order(
    monkeypatch,
):
    from channels import layers as channels_layers
    from channels.layers import get_channel_layer
    from live.layers import InMemoryChannelLayer

    layer = get_channel_layer()
    assert isinstance(layer, InMemoryChannelLayer)
    sweeps = []
    real = channels_layers.InMemoryChannelLayer._clean_expired
    monkeypatch.setattr(
        channels_layers.InMemoryChannelLayer,
        "_clean_expired",
        lambda self: sweeps.append(1) or real(self),
    )
    names = [await layer.new_channel() for _ in range(3)]
    for name in names:
        await layer.group_add("game.x", name)
    for n in range(10):
        await layer.group_send("game.x", {"type": "game.changed", "version": n})
    for name in names:
        assert [(await layer.receive(name))["version"] for _ in range(10)] == list(range(10))
    assert len(sweeps) <= 1  # 10 sends and 30 receives: Channels' layer swept at each
    # Expired messages still go, a sweep later.
    monkeypatch.setattr(InMemoryChannelLayer, "SWEEP_EVERY_S", 0)
    layer.expiry = -1
    await layer.group_send("game.x", {"type": "game.changed", "version": 10})
    layer._clean_expired()
    assert layer.channels == {} and layer.groups.get("game.x", {}) == {}


def test_a_change_s_log_entries_are_inserted_with_the_sql_built_once(monkeypatch):
    from django.db.models.sql.compiler import SQLInsertCompiler
    from play import store
    from play.models import LogEntry

    row = new_row("stress-se", ("human", "human"))
    service.play(row.pk, timezone.now(), seat=0, action=refused_move(row), version=row.version)
    built = []
    real = SQLInsertCompiler.as_sql

    def counting(self, *args, **kwargs):
        built.append(self.query.model)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(SQLInsertCompiler, "as_sql", counting)
    monkeypatch.setattr(store, "INSERT_BATCH", 2)
    changes = [
        service.play(row.pk, timezone.now(), seat=0, action=refused_move(row), version=row.version)
        for _ in range(3)
    ]
    # A bot's long catch-up: more entries than one INSERT takes.
    bot = new_row("stress-se", ("human", "expert"))
    caught = service.play(bot.pk, timezone.now() + timedelta(seconds=30))
    assert len(caught.entries) > 2
    monkeypatch.setattr(SQLInsertCompiler, "as_sql", real)
    assert LogEntry not in built
    # Stored as bulk_create stored them: every entry, in order, field by field.
    for game_id, written in (
        (row.pk, [e for c in changes for e in c.entries]),
        (bot.pk, caught.entries),
    ):
        stored = list(LogEntry.objects.filter(game_id=game_id).order_by("seq"))[-len(written) :]
        fields = ("seq", "t", "kind", "action", "reason", "events")
        assert [[getattr(e, f) for f in fields] for e in stored] == [
            [getattr(e, f) for f in fields] for e in written
        ]
    assert [e.seq for e in caught.entries] == list(range(len(caught.entries)))


@own_loop
async def test_a_refusal_that_stores_nothing_is_told_as_its_reason_alone(monkeypatch):
    renders = count_renders(monkeypatch, consumers)
    row = await sync_to_async(new_row)("stress-se", ("human", "human"))
    player = await connect(row.pk, cookie=cookie_for({row.pk: 0}))
    await player.send_to(text_data=json.dumps({"since": 0}))
    assert version_of(await player.receive_from()) == row.version
    await player.send_to(text_data=json.dumps({"command": "pause", "version": row.version}))
    paused = await frames_until(player, row.version + 1)
    assert version_of(paused) == row.version + 1
    await player.send_to(
        text_data=json.dumps({"action": json.dumps(a_move(row)), "version": row.version + 1})
    )
    told = json.loads(await player.receive_from())
    assert told["told"] == row.version + 1 and told["message"].startswith("The game is paused")
    assert (0, True) not in renders
    stored = await sync_to_async(Game.objects.get)(pk=row.pk)
    assert stored.version == row.version + 1  # nothing was stored
    await player.disconnect()

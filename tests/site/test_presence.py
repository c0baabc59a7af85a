"""Presence (issue #22, play.presence): a person whose connection drops keeps the seat; the
game pauses for everyone with a notice naming them, a bot of the chosen level takes the seat
after the table's limit, and the person takes it back on return. The seats' links are rows
in the database, so a socket of another process counts, and one whose process was killed
stops counting once it missed its pings.

The first tests drive the rule at chosen wall times through play.service (no sockets); the
later ones open sockets with Channels' WebsocketCommunicator, as browsers do."""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.db.models import F
from django.utils import timezone, translation
from play import presence, service
from play.models import HUMAN, Game, Socket

from tests.site.test_live import (
    connect,
    cookie_for,
    fresh_channel_layer,  # noqa: F401 (a fixture)
    own_loop,
    version_of,
)

pytestmark = pytest.mark.django_db(transaction=True)

SECOND = timedelta(seconds=1)


def table(limit_ms: int = 60_000, seats=(HUMAN, HUMAN), **kwargs) -> Game:
    kwargs.setdefault("takeover", ["club" if kind == HUMAN else "" for kind in seats])
    kwargs.setdefault("names", ["Anna", "Ben"][: len(seats)] + [""] * (len(seats) - 2))
    return service.start_game(
        "stress-se", list(seats), seed=7, wall=timezone.now(), away_limit_ms=limit_ms, **kwargs
    )


def socket_row(row: Game, seats: list[int], seen, closed=None) -> Socket:
    return Socket.objects.create(game=row, seats=seats, opened=seen, seen=seen, closed=closed)


def stored(row: Game) -> Game:
    return Game.objects.get(pk=row.pk)


# ---------------------------------------------------------------------------- the rule
def test_a_dropped_seat_pauses_the_game_after_the_grace_then_a_bot_takes_it(settings):
    settings.PLAY_AWAY_GRACE_MS = 5000
    row = table(limit_ms=60_000)
    t0 = timezone.now()
    socket_row(row, [0], t0 + 100 * SECOND)  # Anna's page answers every ping
    ben = socket_row(row, [1], t0)
    ben.closed = t0 + SECOND
    ben.save()
    # A reload takes less than the grace: nothing happens yet.
    assert not service.play(row.pk, t0 + 5 * SECOND).changed
    assert not stored(row).paused
    # The grace is over: the game waits for Ben, for everyone.
    change = service.play(row.pk, t0 + 6.5 * SECOND)
    game = change.row
    assert game.paused and presence.stopped_clock(game)
    assert list(presence.away(game)) == [1]
    assert presence.news(game) == [[presence.AWAY, 1]]
    # A move meanwhile is refused with the reason, and changes nothing.
    refused = service.play(
        row.pk, t0 + 7 * SECOND, seat=0, version=game.version, action={"type": "bogus"}
    )
    assert refused.value.refusal == service.AWAY
    # The waker knows when the bot is due: the limit after the seat went away.
    wake = service.wake_in_ms(game, service.driver_of(game), t0 + 7 * SECOND)
    assert 59_000 <= wake <= 60_000 + service.POLL_MARGIN_MS
    # The limit passes: the bot of the chosen level plays Ben's seat and the game goes on.
    change = service.play(row.pk, t0 + 67 * SECOND)
    game = change.row
    assert game.seats == [HUMAN, "club"]
    assert not game.paused and not presence.away(game)
    assert [presence.BOT, 1, "club"] in presence.news(game)
    assert service.driver_of(game).plans[1] is not None  # the bot has its move in mind
    # Ben takes his seat back.
    back = service.take_back(row.pk, 1, t0 + 68 * SECOND).row
    assert back.seats == [HUMAN, HUMAN]
    assert presence.news(back) == [[presence.PERSON, 1]]
    assert service.driver_of(back).plans[1] is None


def test_the_person_back_before_the_limit_lets_the_game_go_on(settings):
    settings.PLAY_AWAY_GRACE_MS = 1000
    row = table()
    t0 = timezone.now()
    socket_row(row, [0], t0 + 100 * SECOND)
    socket_row(row, [1], t0, closed=t0)
    paused = service.play(row.pk, t0 + 2 * SECOND).row
    assert paused.paused
    socket_row(row, [1], t0 + 10 * SECOND)  # Ben's page reconnects
    game = service.play(row.pk, t0 + 10 * SECOND).row
    assert not game.paused and not presence.away(game)
    assert presence.news(game) == [[presence.BACK, 1]]
    assert game.seats == [HUMAN, HUMAN]


def test_a_players_own_pause_stays_when_the_missing_person_is_back(settings):
    settings.PLAY_AWAY_GRACE_MS = 1000
    row = table()
    t0 = timezone.now()
    socket_row(row, [0], t0 + 100 * SECOND)
    socket_row(row, [1], t0, closed=t0)
    game = service.play(row.pk, t0 + 2 * SECOND).row
    resume = service.play(
        row.pk, t0 + 3 * SECOND, seat=0, version=game.version, clock_command="resume"
    )
    assert resume.value.refusal == service.AWAY
    service.play(row.pk, t0 + 3 * SECOND, seat=0, version=game.version, clock_command="pause")
    socket_row(row, [1], t0 + 4 * SECOND)
    assert service.play(row.pk, t0 + 4 * SECOND).row.paused


def test_a_socket_of_another_process_counts_and_a_killed_ones_stops_counting(settings):
    """The links are rows: a socket held by any process keeps its seat; a process killed
    with SIGKILL closes nothing, so its sockets' rows count until they missed their pings."""
    settings.PLAY_AWAY_GRACE_MS = 2000
    settings.PLAY_PING_MS = 1000
    row = table()
    t0 = timezone.now()
    socket_row(row, [0], t0 + 100 * SECOND)  # Anna, on a process that stays (fresh pongs)
    killed = socket_row(row, [1], t0)  # Ben, on the process killed at t0: never closed
    assert not service.play(row.pk, t0 + 2 * SECOND).row.paused
    stale_at = killed.seen + presence.stale_after()
    assert not service.play(row.pk, stale_at + 1.5 * SECOND).row.paused  # within the grace
    game = service.play(row.pk, stale_at + 2.5 * SECOND).row
    assert game.paused and list(presence.away(game)) == [1]


def test_a_lazy_catch_up_pauses_from_the_moment_and_hands_over_after_the_limit(settings):
    """Nobody watched while the person was away: the first request after the limit applies
    both, with the game time standing still from the moment the seat was away."""
    settings.PLAY_AWAY_GRACE_MS = 1000
    row = table(limit_ms=10_000)
    t0 = timezone.now()
    socket_row(row, [0], t0 + 100 * SECOND)
    socket_row(row, [1], t0, closed=t0)
    game = service.play(row.pk, t0 + 30 * SECOND).row
    assert game.seats == [HUMAN, "club"] and not game.paused
    assert presence.news(game) == [[presence.AWAY, 1], [presence.BOT, 1, "club"]]
    assert game.clock.now_ms(t0 + 30 * SECOND) <= 2_000  # stood still from t0 + 1 s


def test_a_teacher_hands_a_seat_to_its_bot_at_once(settings):
    settings.PLAY_AWAY_GRACE_MS = 1000
    row = table()
    t0 = timezone.now()
    socket_row(row, [0], t0 + 100 * SECOND)
    socket_row(row, [1], t0, closed=t0)
    assert service.play(row.pk, t0 + 2 * SECOND).row.paused
    game = service.hand_to_bot(row.pk, 1, t0 + 3 * SECOND).row
    assert game.seats == [HUMAN, "club"] and not game.paused
    # A seat no person holds, or one a bot plays already: the hands stay as they are (the
    # catch-up may bring the bot's move).
    again = service.hand_to_bot(row.pk, 1, t0 + 4 * SECOND).row
    assert again.seats == [HUMAN, "club"] and presence.news(again) == []
    bots = service.start_game(
        "stress-se",
        [HUMAN, "club"],
        seed=7,
        wall=timezone.now(),
        away_limit_ms=1000,
        takeover=["club", ""],
    )
    assert service.hand_to_bot(bots.pk, 1, t0).row.seats == [HUMAN, "club"]


def test_an_owners_hand_over_locks_the_take_back_until_given_back(settings):
    row = table()
    t0 = timezone.now()
    socket_row(row, [0, 1], t0 + 100 * SECOND)
    game = service.hand_to_bot(row.pk, 1, t0 + SECOND, lock=True).row
    assert game.seats == [HUMAN, "club"] and presence.locked(game) == {1}
    # Presence's own catch-ups keep the lock; the person's take-back changes nothing.
    kept = service.take_back(row.pk, 1, t0 + 2 * SECOND).row
    assert kept.seats == [HUMAN, "club"] and presence.locked(kept) == {1}
    freed = service.give_back(row.pk, 1, t0 + 3 * SECOND).row
    assert presence.locked(freed) == set() and freed.seats == [HUMAN, "club"]
    assert service.take_back(row.pk, 1, t0 + 4 * SECOND).row.seats == [HUMAN, HUMAN]
    # A seat a bot already plays for a dropped person is locked all the same.
    assert presence.locked(service.hand_to_bot(row.pk, 1, t0 + 5 * SECOND).row) == set()
    again = service.hand_to_bot(row.pk, 1, t0 + 6 * SECOND, lock=True).row
    assert again.seats == [HUMAN, "club"] and presence.locked(again) == {1}


def test_the_demo_with_no_away_limit_never_waits(settings):
    settings.PLAY_AWAY_GRACE_MS = 1000
    row = service.start_game("stress-se", [HUMAN, "club"], seed=7, wall=timezone.now())
    assert not presence.is_on(row)
    t0 = timezone.now()
    for seconds in (2, 30, 90):
        game = service.play(row.pk, t0 + seconds * SECOND).row
        assert not game.paused and game.presence == {}
    assert presence.socket_opened(row.pk, (0,), t0) is None
    assert not Socket.objects.exists()


@pytest.mark.parametrize(
    "kwargs",
    [
        {"takeover": ["club"]},
        {"takeover": ["club", "club"], "seats": [HUMAN, "club"]},
        {"takeover": ["grandmaster", ""]},
        {"names": ["a"]},
        {"names": ["x" * 41, "Ben"]},
        {"away_limit_ms": -1},
    ],
)
def test_a_table_that_cannot_be_is_refused(kwargs):
    seats = kwargs.pop("seats", [HUMAN, HUMAN])
    kwargs.setdefault("away_limit_ms", 1000)
    with pytest.raises(ValueError):
        service.start_game("stress-se", seats, seed=1, wall=timezone.now(), **kwargs)
    assert not Game.objects.exists()


# ---------------------------------------------------------------------------- the page
def test_the_page_names_the_missing_seat_and_counts_down(client, settings):
    settings.PLAY_AWAY_GRACE_MS = 1000
    row = table(limit_ms=60_000)
    t0 = timezone.now() - 3 * SECOND
    socket_row(row, [0], timezone.now())
    socket_row(row, [1], t0, closed=t0)
    for lang in ("en", "sv", "de"):
        page = client.get(f"/{lang}/play/{row.pk}/").content.decode()
        assert "Ben" in page and "data-countdown-ms" in page
        with translation.override(lang):
            from django.utils.translation import gettext as _

            assert _("The game is paused: a player is not connected.") in page
        assert 'id="clock-resume"' not in page  # nobody resumes a game waiting for Ben


def test_the_person_whose_seat_a_bot_plays_gets_the_take_back_button(client, settings):
    from tests.site.test_live import cookie_for as session_cookie

    settings.PLAY_AWAY_GRACE_MS = 1000
    row = table(limit_ms=1000)
    t0 = timezone.now() - 10 * SECOND
    socket_row(row, [0], timezone.now())
    socket_row(row, [1], t0, closed=t0)
    service.play(row.pk, timezone.now())
    name, value = session_cookie({row.pk: 1}).decode().split("=", 1)
    client.cookies[name] = value
    page = client.get(f"/en/play/{row.pk}/").content.decode()
    assert "A bot (club player) plays for Ben." in page
    assert 'data-take-back="1"' in page
    answer = client.post(f"/en/play/{row.pk}/seat/", {"seat": "1"})
    assert answer.status_code == 303  # the page again, as Ben's
    assert stored(row).seats == [HUMAN, HUMAN]
    page = client.get(answer["Location"]).content.decode()
    assert "you are playing" in page
    assert "data-take-back" not in page
    service.hand_to_bot(row.pk, 1, timezone.now())
    htmx = client.post(f"/en/play/{row.pk}/seat/", {"seat": "1"}, headers={"HX-Request": "true"})
    assert htmx["HX-Refresh"] == "true"
    assert stored(row).seats == [HUMAN, HUMAN]
    # Someone else's browser cannot take Ben's seat.
    client.cookies.clear()
    service.hand_to_bot(row.pk, 1, timezone.now())
    refused = client.post(f"/en/play/{row.pk}/seat/", {"seat": "1"})
    assert refused.status_code == 403
    assert stored(row).seats == [HUMAN, "club"]


# ---------------------------------------------------------------------------- sockets
async def board(socket, *, after: int = -1, timeout: float = 5, seen: list | None = None) -> str:
    """The next board frame newer than `after`, answering pings and keeping the delay
    frames (in `seen`) on the way, as the page does."""
    while True:
        frame = await socket.receive_from(timeout=timeout)
        if frame.startswith('{"ping"'):
            await socket.send_to(text_data=json.dumps({"pong": json.loads(frame)["ping"]}))
            continue
        if frame.startswith('<p id="delays"'):
            if seen is not None:
                seen.append(frame)
            continue
        if version_of(frame) > after:
            return frame


async def board_with(socket, text: str, timeout: float = 10) -> str:
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        frame = await board(socket, timeout=max(0.1, deadline - asyncio.get_running_loop().time()))
        if text in frame:
            return frame


@own_loop
async def test_sockets_a_dropped_seat_pauses_for_all_a_bot_plays_and_the_person_takes_it_back(
    settings,
):
    settings.PLAY_AWAY_GRACE_MS, settings.PLAY_PING_MS = 300, 1000
    if True:
        row = await sync_to_async(table)(limit_ms=1500)
        anna = await connect(row.pk, cookie=cookie_for({row.pk: 0}))
        ben = await connect(row.pk, cookie=cookie_for({row.pk: 1}))
        watcher = await connect(row.pk, lang="sv")
        await ben.disconnect()
        # Everyone else sees the pause, naming Ben, with the time left.
        frame = await board_with(anna, "Ben is not connected")
        assert "data-countdown-ms" in frame and "Ben is not connected:" in frame  # read out
        with translation.override("sv"):
            from django.utils.translation import gettext as _

            told = _("The game is paused: a player is not connected.")
        assert told in await board_with(watcher, told)
        # After the limit the bot plays Ben's seat, and the story says so.
        frame = await board_with(anna, "A bot (club player) plays for Ben.")
        assert "A bot (club player) now plays for Ben." in frame
        game = await sync_to_async(stored)(row)
        assert game.seats == [HUMAN, "club"]
        moved = await sync_to_async(lambda: game.entries.filter(kind="bot").exists())()
        if not moved:  # the bot's first move, with no request from any page
            await board(anna, after=version_of(frame), timeout=10)
        # Ben comes back: his page offers his seat back, and he takes it.
        ben = await connect(row.pk, cookie=cookie_for({row.pk: 1}))
        await ben.send_to(text_data=json.dumps({"since": 0}))
        assert 'data-take-back="1"' in await board(ben)
        await sync_to_async(service.take_back)(row.pk, 1, timezone.now())  # his button
        assert "Ben plays their own seat again." in await board_with(anna, "own seat again")
        assert (await sync_to_async(stored)(row)).seats == [HUMAN, HUMAN]
        for socket in (anna, ben, watcher):
            await socket.disconnect()


@own_loop
async def test_sockets_every_player_sees_every_seats_delay(settings):
    settings.PLAY_PING_MS = 300
    if True:
        row = await sync_to_async(table)()
        anna = await connect(row.pk, cookie=cookie_for({row.pk: 0}))
        ben = await connect(row.pk, cookie=cookie_for({row.pk: 1}))
        delays: list[str] = []
        pings = 0
        deadline = asyncio.get_running_loop().time() + 8
        while asyncio.get_running_loop().time() < deadline and not any(
            "Anna: " in d
            and "Ben: " in d
            and "ms<" in d.split("Anna: ")[1]
            and "ms<" in d.split("Ben: ")[1]
            for d in delays
        ):
            frame = await anna.receive_from(timeout=5)
            if frame.startswith('{"ping"'):
                pings += 1
                await anna.send_to(text_data=json.dumps({"pong": json.loads(frame)["ping"]}))
            elif frame.startswith('<p id="delays"'):
                delays.append(frame)
            while not await ben.receive_nothing(timeout=0.01):
                other = await ben.receive_from()
                if other.startswith('{"ping"'):
                    await ben.send_to(text_data=json.dumps({"pong": json.loads(other)["ping"]}))
        assert delays, "the delays were told"
        assert "Anna: " in delays[-1] and "Ben: " in delays[-1]
        # Told when they change noticeably, not with every ping.
        assert len(delays) < pings
        # A made-up answer measures nothing.
        await anna.send_to(text_data=json.dumps({"pong": 5}))
        rows = await sync_to_async(lambda: list(Socket.objects.values_list("rtt_ms", flat=True)))()
        assert all(ms is not None and ms < 5000 for ms in rows)
        await anna.disconnect()
        await ben.disconnect()


@own_loop
async def test_sockets_of_the_demo_get_no_ping_and_leave_no_row():
    row = await sync_to_async(service.start_game)(
        "stress-se", [HUMAN, HUMAN], seed=7, wall=timezone.now()
    )
    socket = await connect(row.pk, cookie=cookie_for({row.pk: 0}))
    assert await socket.receive_nothing(timeout=0.5)
    assert not await sync_to_async(Socket.objects.exists)()
    await socket.disconnect()


def test_a_page_asking_over_http_keeps_its_seat(client, settings):
    """A page whose socket cannot open asks for its board over HTTP: it is at the table."""
    from tests.site.test_live import cookie_for as session_cookie

    settings.PLAY_AWAY_GRACE_MS = 1000
    row = table()
    t0 = timezone.now() - 5 * SECOND
    socket_row(row, [0], timezone.now())
    socket_row(row, [1], t0, closed=t0)
    assert service.play(row.pk, timezone.now()).row.paused  # Ben's socket closed
    name, value = session_cookie({row.pk: 1}).decode().split("=", 1)
    client.cookies[name] = value
    client.get(f"/en/play/{row.pk}/?since=0")
    game = stored(row)
    assert not game.paused and presence.news(game) == [[presence.BACK, 1]]
    assert not presence.away(game)


def test_the_table_calls_the_seats_by_their_names(client):
    from tests.site.test_live import cookie_for as session_cookie

    row = table()
    name, value = session_cookie({row.pk: 0}).decode().split("=", 1)
    client.cookies[name] = value
    page = client.get(f"/en/play/{row.pk}/").content.decode()
    assert "Anna (you)" in page and "Ben" in page and "Player 2" not in page
    service.hand_to_bot(row.pk, 1, timezone.now())
    page = client.get(f"/en/play/{row.pk}/").content.decode()
    assert "Ben (bot, club player)" in page
    # The demo's seats keep their numbers.
    demo = service.start_game("stress-se", [HUMAN, "club"], seed=7, wall=timezone.now())
    assert "Player 2 (bot, club player)" in client.get(f"/en/play/{demo.pk}/").content.decode()


@own_loop
async def test_sockets_a_socket_the_server_closed_is_sent_nothing_more(settings):
    """A page that stops answering pings is closed by the server; a change pushed before its
    disconnect arrives must not reach it (an ASGI server raises on a send after a close)."""
    settings.PLAY_PING_MS = 100
    if True:
        row = await sync_to_async(table)()
        watcher = await connect(row.pk)  # pinged never
        ben = await connect(row.pk, cookie=cookie_for({row.pk: 1}))
        while True:  # Ben's page never answers: after its missed pings, the server closes it
            output = await ben.receive_output(timeout=5)
            if output["type"] == "websocket.close":
                break
        await sync_to_async(service.hand_to_bot)(row.pk, 1, timezone.now())
        await board_with(watcher, "A bot (club player) now plays for Ben.")
        assert await ben.receive_nothing(timeout=0.5)
        await watcher.disconnect()
        await ben.disconnect()


# ------------------------------------------------------- the start signal after a pause
def first_action(row: Game) -> dict:
    action = service.driver_of(row).game.legal_actions(0)[0]
    return {"type": action.type, **action.args}


def test_the_game_counts_down_again_when_the_missing_person_is_back(settings):
    """#22: people on their own screens start again together after a pause presence made:
    the start signal counts down once more, and a move before its "go" is refused."""
    settings.PLAY_SIGNAL_MS = 3000
    settings.PLAY_AWAY_GRACE_MS = 1000
    row = table()
    t0 = row.clock_at
    socket_row(row, [0], t0 + 100 * SECOND)
    socket_row(row, [1], t0, closed=t0 + 5 * SECOND)
    game = service.play(row.pk, t0 + 4 * SECOND).row
    assert not service.driver_of(game).waiting(game.clock.now_ms(t0 + 4 * SECOND))
    assert service.play(row.pk, t0 + 7 * SECOND).row.paused
    socket_row(row, [1], t0 + 10 * SECOND)  # Ben's page is back
    back = t0 + 10 * SECOND
    game = service.play(row.pk, back).row
    assert not game.paused
    driver = service.driver_of(game)
    assert driver.waiting(game.clock.now_ms(back))
    countdown = service.countdown(game, driver, back)
    assert countdown is not None and countdown.seconds == 3 and countdown.wall_ms == 3000
    action = first_action(game)
    early = service.play(row.pk, back + SECOND, seat=0, version=game.version, action=action)
    assert early.value.result.reason == "wait-signal"
    game = stored(row)
    late = service.play(row.pk, back + 3.5 * SECOND, seat=0, version=game.version, action=action)
    assert late.value.result.accepted


def test_a_resume_after_a_players_own_pause_counts_down_again(settings):
    settings.PLAY_SIGNAL_MS = 3000
    row = table()
    t0 = row.clock_at
    for seat in (0, 1):
        socket_row(row, [seat], t0 + 100 * SECOND)
    paused = service.play(
        row.pk, t0 + 5 * SECOND, seat=0, version=row.version, clock_command="pause"
    ).row
    assert paused.paused
    resumed = service.play(
        row.pk, t0 + 9 * SECOND, seat=1, version=paused.version, clock_command="resume"
    ).row
    driver = service.driver_of(resumed)
    now = resumed.clock.now_ms(t0 + 9 * SECOND)
    assert driver.waiting(now) and driver.signal_at == now + 3000
    assert service.countdown(resumed, driver, t0 + 9 * SECOND).seconds == 3


def test_a_game_against_bots_alone_resumes_at_once(settings):
    """The demo (one person, no presence) has nobody to start together with: its own
    pause ends without a second countdown."""
    settings.PLAY_SIGNAL_MS = 3000
    row = service.start_game("stress-se", [HUMAN, "club"], seed=7, wall=timezone.now())
    t0 = row.clock_at
    paused = service.play(
        row.pk, t0 + 5 * SECOND, seat=0, version=row.version, clock_command="pause"
    ).row
    resumed = service.play(
        row.pk, t0 + 9 * SECOND, seat=0, version=paused.version, clock_command="resume"
    ).row
    assert service.driver_of(resumed).signal_at == service.driver_of(paused).signal_at


def test_every_players_page_shows_the_countdown_after_the_pause(client, settings):
    settings.PLAY_SIGNAL_MS = 3000
    settings.PLAY_AWAY_GRACE_MS = 1000
    row = table()
    # dealt 20 s ago: the first countdown is long over
    Game.objects.filter(pk=row.pk).update(clock_at=F("clock_at") - 20 * SECOND)
    now = timezone.now()
    assert not service.driver_of(row).waiting(stored(row).clock.now_ms(now))
    socket_row(row, [0], now + 100 * SECOND)
    socket_row(row, [1], now - 10 * SECOND, closed=now - 5 * SECOND)
    assert service.play(row.pk, now).row.paused
    socket_row(row, [1], timezone.now())  # Ben is back: the next look resumes the game
    for lang in ("en", "sv", "fi"):
        page = client.get(f"/{lang}/play/{row.pk}/").content.decode()
        assert '<div class="signal" data-signal data-signal-in="' in page, lang
        assert '<p class="signal__count">3</p>' in page, lang
        with translation.override(lang):
            from django.utils.translation import pgettext

            assert pgettext("start signal", "Ready, steady…") in page

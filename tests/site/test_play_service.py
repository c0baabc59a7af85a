"""A stored game moved on by requests: catch-up through the engine's driver, the human's
move at arrival time, refusals that change nothing, the clock, and the log's replay."""

import pytest
from play import service
from play.models import HUMAN, Game, LogEntry

from rules_engine.driver import Driver

from .play_support import human_action, play_to_the_end, wall

pytestmark = pytest.mark.django_db


def start(variant="stress-se", seats=(HUMAN, "expert"), **kwargs) -> Game:
    return service.start_game(variant, list(seats), seed=kwargs.pop("seed", 3), wall=wall(0),
                              speed=kwargs.pop("speed", 1.0), **kwargs)


def test_a_request_catches_the_bots_up_to_its_arrival_and_logs_every_engine_call():
    row = start()
    due = service.driver_of(row).next_due()
    change = service.play(row.pk, wall(due - 1))
    assert not change.changed and change.row.version == 0
    change = service.play(row.pk, wall(due))
    assert change.changed and change.row.version == 1
    entries = list(LogEntry.objects.filter(game=row))
    assert [e.seq for e in entries] == list(range(len(entries))) and entries
    assert entries[0].kind == "bot" and entries[0].t == due
    # The same catch-up by the driver alone, from the same start, gives the same state.
    alone = Driver.new("stress-se", [HUMAN, "expert"], seed=3)
    alone.run_until(due)
    assert change.row.snapshot == Game.objects.get(pk=row.pk).snapshot == alone.to_json()


def test_the_human_move_is_applied_at_the_requests_game_time():
    row = start("james-bond", (HUMAN, "learner"))
    change = service.play(row.pk, wall(450), seat=0, action={"type": "pick", "pile": "pile-2"},
                          version=0)
    assert change.value.result.accepted
    human = LogEntry.objects.get(game=row, kind="human")
    assert human.t == 450 and human.action["pile"] == "pile-2"
    assert change.row.acted == [change.row.version, 0]


def test_the_speed_factor_runs_game_time_faster():
    row = start(speed=4.0)
    change = service.play(row.pk, wall(500), seat=0, action={"type": "call"}, version=0)
    assert change.value.now_ms == 2000
    assert LogEntry.objects.get(game=row, kind="human").t == 2000


@pytest.mark.parametrize(("kwargs", "refusal"), [
    ({"seat": None}, service.NOT_YOUR_SEAT),
    ({"seat": 1}, service.NOT_YOUR_SEAT),  # a bot's seat
    ({"seat": 0, "version": 7}, service.FORGED),
    ({"seat": 0, "version": None}, service.FORGED),
])
def test_refused_moves_change_nothing(kwargs, refusal):
    row = start("james-bond", (HUMAN, "learner"))
    request = {"action": {"type": "pick", "pile": "pile-1"}, "version": 0, **kwargs}
    change = service.play(row.pk, wall(3000), **request)
    assert change.value.refusal == refusal and not change.changed
    after = Game.objects.get(pk=row.pk)
    assert (after.version, after.snapshot, after.log_length) == (0, row.snapshot, 0)


def test_a_move_sent_from_a_table_older_than_the_seats_own_last_move_is_stale():
    row = start("james-bond", (HUMAN, "learner"))
    pick = {"type": "pick", "pile": "pile-1"}
    first = service.play(row.pk, wall(100), seat=0, action=pick, version=0)
    assert first.value.result.accepted
    before = Game.objects.get(pk=row.pk)
    other = service.play(row.pk, wall(200), seat=0, action={"type": "pick", "pile": "pile-2"},
                         version=0)
    assert other.value.refusal == service.STALE
    after = Game.objects.get(pk=row.pk)
    assert (after.version, after.snapshot) == (before.version, before.snapshot)
    # The same move again (the page retrying a lost answer) is that move, not a refusal
    # (#25, tests/site/test_move_retry.py).
    replayed = service.play(row.pk, wall(200), seat=0, action=pick, version=0)
    assert replayed.value.refusal is None and replayed.value.repeated


def test_a_rejected_move_keeps_the_engines_reason_and_changes_no_card():
    row = start("spit", (HUMAN, "learner"))
    game = service.driver_of(row).game
    top = game.board(0)["seats"][0]["zones"][0]["cards"][-1]["card"]
    change = service.play(row.pk, wall(10), seat=0, version=0, action={
        "type": "play", "from": "pile-1", "card": top, "to": "centre-0", "onto": "2C"})
    assert not change.value.result.accepted and change.value.result.reason
    state = change.row.snapshot["game"]["state"]
    assert state == row.snapshot["game"]["state"]


def test_pause_stops_the_clock_and_moves_wait_until_resume():
    row = start(seats=(HUMAN, "learner"))
    paused = service.play(row.pk, wall(1000), seat=0, clock_command="pause", version=0).row
    assert paused.paused and paused.clock_ms == 1000
    later = service.play(row.pk, wall(60_000)).row
    assert later.clock.now_ms(wall(60_000)) == 1000 and later.log_length == paused.log_length
    refused = service.play(row.pk, wall(61_000), seat=0, action={"type": "call"},
                           version=later.version)
    assert refused.value.refusal == service.PAUSED
    resumed = service.play(row.pk, wall(70_000), seat=0, clock_command="resume",
                           version=later.version).row
    assert not resumed.paused and resumed.clock.now_ms(wall(70_500)) == 1500


def test_a_step_while_paused_applies_exactly_the_next_due_action_and_moves_the_clock_there():
    row = start(seats=("expert", "club"))
    paused = service.play(row.pk, wall(300), clock_command="pause", version=0,
                          controls=True).row
    expected = service.driver_of(paused)
    due = expected.next_due()
    entry = expected.step()
    change = service.play(row.pk, wall(60_000), clock_command="step", version=paused.version,
                          controls=True)
    stepped = change.row
    assert change.value.stepped is not None and change.value.stepped.t == due
    assert stepped.log_length == paused.log_length + 1 and stepped.paused
    logged = LogEntry.objects.get(game=row, seq=paused.log_length)
    assert logged.t == entry.t == due and logged.action == entry.action.to_json()
    assert stepped.clock.now_ms(wall(90_000)) == due
    assert stepped.snapshot == expected.to_json()
    # Nothing more happens while paused; resuming runs on from the step's moment.
    assert service.play(row.pk, wall(120_000)).row.log_length == stepped.log_length
    resumed = service.play(row.pk, wall(120_000), clock_command="resume",
                           version=stepped.version, controls=True).row
    assert resumed.clock.now_ms(wall(120_100)) == due + 100


def test_a_step_needs_a_paused_clock_and_does_nothing_while_the_game_waits_for_a_person():
    row = start(seats=("expert", "club"))
    running = service.play(row.pk, wall(10), clock_command="step", version=0, controls=True)
    assert running.value.refusal == service.RUNNING and not running.changed
    humans = start(seats=(HUMAN, HUMAN))
    paused = service.play(humans.pk, wall(10), seat=0, clock_command="pause", version=0).row
    idle = service.play(humans.pk, wall(20), seat=1, clock_command="step",
                        version=paused.version)
    assert idle.value.stepped is None and idle.value.refusal is None
    assert Game.objects.get(pk=humans.pk).log_length == 0


def test_the_controller_changes_speed_without_a_seat_but_cannot_move():
    row = start(seats=("expert", "club"))
    faster = service.play(row.pk, wall(1000), clock_command="speed", speed=2.0, version=0,
                          controls=True).row
    assert faster.speed == 2.0 and faster.clock.now_ms(wall(1500)) == 2000
    move = service.play(row.pk, wall(1500), action={"type": "call"}, version=faster.version,
                        controls=True)
    assert move.value.refusal == service.NOT_YOUR_SEAT
    stranger = service.play(row.pk, wall(1500), clock_command="pause", version=faster.version)
    assert stranger.value.refusal == service.NOT_YOUR_SEAT


def test_a_game_whose_player_stopped_playing_pauses_itself(settings):
    settings.PLAY_IDLE_PAUSE_MS = 5000
    row = start("james-bond", (HUMAN, "expert"))
    row = service.play(row.pk, wall(3_600_000)).row
    assert row.paused and row.clock_ms == 5000
    assert LogEntry.objects.filter(game=row).order_by("-seq").first().t <= 5000


def test_next_poll_is_the_next_bot_moment_but_never_sooner_than_idle_polling_allows(settings):
    row = start(seats=(HUMAN, "expert"))
    driver = service.driver_of(row)
    due = driver.next_due()
    assert service.next_poll_ms(row, driver, wall(0)) == due + service.POLL_MARGIN_MS
    settings.PLAY_IDLE_POLL_MS = 100
    assert service.next_poll_ms(row, driver, wall(0)) == 100
    human_only = start("stress-se", (HUMAN, HUMAN))
    assert service.next_poll_ms(human_only, service.driver_of(human_only), wall(0)) == 100


GAMES = [("stress-se", 2, {}), ("stress-de", 2, {"jokers": 2, "scoring": True}),
         ("stressi-fi", 2, {}), ("spit", 2, {}), ("james-bond", 2, {"say_stikk": True}),
         ("james-bond", 4, {"five_second_rule": True})]


@pytest.mark.parametrize(("variant", "players", "options"), GAMES)
def test_the_log_of_a_finished_game_replays_to_the_stored_state(variant, players, options):
    row = start(variant, [HUMAN] + ["expert"] * (players - 1), options=options, seed=11)
    row = play_to_the_end(row)
    assert row.over and row.finished is not None
    humans = LogEntry.objects.filter(game=row, kind="human")
    assert humans.exists()
    replayed = service.replay_log(row)
    assert replayed.over and replayed.winner == row.winner
    assert replayed.to_json(log=False) == service.driver_of(row).game.to_json(log=False)


def test_a_finished_game_takes_no_more_moves():
    row = play_to_the_end(start("stress-se", (HUMAN, "expert"), seed=5))
    import random

    length = row.log_length
    change = service.play(row.pk, wall(10**8), seat=0, action=human_action(
        row, 0, random.Random(1)) or {"type": "call"}, version=row.version)
    assert change.value.result.reason == "game-over"
    assert Game.objects.get(pk=row.pk).log_length == length

"""What a finished game and a waiting table say about the players: "you" only to the person
who plays that seat, players named inside sentences as sentences name them (never by the
seat's label), a match summed up by deals won, who is ready for new cards, and James Bond's
key list for the number of piles this game deals."""

import pytest
from django.utils import translation
from play.summary import summarise
from teach.summary import moment_time, result_line

from presentation.table import build_table
from rules_engine.driver import Driver

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def finished(variant="stress-se", seats=("expert", "expert"), **options):
    driver = Driver.new(variant, list(seats), options=options or None, seed=3)
    driver.run(max_actions=20_000)
    assert driver.game.over and driver.game.winner is not None
    return driver.game


def test_the_winner_who_reads_the_page_is_told_in_the_second_person():
    game = finished()
    seats = ["human", "expert"] if game.winner == 0 else ["expert", "human"]
    summary = summarise(game, seats, game.winner)
    assert summary.title == "You won!" and summary.why == "You played out every card."
    assert any(s.name.endswith("(you)") and s.winner for s in summary.seats)


def test_a_watcher_reads_the_winner_by_name_in_plain_sentences():
    game = finished()
    summary = summarise(game, ["expert", "expert"], None)
    n = game.winner + 1
    assert summary.title == f"Player {n} won"
    assert summary.why == f"Player {n} played out every card."
    assert "(you)" not in " ".join(s.name for s in summary.seats)
    # The facts list keeps the seats' full labels.
    assert {s.name for s in summary.seats} == {"Player 1 (bot, expert)", "Player 2 (bot, expert)"}


def test_a_sentence_that_opens_with_a_player_starts_with_a_capital_in_swedish():
    game = finished()
    with translation.override("sv"):
        summary = summarise(game, ["expert", "expert"], None)
    assert summary.title == f"Spelare {game.winner + 1} vann"


def test_a_best_of_five_match_is_summed_up_by_deals_won():
    game = finished("james-bond", ("expert", "expert", "expert"), best_of_five=True)
    wins = game.board(None)["match"]["wins"]
    summary = summarise(game, ["expert"] * 3, None)
    assert [s.left for s in summary.seats] == [
        f"{w} deal won" if w == 1 else f"{w} deals won" for w in wins]
    assert summary.why == f"Player {game.winner + 1} won three deals of the best of five."


def test_the_class_summary_says_the_result_in_one_sentence():
    game = finished()
    line = result_line(game)
    assert line.startswith(f"Player {game.winner + 1} won after ")
    assert line.endswith(" by playing out every card.") and "(bot" not in line


def test_a_moment_says_how_far_into_the_game_it_came():
    assert moment_time(0) == "(at the start of the game)"
    # in a sentence, words rather than the table cell's "1 min 12 s"
    assert moment_time(72_000) == "(1 minute and 12 seconds into the game)"
    assert moment_time(61_000) == "(1 minute and 1 second into the game)"
    assert moment_time(120_000) == "(2 minutes into the game)"
    with translation.override("de"):
        assert moment_time(72_000) == "(nach 1 Minute und 12 Sekunden Spielzeit)"


def test_who_is_ready_for_new_cards_is_named():
    driver = Driver.new("stress-de", ["human", "human"], seed=2)
    assert driver.submit(1, 0, {"type": "ready"}).accepted
    game, seats = driver.game, ["human", "human"]
    waiting = build_table(game, seats, 0, interactive=True).hint
    ready = build_table(game, seats, 1, interactive=True).hint
    watched = build_table(game, seats, 0, interactive=False, watcher=True).hint
    assert waiting == "Player 2 is ready for new cards; they are turned when you are too."
    assert ready.startswith("You are ready for new cards")
    assert watched == "Player 2 is ready for new cards; they are turned when both are."
    with translation.override("sv"):
        assert build_table(game, seats, 0, interactive=False, watcher=True).hint.startswith(
            "Spelare 2 är redo")


def test_a_watcher_sees_the_table_turned_to_a_seat_without_being_that_player():
    game = Driver.new("stress-se", ["human", "expert"], seed=2).game
    watched = build_table(game, ["human", "expert"], 0, interactive=False, watcher=True)
    assert watched.own.seat == 0 and not watched.own.you and watched.own.name == "Player 1"
    played = build_table(game, ["human", "expert"], 0, interactive=True)
    assert played.own.you and played.own.name == "Player 1 (you)"


@pytest.mark.parametrize(("players", "piles"), [(2, 6), (3, 4), (4, 3)])
def test_the_james_bond_key_list_counts_this_games_piles(players, piles):
    seats = ["human"] + ["club"] * (players - 1)
    game = Driver.new("james-bond", seats, seed=2).game
    keys = build_table(game, seats, 0, interactive=True).key_help
    assert (f"1–{piles}", "pick up a pile") in keys
    assert ("1–4", "lay a card from your hand") in keys  # a held pile has four cards
    assert "L" not in dict(keys)  # one card per grab: a card is laid when it is chosen


def test_the_james_bond_key_list_has_the_lay_key_when_several_cards_go_per_grab():
    game = Driver.new("james-bond", ["human", "club"], seed=2,
                      options={"several_per_grab": True}).game
    keys = dict(build_table(game, ["human", "club"], 0, interactive=True).key_help)
    assert keys["L"] == "lay the chosen cards in the middle"


def test_the_finished_games_page_tells_only_the_person_playing_that_they_won(client, settings):
    from play import service

    from .play_support import play_to_the_end, wall

    row = play_to_the_end(service.start_game("stress-se", ["human", "expert"], seed=4,
                                             wall=wall(0), speed=1.0))
    winner = service.driver_of(row).game.winner
    assert winner is not None
    watched = client.get(f"/en/play/{row.pk}/").text
    assert "You won!" not in watched and "(you)" not in watched
    assert f"Player {winner + 1} won" in watched
    session = client.session
    session["play"] = {row.pk: [0]}
    session.save()
    client.cookies[settings.SESSION_COOKIE_NAME] = session.session_key
    played = client.get(f"/en/play/{row.pk}/").text
    assert "Player 1 (you)" in played
    assert ("You won!" in played) == (winner == 0)


"""Samples with a session, for the routes whose views act only for the browser that holds
something: teacher mode's lesson (the teacher's browser controls it) and the pupils who
joined it.

The crawl meets these routes as a stranger (a 403, a redirect, a move for nobody), so bending
its samples never gets past the views' first check. These samples come from a real lesson set
up through the site's own forms, each request with the cookie of the browser it belongs to:
the fuzz then bends requests that the views really act on.
"""

import json
from datetime import timedelta
from http.cookies import SimpleCookie

from django.conf import settings

from .crawl import Sample
from .routes import Route
from .transport import FuzzRequest

#: every teach route a session reaches further (the set-up form is crawled like any form)
TEACH_ROUTES = ("teach_lesson", "teach_follow", "teach_move", "teach_clock", "teach_question",
                "teach_explain", "teach_answer", "teach_summary", "teach_replay", "teach_join",
                "teach_tables", "teach_tables_control", "teach_pupil_table", "teach_pupil_status")


def _session(response) -> tuple[tuple[str, str], ...]:
    cookies = SimpleCookie()
    for line in response.headers.get("set-cookie", "").splitlines():
        cookies.load(line.split(":", 1)[1] if line.lower().startswith("set-cookie:") else line)
    name = settings.SESSION_COOKIE_NAME
    assert name in cookies, "the form did not start a session"
    return ((name, cookies[name].value),)


def _lesson(send, lang: str, fields: tuple) -> tuple[str, tuple]:
    """A lesson set up through the form: its game id and the teacher's cookie."""
    response = send(FuzzRequest("POST", f"/{lang}/stress-se/teach/", form=fields))
    assert response.status == 303, response.status
    return response.headers["location"].rstrip("/").rsplit("/", 1)[-1], _session(response)


def _clock(send, lang: str, game_id: str, cookies: tuple, command: str) -> None:
    from play.models import Game

    version = str(Game.objects.get(pk=game_id).version)
    response = send(FuzzRequest("POST", f"/{lang}/teach/{game_id}/clock/", form=(
        ("command", command), ("version", version)), cookies=cookies))
    assert response.status == 200, response.status


def teach_samples(send, routes: list[Route], lang: str = "en") -> dict[str, list[Sample]]:
    """Per route name, samples from lessons set up through the site: one where the teacher
    plays player 1 against a bot, paused, with a question to the class that a pupil has
    answered; one running (moves); one paused without a question (steps); one over."""
    from play import service
    from play.models import Game
    from teach.explain import Ref
    from teach.models import Lesson

    teacher_fields = (("mode", "teacher"), ("players", "2"), ("level-2", "club"), ("seed", "1"))
    game_id, teacher = _lesson(send, lang, teacher_fields)
    lesson = Lesson.objects.get(pk=game_id)
    joined = send(FuzzRequest("POST", f"/{lang}/class/", form=(
        ("code", lesson.class_code), ("nickname", "Fuzz"))))
    assert joined.status == 303, joined.status
    pupil = _session(joined)
    base = f"/{lang}/teach/{game_id}"
    asked = send(FuzzRequest("POST", f"{base}/question/", form=(("command", "ask"), ("seat", "0")),
                             cookies=teacher))
    assert asked.status == 200, asked.status
    row = Game.objects.get(pk=game_id)
    game = service.driver_of(row).game
    play = next(a.to_json() for a in game.legal_actions(0) if a.type == "play")
    move = json.dumps({k: v for k, v in play.items() if k not in ("t", "player")})
    version = str(row.version)
    answered = send(FuzzRequest("POST", f"{base}/answer/1/", form=(
        ("action", move), ("version", version)), cookies=pupil))
    assert answered.status == 200, answered.status

    running_id, running_teacher = _lesson(send, lang, teacher_fields)
    _clock(send, lang, running_id, running_teacher, "resume")
    running = f"/{lang}/teach/{running_id}"
    stepping_id, stepping_teacher = _lesson(send, lang, teacher_fields)
    stepping = f"/{lang}/teach/{stepping_id}"

    over_id, over_teacher = _lesson(send, lang, (
        ("mode", "watch"), ("players", "2"), ("level-1", "expert"), ("level-2", "expert"),
        ("seed", "9")))
    over = Game.objects.get(pk=over_id)
    service.play(over.pk, over.clock_at + timedelta(milliseconds=1), clock_command="resume",
                 version=over.version, controls=True)
    over = service.play(over.pk, over.clock_at + timedelta(hours=1)).row
    assert over.over

    # Class tables (#23): a lesson of its own, its pupil seated at a table by a round.
    tables_id, tables_teacher = _lesson(send, lang, teacher_fields)
    tables_code = Lesson.objects.get(pk=tables_id).class_code
    seated = send(FuzzRequest("POST", f"/{lang}/class/", form=(
        ("code", tables_code), ("nickname", "Fuzz"))))
    assert seated.status == 303, seated.status
    player = _session(seated)
    tables = f"/{lang}/teach/{tables_id}"
    started = send(FuzzRequest("POST", f"{tables}/tables/control/", form=(
        ("command", "start"), ("size", "2"), ("level", "club"), ("pairing", "shuffle")),
        cookies=tables_teacher))
    assert started.status == 303, started.status

    ref = Ref("centre-0").to_json()
    since = (("since", "0"),)
    wanted: dict[str, list[tuple[dict, FuzzRequest]]] = {
        "teach_lesson": [({"game_id": game_id}, FuzzRequest(
            "GET", f"{base}/", query=since, cookies=teacher))],
        "teach_follow": [({"game_id": game_id}, FuzzRequest(
            "GET", f"{base}/follow/", query=since, cookies=pupil))],
        # A call while the tops differ: the engine refuses it and the next bent request is
        # judged afresh (an accepted move would make every later one stale).
        "teach_move": [({"game_id": running_id}, FuzzRequest("POST", f"{running}/move/", form=(
            ("action", '{"type": "call", "pile": "centre-0"}'), ("version", "0"),
            ("since", "0")), cookies=running_teacher))],
        "teach_clock": [({"game_id": stepping_id}, FuzzRequest(
            "POST", f"{stepping}/clock/", form=(
                ("command", "step"), ("value", "0.5"), ("version", "0"), ("since", "0")),
            cookies=stepping_teacher))],
        "teach_question": [({"game_id": game_id}, FuzzRequest("POST", f"{base}/question/", form=(
            ("command", "reveal"), ("seat", "1"), ("since", "0")), cookies=teacher))],
        "teach_explain": [({"game_id": game_id}, FuzzRequest(
            "GET", f"{base}/explain/", query=(("ref", ref),), cookies=teacher))],
        "teach_answer": [({"game_id": game_id, "number": "1"}, FuzzRequest(
            "POST", f"{base}/answer/1/", form=(("action", move), ("version", version),
                                              ("since", "0")), cookies=pupil))],
        "teach_summary": [({"game_id": over_id}, FuzzRequest(
            "GET", f"/{lang}/teach/{over_id}/summary/", cookies=over_teacher))],
        "teach_replay": [({"game_id": over_id}, FuzzRequest(
            "GET", f"/{lang}/teach/{over_id}/replay/", query=(("step", "1"),),
            cookies=over_teacher))],
        "teach_tables": [({"game_id": tables_id}, FuzzRequest(
            "GET", f"{tables}/tables/", cookies=tables_teacher))],
        "teach_tables_control": [({"game_id": tables_id}, FuzzRequest(
            "POST", f"{tables}/tables/control/", form=(
                ("command", "large"), ("table", "1"), ("pupil", "1"), ("size", "2"),
                ("level", "club"), ("pairing", "winners")), cookies=tables_teacher))],
        "teach_pupil_table": [({"game_id": tables_id}, FuzzRequest(
            "GET", f"{tables}/table/", cookies=player))],
        "teach_pupil_status": [({"game_id": tables_id}, FuzzRequest(
            "GET", f"{tables}/table/status/", query=(("at", ""),), cookies=player))],
        "teach_join": [({}, FuzzRequest("POST", f"/{lang}/class/", form=(
            ("code", lesson.class_code), ("nickname", "Fuzz")), cookies=pupil))],
    }
    by_name = {route.name: route for route in routes}
    return {name: [Sample(by_name[name], lang, values, request) for values, request in found]
            for name, found in wanted.items()}


#: every table route a session reaches further (#22; the new table's form is crawled)
TABLE_ROUTES = ("tables_table", "tables_join", "tables_ready", "tables_remove", "tables_play",
                "tables_give_back")


def _table(send, lang: str, players: str = "2") -> tuple[str, tuple]:
    """A table opened through the form: its code and the creator's cookie."""
    response = send(FuzzRequest("POST", f"/{lang}/james-bond/play/friends/", form=(
        ("name", "Fuzz"), ("players", players), ("seat-2", "friend"), ("seat-3", "friend"))))
    assert response.status == 303, response.status
    return response.headers["location"].rstrip("/").rsplit("/", 1)[-1], _session(response)


def table_samples(send, routes: list[Route], lang: str = "en") -> dict[str, list[Sample]]:
    """Per table route, a sample from a table set up through the site: the creator's and a
    seated friend's sessions in the lobby of a three-seat table (one seat still free, so a
    join is judged), and a table whose game runs (its way to the game)."""
    code, creator = _table(send, lang, players="3")
    joined = send(FuzzRequest("POST", f"/{lang}/table/{code}/join/", form=(("name", "Bo"),)))
    assert joined.status == 303, joined.status
    friend = _session(joined)
    base = f"/{lang}/table/{code}"
    two, host = _table(send, lang)
    guest = _session(send(FuzzRequest("POST", f"/{lang}/table/{two}/join/",
                                      form=(("name", "Bo"),))))
    for cookies in (host, guest):
        response = send(FuzzRequest("POST", f"/{lang}/table/{two}/ready/", cookies=cookies))
        assert response.status == 303, response.status
    handed = send(FuzzRequest("POST", f"/{lang}/table/{two}/remove/", form=(("seat", "1"),),
                              cookies=host))
    assert handed.status == 303, handed.status  # the guest's seat is its bot's, locked
    wanted: dict[str, list[tuple[dict, FuzzRequest]]] = {
        "tables_table": [({"code": code}, FuzzRequest("GET", f"{base}/", cookies=creator))],
        "tables_join": [({"code": code}, FuzzRequest("POST", f"{base}/join/", form=(
            ("name", "Cy"),)))],
        "tables_ready": [({"code": code}, FuzzRequest("POST", f"{base}/ready/", form=(
            ("ready", "no"),), cookies=friend))],
        "tables_remove": [({"code": code}, FuzzRequest("POST", f"{base}/remove/", form=(
            ("seat", "1"),), cookies=creator))],
        "tables_play": [({"code": two}, FuzzRequest("GET", f"/{lang}/table/{two}/play/",
                                                    cookies=guest))],
        # the host of the running table gives back the seat it handed to a bot (below)
        "tables_give_back": [({"code": two}, FuzzRequest(
            "POST", f"/{lang}/table/{two}/give-back/", form=(("seat", "1"),), cookies=host))],
    }
    by_name = {route.name: route for route in routes}
    return {name: [Sample(by_name[name], lang, values, request) for values, request in found]
            for name, found in wanted.items()}


def session_profiles(send) -> list:
    """Profiles of the teach routes from their session samples (the long campaign adds them
    to the crawled ones, so each route's share is also spent past the views' checks)."""
    from .discovery import discover
    from .routes import all_routes

    samples = teach_samples(send, all_routes())
    return discover([found[0].route for found in samples.values()],
                    [sample for found in samples.values() for sample in found])

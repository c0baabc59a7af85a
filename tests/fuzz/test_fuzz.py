"""The quick fuzz profile (part of `make test`); `make fuzz` runs the long one (campaign.py)."""

import pytest
from django.conf import settings
from django.db import transaction
from django.test import override_settings
from hypothesis import HealthCheck, Phase, given
from hypothesis import settings as hypothesis_settings

from .discovery import discover, profile_site
from .plans import bad_host_plan, method_rounds, planned_requests, quick_plan, stray_plan
from .routes import all_routes
from .runner import Tally
from .sessions import TABLE_ROUTES, TEACH_ROUTES, table_samples, teach_samples
from .transport import InProcess


def assert_clean(tally: Tally) -> None:
    if tally.findings:
        shown = "\n\n".join(str(f)[:3000] for f in tally.findings[:10])
        pytest.fail(f"{len(tally.findings)} findings in {tally.requests} requests:\n\n{shown}")


# Also tells pytest-django to create the test database when only this module runs.
pytestmark = pytest.mark.django_db

LANGS = [code for code, _name in settings.LANGUAGES]
ROUTES = [route.label for route in all_routes()]


@pytest.fixture(scope="module")
def fuzz_db(django_db_setup, django_db_blocker):
    """One transaction for the module, rolled back at its end: what the crawl saves (a form
    that stores something) is there for every test here and for no test elsewhere."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield
        transaction.set_rollback(True)


@pytest.fixture(scope="module")
def profiles(fuzz_db):
    return {profile.route.label: profile for profile in profile_site()}


def test_every_route_of_the_urlconf_is_profiled(profiles):
    assert list(profiles) == ROUTES
    assert "healthz" in ROUTES
    for profile in profiles.values():
        assert profile.samples, profile.route.label


def test_parameters_are_found_by_recording_not_by_registration(profiles):
    sandbox = profiles["<lang>/<variant:variant>/examples/<slug:name>/try/"]
    assert {"step", "moves", "seat", "try"} <= set(sandbox.query)
    assert {"a", "b"} <= set(profiles["<lang>/compare/"].query)
    assert {"next", "large", "fourcolour"} <= set(profiles["prefs/"].form)
    assert "pref-large" in profiles["<lang>/"].cookies


@pytest.mark.parametrize("label", ROUTES)
def test_quick_profile(profiles, label):
    tally = Tally()
    send = InProcess().send
    plan = quick_plan(profiles[label], LANGS)
    for planned in plan:
        tally.send(send, planned)
    assert tally.requests == len(plan) >= 20
    assert_clean(tally)


def test_every_teach_route_is_fuzzed_with_a_session():
    teach = {r.name for r in all_routes()
             if r.name and r.name.startswith("teach_")
             and r.view.__module__ in ("teach.views", "teach.tables_views")}
    assert teach - {"teach_setup"} == set(TEACH_ROUTES)


@pytest.mark.parametrize("name", TEACH_ROUTES)
def test_quick_profile_with_a_session(name):
    """The quick profile of a route bent from requests with the teacher's or a pupil's
    session: past the views' checks, into the moves, clock commands, questions and answers
    of a real lesson (each route gets a lesson of its own)."""
    send = InProcess().send
    samples = teach_samples(send, all_routes())[name]
    [profile] = discover([samples[0].route], samples)
    tally = Tally()
    plan = quick_plan(profile, LANGS)
    answered = [tally.send(send, planned).status for planned in plan]
    assert_clean(tally)
    # The session reached the view: some bent requests were still answered as to its owner.
    assert any(200 <= status < 300 for status in answered), set(answered)


def test_every_tables_route_is_fuzzed_with_a_session():
    tables = {r.name for r in all_routes() if r.name and r.view.__module__ == "tables.views"}
    assert tables - {"tables_index", "tables_new", "tables_invite", "tables_from_sheet"} == set(
        TABLE_ROUTES)


@pytest.mark.parametrize("name", TABLE_ROUTES)
def test_quick_profile_of_a_table_with_a_session(name):
    """The quick profile of a table's route bent from requests of its creator, a seated
    friend or a guest: past the views' checks, into joining, ready, removing, the game."""
    send = InProcess().send
    samples = table_samples(send, all_routes())[name]
    # The sample's session reaches the view: it is answered as its sender's (a seat taken,
    # a player removed, not ready, the way to the game); then the bent requests follow.
    status = send(samples[0].request).status
    assert 200 <= status < 400, status
    [profile] = discover([samples[0].route], samples)
    tally = Tally()
    plan = quick_plan(profile, LANGS)
    for planned in plan:
        tally.send(send, planned)
    assert_clean(tally)


def test_paths_that_match_no_route(fuzz_db):
    tally = Tally()
    send = InProcess().send
    for planned in stray_plan(LANGS):
        tally.send(send, planned)
    assert tally.statuses.keys() <= {301, 302, 400, 404}
    assert_clean(tally)


def test_host_headers_no_site_serves(fuzz_db):
    """#25: the bad-Host 400 lacked the CSP and X-Frame-Options of every other page."""
    tally = Tally()
    send = InProcess().send
    for planned in bad_host_plan():
        tally.send(send, planned)
    assert 400 in tally.statuses
    assert_clean(tally)


def test_hypothesis_profile_in_small(profiles):
    """The long campaign's strategy, eight requests per route and method round, the same
    every run."""
    tally = Tally()
    send = InProcess().send
    for profile in profiles.values():
        for methods, _share in method_rounds(profile):

            @hypothesis_settings(
                max_examples=8, derandomize=True, database=None, deadline=None,
                phases=[Phase.generate], suppress_health_check=list(HealthCheck),
            )
            @given(planned_requests(profile, LANGS, methods))
            def fuzz(planned):
                tally.send(send, planned)

            fuzz()
    assert tally.requests >= 8 * 2 * len(ROUTES)
    assert set(tally.methods) >= {"GET", "POST", "PUT", "DELETE", "OPTIONS", "TRACE", "HEAD"}
    assert_clean(tally)


def test_the_fuzzer_finds_planted_bugs(fuzz_db):
    """Against a URLconf of known bugs the same code finds each one, with the parameter
    names read from the views themselves."""
    with override_settings(ROOT_URLCONF="tests.fuzz.planted"):
        found = {p.route.label: p for p in profile_site()}
        assert found["reflect/"].query == ["q"]
        assert found["count/<slug:code>/"].query == ["n"]
        assert "count" in found["save/"].form
        findings = []
        for profile in found.values():
            tally = Tally()
            for planned in quick_plan(profile, LANGS):
                tally.send(InProcess().send, planned)
            findings += [f"{f.label}: {p.splitlines()[0]}" for f in tally.findings
                         for p in f.problems]
    assert any(f.startswith("reflect/ query q") and "unescaped" in f for f in findings)
    assert any(f.startswith("count/<slug:code>/ query n") and "status 500" in f for f in findings)
    assert any(f.startswith("open/<str:name>/ path name") and "status 500" in f for f in findings)
    assert any(f.startswith("save/ form count") and "status 500" in f for f in findings)
    assert any("PUT answered 200" in f for f in findings)


def test_methods_a_view_declares_are_read_from_the_view():
    routes = {route.name: route for route in all_routes()}
    assert routes["home"].declared_methods == {"GET", "HEAD"}
    assert routes["preferences"].declared_methods == {"POST"}
    assert routes["healthz"].own

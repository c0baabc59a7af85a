"""The house-rules configurator: the form from the engine's schema, validation, saving, links."""

import dataclasses
import re
from urllib.parse import parse_qsl, urlencode, urlsplit

import pytest
from django.contrib.auth import get_user_model

from core import options as core_options
from houserules.models import CODE_ALPHABET, CODE_LENGTH, HouseRules, RowIsImmutable
from rules.rulebook import load_rulebook
from rules_engine.options import OptionSpec
from rules_engine.registry import VARIANTS

from .houserules_helpers import LANGS, option_values, query_value, sheet_text

FORM = "/{lang}/{variant}/house-rules/"
SHEET = "/{lang}/{variant}/house-rules/sheet/"
SAVE = "/{lang}/{variant}/house-rules/save/"


def radios(page: str, name: str) -> list[tuple[str, bool]]:
    """(value, checked) of every radio button called `name`."""
    radio = rf'<input type="radio" id="[^"]+" name="{re.escape(name)}" value="([^"]+)"'
    found = re.findall(radio + r"( checked)?>", page)
    return [(value, bool(checked)) for value, checked in found]


def field_error(page: str, slot: str) -> str:
    pattern = rf'<div class="field-error" id="err-{re.escape(slot)}"[^>]*>(.*?)</div>'
    match = re.search(pattern, page)
    assert match, f"no error slot {slot}"
    return re.sub(r"<[^>]+>", " ", match.group(1)).strip()


# The form ------------------------------------------------------------------------------


def test_the_index_lists_every_variant_with_a_link_to_its_form(client):
    for lang in LANGS:
        text = client.get(f"/{lang}/house-rules/").text
        for slug in VARIANTS:
            assert f'href="/{lang}/{slug}/house-rules/"' in text


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_option_appears_with_its_values_default_and_rules_link(client, lang, variant):
    page = client.get(FORM.format(lang=lang, variant=variant)).text
    anchors = load_rulebook(variant, lang).all_anchors()
    for spec in VARIANTS[variant].options:
        found = radios(page, f"opt-{spec.key}")
        assert [value for value, _ in found] == [query_value(v) for v in option_values(spec)]
        assert [value for value, checked in found if checked] == [query_value(spec.default)]
        usual = re.search(
            rf'id="opt-{spec.key}-{re.escape(query_value(spec.default))}"[^>]*>\s*<span>[^<]*'
            r'<span class="hr-choice__default">',
            page,
        )
        assert usual, f"{spec.key}: default not marked"
        assert f'href="/{lang}/{variant}/#opt-{spec.key}"' in page
        assert f"opt-{spec.key}" in anchors
        assert re.search(rf'<p class="hr-option__explain" id="explain-{spec.key}">\w', page)


def test_the_form_has_a_name_field_per_possible_player_and_five_own_rules(client):
    for slug, info in VARIANTS.items():
        page = client.get(FORM.format(lang="en", variant=slug)).text
        assert page.count('name="name"') == info.players_max
        assert page.count('name="own"') == 5
        assert page.count('maxlength="140"') == 5


def test_where_we_played_is_a_location_not_a_place_of_the_play_row(client):
    # "Place" is the game's word for a slot in the play row, on the same sheet; and
    # "an own rule" is a Germanism.
    page = client.get(FORM.format(lang="en", variant="stress-se") + "?place=Kiruna").text
    assert '<label for="place">Location</label>' in page
    assert '<label for="own-1">Your own rule 1</label>' in page
    assert "Location: Kiruna" in sheet_text(page)
    assert not re.search(r"\b[Aa]n own rule|\bOwn rule|>Place<|Place:", page)


def test_an_option_added_to_the_engine_appears_in_the_form_and_is_validated(client, monkeypatch):
    info = VARIANTS["spit"]
    extra = OptionSpec("table_size", "choice", "small", ("small", "large"), source="house")
    monkeypatch.setitem(VARIANTS, "spit", dataclasses.replace(info, options=(*info.options, extra)))
    core_options._allowed_players.cache_clear()
    try:
        page = client.get("/en/spit/house-rules/").text
        assert radios(page, "opt-table_size") == [("small", True), ("large", False)]
        assert 'href="/en/spit/#opt-table_size"' in page

        chosen = client.get("/en/spit/house-rules/?opt-table_size=large")
        assert chosen.status_code == 200
        assert radios(chosen.text, "opt-table_size") == [("small", False), ("large", True)]

        wrong = client.get("/en/spit/house-rules/?opt-table_size=huge")
        assert wrong.status_code == 400
        assert field_error(wrong.text, "opt-table_size") == "Choose one of the values listed here."
    finally:
        core_options._allowed_players.cache_clear()


# The configuration is the query string --------------------------------------------------


def test_the_query_string_is_the_configuration_and_comes_back_normalised(client):
    query = urlencode([
        ("opt-stacking", "off"), ("opt-gentle", "TRUE"), ("name", "  Ann  "), ("name", "Bo"),
        ("place", "Umeå"), ("date", "2025-06-21"), ("lang", "sv"), ("lang2", "fi"),
        ("paper", "letter"), ("own", "Loser deals"),
    ])
    page = client.get(f"/en/stress-se/house-rules/?{query}")
    assert page.status_code == 200
    saved_query = re.search(r'name="q" value="([^"]*)"', page.text).group(1).replace("&amp;", "&")
    pairs = parse_qsl(saved_query)
    assert ("opt-stacking", "false") in pairs
    assert ("opt-gentle", "true") in pairs
    assert ("opt-slap_penalty", "first-chooses") in pairs  # defaults are spelled out
    assert [v for k, v in pairs if k == "name"] == ["Ann", "Bo"]
    assert ("lang", "sv") in pairs and ("lang2", "fi") in pairs and ("paper", "letter") in pairs
    again = client.get(f"/en/stress-se/house-rules/?{saved_query}")
    assert sheet_text(again.text) == sheet_text(page.text)


def test_the_sheet_follows_the_sheet_language_not_the_page_language(client):
    page = client.get("/fi/stress-se/house-rules/?lang=sv&lang2=de").text
    assert 'class="sheet__lang" lang="sv"' in page
    assert 'class="sheet__lang" lang="de"' in page
    assert "Husregler: Stress" in sheet_text(page)
    assert "Hausregeln: Schwedisches Stress" in sheet_text(page)
    assert "Kotisäännöt" in page  # the page around it stays Finnish


# Invalid input -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "slot", "message"),
    [
        ("opt-stacking=maybe", "opt-stacking", "Choose one of the values listed here."),
        ("opt-no_such_thing=1", "options", "This game has no option called “no_such_thing”."),
        ("name=A&name=B&name=C", "names", "This game is for at most 2 players."),
        (
            "own=" + "x" * 141,
            "own-1",
            "A rule of your own can have at most 140 characters; this one has 141.",
        ),
        ("&".join(["own=r"] * 6), "own", "Write at most 5 rules of your own."),
        ("name=" + "n" * 41, "name-1", "A name can have at most 40 characters."),
        ("place=" + "p" * 81, "place", "The location can have at most 80 characters."),
        ("date=21.6.2025", "date", "Write the date as year-month-day, for example 2025-06-21."),
        ("date=2025-02-30", "date", "Write the date as year-month-day, for example 2025-06-21."),
        ("lang=xx", "lang", "Choose one of the listed languages."),
        ("lang2=klingon", "lang2", "Choose one of the listed languages."),
        ("paper=a3", "paper", "Choose A4 or US Letter."),
    ],
)
def test_bad_input_gets_the_form_back_with_the_message_at_the_field(client, query, slot, message):
    response = client.get(f"/en/stress-se/house-rules/?{query}")
    assert response.status_code == 400
    assert field_error(response.text, slot) == message
    assert '<article class="sheet' not in response.text
    sheet = client.get(f"/en/stress-se/house-rules/sheet/?{query}")
    assert sheet.status_code == 400


def test_messages_are_translated(client):
    response = client.get("/de/spit/house-rules/?name=A&name=B&name=C&opt-repeat_choice=vielleicht")
    assert field_error(response.text, "names") == "Dieses Spiel ist für höchstens 2 Spieler."
    assert field_error(response.text, "opt-repeat_choice") == "Wähl einen der hier genannten Werte."


def test_the_engine_decides_how_many_may_play_with_the_chosen_options(client):
    five = "&".join(f"name=P{i}" for i in range(5))
    without = client.get(f"/en/james-bond/house-rules/?{five}")
    assert without.status_code == 400
    assert field_error(without.text, "names") == "With these rules the game is for 2–4 players."
    with_deck = client.get(f"/en/james-bond/house-rules/?{five}&opt-second_deck=true")
    assert with_deck.status_code == 200
    assert "5–8 players" in sheet_text(with_deck.text)


@pytest.mark.parametrize(
    "query",
    [
        "opt-stacking=%00", "name=%ff%fe", "own=%0a%0d", "lang=&lang2=", "paper=",
        "opt-=x", "opt-opt-stacking=true", "date=9999-99-99", "name=" + "x" * 5000,
        "&".join(f"name={i}" for i in range(200)), "opt-stacking=true&opt-stacking=false",
    ],
)
def test_hostile_query_strings_never_break_a_page(client, query):
    for url in (FORM, SHEET):
        response = client.get(url.format(lang="nb", variant="stress-se") + "?" + query)
        assert response.status_code in (200, 400)
    rules = client.get(f"/nb/stress-se/?{query}")
    assert rules.status_code in (200, 400)


def test_wrong_methods_are_refused(client):
    assert client.post("/en/stress-se/house-rules/").status_code == 405
    assert client.post("/en/stress-se/house-rules/sheet/").status_code == 405
    assert client.post("/en/house-rules/").status_code == 405
    assert client.get("/en/stress-se/house-rules/save/").status_code == 405
    assert client.put("/en/stress-se/house-rules/save/").status_code == 405


def test_unknown_variants_and_codes_are_404(client, db):
    assert client.get("/en/no-game/house-rules/").status_code == 404
    assert client.get("/en/no-game/house-rules/sheet/").status_code == 404
    assert client.get("/h/" + "a" * CODE_LENGTH + "/").status_code == 404
    assert client.get("/h/" + "a" * CODE_LENGTH + "/play/").status_code == 404
    assert client.get("/h/short/").status_code == 404
    assert client.get("/h/ABCDEFGHJK/").status_code == 404
    assert client.get("/h/%3Cscript%3E/").status_code == 404


# Free text is inert --------------------------------------------------------------------

MARKUP = '<script>alert("x")</script><img src=x onerror=alert(1)>'


@pytest.mark.django_db
def test_markup_in_free_text_is_inert_everywhere(client):
    query = urlencode([
        ("name", MARKUP[:40]), ("name", "<b>Bo</b>"), ("place", MARKUP[:80]),
        ("own", MARKUP), ("own", "**bold** `7H` [link](http://evil.example)"),
    ])
    pages = [
        client.get(f"/en/stress-se/house-rules/?{query}").text,
        client.get(f"/en/stress-se/house-rules/sheet/?{query}").text,
        client.get(
            f"/en/stress-se/house-rules/sheet/?{query}", headers={"HX-Request": "true"}
        ).text,
    ]
    saved = client.post("/en/stress-se/house-rules/save/", {"q": query})
    assert saved.status_code == 303
    pages.append(client.get(saved["Location"]).text)
    for page in pages:
        assert "<script>alert" not in page
        assert "<img src=x" not in page
        assert "<b>Bo</b>" not in page
        assert "&lt;script&gt;alert(" in page
    sheet = pages[1]
    assert "**bold** `7H` [link](http://evil.example)" in sheet_text(sheet)  # no Markdown
    assert 'href="http://evil.example"' not in sheet


# htmx: the live preview ----------------------------------------------------------------


def test_the_live_preview_is_a_fragment_with_errors_out_of_band(client):
    url = "/sv/stress-se/house-rules/sheet/?opt-stacking=false&name=Ann"
    response = client.get(url, headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert response.text.lstrip().startswith('<section class="hr-preview" id="preview"')
    assert "<html" not in response.text
    assert "HX-Request" in response["Vary"]
    assert response["HX-Replace-Url"].startswith("/sv/stress-se/house-rules/?opt-stacking=false")
    assert 'id="err-opt-stacking" hx-swap-oob="true"' in response.text
    assert "Varje kort får en egen plats" in sheet_text(response.text)

    bad = client.get("/sv/stress-se/house-rules/sheet/?paper=a0", headers={"HX-Request": "true"})
    assert bad.status_code == 200  # htmx swaps only 2xx: the errors travel out of band
    assert '<article class="sheet' not in bad.text
    assert re.search(r'id="err-paper" hx-swap-oob="true"><p>Välj A4 eller US Letter.</p>', bad.text)


def test_the_form_uses_htmx_without_eval(client):
    page = client.get("/en/stress-se/house-rules/").text
    assert 'hx-get="/en/stress-se/house-rules/sheet/"' in page
    assert 'hx-trigger="input delay:500ms"' in page
    assert "hx-on" not in page
    assert "[" not in re.search(r'hx-trigger="([^"]*)"', page).group(1)  # no trigger filters


# Saving and the short links ------------------------------------------------------------


@pytest.mark.django_db
def test_a_saved_sheet_round_trips_through_its_row(client):
    query = urlencode([
        ("opt-several_per_grab", "true"), ("opt-grab_limit", "3"), ("opt-call_word", "atlantis"),
        ("name", "Kari"), ("name", "Ola"), ("name", "Åse"), ("place", "Bergen"),
        ("date", "2025-12-24"), ("lang", "nb"), ("lang2", "en"), ("paper", "letter"),
        ("own", "Den som taper, stokker."),
    ])
    before = sheet_text(client.get(f"/nb/james-bond/house-rules/sheet/?{query}").text)
    response = client.post("/nb/james-bond/house-rules/save/", {"q": query})
    assert response.status_code == 303
    code = re.fullmatch(r"/h/([a-z0-9]+)/", response["Location"]).group(1)
    assert len(code) == CODE_LENGTH and set(code) <= set(CODE_ALPHABET)

    row = HouseRules.objects.get(code=code)
    assert row.variant == "james-bond"
    assert row.options == {
        "several_per_grab": True, "grab_limit": 3, "say_stikk": False, "call_word": "atlantis",
        "best_of_five": False, "five_second_rule": False, "second_deck": False,
    }
    assert row.names == ["Kari", "Ola", "Åse"]
    assert (row.place, row.date.isoformat(), row.paper) == ("Bergen", "2025-12-24", "letter")
    assert row.languages == ["nb", "en"]
    assert row.own_rules == ["Den som taper, stokker."]

    shown = client.get(f"/h/{code}/")
    assert shown.status_code == 200
    after = sheet_text(shown.text)
    # the saved sheet adds its link and QR code; the rest is the same sheet
    assert after.startswith(before.split(" Vi spiller etter disse reglene")[0][:400])
    assert f"http://testserver/h/{code}/play/" in after
    assert '<svg viewBox="0 0' in shown.text and 'class="sheet__qr-code"' in shown.text


@pytest.mark.django_db
def test_rows_are_never_edited_and_every_save_gets_a_new_code(client):
    first = client.post("/en/spit/house-rules/save/", {"q": "opt-repeat_choice=true"})
    second = client.post("/en/spit/house-rules/save/", {"q": "opt-repeat_choice=true"})
    assert first["Location"] != second["Location"]
    row = HouseRules.objects.first()
    row.place = "changed"
    with pytest.raises(RowIsImmutable):
        row.save()
    assert HouseRules.objects.filter(place="changed").count() == 0


@pytest.mark.django_db
def test_saving_bad_input_stores_nothing(client):
    response = client.post("/en/spit/house-rules/save/", {"q": "name=a&name=b&name=c"})
    assert response.status_code == 400
    assert HouseRules.objects.count() == 0
    assert client.post("/en/spit/house-rules/save/", {}).status_code == 303  # defaults are fine


@pytest.mark.django_db
def test_the_short_link_shows_the_saved_language_or_another_on_request(client):
    location = client.post("/sv/stressi-fi/house-rules/save/", {"q": "lang=fi"})["Location"]
    finnish = client.get(location, headers={"accept-language": "de"})
    # a German browser opens a Finnish sheet: the page speaks the sheet's language
    assert '<html lang="fi"' in finnish.text
    assert 'class="sheet__lang" lang="fi"' in finnish.text
    assert 'href="/fi/stressi-fi/house-rules/?' in finnish.text  # "change these rules"
    swedish = client.get(f"{location}?lang=sv", headers={"accept-language": "de"})
    assert '<html lang="sv"' in swedish.text  # unless the visitor chooses another
    assert 'class="sheet__lang" lang="sv"' in swedish.text
    assert client.get(f"{location}?lang=xx").status_code == 200  # unknown: the saved one


@pytest.mark.django_db
def test_the_printed_link_opens_a_game_with_exactly_these_options(client):
    query = "opt-after_slap_house_rule=false&opt-ace_low_only=true&lang=de"
    location = client.post("/de/stressi-fi/house-rules/save/", {"q": query})["Location"]
    jump = client.get(f"{location}play/")
    assert jump.status_code == 302
    target = urlsplit(jump["Location"])
    assert target.path == "/de/stressi-fi/play/"
    assert dict(parse_qsl(target.query)) == {
        "opt-after_slap_house_rule": "false",
        "opt-both_empty_house_rule": "true",
        "opt-ace_low_only": "true",
    }
    form = client.get(f"{target.path}?{target.query}")
    assert form.status_code == 200
    selected = re.findall(r'<select id="opt-([a-z_]+)"[^>]*>.*?<option value="([a-z]+)" selected>',
                          form.text, re.S)
    assert dict(selected) == {"after_slap_house_rule": "false",
                              "both_empty_house_rule": "true", "ace_low_only": "true"}


@pytest.mark.django_db
def test_the_rules_page_lists_chosen_house_rules(client):
    query = "opt-after_slap_house_rule=false&opt-both_empty_house_rule=true&opt-ace_low_only=true"
    rules = client.get(f"/de/stressi-fi/?{query}")
    assert rules.status_code == 200
    box = re.search(r'<section class="house-rules-box".*?</section>', rules.text, re.S).group(0)
    assert box.count("<li>") == 3
    assert (
        'href="#opt-after_slap_house_rule">Hausregel nach dem Schlag</a>: '
        "<strong>Ohne Hausregel</strong>"
    ) in box
    assert 'href="#opt-ace_low_only">Das Ass</a>: <strong>Nur niedrig</strong>' in box
    assert "/de/stressi-fi/house-rules/?opt-after_slap_house_rule=false" in box


def test_the_rules_page_is_unchanged_without_options_and_refuses_bad_ones(client):
    plain = client.get("/en/stress-se/")
    assert plain.status_code == 200
    assert "house-rules-box" not in plain.text
    bad = client.get("/en/stress-se/?opt-stacking=perhaps")
    assert bad.status_code == 400
    assert "These house rules could not be read" in bad.text
    assert 'id="moves"' in bad.text  # the rules themselves are still there


def test_the_pair_form_keeps_the_house_rules(client):
    page = client.get("/en/spit/?opt-repeat_choice=true").text
    assert '<input type="hidden" name="opt-repeat_choice" value="true">' in page


# Admin and the home page ---------------------------------------------------------------


@pytest.mark.django_db
def test_the_admin_lists_saved_sheets_read_only(client):
    client.post("/en/spit/house-rules/save/", {"q": "lang=en"})
    row = HouseRules.objects.get()
    assert client.get("/admin/login/").status_code == 200
    admin = get_user_model().objects.create_superuser("admin", "a@example.org", "pw-for-tests")
    client.force_login(admin)
    listing = client.get("/admin/houserules/houserules/")
    assert listing.status_code == 200
    assert row.code in listing.text
    detail = client.get(f"/admin/houserules/houserules/{row.pk}/change/")
    assert detail.status_code == 200
    assert 'name="place"' not in detail.text  # read-only: no inputs
    assert client.get("/admin/houserules/houserules/add/").status_code == 403


@pytest.mark.parametrize("lang", LANGS)
def test_the_home_page_card_leads_to_the_configurator(client, lang):
    page = client.get(f"/{lang}/").text
    card = re.search(rf'<a class="path" href="/{lang}/house-rules/"><strong>([^<]+)</strong>', page)
    assert card
    assert "path--soon" not in page.split("house-rules/")[0][-200:]


@pytest.mark.django_db
def test_the_migrations_match_the_model():
    from django.core.management import call_command

    call_command("makemigrations", "houserules", "--check", "--dry-run", verbosity=0)


@pytest.mark.parametrize(("lang", "written"), [
    ("en", "21 June 2026"),  # British, as the site spells "centre"; not "June 21, 2026"
    ("sv", "21 juni 2026"), ("de", "21. Juni 2026"), ("fi", "21. kesäkuuta 2026"),
])
def test_the_sheet_writes_the_date_as_the_language_does(client, lang, written):
    page = client.get(f"/{lang}/stress-se/house-rules/sheet/?date=2026-06-21&lang={lang}")
    assert page.status_code == 200
    assert f'<span class="sheet__fill">{written}</span>' in page.text

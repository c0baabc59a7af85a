"""The declared vocabulary (rules_engine.codes) is the whole vocabulary: every reason code
apply answers and every event the engine logs, in bot games of every variant and in hostile
actions sent into their positions, is a declared member, with declared data fields."""

import random

import pytest

from rules_engine import VARIANTS, Action, ActionType, EventCode, ReasonCode, codes
from rules_engine.simulate import play_game

LEVELS = (("club",), ("learner", "expert"))


def _options(slug, rng):
    """Random option values from the variant's schema."""
    out = {}
    for spec in VARIANTS[slug].options:
        out[spec.key] = rng.choice((False, True) if spec.type == "bool" else spec.choices)
    return out


def _zone_ids(board):
    ids = {z["id"] for z in board.get("centre", [])}
    ids |= {z["id"] for seat in board["seats"] for z in seat["zones"]}
    return sorted(ids)


def _hostile(game, rng, types):
    """An action built from a random declared type and its argument schema, with values
    that are sometimes right, sometimes not."""
    kind = rng.choice(types)
    args = {}
    cards = game._cards_all or ["AS"]
    zones = [*_zone_ids(game.board(None)), "row-9", "centre-7", "pile-99", "nowhere"]
    for key, arg in kind.args.items():
        if not arg.required and rng.random() < 0.5:
            continue
        if arg.kind == "card":
            args[key] = rng.choice(cards)
        elif arg.kind == "cards":
            args[key] = rng.sample(cards, min(len(cards), rng.randint(1, 3)))
        elif arg.kind == "bool":
            args[key] = rng.random() < 0.5
        elif arg.kind == "word":
            args[key] = rng.choice(["stress", "james-bond", "atlantis", "nonsense"])
        else:
            args[key] = rng.choice(zones)
    if rng.random() < 0.05:
        args["colour"] = "red"  # an argument no action has
    t = game.now + rng.choice((0, 0, 50, 3000, -1))
    player = rng.choice([*range(game.players), game.players])
    return Action(t, player, rng.choice([kind, kind, kind, "dance"]), args)


def _check_event(info, event, seen):
    declared = {str(e): e for e in info.event_codes}
    assert event.code in declared, f"{info.slug}: undeclared event {event.code!r}"
    assert set(event.data) <= declared[event.code].fields, (
        f"{info.slug}: {event.code} carries {sorted(event.data)}, "
        f"declared {sorted(declared[event.code].fields)}"
    )
    seen.add(event.code)


@pytest.mark.parametrize("slug", list(VARIANTS))
def test_every_code_the_engine_produces_is_declared(slug):
    info = VARIANTS[slug]
    reasons = set(info.reason_codes)
    rng = random.Random(slug)
    seen_events, seen_reasons = set(), set()
    for g in range(6):
        options = {} if g == 0 else _options(slug, rng)
        record = []
        try:
            game, _ = play_game(
                slug, seed=g, options=options, levels=LEVELS[g % 2], record=record, max_actions=3000
            )
        except ValueError:  # options that need more players than the default
            game, _ = play_game(
                slug,
                seed=g,
                options=options,
                levels=LEVELS[g % 2],
                record=record,
                max_actions=3000,
                players=5,
            )
        for entry in record:
            if entry.reason is not None:
                assert entry.reason in reasons, f"{slug}: undeclared reason {entry.reason!r}"
                seen_reasons.add(entry.reason)
            for event in entry.events:
                _check_event(info, event, seen_events)
        for event in game.log:
            _check_event(info, event, seen_events)
        # Hostile actions into positions of the same game, replayed from its record.
        replay = type(game).new(players=game.players, seed=g, options=game.options)
        types = list(info.action_types)
        every = max(7, len(record) // 50)  # some fifty positions per game
        for n, entry in enumerate(record):
            if n % every == 0 and not replay.over:
                probe = replay.copy()
                for _ in range(12):
                    result = probe.apply(_hostile(probe, rng, types))
                    if result.reason is not None:
                        assert result.reason in reasons, (
                            f"{slug}: undeclared reason {result.reason!r}"
                        )
                        seen_reasons.add(result.reason)
                    for event in result.events:
                        _check_event(info, event, seen_events)
            if entry.action is None:
                replay.advance(entry.t)
            else:
                replay.apply(entry.action)
    # The collection is no empty gesture: most declared codes turn up.
    assert len(seen_reasons) >= len(reasons) // 2, sorted(seen_reasons)
    assert len(seen_events) >= len(info.event_codes) // 2, sorted(seen_events)


@pytest.mark.parametrize("slug", list(VARIANTS))
def test_a_variant_declares_its_vocabulary_as_typed_codes(slug):
    info = VARIANTS[slug]
    assert all(isinstance(a, ActionType) for a in info.action_types)
    assert all(isinstance(e, EventCode) for e in info.event_codes)
    assert all(isinstance(r, ReasonCode) for r in info.reason_codes)
    # The codes are their strings: stored games and scenarios keep working.
    assert "bad-action" in info.reason_codes
    assert codes.Reason.BAD_ZONE == "bad-zone"
    # The argument keys apply accepts are the declared schema's.
    game_class = info.game_class
    assert game_class.action_args == {str(a): frozenset(a.args) for a in info.action_types}
    assert set(game_class.handlers) == {str(a) for a in info.action_types}


def test_shared_codes_are_declared_once():
    """A code string has one declaration per family at most, and the codes more than one
    family uses live in rules_engine.codes."""
    families = {}
    for info in VARIANTS.values():
        families[info.family] = info
    owners = {}
    for family, info in families.items():
        for code in info.reason_codes:
            owners.setdefault(str(code), set()).add(type(code))
            if type(code) is not codes.Reason:
                others = [f for f, i in families.items() if f != family and code in i.reason_codes]
                assert not others, f"{code} is shared with {others}: declare it in codes.Reason"
    assert all(len(types) == 1 for types in owners.values()), owners


def test_the_argument_schema_names_zone_kinds():
    play = next(a for a in VARIANTS["stress-se"].action_types if a == "play")
    assert play.zone_kinds() == {"from": "row", "to": "centre"}
    assert play.args["whole"].required is False
    pick = next(a for a in VARIANTS["james-bond"].action_types if a == "pick")
    assert pick.zone_kinds() == {"pile": "pile"}


def test_an_action_typed_with_a_declared_member_is_an_ordinary_action():
    game_class = VARIANTS["stress-de"].game_class
    ready = next(a for a in VARIANTS["stress-de"].action_types if a == "ready")
    game = game_class.new(seed=1)
    assert game.apply(Action(0, 0, ready, {})).accepted

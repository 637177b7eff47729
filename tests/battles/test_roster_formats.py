"""R-ARM-1, R-ARM-2 with the files and texts players really hand in: points read from
the cost type the roster declares, rosters without points refused, files recognised by their
content, list settings kept apart from the units, and the list builders' text exports. Every
roster and text is built in tests/battles/roster_shapes.py and tests/battles/fixtures/."""

from __future__ import annotations

import io
import json
import struct
import zipfile

import pytest

from battles.list_text import parse_text
from battles.rosters import (
    Entry,
    ListOverLimit,
    RosterError,
    check_limit,
    parse_roster_file,
)
from tests.battles.roster_shapes import (
    HH_POINTS,
    HH_TOTAL,
    W40K_SETTINGS,
    aos_new_recruit_json,
    apocalypse_roster,
    cost,
    fixture_text,
    horus_heresy_roster,
    kill_team_roster,
    macos_rezip,
    roster_xml,
    sel,
    wh40k_roster,
    zipped,
)


def settings(parsed) -> list[tuple[str, str]]:
    return [(s.name, s.value) for s in parsed.settings]


def units(parsed) -> list[tuple[str, int]]:
    return [(e.name, e.points) for e in parsed.entries]


# --- R-ARM-2: the points are the cost type the roster declares as its points -----------------

def test_r_arm_2_horus_heresy_point_s_cost_with_a_guid_type_id_is_read():
    parsed = parse_roster_file("legion.ros", horus_heresy_roster())
    assert HH_TOTAL == 2998
    assert (parsed.total, parsed.roster_total) == (2998, 2998)
    assert parsed.entries[0] == Entry("Legion Praetor", 175)  # own cost + nested upgrade
    assert len(parsed.entries) == 10 and parsed.warnings == ()
    assert parsed.faction == "Legiones Astartes"


def test_r_arm_1_a_2998_point_horus_heresy_roster_is_refused_over_1500():
    parsed = parse_roster_file("legion.rosz", zipped(("legion.ros", horus_heresy_roster())))
    with pytest.raises(ListOverLimit) as caught:
        check_limit(parsed, 1500)
    assert (caught.value.limit, caught.value.total, caught.value.excess) == (1500, 2998, 1498)


@pytest.mark.parametrize("name", ["pts", "PTS", " Pts", "pt", "Points", "POINTS", "Point(s)",
                                  "point(s)", "Pts."])
@pytest.mark.parametrize("type_id", ["points", "c0ffee00-1234-4abc-8def-000000000001", "p"])
def test_r_arm_2_points_cost_names_in_any_case_and_any_type_id(name, type_id):
    unit = sel("Knight", "model", cost(" PL", "pl", 12) + cost(name, type_id, 395))
    parsed = parse_roster_file("k.ros", roster_xml(unit, costs=cost(name, type_id, 395)))
    assert units(parsed) == [("Knight", 395)]
    assert parsed.roster_total == 395


def test_r_arm_2_points_type_declared_in_cost_limits_counts_costs_without_a_name():
    """The roster declares its points type only in ``costLimits``; the selections' costs carry
    just that type id (as New Recruit JSON may)."""
    body = {"name": "Limits", "costLimits": [{"name": "Point(s)", "typeId": HH_POINTS,
                                              "value": 1000}],
            "forces": [{"catalogueName": "Legion", "selections": [
                {"name": "Praetor", "type": "model",
                 "costs": [{"typeId": HH_POINTS, "value": 150},
                           {"name": "Reactions", "typeId": "r", "value": 1}]}]}]}
    parsed = parse_roster_file("l.json", json.dumps({"roster": body}).encode())
    assert units(parsed) == [("Praetor", 150)]


# --- R-ARM-2: a roster without points is refused ----------------------------------------------

@pytest.mark.parametrize("content, types", [
    (kill_team_roster(), "EP"), (apocalypse_roster(), "PL, CP")],
    ids=["kill_team_ep", "apocalypse_pl"])
def test_r_arm_2_a_roster_without_a_points_cost_is_refused_naming_its_cost_types(content,
                                                                                  types):
    with pytest.raises(RosterError) as caught:
        parse_roster_file("list.ros", content)
    assert caught.value.rule == "R-ARM-2"
    assert f"cost types: {types}" in caught.value.message
    assert "counts points" in caught.value.message
    assert caught.value.message.startswith("R-ARM-2")


def test_r_arm_2_a_roster_whose_points_are_all_zero_but_priced_in_power_level_is_refused():
    unit = sel("Knight", "model", cost(" PL", "pl", 22) + cost("pts", "points", 0))
    with pytest.raises(RosterError) as caught:
        parse_roster_file("k.ros", roster_xml(unit, costs=cost("pts", "points", 0)))
    assert caught.value.rule == "R-ARM-2" and "PL" in caught.value.message


def test_r_arm_2_a_roster_without_any_cost_is_refused():
    with pytest.raises(RosterError) as caught:
        parse_roster_file("k.ros", roster_xml(sel("Knight", "model")))
    assert caught.value.rule == "R-ARM-2" and "no costs at all" in caught.value.message


# --- R-ARM-2: the file type is decided by the content -----------------------------------------

@pytest.mark.parametrize("filename", ["list.rosz", "list", "list.txt", "list.xml",
                                      "list.ros.exe", ""])
def test_r_arm_2_plain_xml_is_read_whatever_the_file_is_called(filename):
    parsed = parse_roster_file(filename, wh40k_roster())
    assert (parsed.total, parsed.source) == (250, "ros")


@pytest.mark.parametrize("filename", ["list.ros", "list", "list.json", "list.zip"])
def test_r_arm_2_a_zip_is_read_whatever_the_file_is_called(filename):
    parsed = parse_roster_file(filename, zipped(("list.ros", wh40k_roster())))
    assert (parsed.total, parsed.source) == (250, "rosz")


def test_r_arm_2_json_without_extension_is_read():
    parsed = parse_roster_file("export", b"\xef\xbb\xbf  " + aos_new_recruit_json())
    assert (parsed.total, parsed.source) == (430, "newrecruit")


def test_r_arm_2_macos_rezip_with_a_folder_and_resource_forks_is_read():
    parsed = parse_roster_file("Gladius.rosz", macos_rezip(wh40k_roster()))
    assert (parsed.total, parsed.source, parsed.name) == (250, "rosz", "Gladius")


def test_r_arm_2_a_ros_next_to_other_files_in_a_folder_is_read():
    content = zipped(("Lists/", b""), ("Lists/Gladius.ros", wh40k_roster()),
                     ("Lists/readme.txt", b"hello"))
    assert parse_roster_file("a.rosz", content).total == 250


@pytest.mark.parametrize("content, message", [
    (b"Captain - 85\n", "not a roster"),
    (b"\x89PNG\r\n\x1a\n\x00\x00", "not a roster"),
    (zipped(("Lists/", b""), ("Lists/readme.txt", b"hello")), "must hold a .ros file"),
    (zipped(("__MACOSX/", b""), ("__MACOSX/._a.ros", b"junk"), ("Lists/", b"")),
     "holds no .ros file"),
    (zipped(("a/one.ros", b"<roster/>"), ("b/two.ros", b"<roster/>")),
     "exactly one .ros file, not 2"),
    (zipped(("list.ros", b"<roster/>"), ("__MACOSX/../../evil", b"x")), "unsafe path"),
], ids=["text", "png", "other-file-in-zip", "only-macos-junk", "two-rosters", "unsafe-junk"])
def test_r_arm_2_content_that_is_no_roster_is_refused_clearly(content, message):
    for filename in ("list.ros", "list"):
        with pytest.raises(RosterError, match=message):
            parse_roster_file(filename, content)


def _damaged_zips() -> list[bytes]:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr(zipfile.ZipInfo(""), b"x")  # an entry without a name
        archive.writestr("list.rosz", b"nested")
    unsupported = bytearray(zipped(("a.ros", wh40k_roster())))
    struct.pack_into("<H", unsupported, unsupported.rindex(b"PK\x01\x02") + 6, 77)
    return [buffer.getvalue(), bytes(unsupported)]


@pytest.mark.parametrize("content", [
    b'<?xml version="1.0" encoding="F-8"?><roster/>', *_damaged_zips()],
    ids=["unknown-xml-encoding", "nameless-entry", "zip-version-7.7"])
def test_r_arm_2_damaged_files_are_a_roster_error_not_a_crash(content):
    with pytest.raises(RosterError):
        parse_roster_file("list.rosz", content)


def test_r_arm_2_an_empty_file_is_refused():
    with pytest.raises(RosterError, match="empty"):
        parse_roster_file("list.ros", b"")


# --- R-ARM-2: settings selections are list settings, not units ---------------------------------

def test_r_arm_2_configuration_selections_are_settings_not_units():
    parsed = parse_roster_file("gladius.ros", wh40k_roster())
    assert units(parsed) == [("Captain", 90), ("Intercessor Squad", 160), ("Nurglings", 0)]
    assert settings(parsed) == list(W40K_SETTINGS)
    assert parsed.as_dict()["settings"] == [{"name": n, "value": v} for n, v in W40K_SETTINGS]


def test_r_arm_2_age_of_sigmar_traits_formation_and_lores_are_settings():
    parsed = parse_roster_file("swampy.json", aos_new_recruit_json())
    assert units(parsed) == [("Manifestation Lore", 30), ("Swamp Totem", 0), ("Bog Boss", 160),
                             ("Mire Stalkers", 240)]
    assert settings(parsed) == [("Battle Traits: Swamp Lords", ""),
                                ("Battle Formation", "Grinnin' Blades"),
                                ("Spell Lore", "Lore of the Mire")]
    assert (parsed.total, parsed.roster_total, parsed.warnings) == (430, 430, ())


def test_r_arm_2_the_horus_heresy_allegiance_is_a_setting():
    assert settings(parse_roster_file("l.ros", horus_heresy_roster())) == [
        ("Allegiance", "Loyalist")]


@pytest.mark.parametrize("selection, is_unit", [
    (sel("Gretchin", "unit", cost("pts", "points", 0)), True),  # a free unit stays a unit
    (sel("Free Upgrade", "upgrade", cost("pts", "points", 0),
         sel("Grot", "model", cost("pts", "points", 0))), True),  # it holds a model
    (sel("Relic", "upgrade", cost("pts", "points", 15)), True),  # it costs points
    (sel("Game Type", "unit", cost("pts", "points", 0),
         sel("Matched Play", "upgrade", cost("pts", "points", 0))), False),  # named a setting
    (sel("Options", "", cost("pts", "points", 0), categories=("Configuration",)), False),
    (sel("Whatever", "", cost("pts", "points", 0)), True),  # nothing says it is a setting
])
def test_r_arm_2_the_settings_heuristic(selection, is_unit):
    content = roster_xml(sel("Boss", "model", cost("pts", "points", 50)) + selection)
    parsed = parse_roster_file("o.ros", content)
    assert (len(parsed.entries) == 2) is is_unit
    assert (len(parsed.settings) == 1) is not is_unit


# --- R-ARM-2: pasted text exports -------------------------------------------------------------

def test_r_arm_2_warhammer_age_of_sigmar_app_export():
    parsed = parse_text(fixture_text("aos_app.txt"))
    assert units(parsed) == [
        ("Manifestation Lore - Manifestations of the Storm", 40),
        ("Lord-Vigilant on Gryph-stalker", 220),
        ("Celestial Beacon (Lord-Vigilant on Gryph-stalker)", 60),
        ("Liberators", 120), ("Vindictors", 130), ("Prosecutors", 240), ("Knight-Arcanum", 140),
        ("Annihilators", 500), ("Stormdrake Guard", 540), ("Realmshaper Engine", 0)]
    assert (parsed.total, parsed.roster_total, parsed.warnings) == (1990, 1990, ())
    assert (parsed.name, parsed.faction) == ("Hammers of Sigmar", "Stormcast Eternals")
    assert settings(parsed) == [("Points limit", "2000"), ("", "Thunderhead Host"),
                                ("", "General's Handbook 2025-26"),
                                ("Spell Lore", "Lore of the Storm"),
                                ("Prayer Lore", "Prayers of the Stormhost")]


def test_r_arm_2_a_stated_total_that_differs_is_kept_with_a_warning():
    parsed = parse_text(fixture_text("aos_app.txt").replace("1990/2000", "1900/2000"))
    assert (parsed.total, parsed.roster_total) == (1990, 1900)
    assert parsed.warnings == ("The stated total (1900) differs from the sum of the units "
                               "(1990); the sum counts.",)


def test_r_arm_2_warhammer_40000_app_export():
    parsed = parse_text(fixture_text("wh40k_app.txt"))
    assert units(parsed) == [("Captain", 95), ("Lieutenant", 65), ("Intercessor Squad", 160),
                             ("Redemptor Dreadnought", 210), ("Land Raider", 240)]
    assert (parsed.total, parsed.roster_total, parsed.warnings) == (770, 770, ())
    assert (parsed.name, parsed.faction) == ("Gladius Strike", "Space Marines")
    assert settings(parsed) == [("", "Ultramarines"),
                                ("", "Gladius Task Force (1 Detachment Points)"),
                                ("Battle Size", "Strike Force (2,000 Points)")]


def test_r_arm_2_new_recruit_tournament_text_export():
    parsed = parse_text(fixture_text("newrecruit_wtc.txt"), name="Mine")
    assert units(parsed) == [("Captain", 80), ("Enhancement: Artificer Armour (Captain)", 10),
                             ("10x Intercessor Squad", 160), ("Redemptor Dreadnought", 210),
                             ("Lieutenant", 65)]
    assert (parsed.total, parsed.roster_total, parsed.warnings) == (525, 525, ())
    assert (parsed.name, parsed.faction) == ("Mine", "Imperium - Adeptus Astartes")
    assert settings(parsed) == [("Detachment", "Gladius Task Force"),
                                ("Battle Size", "2. Strike Force (2,000 Point limit)")]


def test_r_arm_2_new_recruit_roster_text_export():
    parsed = parse_text(fixture_text("newrecruit_text.txt"))
    assert units(parsed) == [("Captain", 90), ("Intercessor Squad", 160)]
    assert (parsed.total, parsed.roster_total, parsed.warnings) == (250, 250, ())
    assert (parsed.name, parsed.faction) == ("Gladius", "Imperium - Space Marines")
    assert settings(parsed) == [("Battle Size", "2. Strike Force (2000 Point limit)"),
                                ("Detachment", "Gladius Task Force"),
                                ("Show/Hide Options", "Legends are visible")]


def test_r_arm_2_listbot_style_lines():
    parsed = parse_text(fixture_text("listbot.txt"))
    assert units(parsed) == [("Lord-Celestant", 120), ("Knight-Incantor", 130),
                             ("20x Liberators", 400), ("10x Sequitors", 250)]
    assert (parsed.total, parsed.roster_total, parsed.warnings) == (900, 900, ())
    assert parsed.faction == "Stormcast Eternals"
    assert settings(parsed) == [("Grand Strategy", "Hold the Line")]


def test_r_arm_2_a_title_line_stating_the_total_is_not_a_unit():
    parsed = parse_text("Da Big Push (145 Points)\n\nOrks\n\nCHARACTERS\n\n"
                        "Warboss (100 Points)\n  \u2022 Warlord\n\nBATTLELINE\n\n"
                        "Gretchin (45 Points)")
    assert units(parsed) == [("Warboss", 100), ("Gretchin", 45)]
    assert (parsed.name, parsed.faction, parsed.roster_total) == ("Da Big Push", "Orks", 145)


def test_r_arm_2_a_hand_written_first_unit_is_never_taken_for_a_title():
    """Taking a unit for the title would read the list low; it stays a unit, and an unpriced
    line after it is refused."""
    assert units(parse_text("Captain (85 Points)")) == [("Captain", 85)]
    assert units(parse_text("Captain (85 Points)\nScouts (70 Points)")) == [
        ("Captain", 85), ("Scouts", 70)]
    with pytest.raises(RosterError, match='^Line 2: cannot read "Warlord"'):
        parse_text("Captain (85 Points)\nWarlord\nScouts (70 Points)")


def test_r_arm_2_information_lines_with_a_price_are_units():
    parsed = parse_text("Warlord: Captain - 80\nDrops: 2\nWounds: 30")
    assert units(parsed) == [("Warlord: Captain", 80)]


@pytest.mark.parametrize("text, line", [
    (fixture_text("wh40k_app.txt").replace("Land Raider (240 Points)",
                                           "Land Raider (200001 Points)"), 32),
    (fixture_text("listbot.txt").replace("- 10 x Sequitors (250)", "- 10 x Sequitors"), 8),
    ("Captain - 80\nSome unit without points\nScouts - 70", 2),
])
def test_r_arm_2_an_unreadable_text_names_the_line(text, line):
    with pytest.raises(RosterError, match=rf"^Line {line}: "):
        parse_text(text)

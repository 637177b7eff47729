"""R-ARM-1, R-ARM-2: army lists from text, JSON and BattleScribe / New Recruit rosters. All
fixture files are built here."""

from __future__ import annotations

import io
import json
import struct
import zipfile

import pytest

from battles.list_text import parse_text
from battles.rosters import (
    MAX_BYTES,
    Entry,
    ListOverLimit,
    ParsedList,
    RosterError,
    check_limit,
    parse_entries,
    parse_roster_file,
)
from tests.battles.roster_shapes import fixture_text

NS = "http://www.battlescribe.net/schema/rosterSchema"


def cost(value, name="pts", type_id="points", attr="typeId"):
    return f'<cost name="{name}" {attr}="{type_id}" value="{value}"/>'


def selection(name, costs="", children="", **attrs):
    attrs = {"id": "x", "name": name, "number": "1", "type": "unit", **attrs}
    extra = "".join(f' {k}="{v}"' for k, v in attrs.items())
    nested = f"<selections>{children}</selections>" if children else ""
    return (f"<selection{extra}>"
            f"<costs>{costs}</costs>{nested}</selection>")


def roster(forces, total=None, name="Spearhead", cost_xml=None):
    costs = cost_xml if cost_xml is not None else (cost(total) if total is not None else "")
    return (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
            f'<roster id="r1" name="{name}" battleScribeVersion="2.03" xmlns="{NS}">'
            f"<costs>{costs}</costs><forces>{forces}</forces></roster>").encode()


def force(catalogue, selections):
    return (f'<force id="f1" name="Army Roster" catalogueName="{catalogue}">'
            f"<selections>{selections}</selections></force>")


CAPTAIN = selection("Captain", cost("80.0"), selection("Relic Blade", cost("5.0")))
SQUAD = selection(
    "Intercessor Squad", cost("0.0"),
    selection("Sergeant", cost("20.0"), selection("Bolt rifle", cost("0.0")))
    + selection("Intercessor", cost("80.0"), number="4", type="model"))
ROS = roster(force("Imperium - Space Marines", CAPTAIN + SQUAD), total="185.0")


def zipped(*members: tuple[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members:
            archive.writestr(name, data)
    return buffer.getvalue()


# --- R-ARM-2: BattleScribe .ros ----------------------------------------------------------------

def test_r_arm_2_ros_nested_selections():
    parsed = parse_roster_file("spearhead.ros", ROS)
    assert parsed.entries == (Entry("Captain", 85), Entry("Intercessor Squad", 100))
    assert parsed.total == 185
    assert parsed.roster_total == 185
    assert parsed.faction == "Imperium - Space Marines"
    assert parsed.name == "Spearhead"
    assert parsed.source == "ros"
    assert parsed.warnings == ()


def test_r_arm_2_ros_as_dict():
    assert parse_roster_file("a.ros", ROS).as_dict() == {
        "name": "Spearhead", "faction": "Imperium - Space Marines",
        "entries": [{"name": "Captain", "points": 85},
                    {"name": "Intercessor Squad", "points": 100}],
        "total": 185, "roster_total": 185, "warnings": [], "source": "ros", "settings": []}


def test_r_arm_2_ros_total_mismatch_warns():
    parsed = parse_roster_file("a.ros", roster(force("Orks", CAPTAIN + SQUAD), total="200"))
    assert parsed.total == 185
    assert parsed.roster_total == 200
    assert parsed.warnings == ("The stated total (200) differs from the sum of the units (185); "
                               "the sum counts.",)


def test_r_arm_2_ros_201_style_cost_type_id():
    unit = selection("Warboss", cost("75.0", attr="costTypeId"),
                     selection("Attack Squig", cost("10.0", attr="costTypeId")))
    content = roster(force("Orks", unit), cost_xml=cost("85.0", attr="costTypeId"))
    content = content.replace(b'battleScribeVersion="2.03"', b'battleScribeVersion="2.01"')
    parsed = parse_roster_file("old.ros", content)
    assert parsed.entries == (Entry("Warboss", 85),)
    assert parsed.roster_total == 85
    assert parsed.warnings == ()


def test_r_arm_2_ros_ignores_power_level_and_command_points():
    both = cost("8.0", name=" PL", type_id="e356-c769-5920-6e14") + cost("150.0")
    command = cost("1.0", name="CP", type_id="2d3b-b544-ad49-fb75")
    unit = selection("Dreadnought", both, selection("Stratagem", command))
    parsed = parse_roster_file(
        "pl.ros", roster(force("Space Marines", unit),
                         cost_xml=cost("8.0", name=" PL", type_id="e356") + cost("150.0")))
    assert parsed.entries == (Entry("Dreadnought", 150),)
    assert parsed.roster_total == 150


def test_r_arm_2_ros_points_by_name_when_no_points_type_id():
    unit = selection("Knight", cost("12", name=" PL", type_id="aaa")
                     + cost("395", name="pts", type_id="bbb"))
    parsed = parse_roster_file("k.ros", roster(force("Imperial Knights", unit), total=None))
    assert parsed.entries == (Entry("Knight", 395),)
    assert parsed.roster_total is None


def test_r_arm_2_ros_only_power_level_is_refused():
    """A roster priced only in PL was read as 0 points and passed any limit."""
    unit = selection("Knight", cost("22", name=" PL", type_id="aaa"))
    with pytest.raises(RosterError, match=r"^R-ARM-2: the roster has no points cost \(cost "
                                          r"types: PL\); this campaign counts points"):
        parse_roster_file("k.ros", roster(force("Imperial Knights", unit), total=None))


def test_r_arm_2_ros_custom_name_and_nested_forces():
    inner = force("Imperial Agents", selection("Inquisitor", cost("55")))
    outer = (f'<force id="f1" catalogueName="Space Marines"><selections>'
             f'{selection("Captain", cost("80"), customName="Cato")}</selections>'
             f"<forces>{inner}</forces></force>")
    parsed = parse_roster_file("n.ros", roster(outer, total="135"))
    assert parsed.entries == (Entry("Cato (Captain)", 80), Entry("Inquisitor", 55))
    assert parsed.faction == "Space Marines / Imperial Agents"


def test_r_arm_2_ros_name_falls_back_to_file_name():
    content = ROS.replace(b'name="Spearhead" ', b"")
    assert parse_roster_file("Friday Night.ros", content).name == "Friday Night"


def test_r_arm_2_ros_without_units_is_rejected():
    with pytest.raises(RosterError, match="no units"):
        parse_roster_file("e.ros", roster("", total="0"))


def test_r_arm_2_ros_bad_cost_value_is_rejected():
    unit = selection("Captain", cost("lots"))
    with pytest.raises(RosterError, match='invalid cost value "lots"'):
        parse_roster_file("b.ros", roster(force("Orks", unit)))


def test_r_arm_2_ros_other_xml_is_rejected():
    with pytest.raises(RosterError, match="not a BattleScribe roster"):
        parse_roster_file("c.ros", b'<catalogue xmlns="http://www.battlescribe.net/schema/'
                                   b'catalogueSchema" name="x"/>')


# --- R-ARM-2: .rosz ----------------------------------------------------------------------------

def test_r_arm_2_rosz_reads_the_zipped_roster():
    parsed = parse_roster_file("spearhead.rosz", zipped(("spearhead.ros", ROS)))
    assert parsed.entries == (Entry("Captain", 85), Entry("Intercessor Squad", 100))
    assert parsed.roster_total == 185
    assert parsed.source == "rosz"


def test_r_arm_2_zip_named_ros_is_read_as_rosz():
    assert parse_roster_file("x.ros", zipped(("x.ros", ROS))).source == "rosz"


def test_r_arm_2_rosz_with_two_members_is_rejected():
    with pytest.raises(RosterError, match="exactly one .ros file, not 2"):
        parse_roster_file("a.rosz", zipped(("a.ros", ROS), ("b.ros", ROS)))


def test_r_arm_2_rosz_with_parent_path_is_rejected():
    with pytest.raises(RosterError, match="unsafe path"):
        parse_roster_file("a.rosz", zipped(("../x.ros", ROS)))


def test_r_arm_2_rosz_with_absolute_path_is_rejected():
    with pytest.raises(RosterError, match="unsafe path"):
        parse_roster_file("a.rosz", zipped(("/etc/x.ros", ROS)))


def test_r_arm_2_rosz_with_only_a_folder_is_rejected():
    with pytest.raises(RosterError, match="holds no .ros file"):
        parse_roster_file("a.rosz", zipped(("lists/", b"")))


def test_r_arm_2_rosz_holding_another_file_type_is_rejected():
    with pytest.raises(RosterError, match="must hold a .ros file"):
        parse_roster_file("a.rosz", zipped(("a.exe", b"MZ")))


def test_r_arm_2_rosz_member_declared_over_2mb_is_rejected_before_reading(monkeypatch):
    bomb = zipped(("big.ros", b" " * (MAX_BYTES + 1)))  # deflates to a few kB

    def no_reading(*args, **kwargs):
        raise AssertionError("the member must not be opened")

    monkeypatch.setattr(zipfile.ZipFile, "open", no_reading)
    assert len(bomb) < 100_000
    with pytest.raises(RosterError, match="larger than 2 MB unpacked"):
        parse_roster_file("big.rosz", bomb)


def test_r_arm_2_rosz_member_lying_about_its_size_is_rejected():
    """The central directory claims 100 bytes; the stream stops there and the CRC fails."""
    data = bytearray(zipped(("big.ros", ROS + b" " * (3 * 1024 * 1024))))
    central = data.rindex(b"PK\x01\x02")
    struct.pack_into("<I", data, central + 24, 100)
    with pytest.raises(RosterError, match="damaged"):
        parse_roster_file("big.rosz", bytes(data))


def test_r_arm_2_rosz_encrypted_member_is_rejected():
    data = bytearray(zipped(("a.ros", ROS)))
    for signature, offset in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
        at = data.index(signature)
        struct.pack_into("<H", data, at + offset, data[at + offset] | 0x1)
    with pytest.raises(RosterError, match="encrypted"):
        parse_roster_file("a.rosz", bytes(data))


def test_r_arm_2_rosz_garbage_bytes_are_rejected():
    with pytest.raises(RosterError, match="not a roster"):
        parse_roster_file("a.rosz", b"\x00\x01garbage\xff" * 10)
    with pytest.raises(RosterError, match="not a valid .rosz"):
        parse_roster_file("a.rosz", b"PK\x03\x04garbage\xff" * 10)


def test_r_arm_2_ros_garbage_bytes_are_rejected():
    with pytest.raises(RosterError, match="not a roster"):
        parse_roster_file("a.ros", b"\x89PNG\r\n\x1a\n\x00\x00garbage")
    with pytest.raises(RosterError, match="not valid XML"):
        parse_roster_file("a.ros", b"<roster><unclosed></roster>")


def test_r_arm_2_file_over_2mb_is_rejected():
    with pytest.raises(RosterError, match="larger than 2 MB"):
        parse_roster_file("a.ros", ROS + b" " * MAX_BYTES)


@pytest.mark.parametrize("filename", ["list.txt", "list.xml", "list", "list.ros.exe"])
def test_r_arm_2_the_content_decides_not_the_file_name(filename):
    """The file type was decided by the extension."""
    assert parse_roster_file(filename, ROS).total == 185
    with pytest.raises(RosterError, match="not a roster"):
        parse_roster_file(filename, b"Captain - 85\nScouts - 70")


# --- R-ARM-2: XML attacks ----------------------------------------------------------------------

BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE roster [
  <!ENTITY lol "lol">
  <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
  <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
  <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
  <!ENTITY lol9 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
]>
<roster xmlns="http://www.battlescribe.net/schema/rosterSchema" name="&lol9;"/>"""

EXTERNAL_ENTITY = b"""<?xml version="1.0"?>
<!DOCTYPE roster [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
<roster xmlns="http://www.battlescribe.net/schema/rosterSchema" name="&secret;"/>"""


@pytest.mark.parametrize("content", [BILLION_LAUGHS, EXTERNAL_ENTITY],
                         ids=["billion_laughs", "external_entity"])
def test_r_arm_2_ros_entities_are_rejected(content):
    with pytest.raises(RosterError, match="DTD or entities"):
        parse_roster_file("evil.ros", content)


def test_r_arm_2_rosz_entities_are_rejected():
    with pytest.raises(RosterError, match="DTD or entities"):
        parse_roster_file("evil.rosz", zipped(("evil.ros", BILLION_LAUGHS)))


def test_r_arm_2_ros_deep_nesting_is_rejected():
    depth = 100
    content = (f'<roster xmlns="{NS}" name="deep"><forces><force catalogueName="x">'
               + "<selections><selection name='s'>" * depth
               + "</selection></selections>" * depth + "</force></forces></roster>").encode()
    with pytest.raises(RosterError, match="nests deeper"):
        parse_roster_file("deep.ros", content)


# --- R-ARM-2: New Recruit JSON -----------------------------------------------------------------

def new_recruit(**roster_fields) -> bytes:
    body = {
        "id": "abc", "name": "Waaagh!", "gameSystemName": "Warhammer 40,000 10th Edition",
        "costs": [{"name": "pts", "typeId": "points", "value": 230},
                  {"name": "Crusade Points", "typeId": "crusade", "value": 2}],
        "costLimits": [{"name": "pts", "typeId": "points", "value": 500}],
        "forces": [{
            "id": "f", "name": "Army Roster", "catalogueName": "Orks",
            "selections": [
                {"name": "Warboss", "type": "model", "number": 1,
                 "costs": [{"name": "pts", "typeId": "points", "value": 75}],
                 "selections": [{"name": "Attack squig", "number": 1, "costs": [
                     {"name": "pts", "typeId": "points", "value": 10}]}]},
                {"name": "Boyz", "type": "unit", "number": 1,
                 "costs": [{"name": "pts", "typeId": "points", "value": 0}],
                 "selections": [{"name": "Boy", "type": "model", "number": 9,
                                 "costs": [{"name": "pts", "typeId": "points",
                                            "value": 145.0}]}]},
            ]}],
    }
    body.update(roster_fields)
    return json.dumps({"roster": body}).encode()


def test_r_arm_2_new_recruit_json():
    parsed = parse_roster_file("waaagh.json", new_recruit())
    assert parsed.entries == (Entry("Warboss", 85), Entry("Boyz", 145))
    assert (parsed.total, parsed.roster_total) == (230, 230)
    assert (parsed.name, parsed.faction, parsed.source) == ("Waaagh!", "Orks", "newrecruit")
    assert parsed.warnings == ()


def test_r_arm_2_new_recruit_xml2js_wrapped_containers():
    forces = {"force": {"catalogueName": "Orks", "selections": {"selection": [
        {"name": "Weirdboy", "costs": {"cost": {"name": "pts", "typeId": "points",
                                                "value": "60.0"}}}]}}}
    parsed = parse_roster_file("w.json", new_recruit(forces=forces, costs={"cost": []}))
    assert parsed.entries == (Entry("Weirdboy", 60),)
    assert parsed.roster_total is None


def test_r_arm_2_new_recruit_total_mismatch_warns():
    parsed = parse_roster_file("w.json", new_recruit(
        costs=[{"name": "pts", "typeId": "points", "value": 250}]))
    assert parsed.roster_total == 250
    assert "(250) differs from the sum of the units (230)" in parsed.warnings[0]


@pytest.mark.parametrize("content, message", [
    (b"{not json", "not valid JSON"),
    (b'{"roster": {"forces": [{"selections": [{"name": "A", "costs": [{"typeId": "points", '
     b'"value": NaN}]}]}]}}', "not valid JSON"),
    (b'{"list": []}', "Not a New Recruit export"),
    (b'{"roster": {"forces": "Orks"}}', '"forces" must be a list'),
    (b'{"roster": {"name": 5, "forces": []}}', '"name" must be text'),
    (b"{\xff\xfe\x00garbage", "not UTF-8"),
    (b"[" * 100_000, "not valid JSON"),
])
def test_r_arm_2_new_recruit_bad_json_is_rejected(content, message):
    with pytest.raises(RosterError, match=message):
        parse_roster_file("x.json", content)


def test_r_arm_2_roster_unit_over_max_points_is_rejected():
    unit = selection("Titan", cost("100001"))
    with pytest.raises(RosterError, match="Unit 1: points must be a whole number"):
        parse_roster_file("t.ros", roster(force("Titans", unit)))


# --- R-ARM-2: pasted text ----------------------------------------------------------------------

def test_r_arm_2_text_variants():
    text = """
    Captain - 80
    Intercessor Squad: 90
    Lieutenant \u2013 Phobos \u2014 75 pts

    * Redemptor Dreadnought (210 pts)
    - Scouts [70]
    Land Raider 1,240 points
    Total: 1765
    """
    parsed = parse_text(text, name="Friday")
    assert [(e.name, e.points) for e in parsed.entries] == [
        ("Captain", 80), ("Intercessor Squad", 90), ("Lieutenant \u2013 Phobos", 75),
        ("Redemptor Dreadnought", 210), ("Scouts", 70), ("Land Raider", 1240)]
    assert (parsed.total, parsed.roster_total, parsed.warnings) == (1765, 1765, ())
    assert (parsed.name, parsed.faction, parsed.source) == ("Friday", "", "text")


def test_r_arm_2_text_equals_total_line():
    parsed = parse_text("A - 10\nB - 20\n= 30 pts")
    assert parsed.roster_total == 30
    assert len(parsed.entries) == 2


def test_r_arm_2_text_bulleted_total_line_is_not_a_unit():
    parsed = parse_text("- A - 10\n- B - 20\n- Total: 30")
    assert (len(parsed.entries), parsed.total, parsed.roster_total) == (2, 30, 30)


def test_r_arm_2_text_total_line_that_disagrees_warns():
    parsed = parse_text("Captain - 80\nScouts - 70\nTotal: 1500")
    assert parsed.total == 150
    assert parsed.roster_total == 1500
    assert parsed.warnings == ("The stated total (1500) differs from the sum of the units "
                               "(150); the sum counts.",)


def test_r_arm_2_text_unit_named_like_total_is_a_unit():
    parsed = parse_text("Total Annihilation Squad - 100")
    assert parsed.entries == (Entry("Total Annihilation Squad", 100),)
    assert parsed.roster_total is None


def test_r_arm_2_text_unreadable_line_names_its_number():
    with pytest.raises(RosterError, match=r'^Line 3: cannot read "Some unit without points"'):
        parse_text("Captain - 80\n\nSome unit without points\nScouts - 70")


def test_r_arm_2_text_second_total_line_is_rejected():
    with pytest.raises(RosterError, match="Line 3: the list has a second total line"):
        parse_text("A - 10\nTotal: 10\n= 10")


@pytest.mark.parametrize("text, message", [
    ("", "no units"),
    ("Total: 0", "no units"),
    ("Titan - 100001", "Line 1: points must be a whole number"),
    ("12 - 40", 'Line 1: cannot read "12 - 40"'),
    ("A" * 201 + " - 5", "Line 1: the unit name is longer than 200"),
    ("A - 1 " * 60, "Line 1: the line is longer than 300"),
    ("Total: " + "1" * 5000, "Line 1: the line is longer than 300"),
    ("Total: " + "9" * 200, "Line 1: points must be a whole number"),
    ("\n".join(f"Unit {i} - 1" for i in range(501)), "more than 500 units"),
])
def test_r_arm_2_text_bad_lists_are_rejected(text, message):
    with pytest.raises(RosterError, match=message):
        parse_text(text)


# --- R-ARM-2: JSON entries ---------------------------------------------------------------------

def test_r_arm_2_json_entries():
    parsed = parse_entries({"name": " Hammer ", "faction": "Orks", "total": 100, "entries": [
        {"name": "Warboss", "points": 75}, {"name": "Squig", "points": 25}]})
    assert parsed == ParsedList("Hammer", "Orks", (Entry("Warboss", 75), Entry("Squig", 25)),
                                100, 100, (), "json")


@pytest.mark.parametrize("data, message", [
    ([], "must be an object"),
    ({"entries": []}, "needs a name"),
    ({"name": "  ", "entries": []}, "needs a name"),
    ({"name": "L", "entries": {}}, '"entries" must be a list'),
    ({"name": "L", "entries": []}, "no units"),
    ({"name": "L", "entries": [], "colour": "red"}, 'unknown field "colour"'),
    ({"name": "L", "entries": [{"name": "", "points": 5}]}, r"entries\[0\]: the unit needs"),
    ({"name": "L", "entries": [{"name": "A", "points": "5"}]}, r"entries\[0\]: points must"),
    ({"name": "L", "entries": [{"name": "A", "points": 5.0}]}, "points must be a whole"),
    ({"name": "L", "entries": [{"name": "A", "points": True}]}, "points must be a whole"),
    ({"name": "L", "entries": [{"name": "A", "points": -1}]}, "points must be a whole"),
    ({"name": "L", "entries": [{"name": "A", "points": 100_001}]}, "points must be a whole"),
    ({"name": "L", "entries": [{"name": "A", "points": 1, "x": 2}]}, 'unknown field "x"'),
    ({"name": "L", "entries": ["A - 5"]}, r"entries\[0\]: must be an object"),
    ({"name": "L", "entries": [{"name": "A", "points": 1}] * 501}, "more than 500"),
    ({"name": "L", "entries": [{"name": "A", "points": 1}], "total": "1"}, "The total"),
])
def test_r_arm_2_json_entries_are_validated_strictly(data, message):
    with pytest.raises(RosterError, match=message):
        parse_entries(data)


def test_r_arm_2_json_entries_at_the_bounds_are_accepted():
    entries = [{"name": f"U{i}", "points": 0} for i in range(499)]
    entries.append({"name": "Big", "points": 100_000})
    parsed = parse_entries({"name": "L", "entries": entries})
    assert (len(parsed.entries), parsed.total) == (500, 100_000)


# --- R-ARM-1: the limit ------------------------------------------------------------------------

def test_r_arm_1_over_limit_names_limit_and_excess():
    parsed = parse_text("Captain - 80\nLand Raider - 1470")
    with pytest.raises(ListOverLimit) as caught:
        check_limit(parsed, 1500)
    assert str(caught.value) == "The list totals 1550 points; the limit is 1500 (50 over)"
    assert (caught.value.limit, caught.value.total, caught.value.excess) == (1500, 1550, 50)


def test_r_arm_1_list_at_the_limit_passes():
    check_limit(parse_text("Captain - 80\nLand Raider - 1420"), 1500)


def test_r_arm_1_limit_is_checked_on_the_sum_not_the_stated_total():
    parsed = parse_text("Captain - 800\nLand Raider - 800\nTotal: 1000")
    with pytest.raises(ListOverLimit, match="1600 points; the limit is 1500 "):
        check_limit(parsed, 1500)


def test_r_arm_1_parsed_list_total_is_the_sum():
    with pytest.raises(ValueError, match="sum of the entries"):
        ParsedList("L", "", (Entry("A", 5),), 6, None, (), "text")


# --- characters that cannot be stored (never a 500) --------------------------------------

@pytest.mark.parametrize("text", ["Captain - 85\nBoss\x00 - 10", "Captain - 85\nBoss\ud800 - 10",
                                  "Captain - 85\nBoss\x0c - 10"],
                         ids=["nul", "surrogate", "form feed"])
def test_r_arm_2_text_with_forbidden_characters_is_refused_naming_the_line(text):
    with pytest.raises(RosterError, match=r"Line 2: contains U\+"):
        parse_text(text)


def test_r_arm_2_text_name_with_nul_is_refused():
    with pytest.raises(RosterError, match=r"name: contains U\+0000"):
        parse_text("Captain - 85", name="List\x00")


def test_r_arm_2_entries_with_nul_are_refused_naming_the_unit():
    with pytest.raises(RosterError, match=r"Unit 1: contains U\+0000 at position 4"):
        parse_entries({"name": "L", "entries": [{"name": "Boss\x00", "points": 10}]})


@pytest.mark.parametrize("content", [
    b'{"roster": {"name": "L", "forces": [{"catalogueName": "Orks\\u0000", "selections": '
    b'[{"name": "Boss", "costs": [{"name": "pts", "value": 80}]}]}]}}',
    b'{"roster": {"name": "L\\udc00", "forces": [{"selections": '
    b'[{"name": "Boss", "costs": [{"name": "pts", "value": 80}]}]}]}}',
], ids=["nul faction", "surrogate name"])
def test_r_arm_2_new_recruit_json_with_forbidden_characters_is_refused(content):
    with pytest.raises(RosterError, match=r"contains U\+"):
        parse_roster_file("list.json", content)


# --- R-ARM-1, R-ARM-2: Age of Sigmar app exports whose units include their enhancements -------

def _units(parsed) -> list[tuple[str, int]]:
    return [(e.name, e.points) for e in parsed.entries]


def test_r_arm_2_aos_app_enhancement_lines_inside_the_unit_price_are_not_counted_twice():
    """The app prices ``Knight-Arcanum (140)`` with its ``• Envoy of the Heavens - (20)
    Points``: the list totals 2000 as the app says, not 2020, and fits a 2000 limit."""
    parsed = parse_text(fixture_text("aos_app_enhancements.txt"))
    assert (parsed.total, parsed.roster_total, parsed.warnings) == (2000, 2000, ())
    check_limit(parsed, 2000)
    assert _units(parsed)[:3] == [("Knight-Arcanum", 120),
                                  ("Envoy of the Heavens (Knight-Arcanum)", 20),
                                  ("Liberators", 110)]
    assert (parsed.name, parsed.faction) == ("Hammers of Sigmar", "Stormcast Eternals")
    assert ("Grand Alliance", "Order") in [(s.name, s.value) for s in parsed.settings]


@pytest.mark.parametrize("title, total, stated", [
    ("1990/2000", 2020, 1990),  # 30 apart: the 20 of the enhancement line does not explain it
    ("2020/2000", 2020, 2020),  # the stated total counts the line on top: nothing to correct
])
def test_r_arm_2_aos_app_a_difference_not_made_by_enhancement_lines_keeps_the_sum(title, total,
                                                                                  stated):
    parsed = parse_text(fixture_text("aos_app_enhancements.txt").replace("2000/2000", title))
    assert (parsed.total, parsed.roster_total) == (total, stated)
    assert ("Knight-Arcanum", 140) in _units(parsed)
    assert parsed.warnings == (() if total == stated else (
        f"The stated total ({stated}) differs from the sum of the units ({total}); the sum "
        "counts.",))
    with pytest.raises(ListOverLimit):
        check_limit(parsed, 2000)


def test_r_arm_2_aos_app_total_on_its_own_line_after_a_free_text_first_line():
    parsed = parse_text(fixture_text("aos_app_comment_first.txt"))
    assert (parsed.total, parsed.roster_total, parsed.warnings) == (1970, 1970, ())
    assert (parsed.name, parsed.faction) == ("Gitz for Saturday, list 2 of 3", "Gloomspite Gitz")
    assert _units(parsed)[:2] == [("Loonboss", 80), ("Moonface Mommet (Loonboss)", 10)]
    assert ("Points limit", "2000") in [(s.name, s.value) for s in parsed.settings]
    assert ("Bad Moon Loonshrine", 0) in _units(parsed)


def test_r_arm_2_a_hand_written_list_is_not_read_as_a_free_text_title():
    """Only ``N/N pts`` alone on the second line makes the first line a title."""
    with pytest.raises(RosterError, match='^Line 1: cannot read "My list"'):
        parse_text("My list\nCaptain - 80\nScouts - 70")

"""The page worlds shared by a module's tests (``tests/shared_worlds.py``): one build
for the module, yet each test sees the world as built, and a test that does not read it sees
none of its rows. Within the module the readers run first, whatever their place here."""

from campaigns.models import Campaign, Tile

SEEN: dict[str, int] = {}


def test_a_test_that_reads_no_world_sees_none_of_its_rows(db):
    assert not Campaign.objects.exists() and not Tile.objects.exists()


def test_a_reader_changes_the_world_in_its_rows_and_objects(page_world):
    SEEN["campaign"] = page_world.campaign.pk
    page_world.campaign.name = "Renamed"
    page_world.campaign.save(update_fields=["name"])
    Tile.objects.filter(planet=page_world.alpha).delete()
    page_world.tiles.clear()


def test_the_next_reader_sees_the_same_world_as_built(page_world):
    if "campaign" in SEEN:  # the other reader ran in this process (xdist may part them)
        assert page_world.campaign.pk == SEEN["campaign"]  # built once, not again
    assert page_world.campaign.name != "Renamed" and page_world.tiles
    assert Campaign.objects.get(pk=page_world.campaign.pk).name == page_world.campaign.name
    assert Tile.objects.filter(planet=page_world.alpha).count() == 6

"""The campaign core: campaign, players, map, rounds and their dice log, purchases, attacks,
standings. Rules live in ``rules/``; these models only store state.

Each code's human label (translatable) is on its choices here; pages and forms read it from
there (``web.templatetags.feldzug``)."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from rules.ruleset import defaults as ruleset_defaults


def validate_time_zone(value: str) -> None:
    """An IANA time zone name (``Europe/Berlin``) or "" (the campaign's/site default)."""
    if value == "":
        return
    import zoneinfo

    from django.core.exceptions import ValidationError

    try:
        zoneinfo.ZoneInfo(value)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        raise ValidationError(_("“%(value)s” is not a known time zone (IANA name, e.g. "
                                "Europe/Berlin)."), code="invalid_time_zone",
                              params={"value": value}) from None


def default_time_zone() -> str:
    """The site's default zone for new campaigns (setting ``CAMPAIGN_TIME_ZONE``)."""
    return settings.CAMPAIGN_TIME_ZONE


def default_language() -> str:
    """The site's language (``LANGUAGE_CODE``): new campaigns' language."""
    return settings.LANGUAGE_CODE


class Campaign(models.Model):
    class Visibility(models.TextChoices):
        PUBLIC = "public", pgettext_lazy("campaign", "public")
        PRIVATE = "private", pgettext_lazy("campaign", "private")

    class Status(models.TextChoices):
        SETUP = "setup", _("in set-up")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")

    name = models.CharField(max_length=120)
    visibility = models.CharField(max_length=10, choices=Visibility.choices,
                                  default=Visibility.PRIVATE)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.SETUP)
    ruleset = models.JSONField(default=ruleset_defaults)
    admins = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="administered",
                                    blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # The last admin advance (R-RND-2): one without an expected phase soon after is refused.
    last_advanced_at = models.DateTimeField(null=True, blank=True, editable=False)
    # Renames (campaigns.services.campaigns.campaign_update): the name is in every calendar
    # event, so each rename bumps the events' SEQUENCE and DTSTAMP (R-BAT-2); so does a new
    # ``language``, in which the events are written for readers without their own.
    name_revision = models.PositiveIntegerField(default=0, editable=False)
    name_changed_at = models.DateTimeField(null=True, blank=True, editable=False)
    # a logged-in user may ask to join a public campaign that allows it.
    join_requests_open = models.BooleanField(default=False)
    # the campaign's time zone (IANA name): the default for members who set none
    # and for anonymous visitors (campaigns.zones). Stored times stay UTC.
    time_zone = models.CharField(_("time zone"), max_length=64, default=default_time_zone,
                                 validators=[validate_time_zone])
    # The organiser's choice for readers the site does not know yet (campaigns.languages):
    # invitations to an address without an account, anonymous readers, the public feeds.
    language = models.CharField(_("language"), max_length=10, choices=settings.LANGUAGES,
                                default=default_language)
    # Pause: while set, nothing advances and no reminders go out; each waiting
    # round keeps the time its deadline had left (``Round.deadline_left``).
    paused_at = models.DateTimeField(null=True, blank=True, editable=False)
    pause_reason = models.CharField(_("reason"), max_length=200, blank=True, default="")
    # Sandbox: an admin's private copy; it never mails or notifies anyone.
    is_sandbox = models.BooleanField(default=False, editable=False)
    sandbox_of = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="sandboxes", editable=False)
    # bumped in the transaction of every write that changes what the cached views
    # show (campaigns/revision.py); the caches key on it (campaigns/cache.py).
    revision = models.PositiveBigIntegerField(default=0, editable=False)

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs):
        """A full save never writes ``revision`` back: the instance's value may be older than
        the row's (bumped by a query since it was loaded), and a revision that went back
        could meet a cached value of its first time."""
        if not self._state.adding and kwargs.get("update_fields") is None:
            kwargs["update_fields"] = [field.name for field in self._meta.concrete_fields
                                       if not field.primary_key and field.name != "revision"]
        super().save(*args, **kwargs)


class Player(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="players")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="players")
    faction = models.CharField(max_length=80)
    colour = models.CharField(max_length=7, default="#888888")
    requisition = models.PositiveIntegerField(default=0)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["campaign", "user"], name="player_once")]
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.user} ({self.faction})"


class Planet(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="planets")
    name = models.CharField(max_length=80)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return self.name


TILE_NAME_MAX = 40


class Tile(models.Model):
    """A hex field of a planet (R-MAP-1, R-MAP-2); axial coordinates q, r."""

    class Feature(models.TextChoices):
        """R-MAP-2 terrain features (``rules.board.FEATURES``), in the order the map shows
        them."""

        MOUNTAIN = "mountain", _("Mountain")
        SPACEPORT = "spaceport", _("Spaceport")
        MACROPOLE = "macropole", _("Macropole")
        DEFENCE = "defence", _("Defence line")

    FEATURES = tuple(Feature.values)

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="tiles")
    planet = models.ForeignKey(Planet, on_delete=models.CASCADE, related_name="tiles")
    q = models.IntegerField()
    r = models.IntegerField()
    owner = models.ForeignKey(Player, null=True, blank=True, on_delete=models.SET_NULL,
                              related_name="tiles")
    features = models.JSONField(default=list, blank=True)
    # an optional name shown on the map and in battle names ("" = coordinates).
    name = models.CharField(_("name"), max_length=TILE_NAME_MAX, blank=True, default="")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["planet", "q", "r"], name="tile_hex_once")]
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.planet_id}:({self.q},{self.r})"


class TileLink(models.Model):
    """An explicit adjacency added by the admin (R-MAP-1); stored with a < b."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="links")
    a = models.ForeignKey(Tile, on_delete=models.CASCADE, related_name="+")
    b = models.ForeignKey(Tile, on_delete=models.CASCADE, related_name="+")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["a", "b"], name="link_once"),
                       models.CheckConstraint(condition=Q(a__lt=models.F("b")),
                                              name="link_ordered")]


class MarkerType(models.Model):
    """Marker kinds are data (R-MRK-1), per campaign, seeded with the defaults."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="marker_types")
    code = models.SlugField(max_length=40)
    name = models.CharField(max_length=80)
    army_points_bonus = models.IntegerField(default=0)
    conquest_modifier = models.IntegerField(default=0)
    radius = models.PositiveSmallIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["campaign", "code"],
                                               name="marker_type_once")]

    def __str__(self) -> str:
        return self.code


class Marker(models.Model):
    """A marker on a tile; it belongs to whoever owns the tile (R-MRK-4)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="markers")
    tile = models.ForeignKey(Tile, on_delete=models.CASCADE, related_name="markers")
    type = models.ForeignKey(MarkerType, on_delete=models.PROTECT, related_name="markers")


class Round(models.Model):
    """One campaign round and its phase machine (R-RND-1). ``server_seed`` is secret until the
    round closes (R-DICE-2); it never leaves the server before ``seed_revealed``."""

    class Phase(models.TextChoices):
        DECLARE = "declare", _("Declare")
        FLEETS = "fleets", _("Fleets")
        LISTS = "lists", _("Army lists")
        BATTLES = "battles", _("Battles")
        CONQUEST = "conquest", _("Conquest")
        CLOSED = "closed", _("Closed")

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveIntegerField()
    phase = models.CharField(max_length=10, choices=Phase.choices, default=Phase.DECLARE)
    phase_deadline = models.DateTimeField(null=True, blank=True)
    phase_started_at = models.DateTimeField(null=True, blank=True)
    server_seed = models.BinaryField(max_length=32, editable=False)
    seed_commitment = models.CharField(max_length=64)
    seed_revealed = models.BooleanField(default=False)
    next_counter = models.PositiveIntegerField(default=0)
    conquest_resolved_at = models.DateTimeField(null=True, blank=True)
    opened_at = models.DateTimeField(auto_now_add=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    # "Needs attention": the round's background work failed after its retries (set with the
    # error); cleared when the round enters its next phase.
    attention_at = models.DateTimeField(null=True, blank=True)
    attention_error = models.TextField(blank=True, default="")
    # Pause: the time the deadline had left when the campaign was paused.
    deadline_left = models.DurationField(null=True, blank=True)
    # Archive: the campaign id in the draw messages of a round imported closed from
    # an archive (R-DICE-2: its draws were made in the exported campaign); None = this one.
    dice_campaign = models.PositiveIntegerField(null=True, blank=True, editable=False)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["campaign", "number"], name="round_once")]
        ordering = ["campaign", "number"]

    def __str__(self) -> str:
        return f"{self.campaign_id}/{self.number} {self.phase}"


class DiceRoll(models.Model):
    """One logged draw of the round stream (R-DICE-3)."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="rolls")
    counter = models.PositiveIntegerField()
    purpose = models.CharField(max_length=200)
    sides = models.PositiveSmallIntegerField()
    faces = models.JSONField()
    object = models.CharField(max_length=80, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["round", "counter"], name="draw_once")]
        ordering = ["round", "counter"]


class Purchase(models.Model):
    """Attack armies bought in a round's declare phase (R-ECO-1), or given or taken back by
    the organiser's correction (``kind`` grant, cost 0; ``attack_armies`` negative when taken
    back). The round's armies are the sum of its rows either way (R-ATK-1)."""

    class Kind(models.TextChoices):
        BUY = "buy", _("bought")
        GRANT = "grant", _("correction by the organiser")

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="purchases")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="purchases")
    attack_armies = models.IntegerField()
    kind = models.CharField(max_length=5, choices=Kind.choices, default=Kind.BUY)
    cost = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)


class Attack(models.Model):
    """An attack declaration (R-ATK). ``order`` is the declaration order within the round."""

    class Source(models.TextChoices):
        ADJACENT = "adjacent", _("adjacent to your territory")
        STRUCTURE = "structure", _("from your spaceport or macropole on the planet")
        ORBIT = "orbit", _("from orbit")

    class Status(models.TextChoices):
        ACTIVE = "active", _("active")
        WITHDRAWN = "withdrawn", _("withdrawn")
        CANCELLED = "cancelled", _("cancelled")

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="attacks")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="attacks")
    tile = models.ForeignKey(Tile, on_delete=models.CASCADE, related_name="attacks")
    source = models.CharField(max_length=10, choices=Source.choices)
    order = models.PositiveIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    status_reason = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["round", "order"], name="attack_order_once"),
            models.UniqueConstraint(fields=["round", "player", "tile"],
                                    condition=Q(status="active"), name="attack_tile_once"),
        ]
        ordering = ["round", "order"]


class RoundStandings(models.Model):
    """Standings frozen at a round's close (R-VP-2)."""

    round = models.OneToOneField(Round, on_delete=models.CASCADE, related_name="standings")
    rows = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)


class JobRun(models.Model):
    """A background job that ran for a key; the unique pair makes jobs run once per key."""

    name = models.CharField(max_length=100)
    key = models.CharField(max_length=200)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["name", "key"], name="jobrun_once")]

    def __str__(self) -> str:
        return f"{self.name}:{self.key}"


class Profile(models.Model):
    """A member's own settings; created lazily (``campaigns.services.accounts.profile_of``).

    ``language`` "" and ``time_zone`` "" mean "the site's/campaign's default"."""

    DISPLAY_NAME_MAX = 60
    TIME_ZONE_MAX = 64

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="profile")
    display_name = models.CharField(_("display name"), max_length=DISPLAY_NAME_MAX, blank=True)
    language = models.CharField(_("language"), max_length=10, blank=True,
                                choices=settings.LANGUAGES, default="")
    time_zone = models.CharField(_("time zone"), max_length=TIME_ZONE_MAX, blank=True,
                                 default="", validators=[validate_time_zone])
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return self.display_name or str(self.user)


class Invitation(models.Model):
    """An invitation to play in a campaign: to one e-mail address (one use) or a
    link (``max_uses`` uses, None = unlimited). Only the SHA-256 of the token is stored; the
    token itself is in the mail or shown once to the admin. Never grants admin rights."""

    class Kind(models.TextChoices):
        EMAIL = "email", _("e-mail")
        LINK = "link", _("link")

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="invitations")
    kind = models.CharField(max_length=5, choices=Kind.choices)
    email = models.EmailField(blank=True)
    token_hash = models.CharField(max_length=64, unique=True, editable=False)
    faction = models.CharField(max_length=80, blank=True)
    colour = models.CharField(max_length=7, blank=True)
    max_uses = models.PositiveIntegerField(null=True, blank=True)
    uses = models.PositiveIntegerField(default=0)
    expires_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    send_count = models.PositiveIntegerField(default=0)
    # an invitation to take over this seat (replacing a player mid-season); None =
    # an invitation to a new seat.
    seat = models.ForeignKey(Player, null=True, blank=True, on_delete=models.CASCADE,
                             related_name="seat_invitations")

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.campaign_id}:{self.kind}:{self.email or self.pk}"


class InvitationUse(models.Model):
    """One user who accepted an invitation; the unique pair makes accepting twice a no-op."""

    invitation = models.ForeignKey(Invitation, on_delete=models.CASCADE, related_name="used_by")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="+")
    player = models.ForeignKey(Player, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["invitation", "user"],
                                               name="invitation_use_once")]


class JoinRequest(models.Model):
    """A user's request to join a public campaign that allows it."""

    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        ACCEPTED = "accepted", _("accepted")
        DECLINED = "declined", _("declined")

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE,
                                 related_name="join_requests")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="join_requests")
    message = models.TextField(blank=True, max_length=1000)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="+")
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+")
    decided_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["campaign", "user"],
                                               condition=Q(status="pending"),
                                               name="join_request_pending_once")]
        ordering = ["-created_at", "-id"]


class SeatHolder(models.Model):
    """Who held a player's seat and from when (replacing a player mid-season). The
    seat (``Player``) keeps its tiles, fleets, requisition, battles and lists; ``Player.user``
    is the current holder, this is the history. ``until`` is None for the current holder."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="holders")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                             on_delete=models.SET_NULL, related_name="+")
    since = models.DateTimeField()
    until = models.DateTimeField(null=True, blank=True)
    # The round the holder took over in (None: held from the start).
    round_number = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["player", "since", "id"]
        constraints = [models.UniqueConstraint(fields=["player"], condition=Q(until=None),
                                               name="seat_one_current_holder")]


class AdminAction(models.Model):
    """One admin action on a campaign (map corrections, the audit log): who,
    when, what, before and after. ``public`` entries change the game state and are readable
    by members; the writer (``campaigns.services.admin_log.record``) never puts hidden
    information (fleet contents, hazards, lists before reveal, seeds) into a public entry."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE,
                                 related_name="admin_actions")
    round = models.ForeignKey(Round, null=True, blank=True, on_delete=models.SET_NULL,
                              related_name="+")
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                              on_delete=models.SET_NULL, related_name="+")
    at = models.DateTimeField(auto_now_add=True)
    kind = models.CharField(max_length=40)  # a code, e.g. "tile.update" (labels in web)
    target = models.CharField(max_length=200)  # what it was done to, as the pages name it
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    public = models.BooleanField(default=True)
    # Why the organiser made a correction (R-SEC-2 corrections ask for one); "" for actions
    # that need none (a phase change, a deadline moved).
    reason = models.TextField(blank=True, default="")

    class Meta:
        ordering = ["-at", "-id"]
        indexes = [models.Index(fields=["campaign", "-at"], name="admin_action_recent")]


class RoundMap(models.Model):
    """The map as it stood when a round closed: public facts only.
    ``tiles``: {tile id: {"owner": player id or None, "markers": [codes]}}; ``fleets``:
    [{"area": area id, "owner": player id or None, "ships": count}] (R-FLT-7: never names,
    ships' values, orders or hazards)."""

    round = models.OneToOneField(Round, on_delete=models.CASCADE, related_name="map_snapshot")
    tiles = models.JSONField(default=dict)
    fleets = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)


class PhaseDone(models.Model):
    """Early advance: a player said "done for this phase" (R-RND-2 [reading])."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="done_marks")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="done_marks")
    phase = models.CharField(max_length=10, choices=Round.Phase.choices)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["round", "player", "phase"],
                                               name="phase_done_once")]


class PhaseInput(models.Model):
    """Reliability: whether a player who owed input in a waiting phase gave it by
    the deadline or took the defaults (R-RND-3); written when the phase ends."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="inputs")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="inputs")
    phase = models.CharField(max_length=10, choices=Round.Phase.choices)
    on_time = models.BooleanField()
    absent = models.BooleanField(default=False)  # defaulted while marked away
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["round", "player", "phase"],
                                               name="phase_input_once")]


class Nudge(models.Model):
    """The admin reminded a player who still owes input (at most once per person,
    phase and 12 hours)."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="nudges")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="nudges")
    phase = models.CharField(max_length=10, choices=Round.Phase.choices)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                           on_delete=models.SET_NULL, related_name="+")
    at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["player", "round", "phase", "-at"],
                                name="nudge_recent")]


class Absence(models.Model):
    """Dates a player is away (inclusive, in the campaign's calendar). Their pending
    inputs take their defaults (R-RND-3) without reminders; the ruleset's ``absence_days``
    caps the days per season."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="absences")
    starts_on = models.DateField(_("from"))
    ends_on = models.DateField(_("until"))
    note = models.CharField(_("note"), max_length=200, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["starts_on", "id"]
        constraints = [models.CheckConstraint(condition=Q(ends_on__gte=models.F("starts_on")),
                                              name="absence_ends_after_start")]

    @property
    def days(self) -> int:
        return (self.ends_on - self.starts_on).days + 1


# --- the campaign's events, its webhooks and their deliveries ----------------------

class Audience(models.TextChoices):
    """Who may read an event; a hook reaches one audience and all below."""

    PUBLIC = "public", _("everyone who may read the campaign")
    MEMBERS = "members", _("the campaign's members")
    ADMINS = "admins", _("the campaign's admins")


class CampaignEvent(models.Model):
    """Something that happened in a campaign: the one source of webhooks and the
    Atom feed. ``facts`` holds public facts only (R-FLT-7), never hidden information; ``key``
    makes every event once per campaign."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="events")
    key = models.CharField(max_length=200)
    kind = models.CharField(max_length=40)
    at = models.DateTimeField()
    facts = models.JSONField(default=dict)
    audience = models.CharField(max_length=10, choices=Audience.choices,
                                default=Audience.PUBLIC)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["campaign", "key"],
                                               name="campaign_event_once")]
        ordering = ["-at", "-id"]


class Webhook(models.Model):
    """An outgoing notification target set by a campaign admin."""

    class Kind(models.TextChoices):
        DISCORD = "discord", _("Discord")
        JSON = "json", _("generic JSON")

    class Language(models.TextChoices):
        EN = "en", "English"
        DE = "de", "Deutsch"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="webhooks")
    url = models.URLField(_("URL"), max_length=500)
    kind = models.CharField(_("format"), max_length=10, choices=Kind.choices,
                            default=Kind.DISCORD)
    events = models.JSONField(_("events"), default=list)
    language = models.CharField(_("language"), max_length=5, choices=Language.choices,
                                default=Language.EN)
    audience = models.CharField(_("audience"), max_length=10, choices=Audience.choices,
                                default=Audience.MEMBERS)
    include_owing = models.BooleanField(_("name who still owes input"), default=False)
    colour = models.CharField(_("colour"), max_length=7, default="#8b1e3f")
    secret = models.CharField(max_length=100, editable=False)
    enabled = models.BooleanField(_("enabled"), default=True)
    failure_count = models.PositiveIntegerField(default=0, editable=False)
    disabled_at = models.DateTimeField(null=True, blank=True, editable=False)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]


class WebhookDelivery(models.Model):
    """One event for one hook: sent once (``event_key`` unique per hook), retried with backoff
    for a day, logged for the admin."""

    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        SENT = "sent", _("sent")
        FAILED = "failed", _("failed, will retry")
        GAVE_UP = "gave_up", _("gave up")

    hook = models.ForeignKey(Webhook, on_delete=models.CASCADE, related_name="deliveries")
    event_key = models.CharField(max_length=200)
    kind = models.CharField(max_length=40)
    payload = models.JSONField(default=dict)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveIntegerField(default=0)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    last_status_code = models.PositiveIntegerField(null=True, blank=True)
    last_error = models.CharField(max_length=300, blank=True, default="")
    created_at = models.DateTimeField()
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["hook", "event_key"],
                                               name="webhook_delivery_once")]
        indexes = [models.Index(fields=["status", "next_attempt_at"], name="delivery_due")]
        ordering = ["-created_at", "-id"]


class SiteSettings(models.Model):
    """The site's own settings, edited by staff on the site settings page (one row, pk 1).
    ``site_url``: the public address for absolute links when ``SITE_URL`` is not set, learned
    from staff requests (``learned``) or typed in; ``webhooks_allow_private``: webhooks may
    reach private and loopback addresses (a bot on the club's own machine)."""

    site_url = models.CharField(_("site address"), max_length=200, blank=True, default="")
    site_url_learned = models.BooleanField(default=False)
    webhooks_allow_private = models.BooleanField(
        _("allow webhooks to private addresses"), default=False)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("site settings")
        verbose_name_plural = _("site settings")


class ClockBeat(models.Model):
    """The periodic job's heartbeat: one row per clock (``name``: "beat" for celery beat or
    ``manage.py tick``, "in-process" for the clock of ``make run``), updated on every tick, so
    the pages can say when the clock last ran (R-RND-2)."""

    name = models.CharField(max_length=40, unique=True)
    last_at = models.DateTimeField()
    due_rounds = models.PositiveIntegerField(default=0)


class OutboxMail(models.Model):
    """One rendered mail to one address (language, links and headers such as List-Unsubscribe
    already applied), written in the transaction that decided to send it and sent after commit
    by a task, or by the periodic job when that task never ran (``campaigns.services.outbox``).
    ``due_at`` is the next attempt: retries back off, and a task that claims the mail pushes
    it by a lease, so two tasks never send it at once."""

    to = models.CharField(max_length=254)
    subject = models.CharField(max_length=255)
    body = models.TextField()
    headers = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField()
    due_at = models.DateTimeField()
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.CharField(max_length=300, blank=True, default="")
    sent_at = models.DateTimeField(null=True, blank=True)
    gave_up_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["due_at"], name="outbox_mail_due",
                                condition=models.Q(sent_at__isnull=True,
                                                   gave_up_at__isnull=True))]
        ordering = ["id"]


class PendingSignup(models.Model):
    """A sign-up waiting for its mailed link (the address is confirmed by opening it, in any
    browser). Only the SHA-256 of the link's token and the password's hash are kept; the row
    goes when the account is made or after ``EMAIL_CHANGE_MAX_AGE``."""

    token_hash = models.CharField(max_length=64, unique=True)
    username = models.CharField(max_length=150)
    email = models.EmailField()
    password_hash = models.CharField(max_length=128)
    language = models.CharField(max_length=10, blank=True, default="")
    time_zone = models.CharField(max_length=64, blank=True, default="")
    next_url = models.CharField(max_length=500, blank=True, default="")
    created_at = models.DateTimeField(db_index=True)

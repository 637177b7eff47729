"""The site's own settings (staff only): the address absolute links start with and whether
webhooks may reach private addresses (``campaigns.site``)."""

from rest_framework import serializers

SOURCES = ["configuration", "typed", "learned", "default"]


class SiteSettingsSerializer(serializers.Serializer):
    site_url = serializers.CharField(
        read_only=True, help_text="the address every absolute link starts with")
    site_url_source = serializers.ChoiceField(
        choices=SOURCES, read_only=True,
        help_text="configuration: set on the server (cannot be changed here); typed: set by "
                  "staff; learned: the address staff last opened the pages by; default: none "
                  "known yet")
    stored_site_url = serializers.CharField(
        read_only=True, help_text="the typed or learned address (\"\": none)")
    webhooks_allow_private = serializers.BooleanField(
        read_only=True, help_text="webhooks may post to private and loopback addresses: the "
                                  "server's configuration or the switch allows them")
    webhooks_allow_private_switch = serializers.BooleanField(
        read_only=True, help_text="the switch staff set")
    webhooks_allow_private_configured = serializers.BooleanField(
        read_only=True, help_text="the server's configuration allows them whatever the switch")
    updated_at = serializers.DateTimeField(read_only=True, allow_null=True)


class SiteSettingsUpdateSerializer(serializers.Serializer):
    """PATCH: either field. ``site_url`` "" clears the typed address (the site learns it
    again from staff's requests)."""

    site_url = serializers.CharField(
        required=False, allow_blank=True, max_length=200, trim_whitespace=True,
        help_text="http(s)://host[:port] without a path; \"\" to clear")
    webhooks_allow_private = serializers.BooleanField(required=False)

"""Serializers of the REST API, one module per resource (api/views/ has its views)."""

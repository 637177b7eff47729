"""Views of the REST API, one module per resource (api/serializers/ has its serializers)."""

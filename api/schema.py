"""Schema postprocessing (SPECTACULAR_SETTINGS["POSTPROCESSING_HOOKS"])."""

BAD_CREDENTIALS = {
    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
    "description": "The token is not valid (unknown or revoked).",
}


def document_bad_credentials(result, generator, request, public):
    """An operation that takes a token answers 401 to a bad one before anything else (DRF
    authenticates first), also where anyone may call it without credentials."""
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            schemes = {name for requirement in operation.get("security", [])
                       for name in requirement}
            if "tokenAuth" in schemes:
                operation["responses"].setdefault("401", BAD_CREDENTIALS)
    return result


NULL_ENUM = "NullEnum"  # drf-spectacular's component for the null of nullable choice fields
UNSUPPORTED_MEDIA_TYPE = {
    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
    "description": "The body is not of a media type the operation declares (JSON endpoints "
                   "take application/json only, uploads multipart/form-data).",
}


def _nullable_ref(node: dict) -> str | None:
    """The ``$ref`` of drf-spectacular's nullable nested object ``{"allOf": [{"$ref"}],
    "nullable": true}``, else None."""
    branches = node.get("allOf")
    if node.get("nullable") is True and isinstance(branches, list) and len(branches) == 1 \
            and set(branches[0]) == {"$ref"}:
        return branches[0]["$ref"]
    return None


def _rewrite_nullable(node) -> int:
    """Rewrite every nullable nested object under ``node`` in place; how many there were."""
    count = 0
    if isinstance(node, dict):
        ref = _nullable_ref(node)
        if ref is not None:
            del node["allOf"]
            node["oneOf"] = [{"$ref": ref}, {"$ref": f"#/components/schemas/{NULL_ENUM}"}]
            count += 1
        values = node.values()
    else:
        values = node if isinstance(node, list) else ()
    return count + sum(_rewrite_nullable(value) for value in values)


def nullable_objects(result, generator, request, public):
    """A nullable nested object (``Battle.result``, ``ResultChange.old``, ``Fleet.orders``,
    ...) as strict OpenAPI 3.0 validators and generated clients read it. In 3.0
    ``nullable`` admits null for the schema's own ``type`` only: drf-spectacular's
    ``allOf: [$ref]`` + ``nullable: true`` still requires the referenced object, so a null
    fails strict validation. It becomes ``oneOf: [$ref, NullEnum]`` (``NullEnum`` is
    ``{"enum": [null]}``), the shape drf-spectacular gives nullable choice fields: exactly one
    branch matches a value or a null, and openapi-python-client types it ``X | None``."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    if _rewrite_nullable(result.get("paths", {})) + _rewrite_nullable(schemas):
        schemas.setdefault(NULL_ENUM, {"enum": [None]})
    return result


def document_unsupported_media_type(result, generator, request, public):
    """An operation that takes a body answers another media type with 415 in the error shape
    (DRF's parser negotiation; settings ``DEFAULT_PARSER_CLASSES`` is JSON only)."""
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            if "requestBody" in operation:
                operation["responses"].setdefault("415", UNSUPPORTED_MEDIA_TYPE)
    return result

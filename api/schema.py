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

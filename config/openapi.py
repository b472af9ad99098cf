"""The OpenAPI schema's finishing touches (drf-spectacular postprocessing hooks)."""

UNSUPPORTED_MEDIA_TYPE = {
    "description": "unsupported_media_type: the body's Content-Type is not JSON, a form or multipart",
    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
}


def document_unsupported_media_type(result, generator, request, public):
    """Every operation that takes a body answers 415 ``unsupported_media_type`` to a Content-Type its
    parsers do not read (DRF's, through the API's error handler): say so once, for all of them."""
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            if isinstance(operation, dict) and "requestBody" in operation:
                operation.setdefault("responses", {}).setdefault("415", UNSUPPORTED_MEDIA_TYPE)
    return result

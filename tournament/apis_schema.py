"""The OpenAPI schema generator (its own module: drf-spectacular imports DRF's generics,
which import the pagination class named in settings)."""

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter

IDEMPOTENCY = OpenApiParameter(
    "Idempotency-Key",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=False,
    description="Any 1 to 100 printable characters (a UUID, say), the same on every "
    "retry of one request: a request already done is not done again; it is answered "
    "with 200 and `Idempotent-Replayed: true`.",
)


class LinkAuthenticationScheme(OpenApiAuthenticationExtension):
    """`Authorization: Link <key>` in the schema (docs/links.md); registered when
    this module is imported, as the schema class is."""

    target_class = "tournament.links.auth.LinkAuthentication"
    name = "linkAuth"

    def get_security_definition(self, auto_schema):
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": "`Link <key>`: the key of a table's or a team's link. It "
            "reaches only that table's sheets, or that team's check-in, "
            "confirmations and disputes.",
        }


class Schema(AutoSchema):
    """Names a view's nested `InputSerializer`/`OutputSerializer` after the view
    (`TeamDetailApi.InputSerializer` → `TeamDetailInput`), so that components of the
    HackSoft layout do not collide in the OpenAPI schema."""

    def get_override_parameters(self):
        parameters = list(super().get_override_parameters())
        if getattr(self.view, "idempotent_writes", False) and self.method in (
            "POST",
            "PUT",
            "DELETE",
        ):
            parameters.append(IDEMPOTENCY)
        return parameters

    def get_serializer_name(self, serializer, direction):
        qualname = type(serializer).__qualname__
        if "." in qualname:
            outer, inner = qualname.rsplit(".", 1)
            return outer.removesuffix("Api") + inner.removesuffix("Serializer")
        return super().get_serializer_name(serializer, direction)

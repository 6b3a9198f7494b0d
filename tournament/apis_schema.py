"""The OpenAPI schema generator (its own module: drf-spectacular imports DRF's generics,
which import the pagination class named in settings)."""

from drf_spectacular.openapi import AutoSchema


class Schema(AutoSchema):
    """Names a view's nested `InputSerializer`/`OutputSerializer` after the view
    (`TeamDetailApi.InputSerializer` → `TeamDetailInput`), so that components of the
    HackSoft layout do not collide in the OpenAPI schema."""

    def get_serializer_name(self, serializer, direction):
        qualname = type(serializer).__qualname__
        if "." in qualname:
            outer, inner = qualname.rsplit(".", 1)
            return outer.removesuffix("Api") + inner.removesuffix("Serializer")
        return super().get_serializer_name(serializer, direction)

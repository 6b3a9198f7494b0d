"""The project's routes and a bare DRF endpoint with the same authentication and
parsing, doing no work: what any DRF request costs here."""

from django.urls import path
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from tournament.config.urls import urlpatterns as project


class BareApi(APIView):
    permission_classes = [IsAuthenticated]

    def post(self, request):
        return Response({"ok": True, "got": len(request.data)}, status=201)


urlpatterns = [path("bench/bare/", BareApi.as_view()), *project]

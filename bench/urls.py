"""The project's routes and two baselines with the same authentication and parsing:

- `bench/bare/`: a DRF endpoint doing no work, what any DRF request costs here;
- `bench/ping/`: the same for a GET anyone may make (the floor of a public poll);
- `bench/floor/<match>/`: the least a deal write can do, in one transaction: lock the
  match row, insert the deal row as the client sent it (no rule checked, no award
  computed, no version checked) and one history row. What recording a deal cannot go
  below while it keeps a locked sheet and its history.
"""

from django.db import transaction
from django.urls import path
from rest_framework.parsers import MultiPartParser
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring.models import Deal, Match, SheetAction, SheetChange
from tournament.config.urls import handler500 as project_handler500
from tournament.config.urls import urlpatterns as project
from tournament.web.parsers import JSONParser


class BareApi(APIView):
    """JSON like every write, and multipart like the uploads: the uploads bench's
    baseline sends a file here."""

    permission_classes = [IsAuthenticated]
    parser_classes = [JSONParser, MultiPartParser]

    def post(self, request):
        return Response({"ok": True, "got": len(request.data)}, status=201)


class PingApi(APIView):
    permission_classes = [AllowAny]

    def get(self, request):
        return Response({"ok": True})


class FloorApi(APIView):
    permission_classes = [IsAuthenticated]
    FIELDS = ("number", "declarer", "value", "trump", "level", "taken", "made")
    FIELDS += ("award_to", "award")

    def post(self, request, pk):
        row = {f: request.data[f] for f in self.FIELDS}
        with transaction.atomic():
            match = Match.objects.select_for_update().only("pk", "version").get(pk=pk)
            Deal.objects.create(match=match, entered_by=request.user, **row)
            SheetChange.objects.create(
                match=match,
                version=match.version,
                action=SheetAction.DEAL_ADD,
                actor=request.user,
                actor_name=request.user.username,
                after=row,
            )
        return Response({**row, "version": match.version}, status=201)


handler500 = project_handler500  # the site's own: a 503 while the database is down

urlpatterns = [
    path("bench/bare/", BareApi.as_view()),
    path("bench/ping/", PingApi.as_view()),
    path("bench/floor/<int:pk>/", FloorApi.as_view()),
    *project,
]

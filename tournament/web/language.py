"""The pages' language (docs/glossary.md): English or Malayalam. A signed-in person's
own choice first (kept with their account and put in their session when they sign
in), then the switcher's cookie, then the browser's Accept-Language; English when
none says. The API answers in English, with its stable codes (API.md); only its
refusals of the rules are said in Malayalam when a request's Accept-Language puts
Malayalam first (a score page's queue asks in its page's language:
web/api.py: asks_malayalam), their codes and fields the same."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.middleware.locale import LocaleMiddleware
from django.utils import translation
from django.views.decorators.http import require_POST
from django.views.i18n import set_language

from tournament.models import LanguagePreference
from tournament.web.answers import API

SESSION_KEY = "language"


class PagesLanguage(LocaleMiddleware):
    def process_request(self, request):
        if request.path.startswith(API):
            translation.activate(settings.LANGUAGE_CODE)
            request.LANGUAGE_CODE = settings.LANGUAGE_CODE
            return
        chosen = getattr(request, "session", {}).get(SESSION_KEY)
        if chosen and translation.check_for_language(chosen):
            translation.activate(chosen)
            request.LANGUAGE_CODE = translation.get_language()
            return
        super().process_request(request)

    def process_response(self, request, response):
        if request.path.startswith(API):
            return response
        return super().process_response(request, response)


@require_POST
def language_set(request: HttpRequest) -> HttpResponse:
    """The switcher: Django's set_language (the cookie, then back to `next`), and for
    a signed-in person their choice kept with the account and in the session."""
    response = set_language(request)
    language = request.POST.get("language", "")
    if language in dict(settings.LANGUAGES):
        request.session[SESSION_KEY] = language
        if request.user.is_authenticated:
            LanguagePreference.objects.update_or_create(
                user=request.user, defaults={"language": language}
            )
    return response


@receiver(user_logged_in)
def language_on_login(sender, request, user, **kwargs) -> None:
    """Signing in brings the person's own choice of language to this browser."""
    if request is None:
        return
    chosen = (
        LanguagePreference.objects.filter(user=user)
        .values_list("language", flat=True)
        .first()
    )
    if chosen:
        request.session[SESSION_KEY] = chosen

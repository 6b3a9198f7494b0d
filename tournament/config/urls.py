from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponsePermanentRedirect
from django.templatetags.static import static
from django.urls import include, path, register_converter
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from tournament.ops.mail import mail_on_console
from tournament.web.converters import IdConverter
from tournament.web.language import language_set
from tournament.web.security import ThrottledPasswordResetView

register_converter(IdConverter, "id")

# An exception that no view or middleware answered: Django's 500 page, or, when the
# database cannot be reached, 503 with Retry-After (tournament/web/unavailable.py).
handler500 = "tournament.web.unavailable.server_error"


def favicon(request: HttpRequest) -> HttpResponsePermanentRedirect:
    """/favicon.ico, which browsers and feed readers ask for whatever a page says: the
    site's icon, not an 18 KB "not found" page on every first visit."""
    return HttpResponsePermanentRedirect(static("img/icon.svg"))


urlpatterns = [
    path("favicon.ico", favicon, name="favicon"),
    path("admin/", admin.site.urls),
    # The language switcher of every page posts here (docs/glossary.md).
    path("i18n/setlang/", language_set, name="set_language"),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    # Everyone changes their own password; a forgotten one is reset by e-mail
    # (Django's own views, our templates: docs/people.md).
    path(
        "accounts/password/",
        auth_views.PasswordChangeView.as_view(),
        name="password_change",
    ),
    path(
        "accounts/password/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path(
        "accounts/password/reset/",
        # Per address and client (security.py).
        ThrottledPasswordResetView.as_view(
            extra_context={"mail_on_console": mail_on_console}
        ),
        name="password_reset",
    ),
    path(
        "accounts/password/reset/sent/",
        # Called by the page: the settings of the moment (tournament/ops/mail.py).
        auth_views.PasswordResetDoneView.as_view(
            extra_context={"mail_on_console": mail_on_console}
        ),
        name="password_reset_done",
    ),
    path(
        "accounts/password/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "accounts/password/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    path("api/v1/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path(
        "api/v1/docs/",
        SpectacularSwaggerSplitView.as_view(url_name="api-schema"),
        name="api-docs",
    ),
    path("api/v1/", include("tournament.urls_api")),
    path("api/v1/", include("scoring.urls_api")),
    path("api/v1/", include("brackets.urls_api")),
    path("", include("tournament.urls")),
    path("", include("scoring.urls")),
    path("", include("brackets.urls")),
]

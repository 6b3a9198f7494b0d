from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path, register_converter
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from tournament.converters import IdConverter

register_converter(IdConverter, "id")

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
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

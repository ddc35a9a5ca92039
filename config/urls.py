from django.conf import settings
from django.contrib import admin
from django.urls import include, path
from django.views.generic import RedirectView, TemplateView
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from accounts.views import set_language
from config import converters  # noqa: F401  (registers <id:…> before the apps' URLconfs load)
from leaderboards.urls import api_urlpatterns as leaderboards_api_urlpatterns

urlpatterns = [
    path("", include("games.urls")),
    path("fair/", TemplateView.as_view(template_name="games/fair.html"), name="fair"),
    path("leaderboards/", include("leaderboards.urls")),
    path("", include("records.urls")),
    path("", include("clubs.invite_urls")),
    path("", include("ranked.urls")),
    path("clubs/", include("clubs.urls")),
    path("accounts/", include("accounts.urls")),
    path("accounts/", include("allauth.urls")),
    # Django's set_language, wrapped so a signed-in user's choice is also stored on the account.
    path("i18n/setlang/", set_language, name="set_language"),
    path("api/leaderboards/", include(leaderboards_api_urlpatterns)),
    path("api/", include("records.api_urls")),
    path("api/", include("reviews.api_urls")),
    path("api/clubs/", include("clubs.api_urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/", include("games.api_urls")),
    path("admin/", admin.site.urls),
    # Browsers ask for /favicon.ico whatever the page links: send them to the real one.
    # (The unhashed name: resolving the hashed one at import would need collectstatic first.)
    path("favicon.ico", RedirectView.as_view(url=f"{settings.STATIC_URL}favicon.svg")),
]

# Under /api/ a URL that matches no route is answered in the API's JSON shape.
handler404 = "config.api.page_not_found"

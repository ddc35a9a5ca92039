"""The site's URLs plus the leaderboard API, until config/urls.py mounts it."""

from django.urls import include, path

from config.urls import urlpatterns as site_urlpatterns
from leaderboards.urls import api_urlpatterns

urlpatterns = [
    *site_urlpatterns,
    path("api/leaderboards/", include(api_urlpatterns)),
]

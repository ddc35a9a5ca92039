from django.urls import path

from records import api

# Mounted at /api/ by config/urls.py.
urlpatterns = [
    path("matches/", api.MatchesView.as_view(), name="api-matches"),
    path("matches/<id:pk>/", api.MatchDetailView.as_view(), name="api-match"),
    path("matches/<id:pk>/summary/", api.MatchSummaryView.as_view(), name="api-match-summary"),
    path("clubs/<id:pk>/matches/", api.ClubMatchesView.as_view(), name="api-club-matches"),
]

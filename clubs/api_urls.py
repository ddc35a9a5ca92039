from django.urls import path

from clubs import api

# Mounted at /api/clubs/ by config/urls.py.
urlpatterns = [
    path("", api.ClubsView.as_view(), name="api-clubs"),
    path("join/", api.ClubJoinView.as_view(), name="api-club-join"),
    path("<int:pk>/", api.ClubDetailView.as_view(), name="api-club"),
    path("<int:pk>/invite/", api.InviteView.as_view(), name="api-club-invite"),
    path("<int:pk>/board/", api.BoardView.as_view(), name="api-club-board"),
    path("<int:pk>/leaderboard/", api.ClubLeaderboardView.as_view(), name="api-club-leaderboard"),
    path("<int:pk>/presets/", api.PresetsView.as_view(), name="api-club-presets"),
    path("<int:pk>/presets/<int:pid>/", api.PresetDetailView.as_view(), name="api-club-preset"),
    path(
        "<int:pk>/presets/<int:pid>/versions/",
        api.PresetVersionsView.as_view(),
        name="api-club-preset-versions",
    ),
    path("<int:pk>/members/<int:user_id>/", api.MemberView.as_view(), name="api-club-member"),
    path(
        "<int:pk>/members/<int:user_id>/role/",
        api.MemberRoleView.as_view(),
        name="api-club-member-role",
    ),
]

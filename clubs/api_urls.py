from django.urls import path

from clubs import api

# Mounted at /api/clubs/ by config/urls.py.
urlpatterns = [
    path("", api.ClubsView.as_view(), name="api-clubs"),
    path("join/", api.ClubJoinView.as_view(), name="api-club-join"),
    path("join-requests/", api.MyJoinRequestsView.as_view(), name="api-my-join-requests"),
    path("<id:pk>/", api.ClubDetailView.as_view(), name="api-club"),
    path("<id:pk>/invite/", api.InviteView.as_view(), name="api-club-invite"),
    path("<id:pk>/board/", api.BoardView.as_view(), name="api-club-board"),
    path("<id:pk>/leaderboard/", api.ClubLeaderboardView.as_view(), name="api-club-leaderboard"),
    path("<id:pk>/join-requests/", api.JoinRequestsView.as_view(), name="api-club-join-requests"),
    path(
        "<id:pk>/join-requests/<id:rid>/approve/",
        api.JoinRequestDecideView.as_view(approve=True),
        name="api-club-join-request-approve",
    ),
    path(
        "<id:pk>/join-requests/<id:rid>/deny/",
        api.JoinRequestDecideView.as_view(approve=False),
        name="api-club-join-request-deny",
    ),
    path("<id:pk>/presets/", api.PresetsView.as_view(), name="api-club-presets"),
    path("<id:pk>/presets/<id:pid>/", api.PresetDetailView.as_view(), name="api-club-preset"),
    path(
        "<id:pk>/presets/<id:pid>/versions/",
        api.PresetVersionsView.as_view(),
        name="api-club-preset-versions",
    ),
    path("<id:pk>/members/<id:user_id>/", api.MemberView.as_view(), name="api-club-member"),
    path(
        "<id:pk>/members/<id:user_id>/role/",
        api.MemberRoleView.as_view(),
        name="api-club-member-role",
    ),
]

from django.urls import path

from leaderboards import views

# Mounted at /leaderboards/ by config/urls.py.
urlpatterns = [
    path("", views.index, name="leaderboards"),
    path("<slug:variant>/", views.board, name="leaderboard"),
]

# Mounted at /api/leaderboards/ by config/urls.py.
api_urlpatterns = [
    path("<slug:variant>/", views.board_api, name="api-leaderboard"),
]

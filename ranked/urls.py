from django.urls import path

from ranked import api, views

# Mounted at the site's root by config/urls.py.
urlpatterns = [
    path("play/", views.play, name="play"),
    path("play/<slug:variant>/board/", views.board, name="ranked-board"),
    path("api/ranked/queue/", api.QueueView.as_view(), name="api-ranked-queue"),
    path("api/ranked/<slug:variant>/board/", api.BoardView.as_view(), name="api-ranked-board"),
]

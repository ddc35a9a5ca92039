from django.urls import path

from games.replays import views as replay_views
from games.rooms import views

urlpatterns = [
    path("", views.home, name="home"),
    path("lobby/", views.lobby, name="lobby"),
    path("rooms/join/", views.join_by_code, name="room-join-code"),
    path("rooms/<id:pk>/", views.room, name="room"),
    path("hands/<id:pk>/", replay_views.hand, name="hand"),
]

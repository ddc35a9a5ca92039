from django.urls import path

from games.replays import views as replay_views
from games.rooms import invites, rules_pages, views

urlpatterns = [
    path("", views.home, name="home"),
    path("lobby/", views.lobby, name="lobby"),
    path("rooms/join/", views.join_by_code, name="room-join-code"),
    path("rooms/<id:pk>/", views.room, name="room"),
    path("hands/<id:pk>/", replay_views.hand, name="hand"),
    path("invite/room/<slug:code>/", invites.room_invite, name="room-invite"),
    path("rooms/<id:pk>/invite/qr.svg", invites.room_qr, name="room-invite-qr"),
    path("rules/", rules_pages.rules_index, name="rules-index"),
    path("rules/<slug:variant>/", rules_pages.rules, name="rules"),
]

from django.urls import path

from records import invites, views

# Mounted at / by config/urls.py.
urlpatterns = [
    path("records/", views.my_records, name="my-records"),
    path("records/matches/<id:pk>/", views.match, name="match-record"),
    path("clubs/<id:pk>/records/", views.club_records, name="club-records"),
    path("invite/club/<slug:code>/", invites.club_invite, name="club-invite"),
    path("invite/room/<slug:code>/", invites.room_invite, name="room-invite"),
    path("clubs/<id:pk>/invite/qr.svg", invites.club_qr, name="club-invite-qr"),
    path("rooms/<id:pk>/invite/qr.svg", invites.room_qr, name="room-invite-qr"),
    path("rules/", views.rules_index, name="rules-index"),
    path("rules/<slug:variant>/", views.rules, name="rules"),
]

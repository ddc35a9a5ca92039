from django.urls import path

from clubs import invites

# Mounted at / by config/urls.py: an invite link is short.
urlpatterns = [
    path("invite/club/<slug:code>/", invites.club_invite, name="club-invite"),
    path("clubs/<id:pk>/invite/qr.svg", invites.club_qr, name="club-invite-qr"),
]

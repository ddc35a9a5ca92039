from django.urls import path

from records import views

# Mounted at / by config/urls.py.
urlpatterns = [
    path("records/", views.my_records, name="my-records"),
    path("records/matches/<id:pk>/", views.match, name="match-record"),
    path("clubs/<id:pk>/records/", views.club_records, name="club-records"),
]

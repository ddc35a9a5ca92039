from django.urls import path

from clubs import views

# Mounted at /clubs/ by config/urls.py.
urlpatterns = [
    path("", views.my_clubs, name="clubs"),
    path("<id:pk>/", views.club, name="club"),
    path("<id:pk>/history/", views.history, name="club-history"),
    path("<id:pk>/presets/new/", views.preset_new, name="club-preset-new"),
    path("<id:pk>/presets/<id:pid>/", views.preset_edit, name="club-preset"),
    path("<id:pk>/presets/<id:pid>/play/", views.preset_play, name="club-preset-play"),
]

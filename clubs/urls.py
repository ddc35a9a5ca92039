from django.urls import path

from clubs import views

# Mounted at /clubs/ by config/urls.py.
urlpatterns = [
    path("", views.my_clubs, name="clubs"),
    path("<int:pk>/", views.club, name="club"),
    path("<int:pk>/history/", views.history, name="club-history"),
    path("<int:pk>/presets/new/", views.preset_new, name="club-preset-new"),
    path("<int:pk>/presets/<int:pid>/", views.preset_edit, name="club-preset"),
    path("<int:pk>/presets/<int:pid>/play/", views.preset_play, name="club-preset-play"),
]

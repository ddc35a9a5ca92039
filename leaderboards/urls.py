from django.urls import path

from leaderboards import views

urlpatterns = [
    path("", views.index, name="leaderboards"),
]

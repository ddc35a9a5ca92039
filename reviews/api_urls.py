from django.urls import path

from reviews import api

# Mounted at /api/ by config/urls.py.
urlpatterns = [
    path("hands/<id:pk>/reviews/", api.HandReviewsView.as_view(), name="api-hand-reviews"),
    path("hands/<id:pk>/reviews/<int:seat>/", api.HandReviewView.as_view(), name="api-hand-review"),
]

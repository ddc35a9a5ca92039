"""The test settings' URLs: the site's, and the chosen-deal hooks (``tests.deals``) that no
production server has."""

from django.urls import path

from config.urls import handler404
from config.urls import urlpatterns as site_urlpatterns
from tests import deals

urlpatterns = [
    path("test/rooms/<id:room_id>/deal/", deals.deal, name="test-deal"),
    path("test/rooms/<id:room_id>/rig/", deals.rig, name="test-rig"),
    *site_urlpatterns,
]

__all__ = ["handler404", "urlpatterns"]

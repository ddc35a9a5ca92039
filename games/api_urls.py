from django.urls import path

from games import api, assist_api

urlpatterns = [
    path("variants/", api.VariantsView.as_view(), name="api-variants"),
    path("rooms/", api.RoomsView.as_view(), name="api-rooms"),
    path("rooms/<int:pk>/", api.RoomDetailView.as_view(), name="api-room"),
    path("rooms/<int:pk>/join/", api.RoomJoinView.as_view(), name="api-room-join"),
    path("rooms/<int:pk>/leave/", api.RoomLeaveView.as_view(), name="api-room-leave"),
    path("rooms/<int:pk>/ready/", api.RoomReadyView.as_view(), name="api-room-ready"),
    path("rooms/<int:pk>/bots/", api.RoomBotsView.as_view(), name="api-room-bots"),
    path("rooms/<int:pk>/bots/<int:seat>/", api.RoomBotDeleteView.as_view(), name="api-room-bot"),
    path("hands/<int:pk>/", api.HandRecordView.as_view(), name="api-hand"),
    path("hands/<int:pk>/frames/", api.HandFramesView.as_view(), name="api-hand-frames"),
    path("rooms/<int:pk>/auto/", assist_api.RoomAutoPlayView.as_view(), name="api-room-auto"),
]

from django.urls import path

from games.replays import api as replay_api
from games.rooms import api, talk_api

urlpatterns = [
    path("variants/", api.VariantsView.as_view(), name="api-variants"),
    path("rooms/", api.RoomsView.as_view(), name="api-rooms"),
    path("rooms/<id:pk>/", api.RoomDetailView.as_view(), name="api-room"),
    path("rooms/<id:pk>/join/", api.RoomJoinView.as_view(), name="api-room-join"),
    path("rooms/<id:pk>/leave/", api.RoomLeaveView.as_view(), name="api-room-leave"),
    path("rooms/<id:pk>/ready/", api.RoomReadyView.as_view(), name="api-room-ready"),
    path("rooms/<id:pk>/bots/", api.RoomBotsView.as_view(), name="api-room-bots"),
    path("rooms/<id:pk>/bots/<int:seat>/", api.RoomBotDeleteView.as_view(), name="api-room-bot"),
    path("hands/<id:pk>/", replay_api.HandRecordView.as_view(), name="api-hand"),
    path("hands/<id:pk>/frames/", replay_api.HandFramesView.as_view(), name="api-hand-frames"),
    path("rooms/<id:pk>/auto/", api.RoomAutoPlayView.as_view(), name="api-room-auto"),
    path("rooms/<id:pk>/dissolve/", talk_api.DissolveView.as_view(), name="api-room-dissolve"),
    path(
        "rooms/<id:pk>/dissolve/answer/",
        talk_api.DissolveAnswerView.as_view(),
        name="api-room-dissolve-answer",
    ),
    path("rooms/<id:pk>/phrases/", talk_api.PhraseView.as_view(), name="api-room-phrases"),
]

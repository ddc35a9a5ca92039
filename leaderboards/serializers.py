"""Shapes of the leaderboard API (output only)."""

from rest_framework import serializers


class LeaderboardPlayerSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    user_id = serializers.IntegerField()
    name = serializers.CharField()
    is_bot = serializers.BooleanField()
    rating = serializers.FloatField(help_text="Skill estimate: mu.")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    hands = serializers.IntegerField()
    wins = serializers.IntegerField()
    win_rate = serializers.FloatField(help_text="Hands won / hands played, 0 to 1.")
    display_rating = serializers.IntegerField(
        help_text="The rating shown to players: 1000 + 40 × (mu - 25)."
    )
    provisional = serializers.BooleanField(help_text="Still uncertain: sigma above 6.5.")


class LeaderboardSerializer(serializers.Serializer):
    variant = serializers.CharField()
    players = LeaderboardPlayerSerializer(many=True)

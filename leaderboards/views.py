from django.shortcuts import render

from games.variants import VARIANTS


def index(request):
    return render(request, "leaderboards/index.html", {"variants": VARIANTS})

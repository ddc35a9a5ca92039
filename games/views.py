from django.shortcuts import render

from games.variants import VARIANTS


def home(request):
    return render(request, "games/home.html", {"variants": VARIANTS})


def lobby(request):
    return render(request, "games/lobby.html")

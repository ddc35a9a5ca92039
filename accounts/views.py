from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views import i18n
from django.views.decorators.http import require_POST

from accounts.forms import ProfileForm
from accounts.services import user_language_set, user_profile_update
from accounts.zones import zone_names
from leaderboards.selectors import player_ratings, recent_rating_changes


@require_POST
def set_language(request):
    response = i18n.set_language(request)
    if request.user.is_authenticated:
        user_language_set(request.user, request.POST.get("language", ""))
    return response


@login_required
def profile(request):
    if request.method == "POST":
        form = ProfileForm(request.POST, instance=request.user)
        if form.is_valid():
            user_profile_update(
                request.user,
                display_name=form.cleaned_data["display_name"],
                language=form.cleaned_data["language"],
                timezone=form.cleaned_data["timezone"],
            )
            messages.success(request, _("Profile saved."))
            return redirect("profile")
    else:
        form = ProfileForm(instance=request.user)
    return render(
        request,
        "accounts/profile.html",
        {
            "form": form,
            "zones": zone_names(),  # the time zone field's suggestions
            "ratings": player_ratings(request.user),
            "recent_hands": recent_rating_changes(request.user, limit=10),
        },
    )

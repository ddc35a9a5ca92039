"""What every page's header shows of clubs: a manager's count of join requests waiting."""

from clubs.selectors import requests_waiting


def club_requests(request) -> dict:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"club_requests_waiting": sum(requests_waiting(user).values())}

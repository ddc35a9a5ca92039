from django.utils import timezone, translation

from accounts.zones import reader_zone


class UserLanguageMiddleware:
    """Serve a signed-in user in the language stored on their account.

    LocaleMiddleware has already picked a language from the cookie or the browser; for a
    signed-in user the account wins, so their choice follows them to any device on login.
    Must run after AuthenticationMiddleware.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = request.user
        if user.is_authenticated and user.language:
            translation.activate(user.language)
            request.LANGUAGE_CODE = translation.get_language()
        return self.get_response(request)


class UserTimezoneMiddleware:
    """Serve every request in the reader's time zone (``accounts.zones.reader_zone``): a
    signed-in user's own, else by the page's language. Must run after
    UserLanguageMiddleware (the language is settled by then)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = request.user
        zone = user.timezone if user.is_authenticated else ""
        tz = reader_zone(zone, translation.get_language())
        if tz is None:
            timezone.deactivate()
        else:
            timezone.activate(tz)
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()

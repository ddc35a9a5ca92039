from django.utils import translation


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

from accounts.models import Language, User


def user_language_set(user: User, language: str) -> None:
    """Store the user's interface language; unknown codes are ignored."""
    if language in Language.values and user.language != language:
        user.language = language
        user.save(update_fields=["language"])


def user_profile_update(user: User, *, display_name: str, language: str, timezone: str) -> None:
    user.display_name = display_name
    user.language = language
    user.timezone = timezone
    user.save(update_fields=["display_name", "language", "timezone"])

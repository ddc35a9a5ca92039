from allauth.account.decorators import secure_admin_login
from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from accounts.models import User


@admin.register(User)
class PlayerAdmin(UserAdmin):
    fieldsets = (*UserAdmin.fieldsets, ("Platform", {"fields": ("display_name", "language")}))
    list_display = ("username", "email", "display_name", "language", "is_staff")


# The admin signs in through the site's login page, where failed logins are limited
# (Django's own admin form has no limit).
admin.site.login = secure_admin_login(admin.site.login)

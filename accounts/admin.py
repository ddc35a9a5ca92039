from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from accounts.models import User


@admin.register(User)
class PlayerAdmin(UserAdmin):
    fieldsets = (*UserAdmin.fieldsets, ("Platform", {"fields": ("display_name", "language")}))
    list_display = ("username", "email", "display_name", "language", "is_staff")

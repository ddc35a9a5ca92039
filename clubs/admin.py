from django.contrib import admin

from clubs.models import AuditEntry, Club, JoinRequest, Membership, Preset, PresetVersion


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ("name", "created_by", "created_at")
    search_fields = ("name",)
    inlines = [MembershipInline]


@admin.register(Preset)
class PresetAdmin(admin.ModelAdmin):
    list_display = ("name", "club", "variant", "version")
    list_filter = ("variant",)


@admin.register(PresetVersion)
class PresetVersionAdmin(admin.ModelAdmin):
    """Versions are append-only: the admin shows them but never edits them."""

    list_display = ("preset", "number", "author", "created_at")

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    list_display = ("club", "action", "actor", "target_user", "created_at")
    list_filter = ("action",)

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(JoinRequest)
class JoinRequestAdmin(admin.ModelAdmin):
    """Decided in the club (audited there), not here."""

    list_display = ("club", "user", "status", "created_at", "decided_by", "decided_at")
    list_filter = ("status",)

    def has_change_permission(self, request, obj=None):
        return False

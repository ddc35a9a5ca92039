from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0013_hand_settled_at"),
    ]

    operations = [
        migrations.AddField(
            model_name="room",
            name="bot_level",
            field=models.CharField(
                choices=[("basic", "Basic"), ("strong", "Strong")], default="strong", max_length=10
            ),
        ),
    ]

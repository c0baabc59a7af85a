"""Pupils compared by their nickname's key (teach.nicknames), one pupil per key per lesson."""

from django.db import migrations, models


def fill_keys(apps, schema_editor):
    from teach.nicknames import nickname_key

    Pupil = apps.get_model("teach", "Pupil")
    seen: set[tuple[str, str]] = set()
    for pupil in Pupil.objects.order_by("pk"):
        key = nickname_key(pupil.nickname)
        if (pupil.lesson_id, key) in seen:  # two pupils already there: both stay
            key = f"{key} #{pupil.pk}"
        seen.add((pupil.lesson_id, key))
        pupil.key = key
        pupil.save(update_fields=["key"])


class Migration(migrations.Migration):
    dependencies = [("teach", "0002_longer_class_code")]

    operations = [
        migrations.AddField(
            model_name="pupil",
            name="key",
            field=models.CharField(default="", max_length=96),
            preserve_default=False,
        ),
        migrations.RunPython(fill_keys, migrations.RunPython.noop),
        migrations.RemoveConstraint(model_name="pupil", name="teach_pupil_unique_nickname"),
        migrations.AddConstraint(
            model_name="pupil",
            constraint=models.UniqueConstraint(
                fields=("lesson", "key"), name="teach_pupil_unique_key"
            ),
        ),
    ]

from django.core.management.base import BaseCommand

from stories.models import Story
from verification.models import StorySignature
from verification.services import story_signature_refresh


class Command(BaseCommand):
    help = (
        "Build or repair the repeat index (the signatures not_repeat compares): every published story "
        "gets a current signature, and stories no longer published lose theirs. Safe to run at any time; "
        "a signature that is already current is left alone."
    )

    def handle(self, *args, **options):
        published = Story.objects.filter(status=Story.Status.PUBLISHED, published_at__isnull=False)
        indexed = 0
        for story_id in published.order_by("pk").values_list("pk", flat=True).iterator(chunk_size=2000):
            story_signature_refresh(story=Story(pk=story_id))
            indexed += 1
            if indexed % 1000 == 0:
                self.stdout.write(f"{indexed} stories indexed...")
        stale = list(StorySignature.objects.exclude(story__in=published).values_list("story_id", flat=True))
        for story_id in stale:
            story_signature_refresh(story=Story(pk=story_id))
        self.stdout.write(
            self.style.SUCCESS(f"{indexed} published stories indexed, {len(stale)} signatures of others removed")
        )

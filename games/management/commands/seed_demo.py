"""Demo data for the embedded default: two players, a staff user, and a match of each listed game
(open for joining, plus one already started against a bot). Idempotent."""

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from accounts.models import Profile
from games.application import services
from games.kernel import registry
from games.projections.models import MatchSummary

DEMO_PASSWORD = "kamiza-demo-1"
ADMIN_PASSWORD = "kamiza-admin-1"


class Command(BaseCommand):
    help = "Create demo users (alice, bob, admin) and demo matches, once."

    def handle(self, *args, **options):
        if getattr(settings, "PRODUCTION", False):
            # Well-known passwords and a staff account: never on a production deployment.
            raise CommandError("seed_demo refuses to run with DJANGO_ENV=production (it creates users with "
                               "published passwords, one of them staff)")
        User = get_user_model()
        with transaction.atomic():
            users = {}
            for name, staff in (("alice", False), ("bob", False), ("admin", True)):
                user, created = User.objects.get_or_create(username=name, defaults={"is_staff": staff, "is_superuser": staff})
                if created:
                    user.set_password(ADMIN_PASSWORD if staff else DEMO_PASSWORD)
                    user.save()
                Profile.objects.get_or_create(user=user, defaults={"display_name": name.title()})
                users[name] = user
        if MatchSummary.objects.filter(match__created_by=users["alice"]).exists():
            self.stdout.write("demo data already present")
            return
        for engine in registry.all_engines():
            seats = max(engine.min_seats, min(2, engine.max_seats))
            services.match_create(game=engine.slug, seats=seats, options={}, creator=users["alice"])
            services.match_create_with_bots(game=engine.slug, seats=seats, options={}, creator=users["bob"])
            self.stdout.write(f"demo matches of {engine.name} created")
        self.stdout.write(self.style.SUCCESS("demo users: alice, bob (kamiza-demo-1); staff: admin (kamiza-admin-1)"))

"""``python manage.py layers``: draw every ``layers`` contract of .importlinter (mermaid or text);
``--write`` puts the drawing into docs/architecture.md, ``--check`` fails when that copy is stale."""

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from games.management import layers

CONFIG = Path(settings.BASE_DIR) / ".importlinter"
DOCUMENT = Path(settings.BASE_DIR) / "docs" / "architecture.md"


class Command(BaseCommand):
    help = "Draw the layers contracts of .importlinter (the drawing docs/architecture.md embeds)."

    def add_arguments(self, parser):
        parser.add_argument("--format", dest="fmt", choices=["mermaid", "text"], default="mermaid",
                            help="what to print (the document always embeds mermaid)")
        parser.add_argument("--write", action="store_true", help=f"update the drawing in {DOCUMENT.name}")
        parser.add_argument("--check", action="store_true", help=f"exit 1 if {DOCUMENT.name}'s drawing is stale")

    def handle(self, *args, fmt, write, check, **opts):
        config = CONFIG.read_text(encoding="utf-8")
        if not (write or check):
            self.stdout.write(layers.drawing(config, fmt))
            return
        generated = layers.drawing(config)
        document = DOCUMENT.read_text(encoding="utf-8")
        current = layers.embedded(document)
        if current is None:
            raise CommandError(f"{DOCUMENT} has no layers markers")
        if check:
            if current != generated:
                raise CommandError(f"the drawing in {DOCUMENT} is stale: run `python manage.py layers --write`")
            self.stdout.write("the drawing is up to date")
            return
        DOCUMENT.write_text(layers.embed(document, generated), encoding="utf-8")
        self.stdout.write(f"wrote the drawing into {DOCUMENT}")

from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"

    def ready(self):
        from games.application import identities

        from . import selfservice, signals

        signals.connect()
        identities.set_names_lookup(selfservice.shown_usernames)

from django.apps import AppConfig


class EventstoreConfig(AppConfig):
    name = "games.eventstore"
    label = "eventstore"
    verbose_name = "Event store"
